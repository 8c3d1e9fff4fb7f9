package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// defaultPolicies is sim's and compare's --policy default: an average and
// a skilled player (the levels casual, greedy, and skilled, the learned
// player), both fast enough for 10,000 games a cell in seconds on a
// 2-core machine. trace, sweep and a table's other seats default to
// casual. Every default names a level by its level's name, as the output
// does (issue 42: sim said casual where compare said greedy).
const (
	defaultPolicies = "casual,skilled"
	defaultPolicy   = "casual"
)

// parsePolicies reads a --policy list (policy.ParseList); two specs of
// the same policy (greedy,greedy or mcts,mcts:c=0.70, equal once
// canonical) are an error.
func parsePolicies(flag, s string) ([]policy.Spec, error) {
	specs, err := parseSpecs(flag, s)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(specs))
	for i, sp := range specs {
		keys[i] = sp.String()
	}
	if err := noDuplicates(flag, s, policy.SplitList(s), keys); err != nil {
		return nil, err
	}
	return specs, nil
}

// parseSpecs reads a list of policy specs that may name a policy twice
// (a lineup of players).
func parseSpecs(flag, s string) ([]policy.Spec, error) {
	specs, err := policy.ParseList(s)
	if err != nil {
		return nil, fmt.Errorf("--%s: %v", flag, err)
	}
	return specs, nil
}

// loadRules reads a rules file; "", "default" and "reference" are the
// reference set, for every command that names rules (all alike); ./default
// names a file of that name.
func loadRules(path string) (*engine.Rules, error) {
	if isReferenceName(path) {
		return engine.Reference(), nil
	}
	r, err := engine.LoadFile(path)
	if err != nil {
		if kind := otherFileKind(path); kind != "" {
			return nil, fmt.Errorf("%s: this is %s, not a rules file (docs/rules-file.md)", path, kind)
		}
		return nil, err
	}
	// The script the rules name is compiled now, before any game: its
	// syntax errors and unknown names are the rules file's.
	if err := script.Check(r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// isReferenceName reports whether path names the reference set rather
// than a file.
func isReferenceName(path string) bool {
	return path == "" || path == "default" || path == engine.ReferenceName
}

// otherFileKind names the kind of tallywood file path holds when it is
// not a rules file but another of the program's JSON files (a scenario, a
// result, a saved game), by fields only that kind has, or "": "unknown
// field description" for 'compare --b-rules scenario.json' would hide that
// the wrong file was named.
func otherFileKind(path string) string {
	data, err := kit.ReadFileMax(path, engine.MaxRulesFileSize)
	if err != nil {
		return ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return ""
	}
	has := func(k string) bool { _, ok := top[k]; return ok }
	var format string
	json.Unmarshal(top["format"], &format)
	switch {
	case has("run") && (has("expect") || has("expect_exact") || has("expect_refusal")):
		return "a scenario file (run it with 'tallywood scenario run')"
	case strings.HasPrefix(format, "tallywood-play"):
		return "a saved game (resume it with 'tallywood play --load')"
	// A sim result written before results had a kind is one too, as
	// every reader of results reads it (sim.Decode).
	case (has("kind") || format == sim.FormatSim) && strings.HasPrefix(format, "tallywood-"):
		return "a result file (read it with 'tallywood report' or 'tallywood merge')"
	}
	return ""
}

// parseMode reads one difficulty, ignoring case.
func parseMode(flag, s string) (engine.Mode, error) {
	m, err := engine.ParseMode(strings.ToLower(strings.TrimSpace(s)))
	if err != nil {
		return 0, fmt.Errorf("--%s %q is not normal or hard%s", flag, kit.Clip(s), kit.DidYouMean(strings.TrimSpace(s), []string{"normal", "hard"}))
	}
	return m, nil
}

// parseModes reads a --mode list: normal, hard, or both (normal,hard).
func parseModes(flag, s string) ([]engine.Mode, error) {
	if strings.EqualFold(strings.TrimSpace(s), "both") {
		return []engine.Mode{engine.Normal, engine.Hard}, nil
	}
	items, err := splitList(flag, s)
	if err != nil {
		return nil, err
	}
	modes := make([]engine.Mode, len(items))
	for i, it := range items {
		m, err := engine.ParseMode(strings.ToLower(it))
		if err != nil {
			return nil, itemError(flag, s, it, "is not normal, hard or both"+kit.DidYouMean(it, []string{"normal", "hard", "both"}))
		}
		modes[i] = m
	}
	if err := noDuplicates(flag, s, items, modes); err != nil {
		return nil, err
	}
	return modes, nil
}

// politicianIndex finds a politician by ID, ignoring case unless two IDs
// differ only in case.
func politicianIndex(r *engine.Rules, id string) int {
	if i := r.PoliticianIndex(id); i >= 0 {
		return i
	}
	found := -1
	for i, p := range r.Politicians {
		if strings.EqualFold(p.ID, id) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// parsePoliticians reads a --politician list of IDs and random (drawn per
// game), with all (one cell per politician) when allowList, and returns
// the politician indexes of the cells.
func parsePoliticians(r *engine.Rules, flag, s string, allowList bool) ([]int, error) {
	items, err := splitList(flag, s)
	if err != nil {
		return nil, err
	}
	if len(items) > 1 && !allowList {
		return nil, fmt.Errorf("--%s %q: one politician", flag, s)
	}
	if len(items) > 1 && slices.ContainsFunc(items, func(it string) bool { return strings.EqualFold(it, "all") }) {
		return nil, fmt.Errorf("--%s %q: all already holds every politician", flag, s)
	}
	var out []int
	var names []string
	for _, it := range items {
		switch {
		case strings.EqualFold(it, "random"):
			out, names = append(out, sim.RandomPoliticianIndex), append(names, it)
		case strings.EqualFold(it, "all") && allowList:
			for i, p := range r.Politicians {
				out, names = append(out, i), append(names, p.ID)
			}
		default:
			i := politicianIndex(r, it)
			if i < 0 {
				ids := make([]string, len(r.Politicians))
				for i, p := range r.Politicians {
					ids[i] = p.ID
				}
				extra := "random"
				if allowList {
					extra = "random, all"
				}
				return nil, itemError(flag, s, it, fmt.Sprintf("is not a politician (%s, %s)", strings.Join(ids, ", "), extra))
			}
			out, names = append(out, i), append(names, it)
		}
	}
	if err := noDuplicates(flag, s, names, out); err != nil {
		return nil, err
	}
	return out, nil
}

// maxWorkersPerCPU caps --workers: a game runs on one core, so workers
// beyond a few per core only cost memory (a game state and policies each).
const maxWorkersPerCPU = 4

// capWorkers returns the workers to use for n requested, saying on stderr
// when it is fewer.
func capWorkers(cmd string, n int, stderr io.Writer) int {
	limit := maxWorkersPerCPU * runtime.NumCPU()
	if n <= limit {
		return n
	}
	fmt.Fprintf(stderr, "tallywood: %s: --workers %d capped at %d (%d per CPU, %d CPUs): more only cost memory\n",
		cmd, n, limit, maxWorkersPerCPU, runtime.NumCPU())
	return limit
}

// isTerminal reports whether v (a reader or writer) is a character device
// (a terminal), by the file's mode: no dependency needed.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if c, wrapped := v.(*checkedWriter); wrapped {
		f, ok = c.file()
	}
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
