package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
	"tallywood/sim/stats"
)

func init() { compareCommand.register() }

// defaultComparePolicies are the player strengths compare plays by
// default: casual (greedy), and skilled (the learned player, about a third
// of greedy's speed, as strong as mcts:iters=100 on Normal). A change's
// effect depends on the player's strength, so one strength alone can
// mislead.
const defaultComparePolicies = defaultPolicies

const compareUsage = `usage: tallywood compare [flags]

Plays the same seeded games in two arms, A and B, that differ in rules,
policy, difficulty or politician (common random numbers), for every cell of
--mode × --policy × --politician, and says for each cell whether B is easier
or harder for the player than A: each arm's win rate, the paired score
difference B − A (a win scores 1, a draw ½) and margin difference with 95%
intervals, and one line in words. The verdicts follow one rule over every
test (the score and the margin of every cell): with no difference anywhere,
the chance that any cell is called easier, harder, or higher or lower in
margin is at most 5%; the intervals in words are the simultaneous ones it
decides by. A cell whose score interval lies inside ±--tolerance is
"within"; one that is neither is "not enough games", with about how many
pairs would settle it. With
--sprt-delta (or --sprt) each cell stops as soon as its sequential test
decides, and takes its verdict from that test.

An arm flag (--a-rules, --b-mode, ...) sets that arm; a dimension an arm
flag sets is not varied: the other arm takes the shared flag's value, which
must then be one value (default normal, casual, random).

By default both difficulties and two player strengths are played:
` + defaultComparePolicies + ` (10,000 paired games per cell; 500 for mcts searches
such as expert), about a minute on two idle cores.

flags:
`

var compareCommand = &studyCommand{
	name:    "compare",
	summary: "compare two arms (rules, policy, difficulty, politician) on the same seeds",
	usage:   compareUsage,
	shared: sharedFlags{gamesUsage: "`N` paired games per cell (the most, with a sequential test); default 10000, 500 for mcts",
		rulesUsage: "rules `FILE` of both arms, or default (the reference set)", grid: true, policy: defaultComparePolicies,
		politician: true, formats: tableJSONCSVHTML, wide: true, shardUsage: shardUsage + " (not with a sequential test)"},
	define: defineCompare,
}

// compareFlags are compare's own flags, beside the shared ones.
type compareFlags struct {
	*studyFlags
	arm                    [2]armFlags
	sprt, sprtOn           string
	sprtDelta, alpha, beta float64
	tolerance              *float64
	seats                  int
	playUnread             bool
}

type armFlags struct {
	rules, mode, policy, politician, name string
	set                                   []string
}

var armNames = [2]string{"a", "b"}

func defineCompare(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	f := &compareFlags{studyFlags: s}
	for k, name := range armNames {
		a := &f.arm[k]
		arm := strings.ToUpper(name)
		fs.StringVar(&a.rules, name+"-rules", "", "rules `FILE` of arm "+arm)
		fs.StringArrayVar(&a.set, name+"-set", nil, "`PATH=VALUE`: change one rules field of arm "+arm+" (repeatable; see docs/rules-file.md)")
		fs.StringVar(&a.mode, name+"-mode", "", "difficulty `MODE` of arm "+arm)
		fs.StringVar(&a.policy, name+"-policy", "", "policy `SPEC` of arm "+arm)
		fs.StringVar(&a.politician, name+"-politician", "", "politician `ID` of arm "+arm)
		fs.StringVar(&a.name, name+"-name", "", "`NAME` of arm "+arm+" in the output (default: its rules file's base name)")
	}
	fs.Float64Var(&f.sprtDelta, "sprt-delta", 0, "sequential test with three answers: B easier, harder, or within ±DELTA of A (score: 0.02 is 2 points; margin: votes)")
	fs.StringVar(&f.sprt, "sprt", "", "sequential test of `P0,P1`: P0 against P1 (B − A, e.g. 0,0.02), instead of --sprt-delta")
	fs.StringVar(&f.sprtOn, "sprt-on", "score", "what the sequential test measures: score (win 1, draw ½) or margin (votes; never decides before 200 pairs; a change carried by a few games can still hide from it: with 1% of seeds moved by 100 votes it answered 'within' in 20% of runs for β = 0.05; docs/balance.md)")
	fs.Float64Var(&f.alpha, "alpha", 0.05, "sequential test: chance, with no difference in any cell, that any cell answers 'easier' or 'harder'; split over the cells and the two sides (α/(2·cells) per one-sided test); Wald's approximation, simulated 0.047–0.062 for 0.05 (docs/balance.md)")
	fs.Float64Var(&f.beta, "beta", 0.05, "sequential test: target chance of answering 'within' when B differs by DELTA; Wald's approximation, exceeded when few seeds differ (simulated 0.063 for 0.05 with 3% of pairs discordant, as compare splits α; docs/balance.md)")
	f.tolerance = toleranceFlag(fs)
	fs.BoolVar(&f.playUnread, "play-unread", false, "play the cells whose game reads none of the changed rules fields too (every difference 0): by default they are not played, with a note")
	fs.IntVar(&f.seats, "seats", 1, "`N` players: 1 is the solo game; 2 to 4 compare the rules at a table without the Opposition, --policy as the lineup, --games the deals")
	return f.plan
}

// plan checks compare's flags and plans the comparison: of the solo game,
// or at a table (--seats).
func (f *compareFlags) plan() (*plan, error) {
	if f.seats != 1 {
		for _, flag := range []string{"wide", "tolerance"} {
			if err := onlyWith(f.fs, flag, "the solo game (--seats 1)", false); err != nil {
				return nil, err
			}
		}
		return f.seatsPlan()
	}
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	same, identical := cfg.ArmsAlike()
	if identical {
		return nil, errors.New("arms A and B are the same: set one of --a-/--b-rules, -set, -mode, -policy or -politician")
	}
	p := &plan{text: report.TextOptions{Wide: f.wide}}
	if w := cfg.UnreadWarning(); w != "" && !f.playUnread {
		return nil, fmt.Errorf("nothing to play: %s\n(--play-unread plays it anyway)", w)
	}
	if w := cfg.UnreadWarning(); w != "" {
		p.notes += "tallywood: compare: warning: " + w + "\n"
	}
	if same {
		p.notes += "tallywood: compare: warning: arms A and B play identically (same rules content, difficulty, policy and politician): every difference will be 0\n"
	}
	// The cells play one after the other, each at its arms' speed.
	skipped := map[int]bool{}
	for _, sk := range cfg.Skips() {
		skipped[sk.Cell] = true
	}
	for i, c := range cfg.Cells {
		if !skipped[i] {
			p.keys = append(p.keys, c.A.Policy.Label+" vs "+c.B.Policy.Label)
			p.games = append(p.games, cfg.Shard.Len(c.Games))
		}
	}
	p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
		cfg.Workers, cfg.Progress = workers, progress
		return result(sim.Compare(ctx, *cfg))
	}
	return p, nil
}

// armRules loads arm k's rules (--a-rules, else --rules, then --a-set)
// and names the arm (--a-name, else from the file and overrides); flag is
// the flag the rules came from, for messages.
func (f *compareFlags) armRules(k int) (r *engine.Rules, name, flag string, err error) {
	flag = "--" + armNames[k] + "-rules"
	path := f.arm[k].rules
	if path == "" {
		flag, path = "--rules", f.rulesPath
	}
	f.files.read(flag, path)
	if r, err = loadRules(path); err != nil {
		return nil, "", flag, inputError{fmt.Errorf("%s: %v", flag, err)}
	}
	if r, err = applySets(r, f.arm[k].set); err != nil {
		return nil, "", flag, fmt.Errorf("--%s-set: %v", armNames[k], err)
	}
	name = f.arm[k].name
	if name == "" {
		name = armName(path, r.Overrides)
	}
	// The name labels the result, which refuses to be read back with a
	// control or hidden character.
	if c, ok := engine.Hidden(name); ok {
		return nil, "", flag, fmt.Errorf("arm %s's name %q (--%s-name, or its rules file's base name) holds %U, a control or hidden character (it names the arm on one line)", strings.ToUpper(armNames[k]), name, armNames[k], c)
	}
	return r, name, flag, nil
}

// config builds the comparison of the solo game from the flags.
func (f *compareFlags) config() (*sim.CompareConfig, error) {
	fs := f.fs
	test, err := f.sequential()
	if err != nil {
		return nil, err
	}
	if test != nil && !f.shard.Whole() {
		return nil, errors.New("--shard: a sequential test needs every game in order; drop --shard or the test")
	}
	if err := checkTolerance(*f.tolerance); err != nil {
		return nil, err
	}
	cfg := &sim.CompareConfig{RunConfig: f.runConfig(), Test: test, Tolerance: *f.tolerance, PlayUnread: f.playUnread}
	arms := [2]*sim.CompareArm{&cfg.A, &cfg.B}
	for k := range armNames {
		r, name, _, err := f.armRules(k)
		if err != nil {
			return nil, err
		}
		arms[k].Rules, arms[k].Name = r, name
	}
	// Each dimension: a list for both arms, or (when an arm flag sets it)
	// one value per arm.
	modes, err := dimension(f, "mode", func(a *armFlags) string { return a.mode }, "normal", parseModes)
	if err != nil {
		return nil, err
	}
	pols, err := dimension(f, "policy", func(a *armFlags) string { return a.policy }, defaultPolicy, parsePolicies)
	if err != nil {
		return nil, err
	}
	f.files.readSpecs(slices.Concat(pols[0], pols[1])...)
	var politicians [2][2][]int
	for k := range 2 {
		politicians[k], err = dimension(f, "politician", func(a *armFlags) string { return a.politician }, "random",
			func(flag, s string) ([]int, error) { return parsePoliticians(arms[k].Rules, flag, s, true) })
		if err != nil {
			return nil, err
		}
	}
	if len(politicians[0][0]) != len(politicians[1][1]) {
		return nil, errors.New("--politician: the arms' rules have different numbers of politicians")
	}
	for i := range modes[0] {
		for j := range pols[0] {
			for l := range politicians[0][0] {
				c := sim.ComparePair{
					A: sim.CellSpec{Mode: modes[0][i], Policy: pols[0][j], Politician: politicians[0][0][l]},
					B: sim.CellSpec{Mode: modes[1][i], Policy: pols[1][j], Politician: politicians[1][1][l]},
				}
				c.Games = f.games
				if !fs.Changed("games") {
					// Each policy says how many of its games fit.
					c.Games = min(c.A.Policy.CompareGames(), c.B.Policy.CompareGames())
				}
				cfg.Cells = append(cfg.Cells, c)
			}
		}
	}
	return cfg, nil
}

// applySets returns r with the --set PATH=VALUE assignments applied (r
// itself when there are none).
func applySets(r *engine.Rules, sets []string) (*engine.Rules, error) {
	if len(sets) == 0 {
		return r, nil
	}
	as := make([]engine.Assignment, len(sets))
	for i, s := range sets {
		a, err := engine.ParseAssignment(s)
		if err != nil {
			return nil, err
		}
		as[i] = a
	}
	return r.With(as...)
}

// dimension reads one dimension of the grid: the shared flag's list for
// both arms, or, when an arm flag sets it, one value per arm, the arm
// without its own flag taking the shared flag's single value (def when
// the shared flag is not given). out[k] lists arm k's values, cell by
// cell.
// parse(flag, value) names the flag in its errors.
func dimension[T any](f *compareFlags, flag string, armValue func(*armFlags) string, def string, parse func(flag, value string) ([]T, error)) ([2][]T, error) {
	var out [2][]T
	shared := f.fs.Lookup(flag).Value.String()
	armSet := false
	for k := range 2 {
		armSet = armSet || armValue(&f.arm[k]) != ""
	}
	if !armSet {
		vs, err := parse(flag, shared)
		if err != nil {
			return out, err
		}
		out[0], out[1] = vs, vs
		return out, nil
	}
	if !f.fs.Changed(flag) {
		shared = def
	}
	for k, name := range armNames {
		s, which := armValue(&f.arm[k]), "--"+name+"-"+flag
		if s == "" {
			s, which = shared, "--"+flag
		}
		vs, err := parse(which[2:], s)
		if err != nil {
			return out, err
		}
		if len(vs) != 1 {
			return out, fmt.Errorf("%s %q: one value, since an arm flag sets the %s", which, s, flag)
		}
		out[k] = vs
	}
	return out, nil
}

// armName is an arm's default name: its rules file's base name without
// the extension ("reference" for the reference set), with its overrides.
func armName(path string, overrides []string) string {
	name := "reference"
	if !isReferenceName(path) {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if len(overrides) > 0 {
		name += " [" + strings.Join(overrides, " ") + "]"
	}
	return name
}

// sequential reads the sequential test's flags.
func (f *compareFlags) sequential() (*sim.Sequential, error) {
	fs := f.fs
	for _, fl := range []struct {
		name string
		v    float64
	}{{"sprt-delta", f.sprtDelta}, {"alpha", f.alpha}, {"beta", f.beta}} {
		if math.IsNaN(fl.v) || math.IsInf(fl.v, 0) {
			return nil, fmt.Errorf("--%s %g: not a finite number", fl.name, fl.v)
		}
	}
	delta, pair := fs.Changed("sprt-delta"), fs.Changed("sprt")
	if !delta && !pair {
		for _, fl := range []string{"alpha", "beta", "sprt-on"} {
			if fs.Changed(fl) {
				return nil, fmt.Errorf("--%s needs --sprt-delta or --sprt", fl)
			}
		}
		return nil, nil
	}
	if delta && pair {
		return nil, errors.New("--sprt-delta and --sprt: give one sequential test")
	}
	t := &sim.Sequential{Alpha: f.alpha, Beta: f.beta}
	switch strings.ToLower(f.sprtOn) {
	case "score":
		t.On = sim.OnScore
	case "margin":
		t.On = sim.OnMargin
	default:
		return nil, fmt.Errorf("--sprt-on %q is not score or margin", f.sprtOn)
	}
	if delta {
		// Delta 0 means "P0,P1 instead" to the test: given as a flag, it
		// is a zone of no width (the error named --sprt "", not given).
		if f.sprtDelta == 0 {
			limit := math.Inf(1)
			if t.On == sim.OnScore {
				limit = 1
			}
			return nil, fmt.Errorf("--sprt-delta 0 is not above 0 and below %g", limit)
		}
		t.Delta = f.sprtDelta
	} else {
		p0s, p1s, ok := strings.Cut(f.sprt, ",")
		p0, err0 := strconv.ParseFloat(strings.TrimSpace(p0s), 64)
		p1, err1 := strconv.ParseFloat(strings.TrimSpace(p1s), 64)
		if !ok || err0 != nil || err1 != nil {
			return nil, fmt.Errorf("--sprt %q is not P0,P1: two different finite differences B − A%s", f.sprt, scoreRange(t.On))
		}
		t.P0, t.P1 = p0, p1
	}
	if err := t.Validate(); err != nil {
		var pe *stats.ParamError
		if !errors.As(err, &pe) {
			return nil, err
		}
		if pe.Param == stats.ParamP0P1 {
			return nil, fmt.Errorf("--sprt %q is not P0,P1: two different finite differences B − A%s", f.sprt, scoreRange(t.On))
		}
		return nil, fmt.Errorf("%s %g is not %s", sprtFlags[pe.Param], pe.Value, pe.Want)
	}
	return t, nil
}

// sprtFlags are the flags that set each parameter of a sequential test.
var sprtFlags = map[stats.Param]string{stats.ParamAlpha: "--alpha", stats.ParamBeta: "--beta", stats.ParamDelta: "--sprt-delta"}

func scoreRange(on sim.Statistic) string {
	if on == sim.OnScore {
		return " between -1 and 1"
	}
	return ""
}
