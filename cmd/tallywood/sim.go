package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/playtest"
	"tallywood/sim/report"
)

func init() { simCommand.register() }

var simCommand = &studyCommand{
	name:    "sim",
	summary: "play seeded games and report win rates per difficulty and policy",
	usage: `usage: tallywood sim [flags]

Plays --games seeded games for each cell of --mode × --policy × --politician
and reports win rates with Wilson 95% intervals, margins, and where games
are won and lost. Game i plays on a seed derived from (--seed, i) alone.
Lists are comma-separated; names ignore case. --out x.json, x.csv choose
the format by the extension. Ctrl-C stops after the games in play and
writes the partial result, marked interrupted; a second Ctrl-C quits at
once.

flags:
`,
	shared: sharedFlags{games: 10000, gamesUsage: "`N` games per cell", rulesUsage: rulesFileUsage, sets: true,
		grid: true, policy: defaultPolicies, politician: true, formats: tableJSONCSVHTML, wide: true},
	define: defineSim,
}

// tableJSONCSVHTML are the output formats of a study with a CSV form.
var tableJSONCSVHTML = []string{"table", "json", "csv", "html"}

// defineSim defines sim's own flag, --seats: with 2 to 4 players, sim
// plays the game without the Opposition (seats.go).
func defineSim(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	seats := fs.Int("seats", 1, seatsUsage)
	record := fs.String("record", "", "also write every game, decision by decision, to `FILE`: a record of decisions (JSON lines, docs/calibration.md) that 'tallywood calibrate' reads")
	return func() (*plan, error) {
		if *seats < 1 || *seats > engine.MaxSeats {
			return nil, fmt.Errorf("--seats %d is outside 1..%d", *seats, engine.MaxSeats)
		}
		if err := onlyWith(fs, "record", "the solo game (--seats 1)", *seats == 1); err != nil {
			return nil, err
		}
		if *seats > 1 {
			return seatsSimPlan(s, *seats)
		}
		rules, err := s.rules()
		if err != nil {
			return nil, err
		}
		cells, err := s.cells(rules)
		if err != nil {
			return nil, err
		}
		cfg := sim.Config{RunConfig: s.runConfig(), Rules: rules, Games: s.games, Cells: cells}
		p := &plan{text: report.TextOptions{Wide: s.wide}}
		p.cellProgress(cells, s.shard.Len(s.games))
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Run(ctx, cfg))
		}
		if *record != "" {
			recordGames(p, &cfg, *record)
		}
		return p, nil
	}
}

// recordedGame is a game sim --record keeps, with its cell.
type recordedGame struct {
	cell int
	game playtest.Game
}

// recordGames makes p keep every game of cfg's run and write them to
// path, a record of decisions, cell by cell and game by game (the same
// file for any --workers); path is checked before the run, as --out is.
func recordGames(p *plan, cfg *sim.Config, path string) {
	var mu sync.Mutex
	var games []recordedGame
	cfg.Record = func(cell int, g playtest.Game) {
		mu.Lock()
		games = append(games, recordedGame{cell, g})
		mu.Unlock()
	}
	var out *output
	p.open = func(fl *files, stderr io.Writer) (err error) {
		if path == "-" {
			return errors.New("--record -: the record needs a file (the result goes to stdout, or to --out)")
		}
		out, err = fl.open("--record", path, nil, stderr)
		return err
	}
	p.after = func(sim.Study) error {
		slices.SortFunc(games, func(a, b recordedGame) int {
			if a.cell != b.cell {
				return a.cell - b.cell
			}
			return cmp.Compare(a.game.Game, b.game.Game)
		})
		var b bytes.Buffer
		for i := range games {
			if err := playtest.WriteGame(&b, &games[i].game); err != nil {
				return fmt.Errorf("--record: %v", err)
			}
		}
		if err := out.write(b.Bytes()); err != nil {
			return fmt.Errorf("--record: %v", err)
		}
		return nil
	}
}
