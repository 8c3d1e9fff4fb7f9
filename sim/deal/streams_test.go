package deal

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"tallywood/engine"
)

// TestStreams: no two stream ids of the module are equal, the engine's
// (each deck's and pile's) included, and none falls in the span of the
// trainer's streams (round<<8 | candidate, rounds and candidates below
// 256). Two generators on one seed and one id would draw the same
// numbers: a policy on the solo deck's stream would know its shuffle.
// The ids of this package are every integer constant of streams.go, read
// from the file so that a new one is checked without being listed here.
func TestStreams(t *testing.T) {
	ids := map[uint64]string{}
	add := func(id uint64, name string) {
		if other, dup := ids[id]; dup {
			t.Errorf("stream id %#x is both %s and %s", id, other, name)
		}
		ids[id] = name
	}
	for i, id := range engine.StreamIDs() {
		add(id, fmt.Sprintf("engine.StreamIDs()[%d]", i))
	}
	consts := streamConstants(t)
	if consts["StreamPolitician"] != StreamPolitician || consts["StreamTrain"] != StreamTrain {
		t.Fatalf("streams.go read as %v", consts)
	}
	for name, id := range consts {
		add(id, name)
	}
	for id, name := range ids {
		if id > StreamTrain && id < StreamTrain+1<<16 {
			t.Errorf("stream id %#x (%s) is one of the trainer's", id, name)
		}
	}
}

// streamConstants returns the integer constants of streams.go by name.
func streamConstants(t *testing.T) map[string]uint64 {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "streams.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("deal", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]uint64{}
	for _, name := range pkg.Scope().Names() {
		c, ok := pkg.Scope().Lookup(name).(*types.Const)
		if !ok || c.Val().Kind() != constant.Int {
			continue
		}
		v, exact := constant.Uint64Val(c.Val())
		if !exact {
			t.Fatalf("streams.go: %s = %v is not a uint64", name, c.Val())
		}
		consts[name] = v
	}
	return consts
}
