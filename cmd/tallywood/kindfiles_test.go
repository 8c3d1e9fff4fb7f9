package main

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"tallywood/sim"
)

// plays are the kinds that play another kind, and may use its files: tune
// confirms relative targets with a compare, calibrate plays the dial's
// curves, and a comparison at a table plays the table's deals.
var plays = map[sim.Kind]sim.Kind{"tune": "compare", "calibrate": "curve", "table-compare": "table"}

// TestKindsLeanOnTheCore type-checks sim and sim/report (go/types, from
// their source; every other package from its export data) and holds each
// name a file uses to where docs/architecture.md puts the file that
// declares it. Every file of the two packages is the core's (the tables
// of parts of sim and of sim/report) or one kind's (the table of kinds),
// and the file that registers a kind (registerKind, register) is one of
// its own. No file of the core uses a name declared in a kind's file,
// and a kind uses another kind's names only where it plays that kind
// (plays); a view in sim/report uses sim's names of its own kind or the
// core's. Every kind's config once lived in the sim kind's file and the
// helpers of several kinds in the first kind that needed them.
func TestKindsLeanOnTheCore(t *testing.T) {
	doc := readDoc(t, "docs/architecture.md")
	// owner[pkg][file] is the kind of a file, "" for the core's.
	owner := map[string]map[string]sim.Kind{"sim": {}, "sim/report": {}}
	own := func(pkg, file string, k sim.Kind) {
		if prev, dup := owner[pkg][file]; dup && prev != k {
			t.Errorf("docs/architecture.md puts %s/%s in %q and in %q", pkg, file, prev, k)
		}
		owner[pkg][file] = k
	}
	for pkg, heading := range map[string]string{"sim": "## The study layer", "sim/report": "## Each kind for people"} {
		for _, r := range docTable(t, section(t, doc, heading), "| part | file |") {
			for _, f := range goFiles(ticked(r[1])) {
				own(pkg, f, "")
			}
		}
	}
	for _, r := range kindsTable(t, doc) {
		for _, f := range r.sim {
			own("sim", f, r.kind)
		}
		for _, f := range r.report {
			own("sim/report", f, r.kind)
		}
	}

	pkgs := map[string]listed{}
	for _, p := range goList(t, "-export", "-deps", "./sim/report") {
		pkgs[p.ImportPath] = p
	}
	fset := token.NewFileSet()
	checked := map[string]*types.Package{}
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) { return os.Open(pkgs[path].Export) })
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if p := checked[path]; p != nil {
			return p, nil
		}
		return gc.Import(path)
	})}
	// kindOf is the kind of the file that declares obj, in pkg: "" for the
	// core's, false for a name of neither package.
	kindOf := func(obj types.Object) (string, sim.Kind, bool) {
		if obj.Pkg() == nil {
			return "", "", false
		}
		pkg := strings.TrimPrefix(obj.Pkg().Path(), "tallywood/")
		if owner[pkg] == nil || obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
			return "", "", false // another package's, or local
		}
		return pkg, owner[pkg][filepath.Base(fset.Position(obj.Pos()).Filename)], true
	}
	for _, pkg := range []string{"sim", "sim/report"} {
		p := pkgs["tallywood/"+pkg]
		var files []*ast.File
		for _, name := range p.GoFiles {
			if _, ok := owner[pkg][name]; !ok {
				t.Errorf("%s/%s: docs/architecture.md puts it neither in the core nor in a kind", pkg, name)
			}
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		for name := range owner[pkg] {
			if !slices.Contains(p.GoFiles, name) {
				t.Errorf("docs/architecture.md names %s/%s, which is not a file of the package", pkg, name)
			}
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
		tp, err := conf.Check(p.ImportPath, fset, files, info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", pkg, err)
		}
		checked[p.ImportPath] = tp

		// The file that registers each kind is one of its own.
		registered := map[sim.Kind]bool{}
		for _, f := range files {
			file := filepath.Base(fset.Position(f.Pos()).Filename)
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn, ok := call.Fun.(*ast.Ident)
				if !ok || fn.Name != map[string]string{"sim": "registerKind", "sim/report": "register"}[pkg] || len(call.Args) == 0 {
					return true
				}
				k := sim.Kind(constant.StringVal(info.Types[call.Args[0]].Value))
				registered[k] = true
				if owner[pkg][file] != k {
					t.Errorf("%s/%s registers kind %s, whose files docs/architecture.md says are others", pkg, file, k)
				}
				return true
			})
		}
		for _, k := range sim.Kinds() {
			if !registered[k] {
				t.Errorf("%s: no file registers kind %s", pkg, k)
			}
		}

		uses := map[string]bool{}
		for id, obj := range info.Uses {
			declPkg, declKind, ok := kindOf(obj)
			if !ok {
				continue
			}
			file := filepath.Base(fset.Position(id.Pos()).Filename)
			useKind := owner[pkg][file]
			if declKind == "" || declKind == useKind || plays[useKind] == declKind {
				continue
			}
			who := "the core's " + file
			if useKind != "" {
				who = "kind " + string(useKind) + "'s " + file
			}
			decl := filepath.Base(fset.Position(obj.Pos()).Filename)
			uses[pkg+": "+who+" uses "+obj.Name()+", of kind "+string(declKind)+"'s "+declPkg+"/"+decl] = true
		}
		var msgs []string
		for m := range uses {
			msgs = append(msgs, m)
		}
		sort.Strings(msgs)
		for _, m := range msgs {
			t.Error(m)
		}
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
