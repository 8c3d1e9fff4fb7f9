package main

import (
	"context"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/report"
)

func init() { cardsCommand.register() }

const cardsUsage = `usage: tallywood cards [flags]

Plays --games seeded games for each cell of --mode × --policy (the
politician dealt at random per game, as sim plays it) and, for every Solo
card, Strategy card, tile and politician, compares the games with it
against the games without it: the difference in the player's score (a win
1, a draw ½) and margin, with Welch intervals adjusted over each family
(Bonferroni: simultaneous at 95% over the family's tests), ranked. Solo
cards come in a random order and politicians are dealt at random: their
differences are effects. Strategy cards and tiles are the player's
choice: theirs are associations. See docs/balance.md.

flags:
`

var cardsCommand = &studyCommand{
	name:    "cards",
	summary: "rank every Solo card, Strategy card, tile and politician by its effect on the score",
	usage:   cardsUsage,
	shared: sharedFlags{games: 10000, gamesUsage: "`N` games per cell", rulesUsage: rulesFileUsage, sets: true,
		grid: true, policy: defaultPolicies, formats: tableJSONCSVHTML, all: true},
	define: func(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
		return func() (*plan, error) {
			rules, err := s.rules()
			if err != nil {
				return nil, err
			}
			// The politician is dealt at random per game, as sim plays it.
			cells, err := s.cells(rules)
			if err != nil {
				return nil, err
			}
			cfg := sim.CardsConfig{RunConfig: s.runConfig(), Rules: rules, Games: s.games, Cells: cells}
			p := &plan{text: report.TextOptions{All: s.all}}
			p.cellProgress(cells, s.shard.Len(s.games))
			p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
				cfg.Workers, cfg.Progress = workers, progress
				return result(sim.Cards(ctx, cfg))
			}
			return p, nil
		}
	},
}
