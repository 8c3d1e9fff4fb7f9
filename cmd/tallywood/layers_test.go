package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tallywood/sim"
)

// The tests that hold docs/architecture.md's tables to the code: the
// layers to the packages go list finds, the kinds to the registered
// kinds, and each kind's files and the core's to the files of sim and
// sim/report (TestKindsLeanOnTheCore, kindfiles_test.go).

// root is the module's root, from this package's directory.
var root = filepath.Join("..", "..")

// listed is one package as go list prints it.
type listed struct {
	ImportPath, Dir, Export string
	GoFiles, Imports        []string
}

// goList runs go list -json in the module's root with args and returns
// every package it prints.
func goList(t *testing.T, args ...string) []listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Dir,Export,GoFiles,Imports"}, args...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

// readDoc reads a file of the module by its path from the root.
func readDoc(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section is doc's section under the heading that starts with heading,
// up to the next heading of its level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+heading)
	if !ok {
		t.Fatalf("no section %q", heading)
	}
	level := heading[:strings.Index(heading, " ")+1]
	rest, _, _ = strings.Cut(rest, "\n"+level)
	return rest
}

// docTable is the rows of the first table of doc whose header starts
// with header, each a row's cells, trimmed.
func docTable(t *testing.T, doc, header string) [][]string {
	t.Helper()
	_, table, ok := strings.Cut(doc, "\n"+header)
	if !ok {
		t.Fatalf("no table %q", header)
	}
	table, _, _ = strings.Cut(table, "\n\n")
	lines := strings.Split(table, "\n")[2:]
	rows := make([][]string, len(lines))
	for i, l := range lines {
		cells := strings.Split(strings.Trim(l, "|"), " | ")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		rows[i] = cells
	}
	return rows
}

// ticked are the `quoted` words of s, in order.
func ticked(s string) []string {
	var out []string
	parts := strings.Split(s, "`")
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// goFiles are the names ending in .go among words.
func goFiles(words []string) []string {
	var out []string
	for _, w := range words {
		if strings.HasSuffix(w, ".go") {
			out = append(out, w)
		}
	}
	return out
}

// TestLayers holds every package of the module (go list ./...) to the
// table of layers of docs/architecture.md: each is listed, imports from
// the module exactly what its row says (not counting its tests), and
// nothing of a later layer. ladder lived under sim/policy and imported
// sim, a layer above, while the test knew only the packages of its own
// list.
func TestLayers(t *testing.T) {
	type row struct {
		layer   int
		imports []string
	}
	table := map[string]row{}
	layer := -1
	for _, r := range docTable(t, readDoc(t, "docs/architecture.md"), "| layer | package |") {
		if r[0] != "" {
			layer++
		}
		pkg := ticked(r[1])
		if len(pkg) != 1 || len(r) != 4 {
			t.Fatalf("docs/architecture.md, the layers: row %q has no package or not 4 columns", r)
		}
		imports := ticked(r[3])
		slices.Sort(imports)
		table[pkg[0]] = row{layer, imports}
	}
	found := map[string]bool{}
	for _, p := range goList(t, "./...") {
		pkg := strings.TrimPrefix(p.ImportPath, "tallywood/")
		found[pkg] = true
		want, ok := table[pkg]
		if !ok {
			t.Errorf("%s: a package the table of layers of docs/architecture.md does not list", pkg)
			continue
		}
		var got []string
		for _, imp := range p.Imports {
			inner, ok := strings.CutPrefix(imp, "tallywood/")
			if !ok {
				continue
			}
			got = append(got, inner)
			if r, ok := table[inner]; ok && r.layer > want.layer {
				t.Errorf("%s imports %s, of a later layer (docs/architecture.md)", pkg, inner)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want.imports) {
			t.Errorf("%s imports %v from the module; docs/architecture.md says %v", pkg, got, want.imports)
		}
	}
	for pkg := range table {
		if !found[pkg] {
			t.Errorf("docs/architecture.md lists %s, which go list does not find", pkg)
		}
	}
}

// kindRow is a kind's row of docs/architecture.md's table of kinds: its
// files in sim and in sim/report.
type kindRow struct {
	kind        sim.Kind
	sim, report []string
}

// kindsTable reads docs/architecture.md's table of kinds.
func kindsTable(t *testing.T, doc string) []kindRow {
	t.Helper()
	var out []kindRow
	for _, r := range docTable(t, doc, "| kind (`kind`) |") {
		if len(r) != 6 {
			t.Fatalf("docs/architecture.md, the kinds: row %q: want 6 columns", r)
		}
		out = append(out, kindRow{kind: sim.Kind(strings.Trim(r[0], "`")), sim: goFiles(ticked(r[2])), report: goFiles(ticked(r[3]))})
	}
	return out
}

// TestArchitectureListsEveryKind holds docs/architecture.md's table of
// kinds to the kinds sim registers, and each file it names for a kind to
// one that exists.
func TestArchitectureListsEveryKind(t *testing.T) {
	doc := readDoc(t, "docs/architecture.md")
	var listed []sim.Kind
	for _, r := range docTable(t, doc, "| kind (`kind`) |") {
		kind := sim.Kind(strings.Trim(r[0], "`"))
		listed = append(listed, kind)
		for i, dir := range map[int]string{2: "sim", 3: "sim/report", 4: "cmd/tallywood"} {
			files := goFiles(ticked(r[i]))
			if len(files) == 0 {
				t.Errorf("kind %s: no file in %s", kind, dir)
			}
			for _, f := range files {
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), f)); err != nil {
					t.Errorf("kind %s: %v", kind, err)
				}
			}
		}
	}
	if !slices.Equal(listed, sim.Kinds()) {
		t.Errorf("docs/architecture.md lists the kinds %v, sim registers %v", listed, sim.Kinds())
	}
}
