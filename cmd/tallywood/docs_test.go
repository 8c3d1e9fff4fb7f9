package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tallywood/sim"
)

// goNames are the names the module's Go files declare (tests' too),
// for docs that name them.
type goNames struct {
	pkgs    map[string]bool            // package names (the last element of the path)
	decls   map[string]map[string]bool // package name → its top-level names
	members map[string]bool            // Type.Method and Type.Field, any package
	any     map[string]bool            // every declared name, member and JSON field name
}

func readGoNames(t *testing.T) goNames {
	t.Helper()
	n := goNames{pkgs: map[string]bool{}, decls: map[string]map[string]bool{}, members: map[string]bool{}, any: map[string]bool{}}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := filepath.Base(filepath.Dir(path))
		n.pkgs[pkg] = true
		if n.decls[pkg] == nil {
			n.decls[pkg] = map[string]bool{}
		}
		add := func(name string) { n.decls[pkg][name], n.any[name] = true, true }
		member := func(typ, name string) { n.members[typ+"."+name], n.any[name] = true, true }
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					add(d.Name.Name)
					continue
				}
				typ := d.Recv.List[0].Type
				for {
					switch x := typ.(type) {
					case *ast.StarExpr:
						typ = x.X
						continue
					case *ast.IndexExpr:
						typ = x.X
						continue
					case *ast.IndexListExpr:
						typ = x.X
						continue
					}
					break
				}
				member(typ.(*ast.Ident).Name, d.Name.Name)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						add(s.Name.Name)
						st, ok := s.Type.(*ast.StructType)
						if !ok {
							continue
						}
						for _, fl := range st.Fields.List {
							for _, id := range fl.Names {
								member(s.Name.Name, id.Name)
							}
							if fl.Tag != nil {
								tag, _ := strconv.Unquote(fl.Tag.Value)
								json, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
								n.any[json] = true
							}
						}
					case *ast.ValueSpec:
						for _, id := range s.Names {
							add(id.Name)
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// goName is a name in code quotes a doc may give: Name, pkg.Name,
// Type.Member or pkg.Type.Member, with () after a function.
var goName = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*){0,2}(\(\))?$`)

// TestArchitectureNamesTheCode: every name docs/architecture.md quotes
// is one the code declares (a package, a function, a type, a method or
// field of a type, a JSON field, a command or a kind), and every file and
// package path it quotes exists. It once named CompareConfig.DescribeArms
// months after it was gone.
func TestArchitectureNamesTheCode(t *testing.T) {
	names := readGoNames(t)
	words := map[string]bool{}
	for name := range commands {
		words[name] = true
	}
	for _, k := range sim.Kinds() {
		words[string(k)] = true
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, d.Name())
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ticked(readDoc(t, "docs/architecture.md")) {
		switch {
		case strings.Contains(w, "KIND") || strings.ContainsAny(w, " -:[{=*"):
			continue // a placeholder, a command line or code
		case strings.Contains(w, "/"):
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(w, "/")))); err != nil {
				t.Errorf("docs/architecture.md quotes %s: %v", w, err)
			}
			continue
		case strings.HasSuffix(w, ".go"):
			if !slices.Contains(files, w) {
				t.Errorf("docs/architecture.md quotes the file %s, which the module has not", w)
			}
			continue
		case !goName.MatchString(w):
			t.Errorf("docs/architecture.md quotes %q: neither a name, a file nor a path (change the test if it is something else)", w)
			continue
		}
		parts := strings.Split(strings.TrimSuffix(w, "()"), ".")
		ok := false
		switch {
		case len(parts) == 1:
			ok = names.any[parts[0]] || names.pkgs[parts[0]] || words[parts[0]]
		case names.pkgs[parts[0]] && len(parts) == 2:
			ok = names.decls[parts[0]][parts[1]]
		case names.pkgs[parts[0]]:
			ok = names.decls[parts[0]][parts[1]] && names.members[parts[1]+"."+parts[2]]
		case len(parts) == 2:
			ok = names.members[parts[0]+"."+parts[1]]
		}
		if !ok {
			t.Errorf("docs/architecture.md quotes %s, which the code does not declare", w)
		}
	}
}

// TestSimDocNamesEveryKind holds the list of kinds of sim's package
// comment to the registered kinds, each with the runner
// docs/architecture.md's table of kinds names (it named 5 of 11).
func TestSimDocNamesEveryKind(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, "sim", "doc.go"), nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	runners := map[sim.Kind]string{}
	for _, r := range docTable(t, readDoc(t, "docs/architecture.md"), "| kind (`kind`) |") {
		if names := ticked(r[2]); len(names) >= 3 {
			runners[sim.Kind(strings.Trim(r[0], "`"))] = names[2]
		}
	}
	item := regexp.MustCompile(`(?m)^  - ([a-z-]+) \((\w+)\):`)
	var listed []sim.Kind
	for _, m := range item.FindAllStringSubmatch(f.Doc.Text(), -1) {
		k := sim.Kind(m[1])
		listed = append(listed, k)
		if runners[k] != m[2] {
			t.Errorf("sim/doc.go: kind %s's runner is %s; docs/architecture.md says %s", k, m[2], runners[k])
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, sim.Kinds()) {
		t.Errorf("sim/doc.go lists the kinds %v; sim registers %v", listed, sim.Kinds())
	}
}

// TestREADMEListsEveryPackage holds the README's table of what is inside
// to the tree: every entry exists, and every package go list finds is
// listed (those under an internal directory by that directory).
func TestREADMEListsEveryPackage(t *testing.T) {
	var listed []string
	for _, r := range docTable(t, readDoc(t, "README.md"), "| package | what it holds |") {
		dir := strings.TrimSuffix(strings.Trim(r[0], "`"), "/")
		listed = append(listed, dir)
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir))); err != nil {
			t.Errorf("README lists %s: %v", dir, err)
		}
	}
	for _, p := range goList(t, "./...") {
		pkg := strings.TrimPrefix(p.ImportPath, "tallywood/")
		if before, _, ok := strings.Cut(pkg, "/internal/"); ok {
			pkg = before + "/internal"
		}
		if !slices.Contains(listed, pkg) {
			t.Errorf("README's table of what is inside does not list %s", pkg)
		}
	}
}
