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

// CommandLine joins args (the program's arguments, without its name) into
// the command line that reproduces a result.
func CommandLine(args []string) string {
	parts := []string{"tallywood"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// rulesFlag is the --rules argument of rules with the given hash: none for
// the reference set, else a placeholder file name that carries the start
// of the hash, since results do not record the file's name.
func rulesFlag(flag, hash string) []string {
	if hash == engine.Reference().Hash {
		return nil
	}
	return []string{flag, "RULES-" + shortHash(hash) + ".json"}
}

// simCommand reconstructs the sim command line that plays the games of r.
func simCommand(r *sim.Result) string {
	var modes, policies, politicians []string
	for _, c := range r.Cells {
		for _, v := range []struct {
			list *[]string
			s    string
		}{{&modes, c.Mode}, {&policies, c.Policy}, {&politicians, c.Politician}} {
			if !slices.Contains(*v.list, v.s) {
				*v.list = append(*v.list, v.s)
			}
		}
	}
	args := []string{"sim", "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed)}
	switch {
	case len(modes) == 2:
		args = append(args, "--mode", "both")
	case len(modes) == 1:
		args = append(args, "--mode", modes[0])
	}
	if len(policies) > 0 {
		args = append(args, "--policy", strings.Join(policies, ","))
	}
	switch {
	case len(politicians) > 1:
		args = append(args, "--politician", "all")
	case len(politicians) == 1:
		args = append(args, "--politician", politicians[0])
	}
	args = append(args, rulesFlag("--rules", r.RulesHash)...)
	if r.Shard != "" && !strings.Contains(r.Shard, "+") {
		args = append(args, "--shard", r.Shard)
	}
	cmd := CommandLine(append(args, "--format", "json"))
	if strings.Contains(r.Shard, "+") {
		cmd += "   # once per shard of " + r.Shard + ", then tallywood merge"
	}
	return cmd
}

// compareCommand reconstructs the compare command line of r.
func compareCommand(r *sim.CompareResult) string {
	args := []string{"compare", "--games", fmt.Sprint(r.MaxGames), "--seed", fmt.Sprint(r.Seed)}
	a, b := &r.A, &r.B
	for _, f := range []struct{ flag, a, b string }{
		{"mode", a.Mode, b.Mode}, {"policy", a.Policy, b.Policy}, {"politician", a.Politician, b.Politician},
	} {
		args = append(args, "--"+f.flag, f.a)
		if f.b != f.a {
			args = append(args, "--b-"+f.flag, f.b)
		}
	}
	args = append(args, rulesFlag("--a-rules", a.RulesHash)...)
	args = append(args, rulesFlag("--b-rules", b.RulesHash)...)
	if s := r.SPRT; s != nil {
		args = append(args, "--sprt", fmt.Sprintf("%g,%g", s.P0, s.P1), "--alpha", fmt.Sprint(s.Alpha), "--beta", fmt.Sprint(s.Beta))
	}
	return CommandLine(append(args, "--format", "json"))
}
