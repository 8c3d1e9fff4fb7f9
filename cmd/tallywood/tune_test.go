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

// TestTuneRefuses: bad targets and fields are named.
func TestTuneRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--target", "normal:random", "--vary", "track.max"}, "want MODE:POLICY=RATE"},
		{[]string{"--target", "normal:random=1.5", "--vary", "track.max"}, "not a win rate"},
		{[]string{"--target", "normal:random=0.4", "--vary", "no.such.*"}, "matches no numeric field"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max=9..3"}, "not LO..HI"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max", "--vary", "track.*"}, "varied by"},
		{[]string{"--target", "normal:random=0.4", "--vary", "track.max", "--seed", "5", "--confirm-seed", "5"}, "fresh seeds"},
	} {
		code, _, stderr := runCLI(t, append([]string{"tune", "--quiet"}, tt.args...)...)
		if code == 0 || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tt.args, code, stderr, tt.want)
		}
	}
}
