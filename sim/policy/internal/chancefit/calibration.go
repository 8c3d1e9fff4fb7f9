package main

import (
	"fmt"
	"math"
	"strings"

	"tallywood/sim/policy"
)

// Calibration: after the fit, the chance is made calibrated on games the
// net was not fitted on (Platt scaling, a shift per kind of point, a knee
// above the highest chances), and how calibrated it is is measured on
// held-out games (the table by tenths of predicted chance).

// scaleLogit fits a and c so that sigmoid(a·z + c), z the chance's logit,
// is calibrated on the positions of cal (logistic loss, Newton's method
// from a = 1, c = 0), and folds them into the output layer (Platt 1999's
// scaling, on a part of the games the net was not fitted on). A net fitted
// on many positions of few games is too sure of itself; this undoes it.
// Then each kind of point's bias is shifted on the same games
// (kindShifts).
func scaleLogit(wc *policy.WinChance, cal *data) (a, c float64) {
	a = 1
	if cal.len() == 0 {
		return 1, 0
	}
	z := logits(wc, cal)
	for range 50 {
		var ga, gc, haa, hac, hcc float64
		for r, zr := range z {
			p := sigmoid(a*zr + c)
			e, w := p-float64(cal.y[r]), p*(1-p)
			ga += e * zr
			gc += e
			haa += w * zr * zr
			hac += w * zr
			hcc += w
		}
		det := haa*hcc - hac*hac
		if det <= 0 {
			break
		}
		da, dc := (hcc*ga-hac*gc)/det, (haa*gc-hac*ga)/det
		a, c = a-da, c-dc
		if math.Abs(da)+math.Abs(dc) < 1e-10 {
			break
		}
	}
	shift := kindShifts(z, a, c, cal)
	n, bias := wc.Net(), wc.Bias()
	for i := range n.W2 {
		n.W2[i] = float32(a * float64(n.W2[i]))
	}
	n.B2 = float32(a*float64(n.B2) + c)
	for i := range bias {
		bias[i] = float32(a*float64(bias[i]) + shift[i])
	}
	return a, c
}

// logits is wc's logit at each position of cal: its net's output plus
// the position's kind bias (no knee: the knee is fitted on them).
func logits(wc *policy.WinChance, cal *data) []float64 {
	const k = policy.NetInputs
	n, bias := wc.Net(), wc.Bias()
	hid := make([]float32, policy.MaxHidden)
	z := make([]float64, cal.len())
	for r := range z {
		z[r] = float64(n.Forward((*[k]float32)(cal.x[r*k:r*k+k]), hid) + bias[cal.kind[r]])
	}
	return z
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// kindShifts fits, for each kind of point, the shift s of the scaled
// logit a·z + c that makes the mean chance at that kind's points of cal
// their mean outcome (Newton's method on the logistic loss, a and c held).
// An arc's step from one kind of point to the next is a decision's or the
// Opposition's effect; a chance a point too high at one kind and a point
// too low at the next, added over a game's fourteen turns, would read as
// a large effect of a decision kind that is the model's alone.
func kindShifts(z []float64, a, c float64, cal *data) [policy.ChanceKinds]float64 {
	var shift [policy.ChanceKinds]float64
	for range 50 {
		var g, h [policy.ChanceKinds]float64
		for r, zr := range z {
			k := cal.kind[r]
			p := sigmoid(a*zr + c + shift[k])
			g[k] += p - float64(cal.y[r])
			h[k] += p * (1 - p)
		}
		moved := 0.0
		for k := range shift {
			if h[k] > 0 {
				d := g[k] / h[k]
				shift[k] -= d
				moved += math.Abs(d)
			}
		}
		if moved < 1e-10 {
			break
		}
	}
	return shift
}

// kneeAts are the chances a knee may be at: 60% to 90%.
var kneeAts = []float64{0.6, 0.7, 0.8, 0.9}

// maxKneeSlope bounds the knee's slope: a level that rarely gets above
// the knee (novice: 135 of 316,000 held-out positions above 70%) would
// otherwise fit a near step to its few calibration positions there (a
// slope of 16 above 70%), turning 71% into 97%.
const maxKneeSlope = 4

// fitKnee fits the knee of wc (policy.Knee) on the calibration games
// cal, after Platt scaling: at each of kneeAts the slope of the greatest
// likelihood (Newton's method), and of those the knee of the greatest.
// Platt scaling is fitted mostly on the many low chances; it left
// casual's highest tenth 2.7 points too low on held-out games, and a
// straight line in the logit cannot lift that tenth without the others.
func fitKnee(wc *policy.WinChance, cal *data) policy.Knee {
	z := logits(wc, cal)
	var best policy.Knee
	bestLL := math.Inf(-1)
	for _, p := range kneeAts {
		at := math.Log(p / (1 - p))
		slope := 0.0
		for range 50 {
			var g, h float64
			for r, zr := range z {
				u := max(0, zr-at)
				q := sigmoid(zr + slope*u)
				g += (q - float64(cal.y[r])) * u
				h += q * (1 - q) * u * u
			}
			if h == 0 {
				break
			}
			d := g / h
			slope = min(max(slope-d, -0.5), maxKneeSlope) // -0.5 keeps the stretched logit growing
			if math.Abs(d) < 1e-10 {
				break
			}
		}
		var ll float64
		for r, zr := range z {
			q := min(max(sigmoid(zr+slope*max(0, zr-at)), 1e-12), 1-1e-12)
			y := float64(cal.y[r])
			ll += y*math.Log(q) + (1-y)*math.Log(1-q)
		}
		if ll > bestLL {
			bestLL, best = ll, policy.Knee{At: float32(at), Slope: float32(slope)}
		}
	}
	return best
}

// bins is how many bins of predicted chance the calibration table has.
const bins = 10

// tolerance is how far, in chance, a bin's observed outcome may be from
// its mean prediction.
const tolerance = 0.02

// measure scores the win chance c on the held-out positions d: its Brier
// score, the base rate's (a constant chance of base), its log loss, and a
// table by tenths of predicted chance: positions, games, mean predicted,
// observed, and their difference with its 95% interval. Positions of one
// game share its outcome, so the interval treats a game as the unit (the
// variance of the mean difference is the sum over games of their summed
// differences squared, over the positions squared); a bin has enough
// games when that interval is within ±tolerance, and only then is its
// difference held to ±tolerance.
func measure(c *policy.WinChance, d *data, base float64) (policy.ChanceLevelScore, [bins]binRow) {
	const k = policy.NetInputs
	var brier, baseBrier, logLoss float64
	var n [bins]int
	var sumP, sumY [bins]float64
	games := [bins]map[int32]float64{}
	for i := range games {
		games[i] = map[int32]float64{}
	}
	for r := range d.len() {
		p := c.OfInputs((*[k]float32)(d.x[r*k:r*k+k]), int(d.kind[r]))
		y := float64(d.y[r])
		brier += (p - y) * (p - y)
		baseBrier += (base - y) * (base - y)
		pc := min(max(p, 1e-12), 1-1e-12)
		logLoss -= y*math.Log(pc) + (1-y)*math.Log(1-pc)
		bin := min(int(p*bins), bins-1)
		n[bin]++
		sumP[bin] += p
		sumY[bin] += y
		games[bin][d.game[r]] += y - p
	}
	m := float64(max(1, d.len()))
	sc := policy.ChanceLevelScore{Level: c.Level, Games: d.games, Positions: d.len(), Brier: brier / m, BaseBrier: baseBrier / m, LogLoss: logLoss / m}
	var rows [bins]binRow
	for i := range bins {
		r := &rows[i]
		r.positions, r.games = n[i], len(games[i])
		if n[i] == 0 {
			continue
		}
		r.predicted, r.observed = sumP[i]/float64(n[i]), sumY[i]/float64(n[i])
		var v float64
		for _, x := range games[i] {
			v += x * x
		}
		r.half = 1.96 * math.Sqrt(v) / float64(n[i])
	}
	return sc, rows
}

// binRow is a bin of the calibration table: its positions and games, the
// mean prediction and outcome, and the half-width of the 95% interval of
// their difference.
type binRow struct {
	positions, games          int
	predicted, observed, half float64
}

// enough says whether the bin's interval is within ±tolerance, and ok
// whether its difference is then within ±tolerance too.
func (r binRow) enough() bool { return r.positions > 0 && r.half <= tolerance }

func (r binRow) ok() bool { return !r.enough() || math.Abs(r.observed-r.predicted) <= tolerance }

// binTable writes the calibration table.
func binTable(rows [bins]binRow) string {
	var b strings.Builder
	b.WriteString("| predicted | positions | games | mean predicted | observed | observed − predicted [95% CI] | within ±2 |\n|---|---|---|---|---|---|---|\n")
	for i, r := range rows {
		if r.positions == 0 {
			fmt.Fprintf(&b, "| %d–%d%% | 0 | 0 | | | | |\n", 10*i, 10*i+10)
			continue
		}
		verdict := "too few games"
		switch {
		case r.enough() && r.ok():
			verdict = "yes"
		case r.enough():
			verdict = "NO"
		}
		d := r.observed - r.predicted
		fmt.Fprintf(&b, "| %d–%d%% | %d | %d | %.1f%% | %.1f%% | %+.1f [%+.1f, %+.1f] | %s |\n", 10*i, 10*i+10, r.positions, r.games,
			100*r.predicted, 100*r.observed, 100*d, 100*(d-r.half), 100*(d+r.half), verdict)
	}
	return b.String()
}
