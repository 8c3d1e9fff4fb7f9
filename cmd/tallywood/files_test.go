package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/sim/policy"
)

// runWithin runs the command line args, failing the test if it has not
// returned within 20 seconds (a FIFO opened for reading waits for a
// writer for ever).
func runWithin(t *testing.T, args ...string) (code int, stderr string) {
	t.Helper()
	type ran struct {
		code   int
		stderr string
	}
	done := make(chan ran, 1)
	go func() {
		var r ran
		if args[0] == "play" {
			r.code, _, r.stderr = runPlayWith(t, "", args[1:]...)
		} else {
			r.code, _, r.stderr = runCLI(t, args...)
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("%s: still running after 20s", strings.Join(args, " "))
	}
	return 0, ""
}

// TestInputsRefuseFIFOs: every file a command reads is read by one
// reader, which refuses what is not a regular file; a FIFO named as any
// input is refused at once, naming it, where it used to wait for a
// writer for ever.
func TestInputsRefuseFIFOs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tune := []string{"tune", "--target", "normal:casual=0.3", "--vary", "difficulties.hard.bonus_divisor", "--budget", "300", "--confirm-games", "10"}
	for _, args := range [][]string{
		{"sim", "--games", "1", "--rules", fifo},
		{"compare", "--games", "1", "--b-rules", fifo},
		{"rules", "check", fifo},
		{"rules", "diff", "reference", fifo},
		{"sensitivity", "--list", "--rules", fifo},
		append(tune, "--rules", fifo),
		{"merge", fifo},
		{"report", fifo},
		{"trace", "--load", fifo},
		{"play", "--load", fifo},
		{"scenario", "run", fifo},
		{"sim", "--games", "1", "--policy", "learned:weights=" + fifo},
	} {
		code, stderr := runWithin(t, args...)
		if code != exitBadArgs || !strings.Contains(stderr, fifo+" is a FIFO (named pipe), not a regular file") {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestOutputIsNoInput: no output replaces one of the command's inputs or
// another of its outputs, however the file is named (the same name, ./,
// a symlink, a hard link): the command exits 2 before any game, naming
// both, and every file is as it was. Before, each of these exited 0 and
// replaced the input (a shard, a result with its own report, the rules
// file, the base rules with the tuned ones) or lost the tuned rules.
func TestOutputIsNoInput(t *testing.T) {
	dir := t.TempDir()
	shards := writeShards(t, dir, 2)
	rules := filepath.Join(dir, "r.json")
	weights := filepath.Join(dir, "w.json")
	link := filepath.Join(dir, "link.json")
	hard := filepath.Join(dir, "hard.json")
	for _, f := range []struct {
		path string
		data []byte
	}{{rules, engine.ReferenceJSON()}, {weights, policy.ShippedNet.Encode()}} {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(shards[0], link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(rules, hard); err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(dir, "same.json") // not there yet
	tune := []string{"tune", "--target", "normal:casual=0.3", "--vary", "difficulties.hard.bonus_divisor", "--budget", "300", "--confirm-games", "10", "--quiet"}
	before := snapshot(t, dir)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", "--format", "json", "--out", shards[0], shards[0], shards[1]},
			fmt.Sprintf("--out %q is the input file %q, which this command reads", shards[0], shards[0])},
		{[]string{"merge", "--out", link, shards[0], shards[1]}, fmt.Sprintf("--out %q is the input file %q", link, shards[0])},
		{[]string{"report", "--out", shards[1], shards[1]}, fmt.Sprintf("--out %q is the input file %q", shards[1], shards[1])},
		{[]string{"sim", "--games", "2", "--quiet", "--rules", rules, "--out", rules}, fmt.Sprintf("--out %q is the file --rules names (%q)", rules, rules)},
		{[]string{"sim", "--games", "2", "--quiet", "--rules", rules, "--out", hard}, fmt.Sprintf("--out %q is the file --rules names (%q)", hard, rules)},
		{[]string{"compare", "--games", "2", "--quiet", "--b-rules", rules, "--out", dir + "/./r.json"}, "is the file --b-rules names"},
		{[]string{"sim", "--games", "2", "--quiet", "--policy", "learned:weights=" + weights, "--out", weights}, fmt.Sprintf("is the file weights= names (%q)", weights)},
		{append(tune, "--rules", rules, "--out", rules), fmt.Sprintf("--out %q is the file --rules names", rules)},
		{append(tune, "--rules", rules, "--rules-out", rules), fmt.Sprintf("--rules-out %q is the file --rules names", rules)},
		{append(tune, "--out", same, "--rules-out", same), fmt.Sprintf("--rules-out %q is the file --out writes (%q): give each output a file of its own", same, same)},
	} {
		code, _, stderr := runCLI(t, tt.args...)
		if code != exitBadArgs || !strings.Contains(stderr, tt.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, stderr, tt.want)
		}
		if after := snapshot(t, dir); after != before {
			t.Fatalf("%s changed the files:\n%s\nwant\n%s", strings.Join(tt.args, " "), after, before)
		}
	}
	// Outputs that are streams (a device, a FIFO) are written into, not
	// replaced: /dev/null twice is no clash.
	if code, _, stderr := runCLI(t, append(tune, "--out", "/dev/null", "--rules-out", "/dev/null")...); code != exitOK {
		t.Errorf("tune to /dev/null twice: exit %d, %s", code, stderr)
	}
}

// snapshot lists the files of dir with their contents' digests.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%s %x\n", e.Name(), sha256.Sum256(data))
	}
	return b.String()
}

// TestForgedWeightsRefused: weights whose learned score could overflow
// (the shipped weights with one bias set to 3.4e38, which the loader
// took as finite) are refused by every command that loads them, where
// the guided search panicked (index −1 in its selection) in sim, trace
// and compare, and learned: played on and lost every game without a word.
func TestForgedWeightsRefused(t *testing.T) {
	n := *policy.ShippedNet
	n.B1 = append([]float32(nil), n.B1...)
	n.B1[1] = 3.4e38
	path := filepath.Join(t.TempDir(), "forged.json")
	if err := os.WriteFile(path, n.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	guided, learned := "mcts:iters=20,prior=16,weights="+path, "learned:weights="+path
	for _, args := range [][]string{
		{"sim", "--games", "2", "--quiet", "--policy", guided},
		{"sim", "--games", "2", "--quiet", "--policy", learned},
		{"trace", "--policy", guided},
		{"compare", "--games", "2", "--quiet", "--b-policy", guided},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitBadArgs || !strings.Contains(stderr, "value weights: b1[1] is 3.4e+38, outside ±65536") {
			t.Errorf("%s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestLongArgumentsClipped: an error repeats a flag's value cut to its
// start, saying how long it was, never a 100 KB argument whole (a --set
// error repeated it twice on one line).
func TestLongArgumentsClipped(t *testing.T) {
	long := strings.Repeat("a", 100000)
	digits := strings.Repeat("9", 100000)
	for _, args := range [][]string{
		{"sim", "--set", long + "=3"},
		{"sim", "--set", "difficulties.hard.bonus_divisor=" + digits},
		{"compare", "--b-set", long + "=3"},
		{"sweep", "--set", long + "=3"},
		{"sweep", "--set", "difficulties.hard.bonus_divisor=" + digits},
		{"sensitivity", "--fields", long},
		{"tune", "--target", "normal:casual=0.3", "--vary", long},
		{"tune", "--target", "normal:" + long + "=0.3", "--vary", "track.max"},
		{"sim", "--policy", long},
		{"sim", "--mode", long},
	} {
		code, _, stderr := runCLI(t, append(args, "--quiet")...)
		if code != exitBadArgs || len(stderr) > 1000 || !strings.Contains(stderr, " bytes)") {
			t.Errorf("%s %s: exit %d, %d bytes of error: %.300q", args[0], args[1], code, len(stderr), stderr)
		}
	}
}
