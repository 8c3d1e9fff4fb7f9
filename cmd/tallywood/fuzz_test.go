package main

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
)

// FuzzFlags feeds the study commands' and merge's flag parsing arbitrary
// command lines (arguments separated by NUL): parsing never panics; an
// error is one line ending with the pointer to help; accepted flags give
// a study within bounds, with no cell twice.
func FuzzFlags(f *testing.F) {
	for _, line := range []string{
		"sim", "sim\x00--games\x0050\x00--mode\x00normal,Hard", "sim\x00--policy\x00mcts:iters=4,c=1.4,random",
		"sim\x00--politician\x00all", "sim\x00--politician\x00random,moderate", "sim\x00--out\x00x.csv\x00--wide",
		"sim\x00--format\x00JSON\x00--out\x00x.json", "sim\x00--shard\x003/8\x00--workers\x00100000",
		"sim\x00--games=-1", "sim\x00--mode\x00both,hard", "sim\x00-x", "sim\x00--games",
		"sim\x00--policy\x00exec:sh 'a,b',random", "sim\x00--policy\x00exec:sh \"a,\\\"b\",timeout=2s,greedy",
		"sim\x00--seats\x003\x00--policy\x00greedy,random,builder", "cards\x00--all\x00--format\x00csv",
		"compare\x00--b-mode\x00hard\x00--sprt-delta\x000.02", "compare\x00--seats\x002\x00--b-set\x00track.max=14",
		"sweep\x00--set\x00difficulties.hard.bonus_divisor=2..4\x00--target\x000.4",
		"sensitivity\x00--fields\x00difficulties.*\x00--step\x0025%", "sensitivity\x00--list",
		"tune\x00--target\x00hard:greedy=0.3\x00--vary\x00difficulties.hard.bonus_divisor=2..5\x00--budget\x00100",
		"curve\x00--skills\x000,0.5,2\x00--target\x000.3", "calibrate\x00--levels\x00casual", "calibrate\x00notes.txt",
		"merge\x00a.json\x00b.json", "merge\x00--format\x00csv\x00--wide\x00a", "merge\x00--allow-mixed-versions",
	} {
		f.Add(line)
	}
	studies := map[string]*studyCommand{"sim": simCommand, "cards": cardsCommand, "compare": compareCommand,
		"sweep": sweepCommand, "sensitivity": sensitivityCommand, "tune": tuneCommand, "curve": curveCommand, "calibrate": calibrateCommand}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		cmd, args := args[0], args[1:]
		for _, a := range args {
			if strings.Contains(a, "rules") || strings.Contains(a, "outcomes") || strings.HasSuffix(a, ".json") || strings.HasSuffix(a, ".jsonl") {
				return // would read whatever file the fuzzer names (calibrate reads its .json and .jsonl arguments)
			}
		}
		var err error
		var fs *pflag.FlagSet
		var usage string
		if c, ok := studies[cmd]; ok {
			var s *studyFlags
			var p *plan
			s, p, err = c.parse(args)
			fs, usage = s.fs, c.usage
			if err == nil {
				checkStudy(t, c, s, p)
			}
		} else if cmd == "merge" {
			var o *mergeOptions
			o, fs, err = parseMerge(args)
			usage = mergeUsage
			if err == nil && (len(o.files) == 0 || !slices.Contains([]string{"table", "json", "csv"}, o.format)) {
				t.Fatalf("merge accepted %q: %+v", args, o)
			}
		} else {
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

// checkStudy holds the invariants of an accepted study command line.
func checkStudy(t *testing.T, c *studyCommand, s *studyFlags, p *plan) {
	t.Helper()
	if (s.fs.Lookup("games") != nil && (s.games < 0 || s.games > sim.MaxGames)) || s.workers < 1 || s.maxErrors < 0 {
		t.Fatalf("accepted games %d, workers %d, max errors %d", s.games, s.workers, s.maxErrors)
	}
	if !slices.Contains(c.shared.formats, s.format) || (s.wide || s.all) && s.format != "table" {
		t.Fatalf("accepted format %q with wide %t, all %t", s.format, s.wide, s.all)
	}
	if p.instead == nil && p.run == nil {
		t.Fatal("accepted, with nothing to run")
	}
	if s.fs.Lookup("politician") == nil || s.fs.Changed("seats") {
		return
	}
	cells, err := s.cells(engine.Reference())
	if err != nil {
		return // a --set the reference rules' politicians differ under
	}
	type key struct {
		mode       string
		policy     string
		politician int
	}
	seen := map[key]bool{}
	for _, cell := range cells {
		k := key{cell.Mode.String(), cell.Policy.Label, cell.Politician}
		if seen[k] {
			t.Fatalf("cell %v twice", k)
		}
		seen[k] = true
	}
}
