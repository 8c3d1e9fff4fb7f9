package sim

import (
	"context"
	"fmt"
	"slices"
	"time"

	"tallywood/engine"
	"tallywood/sim/playtest"
)

// The sim kind: a solo run of cells (difficulty × policy × politician),
// each playing its games on the seeds of the run (Run, Config, Result).

// KindSim is the kind of a sim run's result.
const KindSim Kind = "sim"

// FormatSim names the JSON document of `tallywood sim` and `merge`.
const FormatSim = "tallywood-sim/1"

func init() { registerKind(KindSim, func() Study { return &Result{} }) }

// Result is the output of a run (docs/output.md describes every field).
type Result struct {
	Envelope
	RulesID
	GamesPerCell int64  `json:"games_per_cell"`
	Cells        []Cell `json:"cells"`
}

func newResult(cfg *Config) *Result {
	return &Result{
		Envelope:     newEnvelope(KindSim, FormatSim, cfg.Seed, cfg.Shard),
		RulesID:      rulesID(cfg.Rules),
		GamesPerCell: cfg.Games,
		Cells:        make([]Cell, len(cfg.Cells)),
	}
}

func (r *Result) formats() []string { return []string{FormatSim} }

func (r *Result) sameRun(first Study) []field {
	f := first.(*Result)
	return []field{
		hashField("rules_hash", r.RulesHash, f.RulesHash),
		sameField("games_per_cell", r.GamesPerCell, f.GamesPerCell),
		{"cells", sameCells(r.Cells, f.Cells), cellNames(r.Cells), cellNames(f.Cells)},
	}
}

// check checks a decoded result for internal consistency.
func (r *Result) check(share func(int64) int64) error {
	if err := checkSolo(&r.RulesID, "games_per_cell", r.GamesPerCell, len(r.Cells)); err != nil {
		return err
	}
	n := share(r.GamesPerCell)
	return checkCells(r.Cells, func(c *Cell) *Cell { return c }, func(c *Cell) error { return c.validate(n, r.Interrupted) })
}

// derive recomputes each cell's summary from its counts, and the run's
// timing from its cells'.
func (r *Result) derive() {
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.derive()
		games += c.Games
		secs += c.ElapsedSeconds
	}
	r.setTiming(games, secs)
}

func (r *Result) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		out.Cells[i].Failures = slices.Clone(r.Cells[i].Failures)
	}
	return &out
}

func (r *Result) add(o Study) {
	for i := range r.Cells {
		r.Cells[i].add(&o.(*Result).Cells[i])
	}
}

// FailedItems lists each cell's failed games.
func (r *Result) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		out[i] = FailedItems{Unit: "game", A: c, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the games the result holds, of every cell's games.
func (r *Result) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Games
	}
	return n, int64(len(r.Cells)) * r.GamesPerCell, "games"
}

// Config is a Monte Carlo run: every cell plays the games of the shard,
// game i on seed deal.GameSeed(Seed, i).
type Config struct {
	RunConfig // an item is a game
	Rules     *engine.Rules
	Games     int64 // games per cell before sharding
	Cells     []CellSpec
	// Record, when set, is handed every game counted, decision by
	// decision, with the cell's index: sim --record. It is called from
	// the workers, in no order.
	Record func(cell int, g playtest.Game)
}

// Run plays every cell of cfg and returns the result. Cells are played one
// after the other, each by all workers; a worker takes chunks of
// consecutive games of the shard and adds each game to its own Counts,
// which are merged when the cell is done. Counts are sums, so the result
// does not depend on the workers or on the order the games finished in.
// When ctx is cancelled the workers stop after their current game and the
// result, with the games played so far, is marked Interrupted.
//
// A game whose policy failed (policy.FailedError) is counted in the cell's
// errors, with its message among the cell's failures, and the run goes on
// up to cfg.MaxErrors of them; past that it stops like an interruption and
// returns the result with ErrTooManyFailed. Any other error stops the run
// and returns no result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Rules == nil {
		return nil, fmt.Errorf("sim: no rules")
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("sim: games %d is outside 1..%d", cfg.Games, int64(MaxGames))
	}
	pl := cfg.soloPool(ctx, cfg.Shard.Len(cfg.Games))
	defer pl.close()
	if cfg.Record != nil {
		for _, p := range pl.players {
			p.recording = &recording{}
		}
	}

	res := newResult(&cfg)
	n := cfg.Shard.Len(cfg.Games)
	for ci, spec := range cfg.Cells {
		start := time.Now()
		counts := make([]Counts, len(pl.players))
		err := pl.run(work{
			n: n, size: chunkFor(n, len(pl.players), chunkSize), games: 1,
			play: func(w int, _ int64, seed uint64) error {
				return pl.players[w].play(cfg.Rules, seed, spec.Mode, spec.Policy, spec.Politician)
			},
			keep: func(w int, j int64) {
				p := pl.players[w]
				counts[w].Add(&p.g)
				if cfg.Record != nil {
					cfg.Record(ci, p.recorded(cfg.Rules, cfg.Seed, cfg.Shard.Game(j), spec.Policy.Label))
				}
			},
		})
		if err != nil {
			return nil, err
		}
		total := &counts[0]
		for w := 1; w < len(counts); w++ {
			total.Merge(&counts[w])
		}
		var failures []Failure
		total.Errors, failures = pl.cellFailures()
		res.Cells[ci] = newCell(cellLabels(cfg.Rules, spec), total, cfg.Rules.Districts[:], time.Since(start).Seconds())
		res.Cells[ci].Failures = failures
	}
	res.Interrupted = pl.interrupted()
	res.derive()
	if err := pl.tooMany(); err != nil {
		return res, err
	}
	return res, nil
}
