package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"

	"github.com/spf13/pflag"
)

func init() { sweepCommand.register() }

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

var sweepCommand = &studyCommand{
	name:    "sweep",
	summary: "vary rules parameters over values on the same seeds; find a target win rate",
	usage:   sweepUsage,
	shared: sharedFlags{games: 5000, gamesUsage: "`N` games per cell and point", rulesUsage: "base rules `FILE`, or default (the reference set)",
		grid: true, policy: defaultPolicy, politician: true, formats: tableJSONCSVHTML, wide: true},
	define: defineSweep,
}

// defineSweep defines sweep's own flags: the values to sweep (--set) and
// a target win rate.
func defineSweep(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	sets := fs.StringArray("set", nil, "`PATH=VALUES`: a rules parameter and its values (repeatable: a grid)")
	target := fs.Float64("target", 0, "find where the win rate crosses this rate (e.g. 0.40); one --set only")
	return func() (*plan, error) {
		if len(*sets) == 0 {
			return nil, errors.New("no --set PATH=VALUES given")
		}
		if fs.Changed("target") && !(*target > 0 && *target < 1) {
			return nil, fmt.Errorf("--target %g: a win rate above 0 and below 1", *target)
		}
		if fs.Changed("target") && len(*sets) != 1 {
			return nil, errors.New("--target needs exactly one --set")
		}
		base, err := s.rules()
		if err != nil {
			return nil, err
		}
		cells, err := s.cells(base)
		if err != nil {
			return nil, err
		}
		params, points, err := sweepPoints(base, *sets)
		if err != nil {
			return nil, fmt.Errorf("--set: %v", err)
		}
		if fs.Changed("target") {
			for _, p := range points {
				if _, err := strconv.ParseFloat(p.Set[0].Value, 64); err != nil {
					return nil, fmt.Errorf("--target: value %q of %s is not a number", p.Set[0].Value, params[0])
				}
			}
		}
		cfg := sim.SweepConfig{Base: base, Params: params, Points: points, Seed: s.seed, Games: s.games, Shard: s.shard,
			Target: *target, MaxErrors: s.maxErrors, Cells: cells}
		p := &plan{total: int64(len(cells)) * sim.SweepGamesPerSeed(base, points) * s.shard.Len(s.games), text: report.TextOptions{Wide: s.wide}}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Sweep(ctx, cfg))
		}
		return p, nil
	}
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
