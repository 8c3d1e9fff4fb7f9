package main

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"tallywood/sim"
)

func init() {
	register(command{name: "compare", summary: "compare two arms (rules, policy, difficulty, politician) on the same seeds", run: runCompare})
}

const compareUsage = `usage: tallywood compare [flags]

Plays the same seeded games in two arms that differ in rules, policy,
difficulty or politician (common random numbers), and reports each arm's win
rate, the paired difference B − A with Newcombe's 95% interval, McNemar's
exact test and the mean paired margin difference. With --sprt it stops as
soon as the sequential test decides.

An arm flag (--a-rules, --b-policy, ...) overrides the shared flag for its arm.

flags:
`

func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	games := fs.Int64("games", 10000, "paired games (the most, with --sprt)")
	seed := fs.Uint64("seed", 1, "master seed")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers")
	rulesFile := fs.String("rules", "", "rules file of both arms, or default (the reference set)")
	modeFlag := fs.String("mode", "normal", "difficulty of both arms: normal or hard")
	policyFlag := fs.String("policy", defaultPolicy, "policy of both arms")
	politicianFlag := fs.String("politician", "random", "politician of both arms: ID or random")
	var arm [2]struct{ rules, mode, policy, politician *string }
	for k, name := range []string{"a", "b"} {
		arm[k].rules = fs.String(name+"-rules", "", "rules file of arm "+strings.ToUpper(name))
		arm[k].mode = fs.String(name+"-mode", "", "difficulty of arm "+strings.ToUpper(name))
		arm[k].policy = fs.String(name+"-policy", "", "policy of arm "+strings.ToUpper(name))
		arm[k].politician = fs.String(name+"-politician", "", "politician of arm "+strings.ToUpper(name))
	}
	sprtFlag := fs.String("sprt", "", "sequential test of the win rate difference B − A: P0,P1 (e.g. 0,0.02)")
	alpha := fs.Float64("alpha", 0.05, "SPRT: probability of accepting H1 when H0 holds")
	beta := fs.Float64("beta", 0.05, "SPRT: probability of accepting H0 when H1 holds")
	format := fs.String("format", "table", "output: table or json")
	out := fs.String("out", "", "write the output to FILE instead of stdout")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if code, done := parseFlags(fs, args, compareUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "compare: unexpected argument %q", fs.Arg(0))
	}
	if *games < 1 {
		return fail(stderr, "compare: --games %d: must be at least 1", *games)
	}
	if *workers < 1 {
		return fail(stderr, "compare: --workers %d: must be at least 1", *workers)
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json")
	if err != nil {
		return fail(stderr, "compare: %v", err)
	}
	var sprt *sim.SPRT
	if *sprtFlag != "" {
		s, err := parseSPRT(*sprtFlag, *alpha, *beta)
		if err != nil {
			return fail(stderr, "compare: %v", err)
		}
		sprt = s
	}
	var arms [2]sim.Arm
	for k, name := range []string{"a", "b"} {
		or := func(v *string, def string) string {
			if *v != "" {
				return *v
			}
			return def
		}
		flag := func(f string) string {
			if fs.Changed(name + "-" + f) {
				return "--" + name + "-" + f
			}
			return "--" + f
		}
		rules, err := loadRules(or(arm[k].rules, *rulesFile))
		if err != nil {
			return failInput(stderr, "compare: %s: %v", flag("rules"), err)
		}
		m, err := parseMode(flag("mode")[2:], or(arm[k].mode, *modeFlag))
		if err != nil {
			return fail(stderr, "compare: %v", err)
		}
		specs, err := parsePolicies(flag("policy")[2:], or(arm[k].policy, *policyFlag))
		if err != nil {
			return fail(stderr, "compare: %v", err)
		}
		if len(specs) != 1 {
			return fail(stderr, "compare: %s: one policy per arm", flag("policy"))
		}
		pols, err := parsePoliticians(rules, flag("politician")[2:], or(arm[k].politician, *politicianFlag), false)
		if err != nil {
			return fail(stderr, "compare: %v", err)
		}
		arms[k] = sim.Arm{Rules: rules, Mode: m, Policy: specs[0], Politician: pols[0]}
	}
	a, b := arms[0], arms[1]
	if a.Rules.Hash == b.Rules.Hash && a.Mode == b.Mode && a.Policy.Canon == b.Policy.Canon && a.Politician == b.Politician {
		return fail(stderr, "compare: arms A and B are the same: set one of --a-/--b-rules, -mode, -policy or -politician")
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "compare: %v", err)
	}

	ctx, release := interruptible("compare", stderr)
	defer release()
	bar := startProgress(stderr, *games, *quiet)
	res, err := sim.Compare(ctx, sim.CompareConfig{A: a, B: b, Seed: *seed, Games: *games, Workers: capWorkers("compare", *workers, stderr), SPRT: sprt, Progress: &bar.done})
	bar.stop()
	if err != nil {
		fmt.Fprintf(stderr, "tallywood: compare: %v\n", err)
		return exitFailed
	}
	data := res.JSON()
	if fmtName == "table" {
		data = compareTable(res)
	}
	if err := output.write(data); err != nil {
		return output.writeFailed("compare", err, stderr)
	}
	if res.Interrupted {
		fmt.Fprintf(stderr, "tallywood: compare: interrupted: %s now holds a partial result (%d paired games, marked interrupted)\n", output.name(), res.Games)
		return exitFailed
	}
	return exitOK
}

// parseSPRT reads --sprt P0,P1 with --alpha and --beta.
func parseSPRT(s string, alpha, beta float64) (*sim.SPRT, error) {
	p0s, p1s, ok := strings.Cut(s, ",")
	p0, err0 := strconv.ParseFloat(strings.TrimSpace(p0s), 64)
	p1, err1 := strconv.ParseFloat(strings.TrimSpace(p1s), 64)
	if !ok || err0 != nil || err1 != nil || p0 == p1 || p0 <= -1 || p0 >= 1 || p1 <= -1 || p1 >= 1 {
		return nil, fmt.Errorf("--sprt %q is not P0,P1: two different win rate differences between -1 and 1", s)
	}
	if !(alpha > 0 && alpha < 0.5) {
		return nil, fmt.Errorf("--alpha %g is not between 0 and 0.5", alpha)
	}
	if !(beta > 0 && beta < 0.5) {
		return nil, fmt.Errorf("--beta %g is not between 0 and 0.5", beta)
	}
	return &sim.SPRT{P0: p0, P1: p1, Alpha: alpha, Beta: beta}, nil
}

func compareTable(r *sim.CompareResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "seed %d, %d paired games (same seeds in both arms)", r.Seed, r.Games)
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	t := newTable(&b, []string{"ARM", "RULES", "MODE", "POLICY", "POLITICIAN", "W / D / L", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]"}, 5)
	for _, a := range []struct {
		name string
		r    *sim.ArmResult
	}{{"A", &r.A}, {"B", &r.B}} {
		c := a.r.Cell
		t.Append([]string{a.name, shortHash(a.r.RulesHash), c.Mode, c.Policy, c.Politician,
			fmt.Sprintf("%d / %d / %d", c.Wins, c.Draws, c.Losses),
			fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(c.WinCI95[0]), pct(c.WinCI95[1])),
			fmt.Sprintf("%s [%s, %s]", signed(c.MeanMargin), signed(c.MarginCI95[0]), signed(c.MarginCI95[1])),
		})
	}
	t.Render()
	p := r.Paired
	fmt.Fprintf(&b, "\nPaired difference B − A:\n")
	fmt.Fprintf(&b, "  win rate     %+.2f%% [%+.2f%%, %+.2f%%] (95%%, Newcombe's method for paired proportions)\n",
		100*r.WinRateDiff, 100*r.WinRateDiffCI95[0], 100*r.WinRateDiffCI95[1])
	fmt.Fprintf(&b, "  McNemar      p = %.4g (exact binomial, two-sided; won only in A %d, only in B %d, both %d, neither %d)\n",
		r.McNemarP, p.AOnly, p.BOnly, p.BothWon, p.Neither)
	fmt.Fprintf(&b, "  mean margin  %+.2f [%+.2f, %+.2f] votes (95%%, paired t)\n", r.MeanMarginDiff, r.MarginDiffCI95[0], r.MarginDiffCI95[1])
	if s := r.SPRT; s != nil {
		what := "undecided"
		switch s.Decision {
		case "H0":
			what = fmt.Sprintf("H0 (difference %g) accepted", s.P0)
		case "H1":
			what = fmt.Sprintf("H1 (difference %g) accepted", s.P1)
		}
		fmt.Fprintf(&b, "  SPRT         %s after %d games (H0: %g, H1: %g, α = %g, β = %g; LLR %.3f in [%.3f, %.3f])\n",
			what, s.Games, s.P0, s.P1, s.Alpha, s.Beta, s.LLR, s.Lower, s.Upper)
	}
	return b.Bytes()
}
