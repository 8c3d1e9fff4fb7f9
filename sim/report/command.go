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

// rulesArgs are the flags that make rules of the given hash: --set for
// each override, and, unless the overrides applied to the reference set
// give that hash, the rules flag with a placeholder file name (results
// do not record the file's name; the report shows the hash).
func rulesArgs(rulesFlag, setFlag, placeholder, hash string, overrides []string) []string {
	var args []string
	for _, o := range overrides {
		args = append(args, setFlag, o)
	}
	r := engine.Reference()
	as := make([]engine.Assignment, 0, len(overrides))
	for _, o := range overrides {
		a, err := engine.ParseAssignment(o)
		if err != nil {
			return append([]string{rulesFlag, placeholder}, args...)
		}
		as = append(as, a)
	}
	if len(as) > 0 {
		var err error
		if r, err = r.With(as...); err != nil {
			return append([]string{rulesFlag, placeholder}, args...)
		}
	}
	if r.Hash != hash {
		return append([]string{rulesFlag, placeholder}, args...)
	}
	return args
}

// uniq appends s to list unless it is there.
func uniq(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// simCommand reconstructs the sim command line that plays the games of r.
func simCommand(r *sim.Result) string {
	var modes, policies, politicians []string
	for _, c := range r.Cells {
		modes, policies, politicians = uniq(modes, c.Mode), uniq(policies, c.Policy), uniq(politicians, c.Politician)
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
	args = append(args, rulesArgs("--rules", "--set", "RULES.json", r.RulesHash, r.Overrides)...)
	if r.Shard != "" && !strings.Contains(r.Shard, "+") {
		args = append(args, "--shard", r.Shard)
	}
	cmd := commandLine(append(args, "--format", "json"))
	if strings.Contains(r.Shard, "+") {
		cmd += "   # once per shard of " + r.Shard + ", then tallywood merge"
	}
	return cmd
}

// compareCommand reconstructs the compare command line of r.
func compareCommand(r *sim.CompareResult) string {
	args := []string{"compare"}
	var games []int64
	var dims [3][2][]string // mode, policy, politician; arm A, arm B
	var test *sim.SequentialResult
	for i := range r.Cells {
		c := &r.Cells[i]
		if !slices.Contains(games, c.MaxGames) {
			games = append(games, c.MaxGames)
		}
		for k, cell := range []*sim.Cell{&c.A, &c.B} {
			dims[0][k] = uniq(dims[0][k], cell.Mode)
			dims[1][k] = uniq(dims[1][k], cell.Policy)
			dims[2][k] = uniq(dims[2][k], cell.Politician)
		}
		if test == nil {
			test = c.Sequential
		}
	}
	// One --games for all cells; cells of different sizes had the
	// per-policy defaults.
	if len(games) == 1 {
		args = append(args, "--games", fmt.Sprint(games[0]))
	}
	args = append(args, "--seed", fmt.Sprint(r.Seed))
	for d, flag := range []string{"mode", "policy", "politician"} {
		a, b := dims[d][0], dims[d][1]
		if slices.Equal(a, b) {
			args = append(args, "--"+flag, strings.Join(a, ","))
			continue
		}
		args = append(args, "--a-"+flag, strings.Join(a, ","), "--b-"+flag, strings.Join(b, ","))
	}
	for _, arm := range []struct {
		key string
		a   *sim.ArmInfo
	}{{"a", &r.A}, {"b", &r.B}} {
		placeholder := strings.ToUpper(arm.key) + "-RULES.json"
		args = append(args, rulesArgs("--"+arm.key+"-rules", "--"+arm.key+"-set", placeholder, arm.a.RulesHash, arm.a.Overrides)...)
		def := "reference"
		if len(arm.a.Overrides) > 0 {
			def += " [" + strings.Join(arm.a.Overrides, " ") + "]"
		}
		if arm.a.Name != def {
			args = append(args, "--"+arm.key+"-name", arm.a.Name)
		}
	}
	if test != nil {
		if test.Delta > 0 {
			args = append(args, "--sprt-delta", fmt.Sprint(test.Delta))
		} else {
			args = append(args, "--sprt", fmt.Sprintf("%g,%g", test.P0, test.P1))
		}
		if test.On != sim.OnScore {
			args = append(args, "--sprt-on", test.On.String())
		}
		args = append(args, "--alpha", fmt.Sprint(test.Alpha), "--beta", fmt.Sprint(test.Beta))
	}
	if r.Shard != "" {
		args = append(args, "--shard", r.Shard)
	}
	return commandLine(append(args, "--format", "json"))
}

// sweepCommand reconstructs the sweep command line of r.
func sweepCommand(r *sim.SweepResult) string {
	args := []string{"sweep"}
	values := make([][]string, len(r.Params))
	var modes, policies, politicians []string
	for i := range r.Cells {
		c := &r.Cells[i]
		modes, policies, politicians = uniq(modes, c.Base.Mode), uniq(policies, c.Base.Policy), uniq(politicians, c.Base.Politician)
		for _, p := range c.Points {
			for k := range min(len(p.Values), len(values)) {
				values[k] = uniq(values[k], p.Values[k])
			}
		}
	}
	for k, param := range r.Params {
		args = append(args, "--set", param+"="+strings.Join(values[k], ","))
	}
	args = append(args, "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed),
		"--mode", strings.Join(modes, ","), "--policy", strings.Join(policies, ","), "--politician", strings.Join(politicians, ","))
	if r.Target > 0 {
		args = append(args, "--target", fmt.Sprint(r.Target))
	}
	// The base rules' own overrides come with the rules file.
	if len(r.Overrides) > 0 || r.RulesHash != engine.Reference().Hash {
		args = append(args, "--rules", "RULES.json")
	}
	if r.Shard != "" {
		args = append(args, "--shard", r.Shard)
	}
	return commandLine(append(args, "--format", "json"))
}
