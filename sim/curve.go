package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/sim/policy"
	"tallywood/sim/stats"
)

// The curve kind: win rate and margin against the skill dial
// (policy "dial"), for each difficulty, with bands that hold at every
// point at once; where each difficulty meets a target win rate; and how
// far apart the difficulties are at each skill, game by game.

// KindCurve is the kind of a difficulty curve's result.
const KindCurve Kind = "curve"

// FormatCurve names the JSON document of `tallywood curve`.
const FormatCurve = "tallywood-curve/1"

func init() { registerKind(KindCurve, func() Study { return &CurveResult{} }) }

// MaxCurvePoints bounds the skills of a curve.
const MaxCurvePoints = 201

// CurveConfig plays, at every skill and on every difficulty, game i on
// seed deal.GameSeed(Seed, i): the same seeds at every skill and on every
// difficulty, so that the difficulties are paired game by game at each
// skill. A point above skill 1 plays SearchGames games (the dial searches
// there, a hundred times slower), the others Games.
type CurveConfig struct {
	Rules       *engine.Rules
	Skills      []float64 // increasing, within 0..policy.MaxSkill
	Modes       []engine.Mode
	Politician  int // index into Rules.Politicians, or RandomPoliticianIndex
	Games       int64
	SearchGames int64
	// Target is the win rate whose crossing each difficulty's curve is
	// searched for (0: none).
	Target    float64
	RunConfig // an item is a seed at one skill, on every difficulty
}

// GamesAt is how many games (before sharding) the point at skill s plays
// on each difficulty.
func (c *CurveConfig) GamesAt(s float64) int64 {
	if s > 1 {
		return c.SearchGames
	}
	return c.Games
}

// items is the most seeds a point of the curve plays: its largest stage.
func (c *CurveConfig) items() int64 {
	var n int64
	for _, s := range c.Skills {
		n = max(n, c.Shard.Len(c.GamesAt(s)))
	}
	return n
}

// CurveResult is the output of a curve (docs/output.md describes every
// field). Everything but the timing is a function of the flags alone.
type CurveResult struct {
	Envelope
	RulesID
	Politician string  `json:"politician"`
	Target     float64 `json:"target,omitempty"`
	// Modes are the difficulties, in the order of every point's cells.
	Modes  []string     `json:"modes"`
	Points []CurvePoint `json:"points"`
	// Crossings holds, for each difficulty, where its win rate meets
	// the target (with a target).
	Crossings []Crossing `json:"crossings,omitempty"`
}

// CurvePoint is one skill of a curve.
type CurvePoint struct {
	Skill float64 `json:"skill"`
	// Games is how many games each difficulty plays here, before
	// sharding.
	Games int64 `json:"games"`
	// Level names the skill level this skill stands for (policy.DialLevels), or "".
	Level string      `json:"level,omitempty"`
	Cells []CurveCell `json:"cells"`
	// Pairs, with two difficulties, pairs the second's games against
	// the first's, seed by seed; Gap are their differences (second −
	// first), with intervals simultaneous over the points.
	Pairs *PairCounts `json:"pairs,omitempty"`
	Gap   *CurveGap   `json:"gap,omitempty"`
	// Failed counts the seeds left out because a game of theirs failed
	// (on any difficulty), and lists the first.
	Failed
}

// CurveCell is one difficulty at one skill: the sim cell, and its win
// rate's and mean margin's intervals simultaneous over every point and
// difficulty of the curve (Bonferroni), so that the whole curve holds at
// once with 95% confidence.
type CurveCell struct {
	Cell
	WinBand    [2]float64 `json:"win_band"`
	MarginBand [2]float64 `json:"margin_band"`
}

// CurveGap is how the second difficulty differs from the first at one
// skill: the paired score (win 1, draw ½) and margin differences, with
// intervals simultaneous over the points.
type CurveGap struct {
	Score       float64    `json:"score"`
	ScoreBand   [2]float64 `json:"score_band"`
	Margin      float64    `json:"margin"`
	MarginBand  [2]float64 `json:"margin_band"`
	PValue      float64    `json:"p_value"`
	MarginPVal  float64    `json:"margin_p_value"`
	WinRateDiff float64    `json:"win_rate_diff"`
}

// Curve plays every point of cfg. Points are played one after the other,
// each by all workers; a seed counts whole, on every difficulty, or not
// at all, as Sweep's does.
func Curve(ctx context.Context, cfg CurveConfig) (*CurveResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	pl := cfg.soloPool(ctx, cfg.items())
	defer pl.close()
	out := &CurveResult{
		Envelope:   newEnvelope(KindCurve, FormatCurve, cfg.Seed, cfg.Shard),
		RulesID:    rulesID(cfg.Rules),
		Politician: politicianLabel(cfg.Rules, cfg.Politician),
		Target:     cfg.Target,
	}
	for _, m := range cfg.Modes {
		out.Modes = append(out.Modes, m.String())
	}
	for _, s := range cfg.Skills {
		p, err := playCurvePoint(pl, &cfg, s)
		if err != nil {
			return nil, err
		}
		out.Points = append(out.Points, p)
	}
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

func (c *CurveConfig) check() error {
	switch {
	case c.Rules == nil:
		return errors.New("sim: no rules")
	case len(c.Skills) == 0 || len(c.Skills) > MaxCurvePoints:
		return fmt.Errorf("sim: %d skills, want 1 to %d", len(c.Skills), MaxCurvePoints)
	case len(c.Modes) == 0 || len(c.Modes) > 2:
		return fmt.Errorf("sim: %d difficulties, want 1 or 2", len(c.Modes))
	case len(c.Modes) == 2 && c.Modes[0] == c.Modes[1]:
		return errors.New("sim: a difficulty twice")
	case c.Target != 0 && !(c.Target > 0 && c.Target < 1):
		return fmt.Errorf("sim: target %g is not a win rate between 0 and 1", c.Target)
	}
	for i, s := range c.Skills {
		if !(s >= 0 && s <= policy.MaxSkill) || i > 0 && s <= c.Skills[i-1] {
			return fmt.Errorf("sim: skills must rise within 0..%d: %v", policy.MaxSkill, c.Skills)
		}
		if g := c.GamesAt(s); g < 1 || g > MaxGames {
			return fmt.Errorf("sim: %d games at skill %g, want 1 to %d", g, s, int64(MaxGames))
		}
	}
	return nil
}

// playCurvePoint plays the point at skill s on every difficulty.
func playCurvePoint(pl *pool[*player], cfg *CurveConfig, s float64) (CurvePoint, error) {
	spec, err := policy.Parse(policy.DialSpec(s))
	if err != nil {
		return CurvePoint{}, err
	}
	start := time.Now()
	nm, nw := len(cfg.Modes), len(pl.players)
	type seedGame struct {
		res             engine.Result
		fbOther, fbBoth int16
	}
	games := make([][]seedGame, nw)
	counts := make([][]Counts, nw)
	pairs := make([]PairCounts, nw)
	for w := range nw {
		games[w], counts[w] = make([]seedGame, nm), make([]Counts, nm)
	}
	n := cfg.Shard.Len(cfg.GamesAt(s))
	err = pl.run(work{
		n: n, size: chunkFor(n, nw, chunkSize), games: int64(nm),
		play: func(w int, _ int64, seed uint64) error {
			p := pl.players[w]
			for k, m := range cfg.Modes {
				if k > 0 && pl.stop.Load() {
					return nil // the pool drops the seed
				}
				if err := p.play(cfg.Rules, seed, m, spec, cfg.Politician); err != nil {
					return fmt.Errorf("skill %g, %s: %w", s, m, err)
				}
				games[w][k] = seedGame{p.g.Result, p.g.Seats[1].FallbackOther, p.g.Seats[1].FallbackBoth}
			}
			return nil
		},
		keep: func(w int, _ int64) {
			gs := games[w]
			for k := range gs {
				counts[w][k].addResult(&gs[k].res, gs[k].fbOther, gs[k].fbBoth)
			}
			if nm == 2 {
				pairs[w].Add(&gs[0].res, &gs[1].res)
			}
		},
	})
	if err != nil {
		return CurvePoint{}, err
	}
	for w := 1; w < nw; w++ {
		for k := range nm {
			counts[0][k].Merge(&counts[w][k])
		}
		pairs[0].Merge(&pairs[w])
	}
	secs := time.Since(start).Seconds()
	pt := CurvePoint{Skill: s, Games: cfg.GamesAt(s)}
	for k, m := range cfg.Modes {
		l := cellLabels(cfg.Rules, CellSpec{Mode: m, Policy: spec, Politician: cfg.Politician})
		pt.Cells = append(pt.Cells, CurveCell{Cell: newCell(l, &counts[0][k], cfg.Rules.Districts[:], secs/float64(nm))})
	}
	if nm == 2 {
		pt.Pairs = &pairs[0]
	}
	pt.Errors, pt.Failures = pl.cellFailures()
	return pt, nil
}

// derive computes what the counts give: each cell's summary and bands,
// each point's gap between the difficulties, the crossings of the target
// and the timing.
func (r *CurveResult) derive() {
	games, secs := deriveCurvePoints(r.Points, 0.05)
	r.Crossings = nil
	if r.Target != 0 {
		for j := range r.Modes {
			var curve []stats.CurvePoint
			var values []string
			for i := range r.Points {
				p := &r.Points[i]
				if j >= len(p.Cells) {
					continue
				}
				c := &p.Cells[j]
				curve = append(curve, stats.CurvePoint{X: p.Skill, Estimate: c.WinRate, CI: stats.Interval{Lo: c.WinBand[0], Hi: c.WinBand[1]}})
				values = append(values, SkillText(p.Skill))
			}
			r.Crossings = append(r.Crossings, *crossingOf(curve, values, r.Target, nil))
		}
	}
	r.setTiming(games, secs)
}

// deriveCurvePoints derives every cell of points and its bands, and each
// point's gap between its difficulties, at a level alpha that holds over
// every cell at once (and, for the gaps, over every point); it returns the
// games played and their time.
func deriveCurvePoints(points []CurvePoint, alpha float64) (games int64, secs float64) {
	k := 0
	for i := range points {
		k += len(points[i].Cells)
	}
	cellAlpha := stats.BonferroniLevel(alpha, max(k, 1))
	gapAlpha := stats.BonferroniLevel(alpha, max(len(points), 1))
	for i := range points {
		p := &points[i]
		p.Level = ""
		for _, lv := range policy.DialLevels {
			if lv.Skill == p.Skill {
				p.Level = lv.Name
			}
		}
		for j := range p.Cells {
			c := &p.Cells[j]
			c.Cell.derive()
			games += c.Games
			secs += c.ElapsedSeconds
			c.WinBand, c.MarginBand = cellBands(&c.Counts, cellAlpha)
		}
		p.Gap = nil
		if p.Pairs != nil && len(p.Cells) == 2 {
			score := p.Pairs.scoreHalves()
			margins := p.Pairs.margins()
			sc, mc := score.MeanInterval(gapAlpha), margins.MeanInterval(gapAlpha)
			// A score difference lies within ±1 whatever its t-interval
			// says of a few games.
			p.Gap = &CurveGap{
				Score: score.Mean() / 2, ScoreBand: [2]float64{max(sc.Lo/2, -1), min(sc.Hi/2, 1)}, PValue: score.TTest(),
				Margin: margins.Mean(), MarginBand: [2]float64{mc.Lo, mc.Hi}, MarginPVal: margins.TTest(),
				WinRateDiff: p.Cells[1].WinRate - p.Cells[0].WinRate,
			}
		}
	}
	return games, secs
}

// cellBands are a cell's win-rate (Wilson) and mean-margin (t) intervals
// at level alpha.
func cellBands(c *Counts, alpha float64) (win, margin [2]float64) {
	w := stats.Wilson(c.Wins, c.Games, alpha)
	m := stats.Moments{N: c.Games, Sum: c.MarginSum, SumSq: c.MarginSumSq}.MeanInterval(alpha)
	return [2]float64{w.Lo, w.Hi}, [2]float64{m.Lo, m.Hi}
}

// SkillText writes a skill as the dial's spec does (0.4, 1.25).
func SkillText(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

func (r *CurveResult) formats() []string { return []string{FormatCurve} }

func (r *CurveResult) sameRun(first Study) []field {
	f := first.(*CurveResult)
	return []field{
		{"rules", r.RulesID.equal(f.RulesID), r.RulesID.text(), f.RulesID.text()},
		{"points", slices.Equal(r.pointsKey(), f.pointsKey()), r.pointsText(), f.pointsText()},
		{"modes", slices.Equal(r.Modes, f.Modes), strings.Join(r.Modes, ","), strings.Join(f.Modes, ",")},
		sameField("politician", r.Politician, f.Politician),
		sameField("target", r.Target, f.Target),
	}
}

// pointsKey is each point's skill and games, what shards share.
func (r *CurveResult) pointsKey() []string {
	out := make([]string, len(r.Points))
	for i, p := range r.Points {
		out[i] = fmt.Sprintf("%s×%d", SkillText(p.Skill), p.Games)
	}
	return out
}

func (r *CurveResult) pointsText() string { return "[" + strings.Join(r.pointsKey(), " ") + "]" }

// check verifies that a decoded curve adds up: each point's cells as sim
// cells of its games, paired with each other.
func (r *CurveResult) check(share func(int64) int64) error {
	if err := r.RulesID.check(""); err != nil {
		return err
	}
	switch {
	case len(r.Modes) == 0 || len(r.Modes) > 2:
		return fmt.Errorf("modes: %d, want 1 or 2", len(r.Modes))
	case len(r.Modes) == 2 && r.Modes[0] == r.Modes[1]:
		return errors.New("modes: a difficulty twice")
	case !(r.Target >= 0 && r.Target < 1):
		return fmt.Errorf("target %g is not a win rate below 1", r.Target)
	case r.Politician == "" || len(r.Politician) > maxText:
		return errors.New("politician: empty or too long")
	}
	return checkCurvePoints(r.Points, r.Modes, r.Politician, share, r.Interrupted)
}

// checkCurvePoints checks the points of a curve of modes, with
// politician, its shards holding share of each point's games.
func checkCurvePoints(points []CurvePoint, modes []string, politician string, share func(int64) int64, interrupted bool) error {
	if len(points) == 0 || len(points) > MaxCurvePoints {
		return fmt.Errorf("points: %d, want 1 to %d", len(points), MaxCurvePoints)
	}
	for i := range points {
		p := &points[i]
		rising := i == 0 || p.Skill > points[i-1].Skill
		if err := p.check(rising, modes, politician, share, interrupted); err != nil {
			return fmt.Errorf("point %d (skill %s): %v", i+1, SkillText(p.Skill), err)
		}
	}
	return nil
}

func (p *CurvePoint) check(rising bool, modes []string, politician string, share func(int64) int64, interrupted bool) error {
	if !(p.Skill >= 0 && p.Skill <= policy.MaxSkill) || !rising {
		return fmt.Errorf("skills must rise within 0..%d", policy.MaxSkill)
	}
	if p.Games < 1 || p.Games > MaxGames {
		return fmt.Errorf("games %d is outside 1..%d", p.Games, int64(MaxGames))
	}
	if len(p.Cells) != len(modes) {
		return fmt.Errorf("%d cells for %d difficulties", len(p.Cells), len(modes))
	}
	n := share(p.Games)
	want := policy.DialSpec(p.Skill)
	for j := range p.Cells {
		c := &p.Cells[j].Cell
		switch {
		case c.Mode != modes[j]:
			return fmt.Errorf("cell %d: mode %q, want %q", j+1, c.Mode, modes[j])
		case c.Policy != want:
			return fmt.Errorf("cell %d: policy %q, want %q", j+1, c.Policy, want)
		case c.Politician != politician:
			return fmt.Errorf("cell %d: politician %q, want %q", j+1, c.Politician, politician)
		}
		if err := c.checkShape(); err != nil {
			return fmt.Errorf("cell %d: %v", j+1, err)
		}
		if err := c.Counts.check(); err != nil {
			return fmt.Errorf("cell %d: %v", j+1, err)
		}
		if c.Counts.Errors != 0 || c.Counts.Games != p.Cells[0].Counts.Games {
			return fmt.Errorf("cell %d: games differ between the difficulties, or errors counted in a cell (a point counts them)", j+1)
		}
	}
	if err := checkErrors("games", p.Cells[0].Counts.Games, p.Errors, n, !interrupted, len(p.Failures)); err != nil {
		return err
	}
	switch {
	case len(modes) == 2 && p.Pairs == nil:
		return errors.New("pairs missing")
	case len(modes) == 1 && p.Pairs != nil:
		return errors.New("pairs with one difficulty")
	case p.Pairs != nil:
		if err := p.Pairs.check(&p.Cells[0].Counts, &p.Cells[1].Counts); err != nil {
			return err
		}
		if p.Pairs.Games != p.Cells[0].Counts.Games {
			return errors.New("pairs: games differ from the cells'")
		}
	}
	return nil
}

func (r *CurveResult) clone() Study {
	out := *r
	out.Modes = slices.Clone(r.Modes)
	out.Points = cloneCurvePoints(r.Points)
	return &out
}

// cloneCurvePoints is a copy of points whose counts share nothing with
// them.
func cloneCurvePoints(points []CurvePoint) []CurvePoint {
	out := slices.Clone(points)
	for i := range out {
		p := &out[i]
		p.Cells = slices.Clone(p.Cells)
		for j := range p.Cells {
			p.Cells[j].Failures = slices.Clone(p.Cells[j].Failures)
		}
		p.Failures = slices.Clone(p.Failures)
		if p.Pairs != nil {
			pairs := *p.Pairs
			p.Pairs = &pairs
		}
	}
	return out
}

func (r *CurveResult) add(o Study) { addCurvePoints(r.Points, o.(*CurveResult).Points) }

// addCurvePoints adds the counts of the points of another shard.
func addCurvePoints(points, other []CurvePoint) {
	for i := range points {
		p, op := &points[i], &other[i]
		for j := range p.Cells {
			p.Cells[j].Cell.add(&op.Cells[j].Cell)
		}
		if p.Pairs != nil {
			p.Pairs.Merge(op.Pairs)
		}
		p.Failed.add(&op.Failed)
	}
}

// FailedItems lists each point's failed seeds.
func (r *CurveResult) FailedItems() []FailedItems { return curveFailedItems(r.Points) }

func curveFailedItems(points []CurvePoint) []FailedItems {
	out := make([]FailedItems, len(points))
	for i := range points {
		p := &points[i]
		out[i] = FailedItems{Unit: "seed", A: &p.Cells[0].Cell, Errors: p.Errors, Failures: p.Failures}
	}
	return out
}

// Played is the seeds the result holds, of the study's (each plays every
// difficulty).
func (r *CurveResult) Played() (n, total int64, unit string) {
	n, total = curvePlayed(r.Points)
	return n, total, "seeds"
}

func curvePlayed(points []CurvePoint) (n, total int64) {
	for _, p := range points {
		n += p.Cells[0].Games
		total += p.Games
	}
	return n, total
}
