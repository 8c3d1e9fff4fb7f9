package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// writeRules writes the reference rules with old replaced by new.
func writeRules(t *testing.T, dir, name, old, new string) string {
	t.Helper()
	ref := string(engine.ReferenceJSON())
	edited := strings.Replace(ref, old, new, 1)
	if edited == ref && old != new {
		t.Fatalf("reference rules have no %s", old)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRulesCommand: rules check and rules diff, exact output and exit
// codes.
func TestRulesCommand(t *testing.T) {
	dir := t.TempDir()
	hard3 := writeRules(t, dir, "hard3.json", `"bonus_divisor": 2`, `"bonus_divisor": 3`)
	named := writeRules(t, dir, "named.json", `"name": "reference"`, `"name": "gentle-hard"`)
	copied := writeRules(t, dir, "copy.json", `"name": "reference"`, `"name": "reference"`)
	missing := writeRules(t, dir, "missing.json", `"hard": {"player_initiative": 2, `, `"hard": {`)
	bom := writeRules(t, dir, "bom.json", "{", "\uFEFF{")
	s13 := writeRules(t, dir, "s13.json", `"id": "S-13", "left_district": "Green", "right_district": "Red", "left_action": "Research"`,
		`"id": "S-13", "left_district": "Green", "right_district": "Red", "left_action": "Celebrity"`)
	s22 := writeRules(t, dir, "s22.json", `
    {"id": "S-22", "left_district": "Yellow", "right_district": "Blue", "left_action": "Campaign", "right_action": "Celebrity"},`, "")
	ref := engine.Reference().Hash
	refOK := `: ok: "reference", version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n"
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"check reference copy", []string{"rules", "check", copied}, exitOK,
			copied + `: ok: "reference", version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n", ""},
		// A Windows editor's byte-order mark was refused as
		// "invalid character 'ï'"; default was a file name here only.
		{"check byte-order mark", []string{"rules", "check", bom}, exitOK, bom + refOK, ""},
		{"check default", []string{"rules", "check", "default"}, exitOK, "default" + refOK, ""},
		{"check reference", []string{"rules", "check", "reference"}, exitOK, "reference" + refOK, ""},
		{"diff default", []string{"rules", "diff", "default", "reference"}, exitOK,
			"A: default: \"reference\" (" + ref[:12] + ")\nB: reference: \"reference\" (" + ref[:12] + ")\nno differences in play\n", ""},
		{"check renamed copy", []string{"rules", "check", named}, exitOK,
			named + `: ok: "gentle-hard", plays as the reference set, version "reference-set 1 (reconstruction, not the printed components)", hash ` + ref + "\n", ""},
		{"check missing field", []string{"rules", "check", missing}, exitBadArgs, "",
			"tallywood: " + missing + ": rules: difficulties.hard.player_initiative: missing from the object on line 141\n"},
		{"diff one field", []string{"rules", "diff", "reference", hard3}, exitOK,
			"A: reference: \"reference\" (" + ref[:12] + ")\n" +
				"B: " + hard3 + ": \"edited reference\" (" + must(t, hard3).Hash[:12] + ")\n" +
				"FIELD                            A  B\n" +
				"difficulties.hard.bonus_divisor  2  3\n" +
				"1 field differs\n", ""},
		// A card is named by its id, as --set takes it.
		{"diff a Solo card", []string{"rules", "diff", "reference", s13}, exitOK,
			"A: reference: \"reference\" (" + ref[:12] + ")\n" +
				"B: " + s13 + ": \"edited reference\" (" + must(t, s13).Hash[:12] + ")\n" +
				"FIELD                         A           B\n" +
				"solo_cards[S-13].left_action  \"Research\"  \"Celebrity\"\n" +
				"1 field differs\n", ""},
		// A card taken out is named by its id, not read as the cards
		// after it changed by one place (issue 42).
		{"diff a Solo card removed", []string{"rules", "diff", "reference", s22}, exitOK,
			"A: reference: \"reference\" (" + ref[:12] + ")\n" +
				"B: " + s22 + ": \"edited reference\" (" + must(t, s22).Hash[:12] + ")\n" +
				"FIELD             A                                                                                                                   B\n" +
				"solo_cards[S-22]  {\"id\":\"S-22\",\"left_district\":\"Yellow\",\"right_district\":\"Blue\",\"left_action\":\"Campaign\",\"right_action\":\"Celebrity\"}  (removed)\n" +
				"1 field differs\n", ""},
		{"diff a Solo card added", []string{"rules", "diff", s22, "reference"}, exitOK,
			"A: " + s22 + ": \"edited reference\" (" + must(t, s22).Hash[:12] + ")\n" +
				"B: reference: \"reference\" (" + ref[:12] + ")\n" +
				"FIELD             A        B\n" +
				"solo_cards[S-22]  (added)  {\"id\":\"S-22\",\"left_district\":\"Yellow\",\"right_district\":\"Blue\",\"left_action\":\"Campaign\",\"right_action\":\"Celebrity\"}\n" +
				"1 field differs\n", ""},
		{"diff metadata only", []string{"rules", "diff", named, "reference"}, exitOK,
			"A: " + named + ": \"gentle-hard\", plays as the reference set (" + ref[:12] + ")\n" +
				"B: reference: \"reference\" (" + ref[:12] + ")\n" +
				"no differences in play\n", ""},
		{"diff bad file", []string{"rules", "diff", "reference", missing}, exitBadArgs, "",
			"tallywood: rules diff: " + missing + ": rules: difficulties.hard.player_initiative: missing from the object on line 141\n"},
		{"diff no such file", []string{"rules", "diff", "reference", filepath.Join(dir, "none.json")}, exitBadArgs, "",
			"tallywood: rules diff: rules file " + filepath.Join(dir, "none.json") + ": no such file or directory\n"},
		{"diff one argument", []string{"rules", "diff", "reference"}, exitBadArgs, "",
			"tallywood: rules: diff takes two rule sets A and B, not 1 arguments; see 'tallywood rules --help'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("exit %d, stdout\n%s\nstderr\n%s\nwant exit %d, stdout\n%s\nstderr\n%s", code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

func must(t *testing.T, path string) *engine.Rules {
	t.Helper()
	r, err := engine.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRulesWriteError: a failed write of the output is exit 1, not 0.
func TestRulesWriteError(t *testing.T) {
	var stderr strings.Builder
	if code := run([]string{"rules", "dump"}, failingWriter{}, &stderr); code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if want := "tallywood: rules: the output could not be written: no space left on device\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// TestRulesCheckBounds: the rules files at the bounds that the engine could
// not hold (negative Vote Shares, a Research bonus of -96, a discount that
// made Public Works cost 98, a 129th politician) are refused by rules
// check and by every command that loads them, naming the field and the
// limit, exit 2, nothing on stdout.
func TestRulesCheckBounds(t *testing.T) {
	dir := t.TempDir()
	edit := func(name string, change func(f map[string]any)) string {
		var f map[string]any
		if err := json.Unmarshal(engine.ReferenceJSON(), &f); err != nil {
			t.Fatal(err)
		}
		change(f)
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	everyCard := func(ability map[string]any) func(f map[string]any) {
		return func(f map[string]any) {
			for _, c := range f["strategy_cards"].([]any) {
				c.(map[string]any)["ability"] = ability
			}
		}
	}
	files := []struct{ path, err string }{
		{edit("shares.json", func(f map[string]any) {
			for _, r := range f["rounds"].([]any) {
				r.(map[string]any)["presence"] = map[string]any{"kind": "vote_share", "amount": 40}
				r.(map[string]any)["district_majority"] = map[string]any{"kind": "vote_share", "amount": 40}
			}
		}), "rules: rounds[1].district_majority.amount: a player's Vote Shares in a District reach 165"},
		{edit("research.json", everyCard(map[string]any{"kind": "research_bonus", "polling": 40})),
			"rules: strategy_cards[2].ability.polling: one Research's Polling (actions.research_polling and research_bonus cards) reaches 121 with 3 cards played in a round of 4 turns, more than the limit of 115"},
		{edit("discount.json", everyCard(map[string]any{"kind": "discount", "action": "Public Works", "money": 40})),
			"rules: strategy_cards[3].ability.money: the Public Works money discount reaches 160 with 4 cards played in a round of 4 turns, more than the limit of 127"},
		{edit("politicians.json", func(f map[string]any) {
			var pols []any
			for i := range 129 {
				pols = append(pols, map[string]any{"id": fmt.Sprintf("p%d", i)})
			}
			f["politicians"] = pols
		}), "rules: politicians: has 129 politicians, want 1..128 (C-12)"},
	}
	for _, f := range files {
		for _, args := range [][]string{
			{"rules", "check", f.path},
			{"sim", "--games", "2", "--rules", f.path},
			{"sim", "--seats", "2", "--games", "2", "--rules", f.path},
			{"trace", "--rules", f.path},
		} {
			code, stdout, stderr := runCLI(t, args...)
			if code != exitBadArgs || stdout != "" || !strings.Contains(stderr, f.path+": "+f.err) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q\nwant exit 2 and %s", args, code, stdout, stderr, f.err)
			}
		}
		if code, _, stderr := runPlayWith(t, "q\n", "--rules", f.path); code != exitBadArgs || !strings.Contains(stderr, f.err) {
			t.Errorf("play: exit %d, stderr %q", code, stderr)
		}
	}
}

// TestWrongKindOfFile checks that a scenario, a result or a saved game
// given where a rules file belongs is named for what it is (the
// README's mine.json was a rules file, then a scenario, and 'compare
// --b-rules mine.json' said "unknown field").
func TestWrongKindOfFile(t *testing.T) {
	dir := t.TempDir()
	result := filepath.Join(dir, "result.json")
	var out, errb bytes.Buffer
	if code := run([]string{"sim", "--games", "2", "--policy", "random", "--mode", "normal", "--quiet", "--out", result}, &out, &errb); code != exitOK {
		t.Fatalf("sim: exit %d: %s", code, errb.String())
	}
	scen := "../../testdata/scenarios/fallback-unable-in-both.json"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--b-rules", scen, "--games", "2"}, "this is a scenario file (run it with 'tallywood scenario run'), not a rules file"},
		{[]string{"rules", "check", scen}, "this is a scenario file"},
		{[]string{"sim", "--rules", result}, "this is a result file"},
		{[]string{"rules", "check", "../../testdata/scenarios/../protocol/../../go.mod"}, "rules"}, // not JSON: the parse error stands
	} {
		out.Reset()
		errb.Reset()
		if code := run(tc.args, &out, &errb); code != exitBadArgs || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q: want %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// TestRulesExportImport: rules export writes the sheets, rules import
// prints a rules file with the same canonical form and hash, an edit in a
// sheet is read, a bad cell is refused naming sheet, row and column, and
// export refuses a directory that holds files (issue 42).
func TestRulesExportImport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sheets")
	code, stdout, stderr := runCLI(t, "rules", "export", "reference", dir)
	if code != exitOK || !strings.Contains(stdout, "as 9 sheets") {
		t.Fatalf("export: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "rules", "import", dir)
	if code != exitOK {
		t.Fatalf("import: exit %d, stderr %q", code, stderr)
	}
	back, err := engine.Parse([]byte(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Canonical(), engine.Reference().Canonical()) {
		t.Error("import of the exported reference is another rules file")
	}
	path := filepath.Join(dir, "politicians.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte("magnate,4,"), []byte("magnate,5,"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = runCLI(t, "rules", "import", dir)
	edited, err := engine.Parse([]byte(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if d := engine.Diff(engine.Reference(), edited); len(d) != 1 || d[0].Path != "politicians[magnate].money" {
		t.Errorf("the edited sheet reads as %q", d)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte("magnate,4,"), []byte("magnate,x,"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "rules", "import", dir)
	if want := "tallywood: rules import: " + dir + ": politicians.csv: row 2, column money: \"x\" is not a whole number\n"; code != exitBadArgs || stderr != want {
		t.Errorf("bad cell: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, _, stderr = runCLI(t, "rules", "export", "reference", dir)
	if code == exitOK || !strings.Contains(stderr, "is not empty") {
		t.Errorf("export into a full directory: exit %d, stderr %q", code, stderr)
	}
}
