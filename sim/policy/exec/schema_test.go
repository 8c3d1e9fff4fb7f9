package exec

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/exec/exectest"
)

// The tests hold docs/protocol.schema.json, docs/protocol.md and the Go
// messages to each other: the examples of the page and every message of
// real games validate against the schema. A maintained validator of the
// whole standard (santhosh-tekuri/jsonschema, JSON Schema 2020-12) checks
// them, so the schema may use any keyword and a mistake in it is caught
// by the compiler, not trusted to a subset written for the test.

// schema is the compiled docs/protocol.schema.json.
type schema struct{ *jsonschema.Schema }

func loadSchema(t *testing.T) schema {
	t.Helper()
	f, err := os.Open("../../../docs/protocol.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("protocol.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("protocol.schema.json")
	if err != nil {
		t.Fatalf("docs/protocol.schema.json: %v", err)
	}
	return schema{sch}
}

// check reports how one message does not match the schema, or nil.
func (s schema) check(line []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	return s.Validate(v)
}

func (s schema) validateMessage(t *testing.T, line []byte, where string) {
	t.Helper()
	if err := s.check(line); err != nil {
		t.Errorf("%s: %v", where, err)
	}
}

func TestSchemaRefusesWrongMessages(t *testing.T) {
	root := loadSchema(t)
	bad := []string{
		`{"type":"answer"}`,
		`{"type":"answer","id":3}`,
		`{"type":"answer","id":"end/0/0/0","why":"because"}`,
		`{"type":"hello","protocol":1,"name":"x"}`,
		// Version 2 sends no game seed.
		`{"type":"game","seed":1,"player_seed":1,"difficulty":"normal","players":2,"seat":0,"politician":"p","politician_index":0}`,
		`{"type":"game","seed":-1,"difficulty":"normal","politician":"p","politician_index":0}`,
		`{"type":"game","seed":18446744073709551616,"difficulty":"normal","politician":"p","politician_index":0}`,
		`{"type":"game","seed":1,"difficulty":"easy","politician":"p","politician_index":0}`,
		`{"type":"surprise"}`,
		`{"type":"end","seed":1,"outcome":"win","margin":1,"decisions":1,"tally":{"districts":[],"endorsements":[],"bonus":[]}}`,
	}
	for _, b := range bad {
		if root.check([]byte(b)) == nil {
			t.Errorf("%s validates", b)
		}
	}
}

// TestDocExamplesValidate checks every json block of docs/protocol.md.
func TestDocExamplesValidate(t *testing.T) {
	root := loadSchema(t)
	doc, err := os.ReadFile("../../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 7 {
		t.Fatalf("%d json examples in docs/protocol.md, want one per message", len(blocks))
	}
	types := map[string]bool{}
	for i, b := range blocks {
		root.validateMessage(t, b[1], fmt.Sprintf("docs/protocol.md example %d", i+1))
		var m struct{ Type string }
		json.Unmarshal(b[1], &m)
		types[m.Type] = true
	}
	for _, ty := range []string{"hello", "rules", "game", "decision", "answer", "end"} {
		if !types[ty] {
			t.Errorf("docs/protocol.md has no example of %q", ty)
		}
	}
}

// TestGameMessagesValidate records every message of real games, rules
// included, and validates them, with the program's replies as the Go
// types write them.
func TestGameMessagesValidate(t *testing.T) {
	root := loadSchema(t)
	file := filepath.Join(t.TempDir(), "messages.jsonl")
	cfg := faultConfig(t, exectest.Spec("record:"+file, "", ""), 1)
	cfg.Games = 3
	if _, err := sim.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	counts := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		root.validateMessage(t, sc.Bytes(), fmt.Sprintf("message %d", n))
		// The game seed recomputes every shuffle; no message
		// holds it, nor the player seed it.
		for i := range uint64(3) {
			if seed := strconv.FormatUint(deal.GameSeed(faultSeed, i), 10); bytes.Contains(sc.Bytes(), []byte(seed)) {
				t.Fatalf("message %d holds the seed of game %d, %s: %s", n, i, seed, sc.Bytes())
			}
		}
		var m struct{ Type string }
		json.Unmarshal(sc.Bytes(), &m)
		counts[m.Type]++
	}
	if counts["hello"] != 1 || counts["rules"] != 1 || counts["game"] != 3 || counts["end"] != 3 || counts["decision"] < 300 {
		t.Errorf("messages by type %v: want the handshake, rules, and three games", counts)
	}
	// A table of three: hands and face-down discards of others are null.
	tableFile := filepath.Join(t.TempDir(), "table.jsonl")
	var lineup []policy.Spec
	for _, spec := range []string{exectest.Spec("record:"+tableFile, "", ""), "random", "random"} {
		sp, err := policy.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		lineup = append(lineup, sp)
	}
	if _, err := sim.RunSeats(context.Background(), sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 2, Workers: 1},
		Rules: cfg.Rules, Deals: 1, Lineup: lineup}); err != nil {
		t.Fatal(err)
	}
	tb, err := os.ReadFile(tableFile)
	if err != nil {
		t.Fatal(err)
	}
	var tableGames int
	for n, line := range bytes.Split(bytes.TrimSpace(tb), []byte("\n")) {
		root.validateMessage(t, line, fmt.Sprintf("table message %d", n+1))
		tableGames += bytes.Count(line, []byte(`"difficulty":"table"`))
	}
	if tableGames != 3 {
		t.Errorf("%d table games recorded, want 3 (one per rotation)", tableGames)
	}
	for _, reply := range []any{
		HelloReply{Type: "hello", Protocol: ProtocolVersion, Name: "x"},
		HelloReply{Type: "hello", Protocol: ProtocolVersion, Name: "x", WantRules: true},
		Answer{Type: "answer", ID: "end/0/0/0"},
	} {
		b, _ := json.Marshal(reply)
		root.validateMessage(t, b, string(b))
	}
}
