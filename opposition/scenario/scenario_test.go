package scenario_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tallywood/opposition/scenario"
)

// TestScenarios runs every scenario of testdata/scenarios.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Errorf("%d scenarios, want at least 40 (issue 3)", len(files))
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			s, err := scenario.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			res := s.Run()
			if !res.Pass() {
				for _, d := range res.Diffs {
					t.Error(d)
				}
				t.Log("trace:\n" + res.Trace)
			}
		})
	}
}

// TestMalformed checks that a bad scenario is refused with the field named.
func TestMalformed(t *testing.T) {
	base := `"name": "x", "description": "d", "run": ["opposition_turn"], "expect": {"opposition.money": 0}`
	tests := []struct {
		name, json, field string
	}{
		{"unknown field", `{` + base + `, "colour": 1}`, `"colour"`},
		{"difficulty", `{` + base + `, "difficulty": "easy"}`, "difficulty"},
		{"district", `{` + base + `, "setup": {"districts": {"Purple": {}}}}`, "setup.districts.Purple"},
		{"tier", `{` + base + `, "setup": {"districts": {"Red": {"tiles": [{"kind": "celebrity", "tier": 4}]}}}}`, "setup.districts.Red.tiles[0].tier"},
		{"pile empty", `{` + base + `, "setup": {"districts": {"Red": {"tiles": [{"kind": "celebrity", "tier": 1, "count": 7}]}}}}`, "setup.districts.Red.tiles[0]"},
		{"badge missing", `{` + base + `, "setup": {"districts": {"Red": {"tiles": [{"kind": "public_works", "tier": 1}]}}}}`, "setup.districts.Red.tiles[0].badge"},
		{"too many badges", `{` + base + `, "setup": {"districts": {"Red": {"tiles": [{"kind": "public_works", "tier": 1, "badge": "opposition", "count": 6}]}}}}`, "Badges"},
		{"cubes", `{` + base + `, "setup": {"districts": {"Red": {"cubes": {"Blue": 11}}}}}`, "setup.districts.Red.cubes.Blue"},
		{"bag", `{` + base + `, "setup": {"plaza": {}, "bag": {"Red": 9}}}`, "setup.bag.Red"},
		{"spot twice", `{` + base + `, "setup": {"you": {"assistants": [{"district": "Red", "spot": "Research"}, {"district": "Red", "spot": "Research"}]}}}`, "setup.you.assistants[1].spot"},
		{"solo card", `{` + base + `, "setup": {"next_solo_cards": ["S-99"]}}`, "setup.next_solo_cards[0]"},
		{"solo twice", `{` + base + `, "setup": {"next_solo_cards": ["S-01", "S-01"]}}`, "setup.next_solo_cards[1]"},
		{"support", `{` + base + `, "setup": {"districts": {"Red": {"initial_support": 8}, "Blue": {"initial_support": 8}}}}`, "initial_support"},
		{"track", `{` + base + `, "setup": {"opposition": {"polling": {"Red": 13}}}}`, "setup.opposition.polling.Red"},
		{"step", `{"name": "x", "description": "d", "run": ["dance"], "expect": {"opposition.money": 0}}`, "run[0]"},
		{"fact", `{"name": "x", "description": "d", "run": ["opposition_turn"], "expect": {"opposition.shoe": 0}}`, `expect."opposition.shoe"`},
		{"variant", `{` + base + `, "variants": {"v9": true}}`, "variants.v9"},
		{"no expect", `{"name": "x", "description": "d", "run": ["opposition_turn"]}`, "expect"},
		{"last round clean up", `{"name": "x", "description": "d", "setup": {"round": 4}, "run": ["clean_up"], "expect": {"opposition.money": 0}}`, "run[0]"},
		{"board full", `{"name": "x", "description": "d", "setup": {"round": 3, "opposition": {"board": [{"card": "S-01"}, {"card": "S-02"}, {"card": "S-03"}]}}, "run": ["opposition_turn", "opposition_turn"], "expect": {"opposition.money": 0}}`, "run[1]"},
		{"events", `{"name": "x", "description": "d", "run": ["opposition_turn"], "expect": {"events.contain": "I-10"}}`, `expect."events.contain"`},
		{"trailing", `{` + base + `} {}`, "trailing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scenario.Parse([]byte(tc.json), ".")
			if err == nil {
				t.Fatalf("accepted, want an error naming %s", tc.field)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q does not name %s", err, tc.field)
			}
		})
	}
}

// TestConserved checks that a stated position keeps the components: tiles
// leave their piles, cubes the bag.
func TestConserved(t *testing.T) {
	s, err := scenario.Parse([]byte(`{"name": "c", "description": "C-3, C-14",
		"setup": {"plaza": {"Red": 2}, "districts": {"Blue": {"cubes": {"Blue": 3}, "tiles": [{"kind": "celebrity", "tier": 2, "count": 2}]}}},
		"run": ["round_scoring"],
		"expect": {"bag.cubes": {"Red": 8, "Blue": 7, "Green": 10, "Yellow": 10}, "piles.celebrity": [6, 4, 6], "plaza.cubes": {"Red": 2, "Blue": 0}}}`), ".")
	if err != nil {
		t.Fatal(err)
	}
	if res := s.Run(); !res.Pass() {
		t.Error(res.Diffs)
	}
}

// FuzzParse feeds arbitrary bytes to the parser: it must refuse or accept
// without panicking, and an accepted scenario must run.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/scenarios/*.json")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"name": "x", "description": "d", "run": ["final_tally"], "expect": {"result.outcome": "win"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		s, err := scenario.Parse(data, dir)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "scenario: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
		res := s.Run()
		// Round trip: the file written back parses to a scenario that runs
		// the same way.
		again, err := json.Marshal(s.File)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := scenario.Parse(again, dir)
		if err != nil {
			t.Fatalf("re-encoded scenario refused: %v\n%s", err, again)
		}
		res2 := s2.Run()
		if res.Trace != res2.Trace || !reflect.DeepEqual(res.Diffs, res2.Diffs) {
			t.Errorf("the re-encoded scenario runs differently:\n%s\n%v\nvs\n%s\n%v", res.Trace, res.Diffs, res2.Trace, res2.Diffs)
		}
	})
}

// TestDocExample runs the annotated example of docs/scenarios.md, so the
// documentation cannot drift from the format.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "```json\n")
	if !ok {
		t.Fatal("docs/scenarios.md has no json example")
	}
	example, _, _ := strings.Cut(after, "```")
	s, err := scenario.Parse([]byte(example), "../../testdata/scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if res := s.Run(); !res.Pass() {
		t.Errorf("the documented example fails: %v", res.Diffs)
	}
}
