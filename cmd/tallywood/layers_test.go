package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLayers holds the layers of docs/architecture.md: each package imports
// from the module only the packages below it (issue 21: sim/policy/exec and
// cmd/tallywood/play imported the harness for seeds and the version).
func TestLayers(t *testing.T) {
	allowed := map[string][]string{
		"engine":                  {"engine/kit"},
		"engine/kit":              {},
		"opposition":              {"engine", "engine/kit"},
		"opposition/scenario":     {"engine", "engine/kit", "opposition"},
		"sim/deal":                {"engine"},
		"sim/policy":              {"engine", "engine/kit", "sim/deal"},
		"sim/policy/exec":         {"engine", "sim/deal", "sim/policy"},
		"sim/policy/internal/mix": {"sim/policy"},
		"sim":                     {"engine", "engine/kit", "opposition", "sim/deal", "sim/policy"},
		"sim/report":              {"engine", "sim", "sim/policy"},
		"cmd/tallywood/play":      {"engine", "engine/kit", "sim/deal", "sim/policy"},

		// Imported by tests only.
		"sim/policy/exec/exectest": {"sim/deal"},
	}
	root := filepath.Join("..", "..")
	for pkg, want := range allowed {
		dir := filepath.Join(root, filepath.FromSlash(pkg))
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Errorf("%s: no Go files (%v)", pkg, err)
			continue
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				inner, ok := strings.CutPrefix(path, "tallywood/")
				if ok && !slices.Contains(want, inner) {
					t.Errorf("%s imports %s: not a layer below it (docs/architecture.md)", filepath.ToSlash(f), path)
				}
			}
		}
	}
}
