package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "sweep", summary: "vary rules parameters over values on the same seeds; find a target win rate", run: runSweep})
}

const sweepUsage = `usage: tallywood sweep --set PATH=VALUES [flags]

Plays the same seeded games at every value of one rules parameter (or every
combination of several: one --set each), for each cell of --mode × --policy
× --politician, and pairs each point against the base rules game by game.
VALUES is a comma-separated list (1,2,3,4) or an integer range (2..6), or
both (1,3..5). With --target it names the swept values at which the win
rate may be the target, and the nearest values on either side, or which
way to sweep when none is (see docs/balance.md).

flags:
`

// maxSweepPoints bounds the grid: each point plays every game again.
const maxSweepPoints = 1000

func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sweep")
	sets := fs.StringArray("set", nil, "`PATH=VALUES`: a rules parameter and its values (repeatable: a grid)")
	games := fs.Int64("games", 5000, "`N` games per cell and point")
	modeFlag := fs.String("mode", modesDefault, modesUsage)
	policyFlag := fs.String("policy", defaultPolicy, policiesUsage)
	politicianFlag := fs.String("politician", "random", politiciansUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	workers := fs.Int("workers", runtime.NumCPU(), workersUsage)
	rulesFile := fs.String("rules", "", "base rules `FILE`, or default (the reference set)")
	target := fs.Float64("target", 0, "find where the win rate crosses this rate (e.g. 0.40); one --set only")
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", outUsage)
	shardFlag := fs.String("shard", "1/1", shardUsage)
	quiet := fs.Bool("quiet", false, quietUsage)
	wide := fs.Bool("wide", false, wideUsage)
	maxErrors := maxErrorsFlag(fs)
	if code, done := parseFlags(fs, args, sweepUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "sweep: unexpected argument %q", fs.Arg(0))
	}
	if len(*sets) == 0 {
		return fail(stderr, "sweep: no --set PATH=VALUES given")
	}
	if err := checkGames(fs, *games); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if *workers < 1 {
		return fail(stderr, "sweep: --workers %d: must be at least 1", *workers)
	}
	if err := checkMaxErrors(*maxErrors); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if fs.Changed("target") && !(*target > 0 && *target < 1) {
		return fail(stderr, "sweep: --target %g: a win rate above 0 and below 1", *target)
	}
	if fs.Changed("target") && len(*sets) != 1 {
		return fail(stderr, "sweep: --target needs exactly one --set")
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html")
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if err := onlyWith(fs, "wide", "--format table", fmtName == "table"); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "sweep: --shard %v", err)
	}
	base, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "sweep: --rules: %v", err)
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	politicians, err := parsePoliticians(base, "politician", *politicianFlag, true)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	params, points, err := sweepPoints(base, *sets)
	if err != nil {
		return fail(stderr, "sweep: --set: %v", err)
	}
	if fs.Changed("target") {
		for _, p := range points {
			if _, err := strconv.ParseFloat(p.Set[0].Value, 64); err != nil {
				return fail(stderr, "sweep: --target: value %q of %s is not a number", p.Set[0].Value, params[0])
			}
		}
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	cfg := sim.SweepConfig{Base: base, Params: params, Points: points, Seed: *seed, Games: *games, Shard: shard,
		Workers: capWorkers("sweep", *workers, stderr), Target: *target, MaxErrors: *maxErrors}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	ctx, release := interruptible("sweep", stderr)
	defer release()
	bar := startProgress(stderr, int64(len(cfg.Cells))*sim.SweepGamesPerSeed(base, points)*shard.Len(*games), *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Sweep(ctx, cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "sweep: %v", err)
	}
	reportFailures(stderr, res)
	if err != nil {
		failRun(stderr, "sweep: %v", err) // past --max-errors: stopped, and marked so
	}
	return writeStudy("sweep", res, "this run", fmtName, report.TextOptions{Wide: *wide}, output, stderr)
}

// sweepPoints reads the --set flags: each PATH=VALUES gives a parameter
// and its values; the points are every combination, the first parameter
// varying slowest, each validated by the engine.
func sweepPoints(base *engine.Rules, sets []string) ([]string, []sim.SweepPoint, error) {
	var params []string
	var values [][]string
	for _, s := range sets {
		a, err := engine.ParseAssignment(s)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range params {
			if p == a.Path {
				return nil, nil, fmt.Errorf("%q: %s is swept twice", s, a.Path)
			}
		}
		vs, err := expandValues(a.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %v", s, err)
		}
		params = append(params, a.Path)
		values = append(values, vs)
	}
	total := 1
	for _, vs := range values {
		total *= len(vs)
		if total > maxSweepPoints {
			return nil, nil, fmt.Errorf("%d or more points: at most %d", total, maxSweepPoints)
		}
	}
	points := make([]sim.SweepPoint, 0, total)
	for i := range total {
		set := make([]engine.Assignment, len(params))
		rest := i
		for k := len(params) - 1; k >= 0; k-- {
			set[k] = engine.Assignment{Path: params[k], Value: values[k][rest%len(values[k])]}
			rest /= len(values[k])
		}
		r, err := base.With(set...)
		if err != nil {
			return nil, nil, err
		}
		points = append(points, sim.SweepPoint{Set: set, Rules: r})
	}
	return params, points, nil
}

// expandValues reads VALUES: comma-separated values, each a value or an
// integer range A..B (A ≤ B), with no value twice.
func expandValues(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(v string) error {
		if seen[v] {
			return fmt.Errorf("value %s given twice", v)
		}
		seen[v] = true
		out = append(out, v)
		if len(out) > maxSweepPoints {
			return fmt.Errorf("more than %d values", maxSweepPoints)
		}
		return nil
	}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, errors.New("an empty value")
		}
		if lo, hi, ok := strings.Cut(p, ".."); ok {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || a > b {
				return nil, fmt.Errorf("range %q is not A..B with integers A ≤ B", p)
			}
			if b-a >= maxSweepPoints {
				return nil, fmt.Errorf("range %q has more than %d values", p, maxSweepPoints)
			}
			for v := a; v <= b; v++ {
				if err := add(strconv.Itoa(v)); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}
