package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// LikelihoodFit is the maximum-likelihood estimate of one parameter whose
// log-likelihood is known on a grid, and its likelihood-ratio interval.
type LikelihoodFit struct {
	X      float64 // the grid point of the largest log-likelihood (the first of equals)
	LogLik float64 // the log-likelihood there
	// CI holds every x whose log-likelihood is within half the 1 − alpha
	// quantile of χ² with one degree of freedom of the largest (Wilks
	// 1938): the values a likelihood-ratio test at level alpha does not
	// reject. Its ends are interpolated linearly between grid points.
	CI Interval
	// LoOpen and HiOpen: the interval reaches the grid's first or last
	// point, so the data bound it on that side only as far as the grid
	// goes.
	LoOpen, HiOpen bool
}

// LikelihoodInterval fits a parameter from its log-likelihood ll[i] at
// xs[i] (xs increasing; an entry of ll may be −Inf, a value the data rule
// out). ok is false when every entry is −Inf or NaN, or the slices are
// empty or of different lengths.
func LikelihoodInterval(xs, ll []float64, alpha float64) (fit LikelihoodFit, ok bool) {
	if len(xs) == 0 || len(xs) != len(ll) {
		return LikelihoodFit{}, false
	}
	best := -1
	for i, v := range ll {
		if !math.IsNaN(v) && !math.IsInf(v, -1) && (best < 0 || v > ll[best]) {
			best = i
		}
	}
	if best < 0 {
		return LikelihoodFit{}, false
	}
	cut := ll[best] - distuv.ChiSquared{K: 1}.Quantile(1-alpha)/2
	fit = LikelihoodFit{X: xs[best], LogLik: ll[best]}
	// Walk out from the maximum to the first point below the cut on each
	// side; the end is where the line between it and its neighbour meets
	// the cut.
	// the side is the last point kept when its neighbour is ruled out
	// (−Inf: no line meets it).
	edge := func(in, out int) float64 {
		a, b := ll[in], ll[out]
		if math.IsInf(b, -1) || math.IsNaN(b) {
			return xs[in]
		}
		return xs[in] + (a-cut)/(a-b)*(xs[out]-xs[in])
	}
	lo := best
	for lo > 0 && ll[lo-1] >= cut {
		lo--
	}
	if lo == 0 {
		fit.CI.Lo, fit.LoOpen = xs[0], true
	} else {
		fit.CI.Lo = edge(lo, lo-1)
	}
	hi := best
	for hi < len(xs)-1 && ll[hi+1] >= cut {
		hi++
	}
	if hi == len(xs)-1 {
		fit.CI.Hi, fit.HiOpen = xs[len(xs)-1], true
	} else {
		fit.CI.Hi = edge(hi, hi+1)
	}
	return fit, true
}

// BinomialLogLik is the log-likelihood of k successes in n trials at
// success chance p, without the binomial coefficient (which no p
// changes): k·log p + (n − k)·log(1 − p), with 0·log 0 = 0.
func BinomialLogLik(k, n int64, p float64) float64 {
	ll := 0.0
	if k > 0 {
		ll += float64(k) * math.Log(p)
	}
	if n > k {
		ll += float64(n-k) * math.Log1p(-p)
	}
	return ll
}

// NormalLogLik is the log-likelihood of the values m sums under a
// normal distribution of mean mu and standard deviation sd: the sum of
// their log densities, from the sums alone.
func (m Moments) NormalLogLik(mu, sd float64) float64 {
	n := float64(m.N)
	ss := float64(m.SumSq) - 2*mu*float64(m.Sum) + n*mu*mu // Σ (x − mu)²
	return -ss/(2*sd*sd) - n*math.Log(sd) - n*0.5*math.Log(2*math.Pi)
}

// SD is the sample standard deviation of the values (n − 1 in the
// denominator), 0 with fewer than two.
func (m Moments) SD() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(m.meanVar() * float64(m.N))
}
