package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/report"
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
	target := fs.Float64("target", 0, "find where the win rate (a draw is not a win) crosses this rate (e.g. 0.40), and which values meet it within --tolerance; one --set only")
	tolerance := toleranceFlag(fs)
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
		if err := onlyWith(fs, "tolerance", "--target", fs.Changed("target")); err != nil {
			return nil, err
		}
		if err := checkTolerance(*tolerance); err != nil {
			return nil, err
		}
		base, err := s.rules()
		if err != nil {
			return nil, err
		}
		cells, err := s.cells(base)
		if err != nil {
			return nil, err
		}
		params, points, err := sim.SweepGrid(base, *sets)
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
		cfg := sim.SweepConfig{RunConfig: s.runConfig(), Base: base, Params: params, Points: points, Games: s.games,
			Target: *target, Tolerance: *tolerance, Cells: cells}
		p := &plan{total: int64(len(cells)) * sim.SweepGamesPerSeed(base, points) * s.shard.Len(s.games), text: report.TextOptions{Wide: s.wide}}
		if w := sim.SweepUnreadWarning(params, cells); w != "" {
			p.notes = "tallywood: sweep: warning: " + w + "\n"
		}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Sweep(ctx, cfg))
		}
		return p, nil
	}
}
