package exec

import (
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// docTable returns the rows of the markdown table that follows heading in
// doc (up to the next blank line after it), as trimmed cells.
func docTable(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	i := strings.Index(doc, heading)
	if i < 0 {
		t.Fatalf("docs/protocol.md has no %q", heading)
	}
	rest := doc[i:]
	start := strings.Index(rest, "\n|")
	if start < 0 {
		t.Fatalf("docs/protocol.md: no table after %q", heading)
	}
	var rows [][]string
	for _, line := range strings.Split(rest[start+1:], "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		rows = append(rows, cells)
	}
	return rows[1:] // the header
}

var backquoted = regexp.MustCompile("`([a-z_]+)`")

// quoted lists the `names` of a cell.
func quoted(cell string) []string {
	var out []string
	for _, m := range backquoted.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestProtocolDocListsEveryKind checks that docs/protocol.md documents
// every decision kind and option kind the engine can send: each has a
// row in its table, and in games played at random (solo in both modes, at
// tables of 3 and 4) every decision asked is in the decisions table with
// the view's phase it has there, offering only the option kinds its row
// lists; every pair the table lists turns up in those games.
func TestProtocolDocListsEveryKind(t *testing.T) {
	b, err := os.ReadFile("../../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	type decisionDoc struct {
		phase   string
		options []string
	}
	decisions := map[string]decisionDoc{}
	for _, row := range docTable(t, doc, "### Decisions and options") {
		name := quoted(row[0])
		if len(row) != 4 || len(name) != 1 || len(quoted(row[2])) != 1 {
			t.Fatalf("docs/protocol.md: decisions row %q is not | `kind` | when | `phase` | `options` |", row)
		}
		decisions[name[0]] = decisionDoc{phase: quoted(row[2])[0], options: quoted(row[3])}
	}
	options := map[string]bool{}
	for _, row := range docTable(t, doc, "The options, with what A, B and C hold") {
		name := quoted(row[0])
		if len(row) != 5 || len(name) != 1 {
			t.Fatalf("docs/protocol.md: options row %q is not | `kind` | A | B | C | what it does |", row)
		}
		options[name[0]] = true
	}

	for k := engine.DecCard; k <= engine.DecInitiative; k++ {
		if _, ok := decisions[k.String()]; !ok {
			t.Errorf("the %q decision is not in docs/protocol.md's decisions table", k)
		}
	}
	for k := engine.OptionKind(0); ; k++ {
		name := engine.OptionKindName(k)
		if _, ok := engine.ParseOptionKind(name); !ok {
			break // past the engine's kinds
		}
		if !options[name] {
			t.Errorf("the %q option (kind %d) is not in docs/protocol.md's options table", name, k)
		}
	}
	for name, d := range decisions {
		for _, o := range d.options {
			if !options[o] {
				t.Errorf("the %q decision offers %q, which the options table does not describe", name, o)
			}
		}
	}

	seen := map[string]bool{} // "decision option"
	buf := make([]engine.Option, 0, engine.MaxOptions)
	r := engine.Reference()
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 33))
		var g *engine.Game
		var err error
		if seed%3 != 0 {
			g, err = engine.New(r, seed, engine.Config{Mode: engine.Mode(seed % 2), Politician: int(seed) % len(r.Politicians), Opposition: opposition.Solo{}})
		} else {
			g = new(engine.Game)
			err = g.ResetTable(r, seed, engine.TableConfig{Politicians: []int{0, 1, 2, 3}[:3+seed%2]})
		}
		if err != nil {
			t.Fatal(err)
		}
		for !g.Over() {
			kind := g.Pending.String()
			d, ok := decisions[kind]
			if !ok {
				t.Fatalf("seed %d: the engine asks a %q decision, which docs/protocol.md does not list", seed, kind)
			}
			if phase := NewView(g).Phase; phase != d.phase {
				t.Errorf("seed %d: the view's phase during the %q decision is %q; docs/protocol.md says %q", seed, kind, phase, d.phase)
			}
			legal := g.Legal(buf[:0])
			for _, o := range legal {
				name, _, _ := strings.Cut(engine.OptionID(o), "/")
				if !slices.Contains(d.options, name) {
					t.Fatalf("seed %d: the %q decision offers %q, which its row in docs/protocol.md does not list", seed, kind, name)
				}
				seen[kind+" "+name] = true
			}
			if err := g.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, d := range decisions {
		for _, o := range d.options {
			if !seen[name+" "+o] {
				t.Errorf("no game offered %q in a %q decision, as docs/protocol.md says it does", o, name)
			}
		}
	}
}
