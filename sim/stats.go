package sim

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// z975 is the 97.5 % quantile of the standard normal distribution, the z
// of every 95 % interval here.
var z975 = distuv.UnitNormal.Quantile(0.975)

// Wilson returns the Wilson score 95 % interval for k successes in n
// trials (Wilson 1927; Newcombe 1998, method 3). With n = 0 it is [0, 1].
func Wilson(k, n int64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	z := z975
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return Interval{math.Max(0, center-half), math.Min(1, center+half)}
}

// MeanInterval returns the mean of n values from their sum and sum of
// squares, and its 95 % t-interval (Student's t with n−1 degrees of
// freedom). With fewer than two values the interval is the mean itself.
func MeanInterval(n, sum, sumSq int64) (mean float64, ci Interval) {
	if n <= 0 {
		return 0, Interval{}
	}
	nf := float64(n)
	mean = float64(sum) / nf
	if n < 2 {
		return mean, Interval{mean, mean}
	}
	// Integer sums keep the variance exact up to the last division:
	// n·Σx² − (Σx)² is computed in float64 from exact integers.
	ss := nf*float64(sumSq) - float64(sum)*float64(sum)
	variance := math.Max(0, ss/(nf*(nf-1)))
	se := math.Sqrt(variance / nf)
	t := tQuantile975(nf - 1)
	return mean, Interval{mean - t*se, mean + t*se}
}

// tQuantile975 is the 97.5 % quantile of Student's t with nu degrees of
// freedom. Beyond 10⁸ degrees of freedom it is the normal quantile (they
// differ by less than 10⁻⁸ there, and gonum's t quantile loses accuracy).
func tQuantile975(nu float64) float64 {
	if nu > 1e8 {
		return z975
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(0.975)
}

// Paired is the 2×2 table of two arms played on the same seeds, counting
// a win (Outcome Win) as success: Both won in both arms, AOnly in arm A
// only, BOnly in arm B only, Neither in neither.
type Paired struct {
	Both, AOnly, BOnly, Neither int64
}

// N is the number of pairs.
func (p Paired) N() int64 { return p.Both + p.AOnly + p.BOnly + p.Neither }

// Diff is the difference of the win rates, B − A.
func (p Paired) Diff() float64 {
	n := p.N()
	if n == 0 {
		return 0
	}
	return float64(p.BOnly-p.AOnly) / float64(n)
}

// Newcombe returns the 95 % interval for the paired difference of win rates
// B − A by Newcombe's square-and-add method for paired data (Newcombe 1998,
// "Improved confidence intervals for the difference between binomial
// proportions based on paired data", method 10): Wilson intervals for each
// arm combined with the phi correlation of the table, phi's numerator
// AD − BC reduced by n/2 towards 0 when positive (as in Newcombe's paper
// and Fagerland, Lydersen & Laake 2017, §8.5).
func Newcombe(p Paired) Interval {
	n := p.N()
	if n == 0 {
		return Interval{-1, 1}
	}
	nf := float64(n)
	// Newcombe's notation with arm B first so that the difference is B − A:
	// p1 = P(B wins), p2 = P(A wins).
	a, b, c, d := float64(p.Both), float64(p.BOnly), float64(p.AOnly), float64(p.Neither)
	p1, p2 := (a+b)/nf, (a+c)/nf
	w1, w2 := Wilson(p.Both+p.BOnly, n), Wilson(p.Both+p.AOnly, n)
	phi := 0.0
	if den := (a + b) * (c + d) * (a + c) * (b + d); den > 0 {
		num := a*d - b*c
		switch {
		case num > nf/2:
			phi = (num - nf/2) / math.Sqrt(den)
		case num >= 0:
			phi = 0
		default:
			phi = num / math.Sqrt(den)
		}
	}
	theta := p1 - p2
	dl1, du1 := p1-w1.Lo, w1.Hi-p1
	dl2, du2 := p2-w2.Lo, w2.Hi-p2
	lo := theta - math.Sqrt(math.Max(0, dl1*dl1-2*phi*dl1*du2+du2*du2))
	hi := theta + math.Sqrt(math.Max(0, du1*du1-2*phi*du1*dl2+dl2*dl2))
	return Interval{math.Max(-1, lo), math.Min(1, hi)}
}

// McNemar returns the two-sided p-value of McNemar's test of equal win
// rates in the two arms, the exact binomial version: under the null the
// AOnly of the AOnly+BOnly discordant pairs are Binomial(AOnly+BOnly, ½).
// With no discordant pair it is 1.
func McNemar(p Paired) float64 {
	m := p.AOnly + p.BOnly
	if m == 0 {
		return 1
	}
	k := min(p.AOnly, p.BOnly)
	pv := 2 * distuv.Binomial{N: float64(m), P: 0.5}.CDF(float64(k))
	return math.Min(1, pv)
}

// Hypothesis is a decision of the sequential test.
type Hypothesis int8

const (
	Undecided Hypothesis = iota
	AcceptH0
	AcceptH1
)

func (h Hypothesis) String() string {
	switch h {
	case AcceptH0:
		return "H0"
	case AcceptH1:
		return "H1"
	}
	return "undecided"
}

// SPRT is Wald's sequential probability ratio test of H0: win rate
// difference B − A = P0 against H1: difference = P1, on paired games. Each
// pair scores +1 (only B won), −1 (only A won) or 0, a trinomial whose one
// free parameter besides the difference is a nuisance; the log-likelihood
// ratio is the generalized one (GSPRT), each hypothesis's trinomial fitted
// by maximum likelihood under its constraint on the difference. It accepts
// H1 when the LLR reaches log((1−β)/α) and H0 when it falls to
// log(β/(1−α)).
type SPRT struct {
	P0, P1      float64
	Alpha, Beta float64
}

// Bounds returns the lower (accept H0) and upper (accept H1) LLR bounds.
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLR returns the log-likelihood ratio of H1 against H0 for the counts of
// pairs scoring +1 (plus), 0 (ties) and −1 (minus).
func (s SPRT) LLR(plus, ties, minus int64) float64 {
	return trinomialLogLik(plus, ties, minus, s.P1) - trinomialLogLik(plus, ties, minus, s.P0)
}

// Decide returns the decision after the pairs of p.
func (s SPRT) Decide(p Paired) (Hypothesis, float64) {
	llr := s.LLR(p.BOnly, p.Both+p.Neither, p.AOnly)
	// Keep the ratio finite (JSON has no infinities); past the bounds its
	// size means nothing more.
	llr = max(-1e300, min(1e300, llr))
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1, llr
	case llr <= lo:
		return AcceptH0, llr
	}
	return Undecided, llr
}

// trinomialLogLik is the maximum log-likelihood of counts (plus, ties,
// minus) over trinomials (t+δ, 1−2t−δ, t) with the difference fixed at δ.
// The log-likelihood is concave in t, so its stationary point is found by
// bisection on the derivative.
func trinomialLogLik(plus, ties, minus int64, delta float64) float64 {
	np, n0, nm := float64(plus), float64(ties), float64(minus)
	lo := math.Max(0, -delta)
	hi := (1 - delta) / 2
	if hi < lo {
		return math.Inf(-1)
	}
	deriv := func(t float64) float64 {
		d := 0.0
		if np > 0 {
			d += np / (t + delta)
		}
		if n0 > 0 {
			d -= 2 * n0 / (1 - 2*t - delta)
		}
		if nm > 0 {
			d += nm / t
		}
		return d
	}
	a, b := lo, hi
	for range 200 {
		m := (a + b) / 2
		if m == a || m == b {
			break
		}
		if deriv(m) > 0 {
			a = m
		} else {
			b = m
		}
	}
	t := (a + b) / 2
	ll := 0.0
	add := func(n, p float64) {
		if n > 0 {
			ll += n * math.Log(p)
		}
	}
	add(np, t+delta)
	add(n0, 1-2*t-delta)
	add(nm, t)
	return ll
}
