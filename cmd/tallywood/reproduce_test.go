package main

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// reproduceKinds are a small run of every kind whose report prints the
// command that reproduces it (calibrate reads testers' files and prints
// none), written as the report writes its flags, so that the flags the
// command parses to can be held to the run's.
var reproduceKinds = []struct {
	name string
	cmd  *studyCommand
	args []string
}{
	{"sim", simCommand, []string{"sim", "--games", "12", "--seed", "31", "--mode", "hard", "--policy", "random,greedy", "--politician", "all",
		"--set", "difficulties.hard.bonus_divisor=3"}},
	{"sim --seats", simCommand, []string{"sim", "--seats", "2", "--policy", "random,greedy", "--games", "6", "--seed", "32"}},
	{"compare", compareCommand, []string{"compare", "--games", "12", "--seed", "33", "--mode", "hard", "--policy", "random",
		"--b-set", "difficulties.hard.bonus_divisor=3"}},
	{"compare --seats", compareCommand, []string{"compare", "--seats", "2", "--policy", "random,greedy", "--games", "6", "--seed", "34",
		"--b-set", "difficulties.hard.bonus_divisor=3"}},
	{"sweep", sweepCommand, []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,3", "--games", "12", "--seed", "35",
		"--mode", "hard", "--policy", "random"}},
	{"cards", cardsCommand, []string{"cards", "--games", "20", "--seed", "36", "--mode", "hard", "--policy", "greedy"}},
	{"sensitivity", sensitivityCommand, []string{"sensitivity", "--fixed", "--fields", "difficulties.hard.bonus_divisor",
		"--games", "10", "--seed", "37", "--mode", "hard", "--policy", "random"}},
	{"tune", tuneCommand, []string{"tune", "--target", "normal:random=0.1", "--vary", "difficulties.normal.bonus_divisor=2..3",
		"--budget", "150", "--seed", "38", "--confirm-games", "10"}},
	{"curve", curveCommand, []string{"curve", "--skills", "0,0.5", "--games", "10", "--seed", "39", "--mode", "hard"}},
	{"arc", arcCommand, []string{"arc", "--games", "10", "--seed", "40", "--mode", "hard", "--policy", "casual"}},
}

// TestReproducingCommands runs every kind whole, as shards 1/3 and 2/3,
// and as those two shards merged, and reads the command each report
// prints (issue 41): it parses with the kind's real flags, its flags
// hold the run's values (seed and settings alike), and it names the run's
// shard: none, --shard K/N, or, merged, the command of each shard into a
// file of its own and a merge of those files. Run as printed, the merged
// one writes the merged result again, byte for byte but the timing.
func TestReproducingCommands(t *testing.T) {
	for _, kind := range reproduceKinds {
		t.Run(strings.ReplaceAll(kind.name, " ", ""), func(t *testing.T) {
			dir := t.TempDir()
			play := func(name string, extra ...string) string {
				out := filepath.Join(dir, name+".json")
				args := append(slices.Clip(kind.args), append(extra, "--format", "json", "--out", out, "--quiet")...)
				if code, _, errs := runCLI(t, args...); code != exitOK {
					t.Fatalf("%q: exit %d: %s", args, code, errs)
				}
				return out
			}
			whole, one, two := play("whole"), play("one", "--shard", "1/3"), play("two", "--shard", "2/3")
			merged := filepath.Join(dir, "merged.json")
			if code, _, errs := runCLI(t, "merge", "--format", "json", "--out", merged, one, two); code != exitOK {
				t.Fatalf("merge: exit %d: %s", code, errs)
			}

			if cmds := printedCommands(t, whole); len(cmds) != 1 {
				t.Errorf("whole: %d commands, want 1", len(cmds))
			} else {
				checkReproducing(t, kind.cmd, kind.args, "1/1", cmds[0])
			}
			if cmds := printedCommands(t, one); len(cmds) != 1 {
				t.Errorf("shard 1/3: %d commands, want 1", len(cmds))
			} else {
				checkReproducing(t, kind.cmd, kind.args, "1/3", cmds[0])
			}
			cmds := printedCommands(t, merged)
			if len(cmds) != 3 {
				t.Fatalf("shards 1+2/3: %d commands, want the two shards' and a merge", len(cmds))
			}
			var outs []string
			for k, c := range cmds[:2] {
				fs := checkReproducing(t, kind.cmd, kind.args, fmt.Sprintf("%d/3", k+1), c)
				outs = append(outs, fs.Lookup("out").Value.String())
			}
			mo, _, err := parseMerge(cmds[2][1:])
			if cmds[2][0] != "merge" || err != nil || mo.format != "json" || mo.out != "" || !slices.Equal(mo.files, outs) {
				t.Fatalf("%q: not the merge of %q into JSON on stdout (%v)", cmds[2], outs, err)
			}

			// Run as printed, in a folder of their own (the files are
			// named relative to it): the same JSON, timing aside.
			t.Chdir(t.TempDir())
			for _, c := range cmds[:2] {
				if code, _, errs := runCLI(t, append(c, "--quiet")...); code != exitOK {
					t.Fatalf("%q: exit %d: %s", c, code, errs)
				}
			}
			code, again, errs := runCLI(t, cmds[2]...)
			if code != exitOK {
				t.Fatalf("%q: exit %d: %s", cmds[2], code, errs)
			}
			want, _ := os.ReadFile(merged)
			if !bytes.Equal(untimed(t, []byte(again)), untimed(t, want)) {
				t.Errorf("the printed commands write another result than the merged shards")
			}
		})
	}
}

// printedCommands reports on the result file and returns the command
// its page prints, split at && into the words of each command, without
// the leading tallywood.
func printedCommands(t *testing.T, result string) [][]string {
	t.Helper()
	page := result + ".html"
	if code, stdout, errs := runCLI(t, "report", result, "--out", page); code != exitOK || stdout != "" || errs != "tallywood: wrote "+page+"\n" {
		t.Fatalf("report %s: exit %d, stdout %q, stderr %q", result, code, stdout, errs)
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	m := commandFact.FindSubmatch(data)
	if m == nil {
		t.Fatalf("the report of %s shows no command", result)
	}
	var cmds [][]string
	for _, line := range strings.Split(html.UnescapeString(string(m[1])), " && ") {
		words := shellWords(t, line)
		if len(words) < 2 || words[0] != "tallywood" {
			t.Fatalf("%q is not a tallywood command", line)
		}
		cmds = append(cmds, words[1:])
	}
	return cmds
}

// checkReproducing parses the printed command words with c's flags and
// holds every flag to its value in the run (args with --shard shard, or
// no --shard for 1/1), but for where the JSON goes and how the run
// looks: the command plays the run's games.
func checkReproducing(t *testing.T, c *studyCommand, args []string, shard string, words []string) *pflag.FlagSet {
	t.Helper()
	if words[0] != args[0] {
		t.Fatalf("%q: not a %s command", words, args[0])
	}
	got, _, err := c.parse(words[1:])
	if err != nil {
		t.Fatalf("%q does not parse: %v", words, err)
	}
	run := slices.Clip(args[1:])
	if shard != "1/1" {
		run = append(run, "--shard", shard)
	}
	want, _, err := c.parse(run)
	if err != nil {
		t.Fatalf("%q: %v", run, err)
	}
	if got.format != "json" {
		t.Errorf("%q writes %s, not JSON", words, got.format)
	}
	want.fs.VisitAll(func(f *pflag.Flag) {
		switch f.Name {
		case "out", "format", "quiet", "workers":
			return
		}
		if g := got.fs.Lookup(f.Name).Value.String(); g != f.Value.String() {
			t.Errorf("%q: --%s %s, the run's was %s", words, f.Name, g, f.Value.String())
		}
	})
	return got.fs
}
