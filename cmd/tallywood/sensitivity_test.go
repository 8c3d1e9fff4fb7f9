package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/sim"
)

// TestSensitivityBadInput: each bad input is one line naming the flag,
// exit 2.
func TestSensitivityBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--step", "0"}, `tallywood: sensitivity: --step "0": a whole number of units`},
		{[]string{"--step", "-5%"}, `tallywood: sensitivity: --step "-5%": a percentage above 0`},
		{[]string{"--fields", "difficulties.easy.*"}, `tallywood: sensitivity: --fields: rules: "difficulties.easy.*" matches no number or choice of the rules file (named as --set takes them, e.g. difficulties.hard.* or solo_cards[S-03].*); nearest: difficulties.hard.*`},
		{[]string{"--wide", "--format", "csv"}, "tallywood: sensitivity: --wide"},
		{[]string{"--games", "0"}, "tallywood: sensitivity: --games 0"},
		{[]string{"--shard", "1/2"}, "tallywood: sensitivity: --shard: a race plays its looks in order, on every seed; add --fixed"},
		{[]string{"--fixed", "--confirm-seed", "3"}, "tallywood: sensitivity: --confirm-seed: a fixed scan has no confirmation"},
		{[]string{"--confirm-seed", "1"}, "tallywood: sensitivity: --confirm-seed 1: the scan's seed"},
		{[]string{"--tolerance", "0"}, "tallywood: sensitivity: --tolerance 0 is not above 0"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"sensitivity"}, c.args...), &out, &errb)
		if code != exitBadArgs || !strings.HasPrefix(errb.String(), c.want) || strings.Count(errb.String(), "\n") != 1 || out.Len() > 0 {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errb.String(), c.want)
		}
	}
}

// TestSensitivityShardsMerge: two shards of a fixed scan merged by
// `merge` are the unsharded scan, timing aside.
func TestSensitivityShardsMerge(t *testing.T) {
	dir := t.TempDir()
	scan := []string{"sensitivity", "--fixed", "--fields", "difficulties.hard.bonus_divisor", "--mode", "hard", "--policy", "random", "--games", "20", "--seed", "9803", "--quiet"}
	var files []string
	for _, shard := range []string{"1/1", "1/2", "2/2"} {
		f := filepath.Join(dir, strings.ReplaceAll(shard, "/", "of")+".json")
		var errb bytes.Buffer
		if code := run(append(scan, "--shard", shard, "--out", f), &bytes.Buffer{}, &errb); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", shard, code, errb.String())
		}
		files = append(files, f)
	}
	merged := filepath.Join(dir, "merged.json")
	var errb bytes.Buffer
	if code := run([]string{"merge", files[1], files[2], "--out", merged}, &bytes.Buffer{}, &errb); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errb.String())
	}
	var got [2]string
	for i, f := range []string{files[0], merged} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.DecodeAs[*sim.SensitivityResult](data)
		if err != nil {
			t.Fatal(err)
		}
		r.GamesPerSecond, r.ElapsedSeconds = 0, 0
		for j := range r.Cells {
			r.Cells[j].Base.GamesPerSecond, r.Cells[j].Base.ElapsedSeconds = 0, 0
		}
		got[i] = string(sim.Encode(r))
	}
	if got[0] != got[1] {
		t.Errorf("merged shards differ from the whole scan:\n%s\n%s", got[1], got[0])
	}
}
