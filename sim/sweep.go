package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"tallywood/engine"
)

// FormatSweep names the JSON document of `tallywood sweep`.
const FormatSweep = "tallywood-sweep/2"

// SweepPoint is one point of a sweep: the assignments that make it from
// the base rules (one per swept parameter) and the rules they give.
type SweepPoint struct {
	Set   []engine.Assignment
	Rules *engine.Rules
}

// SweepConfig plays, for each cell, game i of the base rules and of every
// point on seed deal.GameSeed(Seed, i): the same seeds at every point, so each
// point is paired against the base game by game.
type SweepConfig struct {
	Base       *engine.Rules
	Params     []string // the swept paths, in the order of each point's Set
	Points     []SweepPoint
	Cells      []CellSpec
	Seed       uint64
	Games      int64 // per cell and point before sharding
	Shard      Shard
	Workers    int
	Target     float64 // a win rate to find the crossing of (one parameter only); 0: none
	Opposition engine.Opposition
	Progress   *atomic.Int64
	// MaxErrors is how many failed seeds (a game at the base or a point
	// whose policy failed: policy.FailedError) the sweep goes on past, as
	// Config's.
	MaxErrors int64
}

// SweepPointResult is one point of one cell; differences are the point
// minus the base rules, on the same seeds.
type SweepPointResult struct {
	Values         []string   `json:"values"` // one per swept parameter
	RulesHash      string     `json:"rules_hash"`
	Result         Cell       `json:"result"`
	Pairs          PairCounts `json:"pairs_vs_base"`
	WinRateDiff    float64    `json:"win_rate_diff"`
	ScoreDiff      float64    `json:"score_diff"`
	ScoreDiffCI95  [2]float64 `json:"score_diff_ci95"`
	MarginDiff     float64    `json:"margin_diff"`
	MarginDiffCI95 [2]float64 `json:"margin_diff_ci95"`
}

// Crossing is where a cell's win rate crosses the target, interpolated
// linearly between the swept values; see CrossingMethod. A null (nil)
// value or interval end lies beyond the swept values.
type Crossing struct {
	Value    *float64 `json:"value"`
	Lo       *float64 `json:"ci95_lo"`
	Hi       *float64 `json:"ci95_hi"`
	Multiple bool     `json:"multiple"` // the win rate crosses the target more than once: Value is the first
}

// CrossingMethod says how a crossing and its interval are made; it is
// printed with every crossing and stored in the JSON.
const CrossingMethod = "the crossing interpolates the win rate linearly between adjacent swept values; " +
	"its interval is where the Wilson 95% bounds of the win rate cross the target, interpolated the same way " +
	"(inverting the pointwise intervals: it assumes the win rate is monotone between swept values)"

// SweepCell is one cell (difficulty × policy × politician) of a sweep.
type SweepCell struct {
	labels
	Base     Cell               `json:"base"`
	Points   []SweepPointResult `json:"points"`
	Crossing *Crossing          `json:"crossing,omitempty"`
	Errors   int64              `json:"errors"`             // failed seeds, at the base and no point
	Failures []Failure          `json:"failures,omitempty"` // the first of them
}

// SweepResult is the output of a sweep (docs/output.md describes every
// field). Everything but the timing fields is a function of the flags
// alone.
type SweepResult struct {
	Envelope
	RulesID                    // the base rules
	GamesPerCell   int64       `json:"games_per_cell"`
	Params         []string    `json:"params"`
	Target         float64     `json:"target,omitempty"`
	CrossingMethod string      `json:"crossing_method,omitempty"`
	Cells          []SweepCell `json:"cells"`
}

// sweepCounts are one worker's sums for one cell: the base games and each
// point's, and each point's pairs against the base.
type sweepCounts struct {
	base   Counts
	points []Counts
	pairs  []PairCounts
}

// Sweep plays every cell of cfg at the base rules and at every point.
// Cells are played one after the other, each by all workers; like Run,
// every sum is merged when the cell is done, so the result depends on
// neither the workers nor the order the games finished in.
//
// A seed is counted whole, at the base and every point, or not at all: a
// seed cut by an interrupt is left out, and so is a seed with a failed
// game (policy.FailedError), counted in the cell's errors with its message
// among its failures; past cfg.MaxErrors of them the sweep stops like an
// interruption and returns its result with ErrTooManyFailed. Any other
// error stops it and returns no result.
func Sweep(ctx context.Context, cfg SweepConfig) (*SweepResult, error) {
	switch {
	case cfg.Base == nil:
		return nil, errors.New("sim: no rules")
	case len(cfg.Points) == 0 || len(cfg.Cells) == 0:
		return nil, errors.New("sim: a sweep needs points and cells")
	case cfg.Games < 1 || cfg.Games > MaxGames:
		return nil, fmt.Errorf("sim: games %d is not between 1 and %d", cfg.Games, MaxGames)
	case cfg.Target != 0 && (len(cfg.Params) != 1 || !(cfg.Target > 0 && cfg.Target < 1)):
		return nil, errors.New("sim: a target needs one swept parameter and a win rate between 0 and 1")
	}
	for i, p := range cfg.Points {
		if len(p.Set) != len(cfg.Params) || p.Rules == nil {
			return nil, fmt.Errorf("sim: point %d does not set the %d parameters", i+1, len(cfg.Params))
		}
	}
	pl := newPool(ctx, poolConfig{workers: workerCount(cfg.Workers), seed: cfg.Seed, shard: cfg.Shard, maxErrors: cfg.MaxErrors, progress: cfg.Progress},
		newPlayers((&Config{Opposition: cfg.Opposition}).opposition()))
	defer pl.close()

	out := &SweepResult{
		Envelope:     newEnvelope(KindSweep, FormatSweep, cfg.Seed, cfg.Shard),
		RulesID:      rulesID(cfg.Base),
		GamesPerCell: cfg.Games, Params: cfg.Params, Target: cfg.Target,
		Cells: make([]SweepCell, len(cfg.Cells)),
	}
	if cfg.Target != 0 {
		out.CrossingMethod = CrossingMethod
	}
	n := cfg.Shard.Len(cfg.Games)
	// A point whose rules play as the base's (equal hashes) is not played
	// again: its games are the base's.
	asBase := make([]bool, len(cfg.Points))
	for i, p := range cfg.Points {
		asBase[i] = p.Rules.Hash == cfg.Base.Hash
	}
	// A seed's games: the base's first, then each point's.
	type seedGame struct {
		res             engine.Result
		fbOther, fbBoth int16
	}
	nw := len(pl.players)
	seedGames := make([][]seedGame, nw)
	for w := range seedGames {
		seedGames[w] = make([]seedGame, 1+len(cfg.Points))
	}
	var secs float64
	for ci, spec := range cfg.Cells {
		start := time.Now()
		counts := make([]sweepCounts, nw)
		for w := range counts {
			counts[w].points = make([]Counts, len(cfg.Points))
			counts[w].pairs = make([]PairCounts, len(cfg.Points))
		}
		err := pl.run(work{
			n: n, size: chunkFor(n, nw, chunkSize), games: int64(1 + len(cfg.Points)),
			// A seed counts whole or not at all (a failed or interrupted
			// game drops it at the base and every point), so that every
			// point stays paired with the base.
			play: func(w int, _ int64, seed uint64) error {
				p, gs := pl.players[w], seedGames[w]
				for k := range gs {
					r := cfg.Base
					if k > 0 {
						if asBase[k-1] {
							gs[k] = gs[0] // the same play as the base: the same game
							continue
						}
						if pl.stop.Load() {
							return nil // the pool drops the seed
						}
						r = cfg.Points[k-1].Rules
					}
					if err := p.play(r, seed, spec.Mode, spec.Policy, spec.Politician); err != nil {
						if k == 0 {
							return fmt.Errorf("base rules: %w", err)
						}
						return fmt.Errorf("point %s: %w", pointName(cfg.Points[k-1]), err)
					}
					gs[k] = seedGame{p.g.Result, p.g.Seats[1].FallbackOther, p.g.Seats[1].FallbackBoth}
				}
				return nil
			},
			keep: func(w int, _ int64) {
				c, gs := &counts[w], seedGames[w]
				c.base.addResult(&gs[0].res, gs[0].fbOther, gs[0].fbBoth)
				for pi := range cfg.Points {
					g := &gs[1+pi]
					c.points[pi].addResult(&g.res, g.fbOther, g.fbBoth)
					c.pairs[pi].Add(&gs[0].res, &g.res)
				}
			},
		})
		if err != nil {
			return nil, err
		}
		total := &counts[0]
		for w := 1; w < nw; w++ {
			total.base.Merge(&counts[w].base)
			for pi := range cfg.Points {
				total.points[pi].Merge(&counts[w].points[pi])
				total.pairs[pi].Merge(&counts[w].pairs[pi])
			}
		}
		elapsed := time.Since(start)
		secs += elapsed.Seconds()
		l := cellLabels(cfg.Base, spec)
		sc := SweepCell{labels: l, Base: newCell(l, &total.base, cfg.Base.Districts[:], elapsed.Seconds())}
		for pi, pt := range cfg.Points {
			values := make([]string, len(pt.Set))
			for k, a := range pt.Set {
				values[k] = a.Value
			}
			sc.Points = append(sc.Points, SweepPointResult{
				Values: values, RulesHash: pt.Rules.Hash,
				Result: newCell(l, &total.points[pi], pt.Rules.Districts[:], 0),
				Pairs:  total.pairs[pi],
			})
		}
		sc.Errors, sc.Failures = pl.cellFailures()
		out.Cells[ci] = sc
	}
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// pointName names a point in a failure: its assignments, PATH=VALUE.
func pointName(p SweepPoint) string {
	parts := make([]string, len(p.Set))
	for i, a := range p.Set {
		parts[i] = a.Path + "=" + a.Value
	}
	return strings.Join(parts, ",")
}

// derive computes what the counts give: each base's and point's summary,
// each point's differences against the base, each cell's crossing of the
// target, and the run's timing.
func (r *SweepResult) derive() {
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Base.derive()
		games += c.Base.Games * int64(1+len(c.Points))
		secs += c.Base.ElapsedSeconds
		for j := range c.Points {
			p := &c.Points[j]
			p.Result.derive()
			p.WinRateDiff = p.Result.WinRate - c.Base.WinRate
			var ci Interval
			p.ScoreDiff, ci, _ = p.Pairs.ScoreDiff()
			p.ScoreDiffCI95 = [2]float64{ci.Lo, ci.Hi}
			p.MarginDiff, ci, _ = p.Pairs.MarginDiff()
			p.MarginDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		}
		c.Crossing = nil
		if r.Target != 0 {
			c.Crossing = crossing(c.Points, r.Target)
		}
	}
	r.setTiming(games, secs)
}

// crossing finds where the win rate of points (one numeric parameter)
// crosses target; see CrossingMethod. Points whose value is not a number
// are left out.
func crossing(points []SweepPointResult, target float64) *Crossing {
	type pt struct{ v, w, lo, hi float64 }
	var ps []pt
	for _, p := range points {
		v, err := strconv.ParseFloat(p.Values[0], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		ps = append(ps, pt{v, p.Result.WinRate, p.Result.WinCI95[0], p.Result.WinCI95[1]})
	}
	slices.SortStableFunc(ps, func(a, b pt) int { return cmpFloat(a.v, b.v) })
	// cross returns the first value at which f crosses target between
	// adjacent points (nil if none), and how many crossings there are. A
	// point exactly at the target counts once, as the end of the segment
	// that reaches it.
	cross := func(f func(pt) float64) (*float64, int) {
		var first *float64
		count := 0
		for i := 0; i+1 < len(ps); i++ {
			a, b := f(ps[i])-target, f(ps[i+1])-target
			if !(a < 0 && b >= 0 || a > 0 && b <= 0 || i == 0 && a == 0) {
				continue
			}
			x := ps[i].v
			if a != b {
				x += (ps[i+1].v - ps[i].v) * a / (a - b)
			}
			if count == 0 {
				first = &x
			}
			count++
		}
		return first, count
	}
	c := &Crossing{}
	var n int
	c.Value, n = cross(func(p pt) float64 { return p.w })
	c.Multiple = n > 1
	lo, _ := cross(func(p pt) float64 { return p.lo })
	hi, _ := cross(func(p pt) float64 { return p.hi })
	// Where the win rate rises with the value, its upper bound reaches the
	// target first (the low end) and its lower bound last (the high end);
	// where it falls, the other way round.
	c.Lo, c.Hi = lo, hi
	if len(ps) > 1 && ps[len(ps)-1].w > ps[0].w {
		c.Lo, c.Hi = hi, lo
	}
	if c.Lo != nil && c.Hi != nil && *c.Lo > *c.Hi {
		c.Lo, c.Hi = c.Hi, c.Lo
	}
	return c
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (r *SweepResult) formats() []string { return []string{FormatSweep, "tallywood-sweep/1"} }

func (r *SweepResult) sameRun(first Study) []field {
	f := first.(*SweepResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_cell", r.GamesPerCell, f.GamesPerCell),
		{"params", slices.Equal(r.Params, f.Params) && r.Target == f.Target, r.paramsText(), f.paramsText()},
		{"cells", sameSweepCells(r.Cells, f.Cells), sweepCellNames(r.Cells), sweepCellNames(f.Cells)},
	}
}

// check verifies that a decoded sweep adds up: each cell's base as a sim
// cell, and every point paired with it game for game.
func (r *SweepResult) check(share func(int64) int64) error {
	if err := r.RulesID.check(""); err != nil {
		return err
	}
	switch {
	case r.GamesPerCell < 1 || r.GamesPerCell > MaxGames:
		return fmt.Errorf("games_per_cell %d is outside 1..%d", r.GamesPerCell, int64(MaxGames))
	case len(r.Params) == 0:
		return errors.New("params: none")
	case len(r.Cells) == 0:
		return errors.New("cells: none")
	case !(r.Target >= 0 && r.Target < 1):
		return fmt.Errorf("target %g is not a win rate below 1", r.Target)
	}
	n := share(r.GamesPerCell)
	for i := range r.Cells {
		c := &r.Cells[i]
		if err := c.check(n, r.Interrupted, len(r.Params)); err != nil {
			return fmt.Errorf("cell %d: %v", i+1, err)
		}
	}
	return nil
}

// check verifies one cell of a decoded sweep of params parameters.
func (c *SweepCell) check(share int64, interrupted bool, params int) error {
	if c.labels != c.Base.labels {
		return errors.New("the cell's labels differ from its base's")
	}
	if err := c.Base.checkShape(); err != nil {
		return fmt.Errorf("base: %v", err)
	}
	if err := c.Base.Counts.check(); err != nil {
		return fmt.Errorf("base: %v", err)
	}
	if err := checkErrors("games", c.Base.Counts.Games, c.Errors, share, !interrupted, len(c.Failures)); err != nil {
		return err
	}
	if len(c.Points) == 0 {
		return errors.New("points: none")
	}
	for j := range c.Points {
		p := &c.Points[j]
		if len(p.Values) != params || len(p.RulesHash) > maxText {
			return fmt.Errorf("point %d: %d values for %d parameters, or a rules hash too long", j+1, len(p.Values), params)
		}
		if err := p.Result.checkShape(); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if err := p.Result.Counts.check(); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if err := p.Pairs.check(); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if p.Result.Counts.Games != c.Base.Counts.Games || p.Pairs.Games != c.Base.Counts.Games {
			return fmt.Errorf("point %d: games differ from the base's", j+1)
		}
	}
	return nil
}

func (r *SweepResult) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		c := &out.Cells[i]
		c.Base.Failures, c.Failures = slices.Clone(c.Base.Failures), slices.Clone(c.Failures)
		c.Points = slices.Clone(c.Points)
	}
	return &out
}

func (r *SweepResult) add(o Study) {
	for i := range r.Cells {
		c, oc := &r.Cells[i], &o.(*SweepResult).Cells[i]
		c.Base.add(&oc.Base)
		c.Errors += oc.Errors
		c.Failures = firstFailures(append(c.Failures, oc.Failures...))
		for j := range c.Points {
			c.Points[j].Result.add(&oc.Points[j].Result)
			c.Points[j].Pairs.Merge(&oc.Points[j].Pairs)
		}
	}
}

// Played is the base games the result holds, of the study's (each plays
// every point too).
func (r *SweepResult) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Base.Games
	}
	return n, int64(len(r.Cells)) * r.GamesPerCell, "seeds"
}

// paramsText shows a sweep's parameters and target in an error.
func (r *SweepResult) paramsText() string {
	s := "[" + strings.Join(r.Params, " ") + "]"
	if r.Target != 0 {
		s += fmt.Sprintf(" target %g", r.Target)
	}
	return s
}

// sweepCellNames lists a sweep's cells in an error: each cell and its
// points' values.
func sweepCellNames(cs []SweepCell) string {
	parts := make([]string, len(cs))
	for i := range cs {
		c := &cs[i]
		values := make([]string, len(c.Points))
		for j, p := range c.Points {
			values[j] = strings.Join(p.Values, ",")
		}
		parts[i] = c.Mode + "/" + c.Policy + "/" + c.Politician + ":" + strings.Join(values, ";")
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func sameSweepCells(a, b []SweepCell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].labels != b[i].labels || len(a[i].Points) != len(b[i].Points) {
			return false
		}
		for j := range a[i].Points {
			if !slices.Equal(a[i].Points[j].Values, b[i].Points[j].Values) || a[i].Points[j].RulesHash != b[i].Points[j].RulesHash {
				return false
			}
		}
	}
	return true
}
