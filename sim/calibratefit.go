package sim

import (
	"math"
	"slices"

	"tallywood/sim/stats"
)

// The fits and predictions of a calibration, derived from its counts:
// the likelihood of a tester's decisions and of their results at every
// skill of the grid (FitStep apart), the maximum and its
// likelihood-ratio interval (stats.LikelihoodInterval), and the curves'
// win rates over the interval.

// derive computes every derived field: the curves' cells and bands, the
// pooled tester, each tester's fits, matches and predictions, the timing.
func (r *CalibrateResult) derive() {
	var games int64
	var secs float64
	for i := range r.Curves {
		g, s := deriveCurvePoints(r.Curves[i].Points, 0.05)
		games, secs = games+g, secs+s
	}
	for i := range r.Testers {
		r.fit(&r.Testers[i])
	}
	r.Pooled, r.PooledOf = nil, nil
	if like := alike(r.Testers); len(like) > 1 {
		p := pooled(like)
		r.Pooled = &p
		for _, t := range like {
			r.PooledOf = append(r.PooledOf, t.Name)
		}
		r.fit(r.Pooled)
	}
	r.setTiming(games, secs)
}

// alike are the testers pooled, like with like: those whose recorded
// decisions fit the dial (a tester off it plays another style, and one
// with results only may too: their results would be read as the skill the
// others' decisions show); with no recorded decision at all, every
// tester, whose results alone are read.
func alike(ts []Tester) []Tester {
	var like []Tester
	decided := false
	for _, t := range ts {
		if t.Decisions.Decisions > 0 {
			decided = true
			if !t.OffDial {
				like = append(like, t)
			}
		}
	}
	if !decided {
		return ts
	}
	return like
}

// pooled is the testers' data summed, as one tester.
func pooled(ts []Tester) Tester {
	p := Tester{Name: "pooled", Decisions: DecisionData{LogLik: make([]float64, fitBelow), Matches: make([]int64, len(ts[0].Decisions.Matches))}}
	for _, t := range ts {
		d, s := &p.Decisions, &t.Decisions
		d.Games += s.Games
		d.Decisions += s.Decisions
		d.Forced += s.Forced
		d.Hinted += s.Hinted
		for k := range d.LogLik {
			d.LogLik[k] += s.LogLik[k]
		}
		d.Best, d.Search, d.Both, d.Neither = d.Best+s.Best, d.Search+s.Search, d.Both+s.Both, d.Neither+s.Neither
		for k := range d.Matches {
			d.Matches[k] += s.Matches[k]
		}
		for _, res := range t.Results {
			x := p.results(res.Curve, res.Mode)
			x.Wins, x.Draws, x.Losses = x.Wins+res.Wins, x.Draws+res.Draws, x.Losses+res.Losses
			x.MarginGames, x.MarginWins = x.MarginGames+res.MarginGames, x.MarginWins+res.MarginWins
			x.MarginSum, x.MarginSumSq = x.MarginSum+res.MarginSum, x.MarginSumSq+res.MarginSumSq
		}
	}
	return p
}

// Profiles are the log-likelihoods of t's decisions and of t's results
// at each skill (FitStep apart, from 0 to the top of the dial), nil for
// what t has none of: what the fits are read from.
func (r *CalibrateResult) Profiles(t *Tester) (skills, decisions, results []float64) {
	if t.Decisions.Decisions > 0 {
		decisions = t.Decisions.logLik()
	}
	if len(t.Results) > 0 {
		results = r.resultLogLik(t.Results)
	}
	return slices.Clone(fitGrid), decisions, results
}

// fitGrid are the skills of the likelihood: 0 to the top of the dial,
// FitStep apart.
var fitGrid = func() []float64 {
	xs := make([]float64, fitPoints)
	for k := range xs {
		xs[k] = fitSkill(k)
	}
	return xs
}()

// fit derives t's fits, matches and predictions.
func (r *CalibrateResult) fit(t *Tester) {
	t.DecisionFit, t.ResultFit, t.Matches, t.Predictions, t.FitsDisagree = nil, nil, nil, nil, false
	t.OffDial = t.Decisions.Test.OffDial()
	d := &t.Decisions
	if d.Decisions > 0 {
		t.DecisionFit = skillFit(d.logLik())
		for k, lv := range r.Levels {
			ci := stats.Wilson(d.Matches[k], d.Decisions, 0.05)
			t.Matches = append(t.Matches, MatchRate{Level: lv, Rate: ratio(d.Matches[k], d.Decisions), CI95: [2]float64{ci.Lo, ci.Hi}})
		}
	}
	if len(t.Results) > 0 {
		t.ResultFit = skillFit(r.resultLogLik(t.Results))
	}
	d2, r2 := t.DecisionFit, t.ResultFit
	t.FitsDisagree = d2 != nil && r2 != nil && (d2.CI95[1] < r2.CI95[0] || r2.CI95[1] < d2.CI95[0])
	for src, f := range []*SkillFit{t.DecisionFit, t.ResultFit} {
		// Decisions unlike the dial's say how alike the tester plays,
		// not how well: no win rate is predicted from them.
		if f == nil || FitSource(src) == FromDecisions && t.OffDial {
			continue
		}
		for c := range r.Curves {
			for j, mode := range curveModes {
				t.Predictions = append(t.Predictions, r.predict(FitSource(src), f, c, j, mode))
			}
		}
	}
}

// skillFit is the fit of a log-likelihood on fitGrid, nil when the data
// rule out every skill.
func skillFit(ll []float64) *SkillFit {
	f, ok := stats.LikelihoodInterval(fitGrid, ll, 0.05)
	if !ok {
		return nil
	}
	p, _ := stats.LikelihoodInterval(fitGrid, ll, 0.025)
	return &SkillFit{Skill: f.X, CI95: [2]float64{f.CI.Lo, f.CI.Hi}, LowOpen: f.LoOpen, HighOpen: f.HiOpen,
		CIPredict: [2]float64{p.CI.Lo, p.CI.Hi}}
}

// logLik is the decisions' log-likelihood at every skill of fitGrid:
// below 1 as summed, from 1 up that of the picks, the search's with
// chance skill − 1 and the learned score's best otherwise.
func (d *DecisionData) logLik() []float64 {
	ll := make([]float64, fitPoints)
	copy(ll, d.LogLik)
	for k := fitBelow; k < fitPoints; k++ {
		if d.Neither > 0 {
			ll[k] = math.Inf(-1)
			continue
		}
		ll[k] = stats.BinomialLogLik(d.Search, d.Search+d.Best, fitSkill(k)-1)
	}
	return ll
}

// resultLogLik is the log-likelihood of results at every skill of
// fitGrid: each game without a margin won with the curve's win rate
// there, each margin drawn from a normal of the curve's mean and spread
// of margins there; both read between the curve's points linearly, and
// the win rate (wins + ½)/(games + 1) so that a point with no win does
// not rule a won game out.
func (r *CalibrateResult) resultLogLik(results []ResultData) []float64 {
	ll := make([]float64, fitPoints)
	for _, res := range results {
		pts := r.Curves[res.Curve].Points
		j := slices.Index(curveModes, res.Mode)
		xs := make([]float64, len(pts))
		win, mean, sd := make([]float64, len(pts)), make([]float64, len(pts)), make([]float64, len(pts))
		for i := range pts {
			c := &pts[i].Cells[j].Counts
			m := stats.Moments{N: c.Games, Sum: c.MarginSum, SumSq: c.MarginSumSq}
			xs[i] = pts[i].Skill
			win[i] = (float64(c.Wins) + 0.5) / (float64(c.Games) + 1)
			mean[i], sd[i] = m.Mean(), max(m.SD(), 1)
		}
		margins := stats.Moments{N: res.MarginGames, Sum: res.MarginSum, SumSq: res.MarginSumSq}
		for k, s := range fitGrid {
			if s < xs[0] || s > xs[len(xs)-1] {
				ll[k] = math.Inf(-1)
				continue
			}
			ll[k] += stats.BinomialLogLik(res.Wins, res.Wins+res.Draws+res.Losses, interpolate(xs, win, s))
			if res.MarginGames > 0 {
				ll[k] += margins.NormalLogLik(interpolate(xs, mean, s), interpolate(xs, sd, s))
			}
		}
	}
	return ll
}

// interpolate reads ys, given at the rising xs, at x (within them)
// linearly.
func interpolate(xs, ys []float64, x float64) float64 {
	i, found := slices.BinarySearch(xs, x)
	if found {
		return ys[i]
	}
	i = min(max(i, 1), len(xs)-1)
	t := (x - xs[i-1]) / (xs[i] - xs[i-1])
	return ys[i-1] + t*(ys[i]-ys[i-1])
}

// rangeOver is the least and the most of ys read between rising xs, over
// [lo, hi]: at its ends and at every point within.
func rangeOver(xs, ys []float64, lo, hi float64) (least, most float64) {
	least, most = interpolate(xs, ys, lo), interpolate(xs, ys, hi)
	least, most = min(least, most), max(least, most)
	for i, x := range xs {
		if x > lo && x < hi {
			least, most = min(least, ys[i]), max(most, ys[i])
		}
	}
	return least, most
}

// predict is the win rate and margin predicted by fit f on difficulty j
// of curve c: the curve read at the fitted skill, within the least of its
// lower band and the most of its upper band over the skill's 97.5%
// interval, the bands at 97.5% over every point and difficulty.
func (r *CalibrateResult) predict(src FitSource, f *SkillFit, c, j int, mode string) Prediction {
	pts := r.Curves[c].Points
	alpha := stats.BonferroniLevel(0.025, 2*len(pts))
	n := len(pts)
	xs, win, winLo, winHi := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	mar, marLo, marHi := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range pts {
		cell := &pts[i].Cells[j]
		w, m := cellBands(&cell.Counts, alpha)
		xs[i], win[i], mar[i] = pts[i].Skill, cell.WinRate, cell.MeanMargin
		winLo[i], winHi[i], marLo[i], marHi[i] = w[0], w[1], m[0], m[1]
	}
	lo, hi := f.CIPredict[0], f.CIPredict[1]
	p := Prediction{From: src, Curve: c, Mode: mode, WinRate: interpolate(xs, win, f.Skill), MeanMargin: interpolate(xs, mar, f.Skill)}
	p.WinCI[0], _ = rangeOver(xs, winLo, lo, hi)
	_, p.WinCI[1] = rangeOver(xs, winHi, lo, hi)
	p.MarginCI[0], _ = rangeOver(xs, marLo, lo, hi)
	_, p.MarginCI[1] = rangeOver(xs, marHi, lo, hi)
	return p
}
