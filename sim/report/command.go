package report

import (
	"fmt"
	"slices"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_.,:=/+@.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:=/+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandLine joins args (the program's arguments, without its name) into
// the command line that reproduces a result.
func commandLine(args []string) string {
	parts := []string{"tallywood"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// rulesArgs are the flags that make the rules id names: the rules flag
// with the file the result recorded (rulesFile), then --set for each
// override; no rules flag when the overrides applied to the reference set
// give its hash.
func rulesArgs(rulesFlag, setFlag string, id sim.RulesID) []string {
	var args []string
	for _, o := range id.Overrides {
		args = append(args, setFlag, o)
	}
	if id.RulesFile == "" && onReference(id) {
		return args
	}
	return append([]string{rulesFlag, rulesFile(id)}, args...)
}

// onReference reports whether id's rules are the reference set with its
// overrides.
func onReference(id sim.RulesID) bool {
	r := engine.Reference()
	as := make([]engine.Assignment, 0, len(id.Overrides))
	for _, o := range id.Overrides {
		a, err := engine.ParseAssignment(o)
		if err != nil {
			return false
		}
		as = append(as, a)
	}
	if len(as) > 0 {
		var err error
		if r, err = r.With(as...); err != nil {
			return false
		}
	}
	return r.Hash == id.RulesHash
}

// rulesFile is the rules file of a result: the one it records, or, for a
// result written before results recorded it, a name that says which
// rules it must hold (its hash).
func rulesFile(id sim.RulesID) string {
	if id.RulesFile != "" {
		return id.RulesFile
	}
	return "RULES-" + engine.ShortHash(id.RulesHash) + ".json"
}

// uniq appends s to list unless it is there.
func uniq(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// reproducing is the one command every kind prints to reproduce a
// result of shards held (its envelope's shard: "" for every game, K/N, or
// K+K/N merged), from args: the kind's command and flags, its seed and
// settings, with no --shard, --format or --out. The JSON comes out on
// stdout in every case. Each shard of a run plays its own games, so shards
// merged are reproduced shard by shard, each into a file of its own,
// then merged: the command of each (with --shard K/N, which is all that
// --shard takes), then tallywood merge, joined by && so that a failed
// shard stops the rest. A designer pastes it and gets the result, timing
// aside.
func reproducing(args []string, shard string) string {
	ks, n, err := sim.ShardsHeld(shard)
	switch {
	case err != nil || len(ks) == n:
		// Every shard is every game; a shard field Decode refuses
		// (err) is never reported.
		return commandLine(append(args, "--format", "json"))
	case len(ks) == 1:
		return commandLine(append(args, "--shard", fmt.Sprintf("%d/%d", ks[0], n), "--format", "json"))
	}
	var cmds, files []string
	for _, k := range ks {
		file := fmt.Sprintf("shard-%d-of-%d.json", k, n)
		cmds = append(cmds, commandLine(append(args, "--shard", fmt.Sprintf("%d/%d", k, n), "--format", "json", "--out", file)))
		files = append(files, file)
	}
	cmds = append(cmds, commandLine(append([]string{"merge", "--format", "json"}, files...)))
	return strings.Join(cmds, " && ")
}
