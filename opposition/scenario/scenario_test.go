package scenario_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/opposition/scenario"
)

// TestScenarios runs every scenario of testdata/scenarios.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Errorf("%d scenarios, want at least 100 (issues 3 and 15)", len(files))
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
		// A stated zero is not the default.
		{"turn zero", `{` + base + `, "setup": {"turn": 0}}`, "setup.turn: 0 is not a turn"},
		{"round zero", `{` + base + `, "setup": {"round": 0}}`, "setup.round: 0 is not a round"},
		{"absolute rules", `{` + base + `, "rules": "/etc/passwd"}`, `rules: "/etc/passwd" is not a path inside the scenario's folder`},
		{"no run", `{"name": "x", "description": "d", "expect": {"opposition.money": 0}}`, "run: missing"},
		{"run not a list", `{"name": "x", "description": "d", "run": "clean_up", "expect": {"opposition.money": 0}}`, "run: want a list"},
		{"your_turn bare", `{"name": "x", "description": "d", "run": ["your_turn"], "expect": {"opposition.money": 0}}`, "run[0]: your_turn needs its choices"},
		{"step two keys", `{"name": "x", "description": "d", "run": [{"clean_up": {}, "your_turn": {}}], "expect": {"opposition.money": 0}}`, "run[0]: a step object has one key"},
		{"choices on opposition_turn", `{"name": "x", "description": "d", "run": [{"opposition_turn": {}}], "expect": {"opposition.money": 0}}`, `run[0]: "opposition_turn" takes no choices`},
		{"your_turn unknown field", `{"name": "x", "description": "d", "run": [{"your_turn": {"cards": "PW-01"}}], "expect": {"opposition.money": 0}}`, `run[0]: your_turn: unknown field "cards"`},
		{"card not in hand", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-01", "column": 1, "row": "top", "region": "Red"}}], "expect": {"you.money": 0}}`,
			`run[0]: your_turn.card: "PW-01" is not legal in the card decision (legal: play PW-14; play CE-13; play RE-15; play CA-02)`},
		{"column", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 5, "row": "top", "region": "Red"}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.column: 5 is not legal"},
		{"row", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "upper", "region": "Red"}}], "expect": {"you.money": 0}}`, `run[0]: your_turn.row: "upper" is not legal`},
		{"region", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Mars"}}], "expect": {"you.money": 0}}`, `run[0]: your_turn.region: "Mars" is not legal`},
		{"action without icon", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red", "actions": [{"do": "campaign"}], "spot": "Research"}}], "expect": {"you.money": 0}}`,
			`run[0]: your_turn.actions[0]: "campaign" is not legal in the action decision (legal: Public Works tier 1; Public Works tier 2; Public Works tier 3; District Fundraise (Public Works icon); end the actions)`},
		{"ambiguous tier", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red", "actions": [{"do": "public_works"}], "spot": "Research"}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.actions[0]: \"public_works\" fits 3 options"},
		{"unknown choice", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red", "actions": [{"do": "dance"}]}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.actions[0].do"},
		{"field not used", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red", "actions": [{"do": "fundraise", "tier": 2}]}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.actions[0].tier: fundraise takes no tier"},
		{"spot missing", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red"}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.spot: missing (legal: the Public Works spot"},
		{"spot in the Plaza", `{"name": "x", "description": "d", "seed": 3, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Plaza", "spot": "Research"}}], "expect": {"you.money": 0}}`, "run[0]: your_turn.spot: the Assistant is in the Plaza"},
		{"hand empty", `{"name": "x", "description": "d", "setup": {"you": {"hand": []}}, "run": [{"your_turn": {"card": "PW-14", "column": 1, "row": "top", "region": "Red"}}], "expect": {"you.money": 0}}`, "run[0]: your_turn: the hand is empty"},
		{"hand unknown card", `{` + base + `, "setup": {"you": {"hand": ["XX-01"]}}}`, "setup.you.hand[0]"},
		{"hand twice", `{` + base + `, "setup": {"you": {"hand": ["PW-01", "PW-01"]}}}`, "setup.you.hand[1]: PW-01 is named twice"},
		{"opposition hand", `{` + base + `, "setup": {"opposition": {"hand": ["PW-01"]}}}`, "setup.opposition.hand"},
		{"end_of_round after round 4", `{"name": "x", "description": "d", "setup": {"round": 4}, "run": ["end_of_round", "end_of_round"], "expect": {"opposition.money": 0}}`, "run[1]: \"end_of_round\": the rounds are over"},
		{"turn after round 4", `{"name": "x", "description": "d", "setup": {"round": 4}, "run": ["end_of_round", "opposition_turn"], "expect": {"opposition.money": 0}}`, "run[1]: \"opposition_turn\": the rounds are over"},
		{"final tally twice", `{"name": "x", "description": "d", "setup": {"round": 4}, "run": ["final_tally", "final_tally"], "expect": {"opposition.money": 0}}`, "run[1]: \"final_tally\": the Final Tally is over"},
		{"clean_up choices in round 4", `{"name": "x", "description": "d", "setup": {"round": 4}, "run": [{"end_of_round": {"discard": ["PW-01"]}}], "expect": {"opposition.money": 0}}`, "run[0]: \"end_of_round\": round 4 is the last round"},
		{"discard not in hand", `{"name": "x", "description": "d", "seed": 3, "run": [{"clean_up": {"discard": ["PW-01"]}}], "expect": {"opposition.money": 0}}`, `run[0]: clean_up.discard[0]: "PW-01" is not in your hand (your hand: PW-14, CE-13, RE-15, CA-02)`},
		{"draw left over", `{"name": "x", "description": "d", "seed": 3, "run": [{"clean_up": {"draw": ["campaign"]}}], "expect": {"opposition.money": 0}}`, "run[0]: clean_up.draw[0]: no draw is left"},
		{"exact twice", `{"name": "x", "description": "d", "run": [], "expect": {"you.money": 4}, "expect_exact": {"you.money": 4}}`, `expect_exact."you.money": also stated in expect`},
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

// TestScenarioFiles: a scenario's rules file is a regular file in its
// folder, no larger than a rules file, and every refusal names the
// scenario's field (and the rules file) in the scenario's terms.
func TestScenarioFiles(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "scenarios")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(sub, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ref := string(engine.ReferenceJSON())
	write("good.json", ref)
	write("bad.json", strings.Replace(ref, `"cubes_per_district": 10`, `"cubes_per_district": 99`, 1))
	write("big.json", ref+strings.Repeat(" ", engine.MaxRulesFileSize))
	// Vote Shares at the engine's bound: 4 icons, the token, 7 × 15 + 17.
	var at []engine.Assignment
	for i := range 4 {
		at = append(at, engine.Assignment{Path: fmt.Sprintf("rounds[%d].presence", i), Value: `{"kind":"vote_share","amount":15}`},
			engine.Assignment{Path: fmt.Sprintf("rounds[%d].district_majority", i), Value: fmt.Sprintf(`{"kind":"vote_share","amount":%d}`, 15+2*(i/3))})
	}
	shares, err := engine.Reference().With(at...)
	if err != nil {
		t.Fatal(err)
	}
	write("shares.json", string(shares.Canonical()))
	if err := os.WriteFile(filepath.Join(dir, "outside.json"), []byte(ref), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside.json", filepath.Join(sub, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(sub, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := `"name": "x", "description": "d", "run": [], "expect": {"you.money": 4}`
	tests := []struct{ name, json, want string }{
		{"good", `{` + base + `, "rules": "good.json"}`, ""},
		{"dev zero", `{` + base + `, "rules": "../../../../dev/zero"}`, `scenario: rules: "../../../../dev/zero" is not a path inside the scenario's folder`},
		{"up one", `{` + base + `, "rules": "../outside.json"}`, `is not a path inside the scenario's folder`},
		{"symlink out", `{` + base + `, "rules": "link.json"}`, `scenario: rules: "link.json" cannot be read: path escapes from parent`},
		{"fifo", `{` + base + `, "rules": "fifo"}`, `scenario: rules: "fifo" is not a regular file (p---------)`},
		{"folder", `{` + base + `, "rules": "folder"}`, `scenario: rules: "folder" is not a regular file (d---------)`},
		{"too big", `{` + base + `, "rules": "big.json"}`, `scenario: rules: "big.json" is larger than 1 MiB, the most a rules file can be`},
		{"rules error names the file", `{` + base + `, "rules": "bad.json"}`, `scenario: rules: "bad.json": rules: cubes_per_district: 99 is out of range 1..20`},
		{"type", `{` + base + `, "setup": {"you": {"hand": [3]}}}`, `scenario: setup.you.hand: want a string, not number`},
		{"negative seed", `{` + base + `, "seed": -1}`, `scenario: seed: want a whole number, 0 or more, not number -1`},
		{"not json", "{\n" + base + ",\n}", `scenario: line 3: not JSON: invalid character '}' looking for beginning of object key string`},
		{"empty", ``, `scenario: empty: want a JSON object`},
		{"cut short", `{` + base, `scenario: the JSON ends before the object does`},
		{"name bidi", `{"name": "x\u202e", "description": "d", "run": [], "expect": {"you.money": 4}}`, `scenario: name: "x\u202e" holds U+202E`},
		{"description newline", `{"name": "x", "description": "d\ne", "run": [], "expect": {"you.money": 4}}`, `scenario: description: "d\ne" holds U+000A`},
		{"majority shares at the bound", `{` + base + `, "rules": "shares.json", "setup": {"you": {"majority_shares": {"Red": 0}}}}`, ""},
		{"majority shares past the bound", `{` + base + `, "rules": "shares.json", "setup": {"you": {"majority_shares": {"Red": 1}}}}`,
			`scenario: setup.you.majority_shares.Red: 1: with the rules' icons, token and vote_share rewards the seat could reach 128 Vote Shares, more than the limit of 127`},
		{"step type", `{"name": "x", "description": "d", "run": [{"clean_up": {"discard": "PW-01"}}], "expect": {"you.money": 4}}`, `scenario: run[0]: clean_up: discard: want a list, not string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := scenario.Parse([]byte(tt.json), sub)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("hangs")
			}
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) && !strings.Contains(err.Error(), tt.want)):
				t.Errorf("got %v\nwant %s", err, tt.want)
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

// quoted matches a Go-quoted string in an error.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

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
			// Quoted text is the file's own; the rest must not be Go's.
			if m := quoted.ReplaceAllString(err.Error(), `""`); strings.Contains(m, "Go ") || strings.Contains(m, "json: ") {
				t.Errorf("error %q speaks Go, not the scenario's terms", err)
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
	// Every json block of the document is a whole scenario that passes.
	parts := strings.Split(string(doc), "```json\n")
	blocks := parts[1:]
	if len(blocks) < 2 {
		t.Fatalf("docs/scenarios.md has %d json examples, want the Opposition's and yours", len(blocks))
	}
	for i, b := range blocks {
		example, _, _ := strings.Cut(b, "```")
		s, err := scenario.Parse([]byte(example), "../../testdata/scenarios")
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if res := s.Run(); !res.Pass() {
			t.Errorf("the documented example %d fails: %v", i+1, res.Diffs)
		}
		// The examples are the files they say they are.
		name := regexp.MustCompile("`(testdata/scenarios/[a-z0-9-]+[.]json)`:\n\n$").FindStringSubmatch(parts[i])
		if name == nil {
			t.Errorf("example %d does not follow its file name", i+1)
			continue
		}
		file, err := os.ReadFile("../../" + name[1])
		if err != nil {
			t.Fatal(err)
		}
		if string(file) != example {
			t.Errorf("example %d differs from %s", i+1, name[1])
		}
	}
}

// TestPlayerSideScenarios checks that the player-side scenarios are
// there: at least 30 scripting your own turns.
func TestPlayerSideScenarios(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.json")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range s.File.Run {
			if st.YourTurn != nil {
				n++
				break
			}
		}
	}
	if n < 30 {
		t.Errorf("%d scenarios script your turns, want at least 30", n)
	}
}

// TestSkeleton checks that scenario setup's output is a complete scenario:
// it parses, passes as printed, and states the standard setup (its own
// facts hold, and the stated values equal the seed's).
func TestSkeleton(t *testing.T) {
	r := engine.Reference()
	for i, seed := range []uint64{0, 3, 77} {
		for _, mode := range []engine.Mode{engine.Normal, engine.Hard} {
			// Each Politician in turn: your trackers are its (Player
			// Board Setup), and the file says which.
			pol := (2*i + int(mode)) % len(r.Politicians)
			out, err := scenario.Skeleton(r, seed, mode, pol, fmt.Sprintf("game seed %d", seed))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`"politician": %q`, r.Politicians[pol].ID); !bytes.Contains(out, []byte(want)) {
				t.Errorf("seed %d %s: no %s:\n%.400s", seed, mode, want, out)
			}
			s, err := scenario.Parse(out, ".")
			if err != nil {
				t.Fatalf("seed %d %s: %v\n%s", seed, mode, err, out)
			}
			if res := s.Run(); !res.Pass() {
				t.Errorf("seed %d %s: %v", seed, mode, res.Diffs)
			}
			// Nothing in it waits to be replaced.
			if bytes.Contains(out, []byte("TODO")) {
				t.Errorf("seed %d %s: a placeholder:\n%s", seed, mode, out)
			}
			// The same facts hold on the unstated standard setup.
			var f map[string]any
			if err := json.Unmarshal(out, &f); err != nil {
				t.Fatal(err)
			}
			delete(f, "setup")
			bare, _ := json.Marshal(f)
			s, err = scenario.Parse(bare, ".")
			if err != nil {
				t.Fatal(err)
			}
			if res := s.Run(); !res.Pass() {
				t.Errorf("seed %d %s without its setup: %v", seed, mode, res.Diffs)
			}
		}
	}
}

// TestStepRoundTrip checks that steps with choices are written back as
// they were read.
func TestStepRoundTrip(t *testing.T) {
	in := `["opposition_turn",{"your_turn":{"card":"PW-14","column":1,"row":"top","region":"Red","actions":[{"do":"public_works","tier":2}],"spot":"Research"}},{"clean_up":{"discard":["CE-13"]}},"final_tally"]`
	var steps scenario.Steps
	if err := json.Unmarshal([]byte(in), &steps); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(steps)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("round trip:\n got %s\nwant %s", out, in)
	}
}
