package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
)

// TestTuneWritesRulesAndResult: --rules-out writes a rules file that plays as
// the result's tuned rules, says it was tuned, and the JSON result decodes
// as a tune.
func TestTuneWritesRulesAndResult(t *testing.T) {
	dir := t.TempDir()
	out, result := filepath.Join(dir, "tuned.json"), filepath.Join(dir, "tune.json")
	code, _, stderr := runCLI(t, "tune", "--target", "normal:random=0.1", "--vary", "difficulties.normal.bonus_divisor=2..3",
		"--budget", "150", "--confirm-games", "20", "--quiet", "--rules-out", out, "--out", result)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	tuned, err := engine.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.DecodeAs[*sim.TuneResult](data)
	if err != nil {
		t.Fatal(err)
	}
	if tuned.Hash != res.TunedHash || !strings.HasSuffix(tuned.Name, "-tuned") {
		t.Errorf("tuned file: hash %s name %q; the result's tuned hash %s", tuned.Hash, tuned.Name, res.TunedHash)
	}
}

// TestTuneRefuses: bad targets, fields and budgets are named, exit 2.
func TestTuneRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "normal:random", "--vary", "track.max"}, "want MODE:POLICY=RATE"},
		{[]string{"--target", "normal:random=1.5", "--vary", "track.max"}, "not a win rate"},
		{[]string{"--target", "normal:random=0.4", "--vary", "no.such.*"}, "matches no number or choice"},
		{[]string{"--target", "normal:random=0.4", "--vary", "solo_cards[S-13].*=0..2"}, "a range is for numbers"},
		{[]string{"--target", "normal:random=-1.5", "--vary", "solo_cards[S-13].*"}, "is not a change of the win rate"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max=9..3"}, "not LO..HI"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max", "--vary", "track.*"}, "varied by"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max", "--seed", "5", "--confirm-seed", "5"}, "fresh seeds"},
		// A duplicate is named as typed, not by the level's spec (it said
		// normal:greedy).
		{[]string{"--target", "normal:casual=0.3", "--target", "normal:casual=0.4", "--vary", "track.max"},
			`--target "normal:casual=0.4": normal:casual has a target already ("normal:casual=0.3")`},
		{[]string{"--target", "normal:greedy=0.3", "--target", "normal:casual=0.4", "--vary", "track.max"},
			`--target "normal:casual=0.4": normal:casual has a target already ("normal:greedy=0.3")`},
		// Budgets too small for a search are usage errors, before any game
		// (--time 1ns exited 1 after timing a block).
		{[]string{"--target", "normal:random=0.4", "--vary", "difficulties.hard.bonus_divisor", "--budget", "10"},
			"--budget 10: the search needs at least 150 games for these targets and fields"},
		{[]string{"--target", "normal:random=0.4", "--vary", "difficulties.hard.bonus_divisor", "--time", "1ns"},
			"--time 1ns: about "},
	} {
		code, _, stderr := runCLI(t, append([]string{"tune", "--quiet"}, tt.args...)...)
		if code != exitBadArgs || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tt.args, code, stderr, tt.want)
		}
	}
}

// TestTuneRulesOutDestination: the tuned rules file is written as every
// --out is (through a symlink, its target's mode kept) and checked before
// the search, so that a search never ends in "cannot write": a bad
// --rules-out stops tune before it plays, and no result is written.
func TestTuneRulesOutDestination(t *testing.T) {
	dir := t.TempDir()
	args := []string{"tune", "--target", "normal:random=0.1", "--vary", "difficulties.normal.bonus_divisor=2..3",
		"--budget", "150", "--confirm-games", "20", "--quiet"}
	target, link := filepath.Join(dir, "target.json"), filepath.Join(dir, "tuned.json")
	os.WriteFile(target, []byte("old"), 0o600)
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, append(args, "--rules-out", link, "--out", filepath.Join(dir, "r.json"))...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	if _, err := engine.LoadFile(target); err != nil {
		t.Errorf("the symlink's target does not hold the tuned rules: %v", err)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want its own 0600 kept", st.Mode().Perm())
	}

	result := filepath.Join(dir, "never.json")
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "none", "tuned.json"), `tallywood: tune: --rules-out "` + filepath.Join(dir, "none", "tuned.json") + `": directory "` + filepath.Join(dir, "none") + `" does not exist; see 'tallywood tune --help'` + "\n"},
		{"-", "tallywood: tune: --rules-out -: the tuned rules need a file (the result goes to stdout, or to --out); see 'tallywood tune --help'\n"},
	} {
		code, _, stderr := runCLI(t, append(args, "--rules-out", c.out, "--out", result)...)
		if code != exitBadArgs || stderr != c.want {
			t.Errorf("--rules-out %s: exit %d, stderr %q; want 2, %q", c.out, code, stderr, c.want)
		}
		if _, err := os.Stat(result); err == nil {
			t.Errorf("--rules-out %s: the search ran and wrote its result", c.out)
		}
	}
}
