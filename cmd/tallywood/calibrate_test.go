package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy/exec/exectest"
)

// calibrateQuick are calibrate's flags for a small run.
var calibrateQuick = []string{"--games", "10", "--search-games", "1", "--skills", "0,1,2", "--levels", "casual", "--quiet"}

// recordOne writes a record of decisions of one game of a random player
// (seed seed) to dir/name and returns its path.
func recordOne(t *testing.T, dir, name string, seed string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if code, _, errs := runCLI(t, "sim", "--games", "1", "--mode", "normal", "--policy", "random", "--seed", seed,
		"--record", path, "--out", "/dev/null", "--quiet"); code != exitOK {
		t.Fatalf("sim --record: exit %d: %s", code, errs)
	}
	return path
}

// TestCalibrateReadsEachGameOnce: a record named twice, through a symlink
// or as a copy is refused, naming both, before any game of the curves.
// Before, each was counted twice and the interval narrowed as if there
// were twice the games.
func TestCalibrateReadsEachGameOnce(t *testing.T) {
	dir := t.TempDir()
	rec := recordOne(t, dir, "rec.jsonl", "5")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(rec, link); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(dir, "copy.jsonl")
	if err := os.WriteFile(cp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	other := recordOne(t, dir, "other.jsonl", "6")
	for _, tt := range []struct {
		files []string
		code  int
		want  string
	}{
		{[]string{rec, rec}, exitBadArgs, rec + " is " + rec + ", named already"},
		{[]string{rec, link}, exitBadArgs, link + " is " + rec + ", named already (or a link to it)"},
		{[]string{rec, cp}, exitFailed, cp + ":1: the same game as " + rec + ":1"},
		{[]string{rec, other, rec}, exitBadArgs, "named already"},
	} {
		code, _, errs := runCLI(t, append(append([]string{"calibrate"}, tt.files...), calibrateQuick...)...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("calibrate %q: exit %d, %q; want %d and %q", tt.files, code, errs, tt.code, tt.want)
		}
	}
	if code, _, errs := runCLI(t, append([]string{"calibrate", rec, other}, calibrateQuick...)...); code != exitOK {
		t.Errorf("two games: exit %d: %s", code, errs)
	}
}

// TestCalibrateReadsSoloGamesOnly: a save of a game at a table is refused
// by name. Before, a 2-seat save was fitted as a solo Normal game, and a
// 3-seat one called damaged.
func TestCalibrateReadsSoloGamesOnly(t *testing.T) {
	dir := t.TempDir()
	for _, seats := range []string{"2", "3"} {
		save := filepath.Join(dir, "table"+seats+".json")
		if code, _, errs := runPlayWith(t, "1\n1\ns\n", "--seats", seats, "--seed", "4", "--save", save); code != exitOK {
			t.Fatalf("play --seats %s: exit %d: %s", seats, code, errs)
		}
		code, _, errs := runCLI(t, append([]string{"calibrate", save}, calibrateQuick...)...)
		if want := save + ": a game at a table (play --seats " + seats + "), not a solo game"; code != exitBadArgs || !strings.Contains(errs, want) {
			t.Errorf("a %s-seat save: exit %d, %q; want 2 and %q", seats, code, errs, want)
		}
	}
}

// TestCalibrateLevelProgramFails: a level program that fails fails the
// calibration, naming it, after one wait at most. Before, exec:false was
// counted as choosing the first option ("matches 45.5% of decisions"),
// and a program that hangs was restarted and waited for at every
// decision (a 134-decision record: 22 minutes at the default 10 s).
func TestCalibrateLevelProgramFails(t *testing.T) {
	rec := recordOne(t, t.TempDir(), "rec.jsonl", "5")
	for _, level := range []string{"exec:false", exectest.Spec("hangnow", "", "timeout=1s")} {
		args := append([]string{"calibrate", rec}, calibrateQuick...)
		args = append(args, "--levels", level)
		code, stderr := runWithin(t, args...)
		if want := "the level " + level + " failed"; code != exitFailed || !strings.Contains(stderr, want) {
			t.Errorf("--levels %s: exit %d, %q; want 1 and %q", level, code, stderr, want)
		}
	}
}

// TestCalibrateOutcomesRulesStayInFolder: an outcomes CSV's rules column
// goes through the trust rules of a save's lineup: relative to the CSV,
// inside its folder (no absolute path, no .., no symlink leading out),
// unless --trust-outcomes says the CSV is trusted. Before, any path was
// opened, and the errors printed the first byte of /etc/passwd or
// /proc/self/environ and the keys of any JSON file.
func TestCalibrateOutcomesRulesStayInFolder(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(dir, "outside.json")
	if err := os.WriteFile(rules, engine.ReferenceJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(secret, []byte(`{"password_key": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(in, "link.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(in, "mine.json"), engine.ReferenceJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	csv := func(rules string) string {
		path := filepath.Join(in, "outcomes.csv")
		if err := os.WriteFile(path, []byte("tester,difficulty,result,rules\nana,normal,won,"+rules+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tt := range []struct{ rules, want string }{
		{"/etc/passwd", `rules "/etc/passwd": is not a path inside the CSV's folder (no absolute path, no ..): name rules files relative to the CSV, or add --trust-outcomes`},
		{"/proc/self/environ", `rules "/proc/self/environ": is not a path inside the CSV's folder`},
		{"../outside.json", `rules "../outside.json": is not a path inside the CSV's folder`},
		{"../secret.json", `rules "../secret.json": is not a path inside the CSV's folder`},
		{"link.json", `rules "link.json": cannot be read: path escapes from parent`},
	} {
		path := csv(tt.rules)
		code, _, errs := runCLI(t, append([]string{"calibrate", "--outcomes", path}, calibrateQuick...)...)
		if code != exitBadArgs || !strings.Contains(errs, path+":2: "+tt.want) || strings.Contains(errs, "password") || strings.Contains(errs, "root") {
			t.Errorf("rules %s: exit %d, %q; want 2 and %q", tt.rules, code, errs, tt.want)
		}
	}
	for _, tt := range []struct {
		rules string
		trust bool
	}{{"mine.json", false}, {"../outside.json", true}, {rules, true}} {
		args := append([]string{"calibrate", "--outcomes", csv(tt.rules)}, calibrateQuick...)
		if tt.trust {
			args = append(args, "--trust-outcomes")
		}
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Errorf("rules %s (trusted %v): exit %d: %s", tt.rules, tt.trust, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "calibrate", "--trust-outcomes", recordOne(t, dir, "r.jsonl", "5")); code != exitBadArgs || !strings.Contains(errs, "--trust-outcomes") {
		t.Errorf("--trust-outcomes without --outcomes: exit %d: %s", code, errs)
	}
}

// TestCalibrateSaysWhatItDid: the README's line reads the shipped example
// CSV; a CSV-only run says "results only", not "0 recorded games";
// --predict-rules naming the same rules says so, where before it printed
// nothing; and a long run says its cost on stderr before it starts.
func TestCalibrateSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "mine-rules.json")
	code, dump, errs := runCLI(t, "rules", "dump")
	if code != exitOK {
		t.Fatalf("rules dump: %d %s", code, errs)
	}
	if err := os.WriteFile(same, []byte(dump), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, append([]string{"calibrate", "--outcomes", "../../testdata/playtests.csv", "--predict-rules", same}, calibrateQuick...)...)
	if code != exitOK {
		t.Fatalf("calibrate: exit %d: %s", code, errs)
	}
	for _, want := range []string{"results only (no recorded game", "mine-rules.json (--predict-rules): the same rules as these",
		"pooled: ana, bo, cleo, as one skill", "wider than the 95% interval"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("calibrate's text lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(errs, "CPU-minute") {
		t.Errorf("a short run says a cost: %s", errs)
	}
	// The defaults' curves: about 3 CPU-minutes, said before the run.
	if note := calibrateCostOf(t); !strings.Contains(note, "calibrate: about 3 CPU-minutes: 22000 games") {
		t.Errorf("the cost said: %q", note)
	}
}

// calibrateCostOf is the cost calibrate says of the defaults' curves.
func calibrateCostOf(t *testing.T) string {
	t.Helper()
	skills, err := parseSkills("skills", defaultSkills)
	if err != nil {
		t.Fatal(err)
	}
	return calibrateCost(&sim.CalibrateConfig{Skills: skills, Games: 1000, SearchGames: 200, RunConfig: sim.RunConfig{Shard: sim.Shard{K: 1, N: 1}}})
}
