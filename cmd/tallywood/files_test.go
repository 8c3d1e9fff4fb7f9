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
	"tallywood/sim"
	"tallywood/sim/playtest"
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

// TestStreamOutputsAppend: an output naming the process's standard output
// or error (/dev/stdout, /dev/stderr) is written through it, so a file
// the shell redirected it to keeps what it held and what else the command
// writes there. Before, the file was renamed over: `--out /dev/stdout >>
// log.txt` lost log.txt's earlier lines, `--record /dev/stdout >
// both.txt` the JSON result, `--record /dev/stderr 2>> err.log` all of
// err.log.
func TestStreamOutputsAppend(t *testing.T) {
	dir := t.TempDir()
	run := `"$TW" sim --games 4 --mode normal --policy random --seed 3 --quiet --format json`
	for _, tt := range []struct {
		name, script, file string
		record, result     bool
	}{
		{"--out /dev/stdout >> log.txt", "echo earlier > log.txt && " + run + " --out /dev/stdout >> log.txt", "log.txt", false, true},
		{"--record /dev/stdout > both.txt", run + " --record /dev/stdout > both.txt", "both.txt", true, true},
		{"--record /dev/stderr 2>> err.log", "echo earlier > err.log && " + run + " --record /dev/stderr >/dev/null 2>> err.log", "err.log", true, false},
		{"--out log.txt >> log.txt", "echo earlier > log.txt && " + run + " --out log.txt >> log.txt", "log.txt", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, stderr := shell(t, dir, tt.script); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			if strings.HasPrefix(tt.script, "echo earlier") && !strings.HasPrefix(text, "earlier\n") {
				t.Errorf("%s lost its earlier lines:\n%.300s", tt.file, text)
			}
			text = strings.TrimPrefix(text, "earlier\n")
			record, result, _ := strings.Cut(text, "\n{\n")
			if tt.record {
				games, err := playtest.ParseDecisions(tt.file, []byte(record))
				if err != nil || len(games) != 4 {
					t.Errorf("%s holds no record of 4 games (%d): %v\n%.300s", tt.file, len(games), err, text)
				}
			}
			if tt.result {
				if !tt.record {
					result = strings.TrimPrefix(text, "{\n")
				}
				if _, err := sim.Decode([]byte("{\n" + result)); err != nil {
					t.Errorf("%s holds no result: %v\n%.300s", tt.file, err, text)
				}
			}
		})
	}
}

// TestPlaySaveIsNoInput: play's save file joins the check of every output
// against the inputs: --save naming the rules file, or s typing it, is
// refused and the rules file stays as it was. Before, the save replaced
// the rules file.
func TestPlaySaveIsNoInput(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "r.json")
	link := filepath.Join(dir, "link.json")
	if err := os.WriteFile(rules, engine.ReferenceJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rules, link); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	want := fmt.Sprintf("is the file --rules names (%q), which this command reads", rules)
	for _, save := range []string{rules, link} {
		code, out, stderr := runPlayWith(t, "1\ns\n", "--seed", "21", "--rules", rules, "--save", save)
		if code != exitBadArgs || !strings.Contains(stderr, want) || out != "" {
			t.Errorf("--save %s: exit %d, stderr %q, stdout %.100q; want 2 and %q before the game", save, code, stderr, out, want)
		}
		code, out, stderr = runPlayWith(t, "1\ns "+save+"\nq\n", "--seed", "21", "--rules", rules)
		if code != exitOK || !strings.Contains(out, "Could not save: save file") || !strings.Contains(out, want) {
			t.Errorf("s %s: exit %d, stderr %q; want the save refused, saying %q:\n%s", save, code, stderr, want, out)
		}
		if after := snapshot(t, dir); after != before {
			t.Fatalf("saving to %s changed the files:\n%s\nwant\n%s", save, after, before)
		}
	}
}
