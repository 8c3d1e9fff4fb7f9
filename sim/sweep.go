package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// FormatSweep names the JSON document of `tallywood sweep`. /4 has a
// tolerance, whether each value meets the target within it, the pairs of
// the last swept value against the first (the direction's test), and
// which cells cannot read the swept fields; /3 answers a target in swept
// values and marks the point that is the base rules; /3, /2
// and /1 still read, as derive recomputes what they lack, with the default
// tolerance and no direction.
const FormatSweep = "tallywood-sweep/4"

// KindSweep is the kind of a sweep's result.
const KindSweep Kind = "sweep"

func init() { registerKind(KindSweep, func() Study { return &SweepResult{} }) }

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
	RunConfig // an item is a seed: a failed game at the base or a point drops it whole
	Base      *engine.Rules
	Params    []string // the swept paths, in the order of each point's Set
	Points    []SweepPoint
	Cells     []CellSpec
	Games     int64   // per cell and point before sharding
	Target    float64 // a win rate to find the crossing of (one parameter only); 0: none
	// Tolerance is the designer's: a value meets Target when its win rate
	// is within ±Tolerance of it; 0 is DefaultTolerance.
	Tolerance float64
}

// SweepPointResult is one point of one cell; differences are the point
// minus the base rules, on the same seeds.
type SweepPointResult struct {
	Values    []string `json:"values"` // one per swept parameter
	RulesHash string   `json:"rules_hash"`
	// IsBase: the point's rules are the base rules (the same hash), so it
	// is the base and its games are the base's, not played again.
	IsBase bool `json:"is_base"`
	Result Cell `json:"result"`
	// WinCISimultaneous is the win rate's interval that holds at every
	// swept value at once, with a target only; see simultaneous.
	WinCISimultaneous *[2]float64 `json:"win_ci_simultaneous,omitempty"`
	Pairs             PairCounts  `json:"pairs_vs_base"`
	WinRateDiff       float64     `json:"win_rate_diff"`
	ScoreDiff         float64     `json:"score_diff"`
	ScoreDiffCI95     [2]float64  `json:"score_diff_ci95"`
	MarginDiff        float64     `json:"margin_diff"`
	MarginDiffCI95    [2]float64  `json:"margin_diff_ci95"`
	// Target is, with a target, whether the value's simultaneous interval
	// lies within the target ± the tolerance (it meets it), beyond it, or
	// reaches across an edge (not enough games: GamesToSettle would, about).
	Target        *TargetAnswer `json:"target_answer,omitempty"`
	GamesToSettle int64         `json:"games_to_settle,omitempty"`
}

// SweepCell is one cell (difficulty × policy × politician) of a sweep.
type SweepCell struct {
	labels
	Base   Cell               `json:"base"`
	Points []SweepPointResult `json:"points"`
	// Ends are the pairs of the last swept value against the first (the
	// lowest), on the same seeds: a sweep with a target plays them.
	Ends *PairCounts `json:"pairs_last_vs_first,omitempty"`
	// NotRead: the cell's game reads none of the swept fields
	// (engine.ReadBy), so that every point plays the base's games; it has
	// no crossing.
	NotRead  bool      `json:"not_read,omitempty"`
	Crossing *Crossing `json:"crossing,omitempty"`
	// Failed counts the seeds left out because a game of theirs failed,
	// at the base or a change, and lists the first.
	Failed
}

// SweepResult is the output of a sweep (docs/output.md describes every
// field). Everything but the timing fields is a function of the flags
// alone.
type SweepResult struct {
	Envelope
	RulesID               // the base rules
	GamesPerCell int64    `json:"games_per_cell"`
	Params       []string `json:"params"`
	Target       float64  `json:"target,omitempty"` // a win rate: a draw is not a win
	// Tolerance is the designer's: a value meets the target when its win
	// rate is within ±Tolerance of it. A result before tallywood-sweep/4
	// stated none and reads with DefaultTolerance.
	Tolerance float64 `json:"tolerance"`
	// OldCrossingMethod reads how the crossing is found, in words, that
	// results written before sim/report said it held, and drops it.
	OldCrossingMethod droppedText `json:"crossing_method,omitzero"`
	Cells             []SweepCell `json:"cells"`
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
	pl := cfg.soloPool(ctx, cfg.Shard.Len(cfg.Games))
	defer pl.close()

	out := &SweepResult{
		Envelope:     newEnvelope(KindSweep, FormatSweep, cfg.Seed, cfg.Shard),
		RulesID:      rulesID(cfg.Base),
		GamesPerCell: cfg.Games, Params: cfg.Params, Target: cfg.Target, Tolerance: cmp.Or(cfg.Tolerance, DefaultTolerance),
		Cells: make([]SweepCell, len(cfg.Cells)),
	}
	n := cfg.Shard.Len(cfg.Games)
	rules := make([]*engine.Rules, len(cfg.Points))
	for i, p := range cfg.Points {
		rules[i] = p.Rules
	}
	name := func(k int) string { return "point " + pointName(cfg.Points[k]) }
	ends := sweepEnds(cfg.Points, cfg.Target)
	for ci, spec := range cfg.Cells {
		start := time.Now()
		total, err := playPoints(pl, cfg.Base, rules, name, spec, 0, n, ends)
		if err != nil {
			return nil, err
		}
		elapsed := time.Since(start)
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
		if ends != nil {
			sc.Ends = &total.ends
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

// SweepGamesPerSeed is how many games a sweep plays on each seed: the
// base rules once, and every point that is not the base rules.
func SweepGamesPerSeed(base *engine.Rules, points []SweepPoint) int64 {
	n := int64(1)
	for _, p := range points {
		if p.Rules.Hash != base.Hash {
			n++
		}
	}
	return n
}

// sweepEnds are the points a sweep with a target pairs with each other,
// the first (lowest) swept value and the last, by index: the direction's
// test. None without a target or with fewer than two numeric values.
func sweepEnds(points []SweepPoint, target float64) *[2]int {
	if target == 0 {
		return nil
	}
	lo, hi := -1, -1
	var xlo, xhi float64
	for i, p := range points {
		x, err := strconv.ParseFloat(p.Set[0].Value, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		if lo < 0 || x < xlo {
			lo, xlo = i, x
		}
		if hi < 0 || x > xhi {
			hi, xhi = i, x
		}
	}
	if lo < 0 || lo == hi {
		return nil
	}
	return &[2]int{lo, hi}
}

// pointEnds are the indexes of the points of a result that sweepEnds
// paired, the lowest numeric value and the highest; −1, −1 without two.
func pointEnds(points []SweepPointResult) (lo, hi int) {
	lo, hi = -1, -1
	for i := range points {
		x, ok := numericValue(&points[i])
		if !ok {
			continue
		}
		if lo < 0 || x < mustNumeric(&points[lo]) {
			lo = i
		}
		if hi < 0 || x > mustNumeric(&points[hi]) {
			hi = i
		}
	}
	if lo == hi {
		return -1, -1
	}
	return lo, hi
}

// mustNumeric is the value of a point known to be numeric.
func mustNumeric(p *SweepPointResult) float64 {
	x, _ := numericValue(p)
	return x
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
// target and whether each value meets it, and the run's timing.
func (r *SweepResult) derive() {
	r.Tolerance = cmp.Or(r.Tolerance, DefaultTolerance) // a result before tallywood-sweep/4 stated none
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Base.derive()
		secs += c.Base.ElapsedSeconds
		played := int64(1)
		for j := range c.Points {
			p := &c.Points[j]
			p.IsBase = p.RulesHash == r.RulesHash
			if !p.IsBase {
				played++
			}
			p.Result.derive()
			p.WinRateDiff = p.Result.WinRate - c.Base.WinRate
			var ci stats.Interval
			p.ScoreDiff, ci, _ = p.Pairs.ScoreDiff()
			p.ScoreDiffCI95 = [2]float64{ci.Lo, ci.Hi}
			p.MarginDiff, ci, _ = p.Pairs.MarginDiff()
			p.MarginDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		}
		games += c.Base.Games * played
		c.NotRead = !readsAny(r.Params, c.Mode)
		c.Crossing = nil
		if r.Target != 0 {
			alpha := simultaneous(c.Points)
			for j := range c.Points {
				p := &c.Points[j]
				p.Target, p.GamesToSettle = nil, 0
				if w := p.WinCISimultaneous; w != nil {
					a, n := targetAnswer(stats.Interval{Lo: w[0], Hi: w[1]}, p.Result.Wins, p.Result.Games, alpha, r.Target, r.Tolerance)
					p.Target, p.GamesToSettle = &a, n
				}
			}
			if !c.NotRead {
				c.Crossing = crossing(c.Points, r.Target, c.Ends)
			}
		}
	}
	r.setTiming(games, secs)
}

// numericValue is a point's value as a number (one parameter), or false
// when it is not one: such points have no part in a crossing.
func numericValue(p *SweepPointResult) (float64, bool) {
	v, err := strconv.ParseFloat(p.Values[0], 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// simultaneous sets each numeric point's simultaneous interval: the exact
// (Clopper–Pearson) one at confidence 1 − 0.05/k over the k numeric points
// (Bonferroni), so that all k hold at once with 95% confidence: a designer
// reads every value, so each must be right together. Exact, so that
// "meets" holds its level at small targets and few games, where Wilson's
// did not (a 2.2% target met at its edge 9% of the time in 250 games:
// issue 42). It returns the level, 0.05/k.
func simultaneous(points []SweepPointResult) float64 {
	k := 0
	for i := range points {
		if _, ok := numericValue(&points[i]); ok {
			k++
		}
	}
	alpha := stats.BonferroniLevel(0.05, max(k, 1))
	for i := range points {
		p := &points[i]
		p.WinCISimultaneous = nil
		if _, ok := numericValue(p); ok {
			ci := stats.ClopperPearson(p.Result.Wins, p.Result.Games, alpha)
			p.WinCISimultaneous = &[2]float64{ci.Lo, ci.Hi}
		}
	}
	return alpha
}

// crossing finds where the win rate of points (one numeric parameter, each
// with its simultaneous interval) meets target (stats.FindCrossing): at
// the values whose interval contains it, and between two adjacent values
// whose intervals lie on either side of it. Only values a rules file can
// hold are named, and nothing is assumed between them. Where it meets it
// nowhere, the way to sweep is the paired test of ends, the last value's
// games against the first's: the win rates' difference and its 95% score
// interval (a draw is not a win, as in the target); no way when that
// interval holds 0, or without ends.
func crossing(points []SweepPointResult, target float64, ends *PairCounts) *Crossing {
	var curve []stats.CurvePoint
	var values []string // of each point of curve
	for i := range points {
		p := &points[i]
		v, ok := numericValue(p)
		if !ok || p.WinCISimultaneous == nil {
			continue
		}
		ci := p.WinCISimultaneous
		curve = append(curve, stats.CurvePoint{X: v, Estimate: p.Result.WinRate, CI: stats.Interval{Lo: ci[0], Hi: ci[1]}})
		values = append(values, p.Values[0])
	}
	return crossingOf(curve, values, target, ends)
}

func (r *SweepResult) formats() []string {
	return []string{FormatSweep, "tallywood-sweep/3", "tallywood-sweep/2", "tallywood-sweep/1"}
}

func (r *SweepResult) sameRun(first Study) []field {
	f := first.(*SweepResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_cell", r.GamesPerCell, f.GamesPerCell),
		{"params", slices.Equal(r.Params, f.Params) && r.Target == f.Target && r.Tolerance == f.Tolerance, r.paramsText(), f.paramsText()},
		{"cells", sameSweepCells(r.Cells, f.Cells), sweepCellNames(r.Cells), sweepCellNames(f.Cells)},
	}
}

// check verifies that a decoded sweep adds up: each cell's base as a sim
// cell, and every point paired with it game for game.
func (r *SweepResult) check(share func(int64) int64) error {
	if err := checkSolo(&r.RulesID, "games_per_cell", r.GamesPerCell, len(r.Cells)); err != nil {
		return err
	}
	switch {
	case len(r.Params) == 0:
		return errors.New("params: none")
	case !(r.Target >= 0 && r.Target < 1):
		return fmt.Errorf("target %g is not a win rate below 1", r.Target)
	case r.Tolerance != 0 && !validTolerance(r.Tolerance):
		return fmt.Errorf("tolerance %g is not above 0 and at most %g", r.Tolerance, maxTolerance)
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
		if len(p.Values) != params {
			return fmt.Errorf("point %d: %d values for %d parameters", j+1, len(p.Values), params)
		}
		if err := checkHash("rules_hash", p.RulesHash); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if err := p.Result.checkShape(); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if err := p.Result.Counts.check(); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if err := p.Pairs.check(&c.Base.Counts, &p.Result.Counts); err != nil {
			return fmt.Errorf("point %d: %v", j+1, err)
		}
		if p.Result.Counts.Games != c.Base.Counts.Games || p.Pairs.Games != c.Base.Counts.Games {
			return fmt.Errorf("point %d: games differ from the base's", j+1)
		}
	}
	if c.Ends != nil {
		var a, b *Counts
		if lo, hi := pointEnds(c.Points); lo >= 0 {
			a, b = &c.Points[lo].Result.Counts, &c.Points[hi].Result.Counts
		}
		if err := c.Ends.check(a, b); err != nil {
			return fmt.Errorf("pairs_last_vs_first: %v", err)
		}
		if c.Ends.Games != c.Base.Counts.Games {
			return errors.New("pairs_last_vs_first: games differ from the base's")
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
		if c.Ends != nil {
			e := *c.Ends
			c.Ends = &e
		}
	}
	return &out
}

func (r *SweepResult) add(o Study) {
	for i := range r.Cells {
		c, oc := &r.Cells[i], &o.(*SweepResult).Cells[i]
		c.Base.add(&oc.Base)
		c.Failed.add(&oc.Failed)
		for j := range c.Points {
			c.Points[j].Result.add(&oc.Points[j].Result)
			c.Points[j].Pairs.Merge(&oc.Points[j].Pairs)
		}
		if c.Ends != nil && oc.Ends != nil {
			c.Ends.Merge(oc.Ends)
		}
	}
}

// FailedItems lists each cell's failed games.
func (r *SweepResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		out[i] = FailedItems{Unit: "game", A: &c.Base, Errors: c.Errors, Failures: c.Failures}
	}
	return out
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

// SweepUnreadWarning says, before a sweep plays, which cells' games read
// none of the swept fields params (a sweep of difficulties.normal.* at
// --mode hard): every point of such a cell plays the base's games, and
// its answer is none. "" when every cell reads one.
func SweepUnreadWarning(params []string, cells []CellSpec) string {
	var modes []string
	for _, c := range cells {
		m := c.Mode.String()
		if !readsAny(params, m) && !slices.Contains(modes, m) {
			modes = append(modes, m)
		}
	}
	if len(modes) == 0 {
		return ""
	}
	why := make([]string, 0, len(params))
	for _, p := range params {
		if s, err := engine.ReadBy(p); err == nil {
			why = append(why, fmt.Sprintf("  %s is read by %s (%s)", p, s.Who(), s.Why))
		}
	}
	return fmt.Sprintf("the solo games at --mode %s read none of the swept fields: every value will play the base's games there\n%s",
		strings.Join(modes, ","), strings.Join(why, "\n"))
}
