package main

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"tallywood/sim"
)

// FuzzFlags feeds sim's and merge's flag parsing arbitrary command lines
// (arguments separated by NUL): parsing never panics; an error is one
// line ending with the pointer to help; accepted flags give a run within
// bounds, with no cell twice.
func FuzzFlags(f *testing.F) {
	for _, line := range []string{
		"sim", "sim\x00--games\x0050\x00--mode\x00normal,Hard", "sim\x00--policy\x00mcts:iters=4,c=1.4,random",
		"sim\x00--politician\x00all", "sim\x00--politician\x00random,moderate", "sim\x00--out\x00x.csv\x00--wide",
		"sim\x00--format\x00JSON\x00--out\x00x.json", "sim\x00--shard\x003/8\x00--workers\x00100000",
		"sim\x00--games=-1", "sim\x00--mode\x00both,hard", "sim\x00-x", "sim\x00--games",
		"sim\x00--policy\x00exec:sh 'a,b',random", "sim\x00--policy\x00exec:sh \"a,\\\"b\",timeout=2s,greedy",
		"merge\x00a.json\x00b.json", "merge\x00--format\x00csv\x00--wide\x00a", "merge\x00--allow-mixed-versions",
	} {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		cmd, args := args[0], args[1:]
		for _, a := range args {
			if strings.Contains(a, "rules") {
				return // would read whatever file the fuzzer names
			}
		}
		var err error
		var fs *pflag.FlagSet
		var usage string
		switch cmd {
		case "sim":
			var o *simOptions
			o, fs, err = parseSim(args)
			usage = simUsage
			if err == nil {
				checkSimOptions(t, o)
			}
		case "merge":
			var o *mergeOptions
			o, fs, err = parseMerge(args)
			usage = mergeUsage
			if err == nil && (len(o.files) == 0 || !slices.Contains([]string{"table", "json", "csv"}, o.format)) {
				t.Fatalf("merge accepted %q: %+v", args, o)
			}
		default:
			return
		}
		if err == nil {
			return
		}
		var stdout, stderr bytes.Buffer
		code := reportParseError(err, fs, usage, &stdout, &stderr)
		if errors.Is(err, pflag.ErrHelp) {
			if code != exitOK || stdout.Len() == 0 {
				t.Fatalf("help: exit %d, stdout %q", code, stdout.String())
			}
			return
		}
		msg := stderr.String()
		suffix := "; see 'tallywood " + cmd + " --help'\n"
		if code != exitBadArgs || strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, suffix) || !strings.HasPrefix(msg, "tallywood: "+cmd+": ") {
			t.Fatalf("%q: exit %d, stderr %q", args, code, msg)
		}
	})
}

// checkSimOptions holds the invariants of an accepted sim command line.
func checkSimOptions(t *testing.T, o *simOptions) {
	t.Helper()
	c := o.cfg
	if c.Games < 1 || c.Games > sim.MaxGames || o.workers < 1 || len(c.Cells) == 0 {
		t.Fatalf("accepted games %d, workers %d, %d cells", c.Games, o.workers, len(c.Cells))
	}
	if !slices.Contains([]string{"table", "json", "csv"}, o.format) || (o.wide && o.format != "table") {
		t.Fatalf("accepted format %q with wide %t", o.format, o.wide)
	}
	type key struct {
		mode       string
		policy     string
		politician int
	}
	seen := map[key]bool{}
	for _, cell := range c.Cells {
		k := key{cell.Mode.String(), cell.Policy.Label, cell.Politician}
		if seen[k] {
			t.Fatalf("cell %v twice", k)
		}
		seen[k] = true
	}
}
