package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// curve answers the question in one command: where Hard reaches
// the target, and the gap at the named levels, in a table of 100 columns.
func TestCurveCommand(t *testing.T) {
	code, out, errs := runCLI(t, "curve", "--skills", "0,0.4,1", "--games", "40", "--seed", "13012", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	flat := strings.Join(strings.Fields(out), " ") // the sentences wrap
	for _, want := range []string{"| 0.4 (≈casual) |", "| 1 (skilled)", "Normal reaches 50.0%", "Hard reaches 50.0%",
		"Hard against Normal: for a casual player (skill 0.4)", "for a skilled player (skill 1)"} {
		if !strings.Contains(flat, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if utf8.RuneCountInString(line) > 100 {
			t.Errorf("line of %d columns: %s", utf8.RuneCountInString(line), line)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--skills", "0.5,0.2"}, `--skills "0.5,0.2": "0.2" is not above the skill before it`},
		{[]string{"--skills", "0,3"}, `"3" is not a skill from 0 to 2`},
		{[]string{"--target", "1"}, "--target 1: a win rate"},
		{[]string{"--search-games", "0"}, "--search-games 0 is outside"},
		{[]string{"--politician", "all"}, `"all" is not a politician`},
		{[]string{"--mode", "hard,hard"}, "given twice"},
	} {
		code, _, errs := runCLI(t, append([]string{"curve", "--games", "2"}, tt.args...)...)
		if code != exitBadArgs || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errs, tt.want)
		}
	}
}

// calibrate reads what sim --record writes and what play saves, and an
// outcomes CSV; its errors name the file and line.
func TestCalibrateCommand(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "panel.jsonl")
	if code, _, errs := runCLI(t, "sim", "--policy", "dial:skill=0.4", "--mode", "normal", "--games", "2", "--seed", "13013", "--record", rec, "--quiet"); code != exitOK {
		t.Fatalf("sim --record: exit %d: %s", code, errs)
	}
	csv := filepath.Join(dir, "outcomes.csv")
	os.WriteFile(csv, []byte("tester,difficulty,result,margin\nana,normal,won,3\nana,normal,lost,\nana,hard,lost,-9\n"), 0o644)
	args := []string{"calibrate", rec, "--outcomes", csv, "--games", "30", "--search-games", "2", "--skills", "0,0.5,1,2", "--levels", "casual,skilled", "--quiet"}
	code, out, errs := runCLI(t, append(args, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Kind    string
		Testers []struct {
			Name        string
			DecisionFit *struct{ Skill float64 } `json:"decision_fit"`
			ResultFit   *struct{ Skill float64 } `json:"result_fit"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Kind != "calibrate" || len(doc.Testers) != 2 || doc.Testers[0].Name != "ana" || doc.Testers[0].DecisionFit != nil ||
		doc.Testers[0].ResultFit == nil || doc.Testers[1].Name != "dial:skill=0.4" || doc.Testers[1].DecisionFit == nil {
		t.Errorf("result %.600s", out)
	}
	_, text, _ := runCLI(t, args...)
	if !strings.Contains(text, "ana: 1 win in 3 on Normal") && !strings.Contains(text, "ana: 1 win in 2 on Normal") {
		t.Errorf("no sentence on ana's results:\n%s", text)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"type":"decision","n":1,"id":"end/0/0/0"}`+"\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", bad}, bad + ":1: a decision before any game line"},
		{[]string{"calibrate", filepath.Join(dir, "x.txt")}, "not a save file of play (.json) nor a record of decisions (.jsonl)"},
		{[]string{"calibrate"}, "nothing to calibrate from"},
		{[]string{"calibrate", rec, "--skills", "0.5,2"}, "its skills go from 0 to 2"},
		{[]string{"calibrate", rec, "--out", rec}, "which this command reads: writing it would replace that input"},
		{[]string{"calibrate", rec, "--outcomes", csv, "--out", csv}, "which this command reads"},
	} {
		code, _, errs := runCLI(t, tt.args...)
		if code == exitOK || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, code, errs, tt.want)
		}
	}
}
