package sim

import (
	"context"
	"slices"

	"tallywood/engine"
	"tallywood/sim/playtest"
)

// The sim kind: a solo run of cells (difficulty × policy × politician),
// each playing its games on the seeds of the run (Run, Config, Result).

// KindSim is the kind of a sim run's result.
const KindSim Kind = "sim"

// FormatSim names the JSON document of `tallywood sim` and `merge`.
const FormatSim = "tallywood-sim/1"

func init() {
	registerKind(KindSim, func() Study { return &Result{} })
	registerKindless(FormatSim, KindSim) // results of the first versions
}

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

// Run plays every cell of cfg (runCells) and returns the result: with
// the games played so far, marked Interrupted, when ctx is cancelled; and
// with ErrTooManyFailed past cfg.MaxErrors failed games. Any other error
// stops the run and returns no result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	cells, interrupted, err := runCells(ctx, cfg.RunConfig, cfg.Rules, cfg.Games, cfg.Cells, cfg.Record)
	if cells == nil {
		return nil, err
	}
	res := newResult(&cfg)
	res.Cells, res.Interrupted = cells, interrupted
	res.derive()
	return res, err
}
