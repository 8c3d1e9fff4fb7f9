package main

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

func init() { arcCommand.register() }

const arcUsage = `usage: tallywood arc [flags]

Plays --games seeded games for each cell of --mode × --policy ×
--politician, the same games sim plays, and follows each by its win
chance: the model's probability that you win, when the cell's skill
level plays the rest of the game, at each of your decisions and each
start of an Opposition turn. It reports, per cell, the chance's spread by
turn and round, lead changes (crossings of 50%), comebacks by round, the
turn that decided the game (and how many games were still open at the
Final Tally), how far behind the winner was, how often the leader into
each round loses, both sides' final votes and Vote Shares by round, and
each game's change in chance split into your decisions, luck (draws,
cubes, reveals, the Opposition's Solo card flips and the deal) and the
Opposition's automaton, per kind of decision and per Solo card; over the
deals every policy of a difficulty and politician played, the share of
the score's variance the deal explains. See docs/arc.md.

flags:
`

var arcCommand = &studyCommand{
	name:    "arc",
	summary: "follow every game's win chance: lead changes, comebacks, what decides a game, luck and skill",
	usage:   arcUsage,
	shared: sharedFlags{games: 10000, gamesUsage: "`N` games per cell", rulesUsage: rulesFileUsage, sets: true,
		grid: true, policy: defaultPolicies, politician: true, formats: tableJSONCSVHTML, wide: true, all: true},
	define: func(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
		level := fs.String("chance-level", "", chanceLevelUsage)
		probes := fs.Int("probes", 4, "determinized copies per decision that sets chance going, to split it from the chance (`N`, 1..64)")
		return func() (*plan, error) {
			if *probes < 1 || *probes > 64 {
				return nil, fmt.Errorf("--probes %d is outside 1..64", *probes)
			}
			rules, err := s.rules()
			if err != nil {
				return nil, err
			}
			cells, err := s.cells(rules)
			if err != nil {
				return nil, err
			}
			model := policy.ShippedChance()
			levels := make([]string, len(cells))
			for i, c := range cells {
				l, ok := policy.LevelOf(c.Policy)
				switch {
				case *level != "":
					l = *level
				case !ok:
					return nil, fmt.Errorf("--policy %s is no skill level: name the level whose win chance follows its games with --chance-level", c.Policy.Label)
				}
				if _, err := model.For(l); err != nil {
					var no *policy.NoChanceError
					if errors.As(err, &no) {
						return nil, fmt.Errorf("--chance-level %s: %v", l, err)
					}
					return nil, err
				}
				levels[i] = l
			}
			cfg := sim.ArcConfig{RunConfig: s.runConfig(), Rules: rules, Games: s.games, Cells: cells, Levels: levels,
				Model: model, Probes: *probes}
			p := &plan{text: report.TextOptions{Wide: s.wide, All: s.all}, notes: model.Note(policy.PlayedRules(rules)) + "\n"}
			p.cellProgress(cells, s.shard.Len(s.games))
			p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
				cfg.Workers, cfg.Progress = workers, progress
				return result(sim.Arc(ctx, cfg))
			}
			return p, nil
		}
	},
}
