package exec

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tallywood/sim"
	"tallywood/sim/policy"
)

// The tests hold docs/protocol.schema.json, docs/protocol.md and the Go
// messages to each other: the examples of the page and every message of
// real games validate against the schema. validate implements the part of
// JSON Schema the file uses (type, const, enum, properties, required,
// additionalProperties, items, minItems, minimum, maximum, oneOf, $ref),
// and refuses any other keyword so that the schema cannot silently grow
// past what is checked.

type schema map[string]any

func loadSchema(t *testing.T) schema {
	t.Helper()
	b, err := os.ReadFile("../../../docs/protocol.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var s schema
	if err := dec.Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

var checkedKeywords = []string{"$schema", "$id", "title", "description", "$defs", "$ref", "type", "const", "enum",
	"properties", "required", "additionalProperties", "items", "minItems", "minimum", "maximum", "oneOf"}

// validate reports the first way v does not match s, or nil.
func (root schema) validate(s map[string]any, v any, path string) error {
	for k := range s {
		if !slices.Contains(checkedKeywords, k) {
			return fmt.Errorf("schema keyword %q at %s is not checked by this test", k, path)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			return fmt.Errorf("%s: bad $ref %q", path, ref)
		}
		return root.validate(def, v, path)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		var errs []string
		matched := 0
		for _, a := range alts {
			if err := root.validate(a.(map[string]any), v, path); err != nil {
				errs = append(errs, err.Error())
			} else {
				matched++
			}
		}
		if matched != 1 {
			return fmt.Errorf("%s: matches %d of oneOf, want 1 (%s)", path, matched, strings.Join(errs, "; "))
		}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		return fmt.Errorf("%s: %v, want %v", path, v, c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return fmt.Sprint(x) == fmt.Sprint(v) }) {
		return fmt.Errorf("%s: %v is not one of %v", path, v, e)
	}
	if ty, ok := s["type"]; ok {
		var types []string
		switch ty := ty.(type) {
		case string:
			types = []string{ty}
		case []any:
			for _, x := range ty {
				types = append(types, x.(string))
			}
		}
		if !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
			return fmt.Errorf("%s: %s, want %v", path, jsonType(v), types)
		}
	}
	if n, ok := v.(json.Number); ok {
		x, _ := new(big.Float).SetString(n.String())
		for kw, cmp := range map[string]int{"minimum": -1, "maximum": 1} {
			if lim, ok := s[kw].(json.Number); ok {
				l, _ := new(big.Float).SetString(lim.String())
				if x.Cmp(l) == cmp {
					return fmt.Errorf("%s: %s beyond %s %s", path, n, kw, lim)
				}
			}
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := v[r]; !ok {
				return fmt.Errorf("%s: no required field %q", path, r)
			}
		}
		for k, x := range v {
			p, ok := props[k].(map[string]any)
			if !ok {
				if s["additionalProperties"] == false {
					return fmt.Errorf("%s: field %q is not in the schema", path, k)
				}
				continue
			}
			if err := root.validate(p, x, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		if m, ok := s["minItems"].(json.Number); ok {
			if min, _ := m.Int64(); int64(len(v)) < min {
				return fmt.Errorf("%s: %d items, want at least %d", path, len(v), min)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range v {
				if err := root.validate(items, x, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func asList(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		out = append(out, x.(string))
	}
	return out
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case json.Number:
		if strings.ContainsAny(v.String(), ".eE") {
			return "number"
		}
		return "integer"
	}
	return fmt.Sprintf("%T", v)
}

func (root schema) validateMessage(t *testing.T, line []byte, where string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Errorf("%s: not JSON: %v", where, err)
		return
	}
	if err := root.validate(root, v, "$"); err != nil {
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
		// Version 2 sends no game seed (issue 22).
		`{"type":"game","seed":1,"player_seed":1,"difficulty":"normal","players":2,"seat":0,"politician":"p","politician_index":0}`,
		`{"type":"game","seed":-1,"difficulty":"normal","politician":"p","politician_index":0}`,
		`{"type":"game","seed":18446744073709551616,"difficulty":"normal","politician":"p","politician_index":0}`,
		`{"type":"game","seed":1,"difficulty":"easy","politician":"p","politician_index":0}`,
		`{"type":"surprise"}`,
		`{"type":"end","seed":1,"outcome":"win","margin":1,"decisions":1,"tally":{"districts":[],"endorsements":[],"bonus":[]}}`,
	}
	for _, b := range bad {
		var v any
		dec := json.NewDecoder(strings.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if root.validate(root, v, "$") == nil {
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
	cfg := faultConfig(t, fakeSpec("record:"+file, "", ""), 1)
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
		// Issue 22: the game seed recomputes every shuffle; no message
		// holds it, nor the player seed it.
		for i := range uint64(3) {
			if seed := strconv.FormatUint(sim.GameSeed(faultSeed, i), 10); bytes.Contains(sc.Bytes(), []byte(seed)) {
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
	for _, spec := range []string{fakeSpec("record:"+tableFile, "", ""), "random", "random"} {
		sp, err := policy.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		lineup = append(lineup, sp)
	}
	if _, err := sim.RunTable(context.Background(), sim.TableConfig{Rules: cfg.Rules, Seed: 2, Deals: 1, Workers: 1, Lineup: lineup}); err != nil {
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
