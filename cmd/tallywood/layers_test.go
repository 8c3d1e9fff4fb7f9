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

	"tallywood/sim"
)

// TestLayers holds the layers of docs/architecture.md: each package imports
// from the module only the packages below it (sim/policy/exec and
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
		"sim/stats":               {},
		"sim/playtest":            {"engine"},
		"sim":                     {"engine", "engine/kit", "opposition", "sim/deal", "sim/playtest", "sim/policy", "sim/stats"},
		"sim/report":              {"engine", "sim", "sim/policy", "sim/stats"},
		"cmd/tallywood/play":      {"engine", "engine/kit", "sim/deal", "sim/policy"},
		"cmd/tallywood/serve":     {"cmd/tallywood/play", "engine", "opposition", "sim", "sim/deal", "sim/playtest", "sim/policy", "sim/report"},

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

// TestArchitectureListsEveryKind holds docs/architecture.md's table of
// kinds to the kinds sim registers, and each file it names for a kind to
// one that exists.
func TestArchitectureListsEveryKind(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| kind (`kind`) |")
	if !ok {
		t.Fatal("docs/architecture.md has no table of kinds")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var listed []sim.Kind
	for _, row := range strings.Split(table, "\n")[2:] {
		cols := strings.Split(row, "|")
		if len(cols) < 7 {
			t.Fatalf("row %q: want 6 columns", row)
		}
		kind := sim.Kind(strings.Trim(strings.TrimSpace(cols[1]), "`"))
		listed = append(listed, kind)
		for i, dir := range map[int]string{3: "sim", 4: "sim/report", 5: "cmd/tallywood"} {
			file, _, _ := strings.Cut(strings.Trim(strings.TrimSpace(cols[i]), "`"), "`")
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), file)); err != nil {
				t.Errorf("kind %s: %v", kind, err)
			}
		}
	}
	if !slices.Equal(listed, sim.Kinds()) {
		t.Errorf("docs/architecture.md lists the kinds %v, sim registers %v", listed, sim.Kinds())
	}
}
