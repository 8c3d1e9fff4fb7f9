package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() { sensitivityCommand.register() }

const sensitivityUsage = `usage: tallywood sensitivity [flags]

Moves every numeric field of the rules file (or those --fields selects) one
--step down and one up, and plays each change against the base rules on the
same seeds, for each cell of --mode × --policy × --politician. Each field is
ranked by the larger score difference of its two changes. A field the cell's
difficulty cannot read (difficulties.normal.* at Hard) is skipped with a
note, and so is a change outside the field's bounds or one the rules refuse.

Each change is called easier, harder, negligible (within --tolerance, ±2
points by default) or - (not enough games to tell, with about how many
would). By default the scan races: a screen plays the changes of a cell
with many in groups, a game informing sixteen changes; the race plays
changes alone, in looks of doubling size, first those the screen finds may
reach the tolerance, then the others with the games left, each until it is
negligible, likely an effect or probably small; a confirmation on fresh
seeds (--confirm-seed) decides the effects. --games is its budget: as many games
as a fixed scan of --games per change. --fixed plays every change on
--games seeds instead (it shards; the race does not).

--fields also names choices, the rules file's fields that are not numbers:
a Solo card's Districts and actions, a discount's action, a reward's kind,
a rounding, a switch ('solo_cards[S-03].*', 'solo_cards*'). Each is set to
each alternative the rules accept, and each alternative is played against
the base like a step.

The default scan (every field of the reference rules, casual, Normal and
Hard, a budget of 2000 games per change: 430 changes) plays at most 864,000
games: about 3½ minutes on two free cores with casual (measured: 2,040
games per CPU second), about 8½ with --policy skilled (860 games per CPU
second). --list prints the fields, their values and bounds (and the
choices, their values and alternatives) without playing. See
docs/balance.md.

flags:
`

// defaultSensitivityGames is the games per change of the default scan,
// its budget: few enough for the whole scan to take minutes.
const defaultSensitivityGames = 2000

var sensitivityCommand = &studyCommand{
	name:    "sensitivity",
	summary: "move every numeric rules field one step down and up; rank the fields by their effect",
	usage:   sensitivityUsage,
	shared: sharedFlags{games: defaultSensitivityGames, gamesUsage: "`N` games per cell and change: a race's budget, on average (--fixed: each change's)", rulesUsage: rulesFileUsage,
		grid: true, policy: "casual", politician: true, formats: tableJSONCSVHTML, wide: true,
		shardUsage: shardUsage + " (with --fixed only: a race plays its looks in order)"},
	define: defineSensitivity,
}

// defineSensitivity defines sensitivity's own flags: which fields, how
// far to move them, the tolerance, the design and --list.
func defineSensitivity(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	fields := fs.StringArray("fields", nil, "`GLOB`: the fields to move, numbers or choices, as --set names them, * for any run (repeatable; default: every numeric field)")
	stepFlag := fs.String("step", "1", "how far to move each field, a `STEP`: N whole units, or a percentage of its value (25%)")
	list := fs.Bool("list", false, "print the selected fields, their values and bounds, and play nothing")
	tolerance := toleranceFlag(fs)
	fixed := fs.Bool("fixed", false, "play every change on --games seeds: no screen, race or confirmation (shards with --shard)")
	confirmSeed := fs.Uint64("confirm-seed", 0, "master seed `N` of the confirmation (default: --seed + 1)")
	return func() (*plan, error) {
		step, err := sim.ParseStep(*stepFlag)
		if err != nil {
			return nil, fmt.Errorf("--%v", err)
		}
		if err := checkTolerance(*tolerance); err != nil {
			return nil, err
		}
		design := sim.DesignRace
		if *fixed {
			design = sim.DesignFixed
		}
		if !fs.Changed("confirm-seed") {
			*confirmSeed = s.seed + 1
		}
		switch {
		case *fixed && fs.Changed("confirm-seed"):
			return nil, errors.New("--confirm-seed: a fixed scan has no confirmation")
		case !*fixed && *confirmSeed == s.seed:
			return nil, fmt.Errorf("--confirm-seed %d: the scan's seed; the confirmation needs fresh seeds", *confirmSeed)
		case !*fixed && !s.shard.Whole():
			return nil, errors.New("--shard: a race plays its looks in order, on every seed; add --fixed to shard a scan")
		}
		base, err := s.rules()
		if err != nil {
			return nil, err
		}
		if *list {
			text, err := listFields(base, *fields)
			if err != nil {
				return nil, err
			}
			return &plan{instead: func(stdout io.Writer) error {
				_, err := io.WriteString(stdout, text)
				return err
			}}, nil
		}
		cells, err := s.cells(base)
		if err != nil {
			return nil, err
		}
		cfg := sim.SensitivityConfig{RunConfig: s.runConfig(), Base: base, Fields: *fields, Step: step, Games: s.games,
			Design: design, Tolerance: *tolerance, Cells: cells}
		if design == sim.DesignRace {
			cfg.ConfirmSeed = *confirmSeed
		}
		total, err := sim.SensitivityBudget(cfg)
		if err != nil {
			return nil, fmt.Errorf("--fields: %v", err)
		}
		p := &plan{total: total, text: report.TextOptions{Wide: s.wide}}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Sensitivity(ctx, cfg))
		}
		return p, nil
	}
}

// listFields is --list: the numeric fields globs select, with their
// values, bounds and which games read them, then the choices they select
// (none without globs, as the scan), with their values and alternatives.
func listFields(base *engine.Rules, globs []string) (string, error) {
	fields, err := base.Fields()
	var choices []engine.Choice
	if len(globs) > 0 {
		fields, choices, err = base.Variables(globs...)
	}
	if err != nil {
		return "", fmt.Errorf("--fields: %v", err)
	}
	who := func(path string) string {
		if s, err := engine.ReadBy(path); err == nil {
			return s.Who()
		}
		return "?"
	}
	var b strings.Builder
	for _, f := range fields {
		bounds := "-"
		if f.Bounded {
			bounds = fmt.Sprintf("%d..%d", f.Lo, f.Hi)
		}
		fmt.Fprintf(&b, "%-46s %4d  %-7s %s\n", f.Path, f.Value, bounds, who(f.Path))
	}
	if len(fields) > 0 || len(choices) == 0 {
		fmt.Fprintf(&b, "%d numeric fields\n", len(fields))
	}
	for _, c := range choices {
		fmt.Fprintf(&b, "%-46s %s → %s; %s\n", c.Path, c.Value, strings.Join(c.Alternatives, ", "), who(c.Path))
	}
	if len(choices) > 0 {
		fmt.Fprintf(&b, "%s\n", kit.Count(len(choices), "choice"))
	}
	return b.String(), nil
}
