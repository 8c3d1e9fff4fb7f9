package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// grid is n+1 points from lo to hi.
func grid(lo, hi float64, n int) []float64 {
	xs := make([]float64, n+1)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/float64(n)
	}
	return xs
}

func TestLikelihoodInterval(t *testing.T) {
	xs := grid(-10, 10, 2000)
	quad := func(mu, sd float64) []float64 {
		ll := make([]float64, len(xs))
		for i, x := range xs {
			ll[i] = -(x - mu) * (x - mu) / (2 * sd * sd)
		}
		return ll
	}
	tests := []struct {
		name           string
		ll             []float64
		x, lo, hi      float64
		loOpen, hiOpen bool
	}{
		// A normal log-likelihood: the interval is mu ± 1.96 sd.
		{"quadratic", quad(1, 2), 1, 1 - 1.959964*2, 1 + 1.959964*2, false, false},
		{"open above", quad(8, 2), 8, 8 - 1.959964*2, 10, false, true},
		{"open below", quad(-9.5, 1), -9.5, -10, -9.5 + 1.959964, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fit, ok := LikelihoodInterval(xs, tt.ll, 0.05)
			if !ok {
				t.Fatal("not ok")
			}
			if math.Abs(fit.X-tt.x) > 1e-9 || math.Abs(fit.CI.Lo-tt.lo) > 1e-4 || math.Abs(fit.CI.Hi-tt.hi) > 1e-4 ||
				fit.LoOpen != tt.loOpen || fit.HiOpen != tt.hiOpen {
				t.Errorf("got %+v, want %g [%g, %g] open %v %v", fit, tt.x, tt.lo, tt.hi, tt.loOpen, tt.hiOpen)
			}
		})
	}
}

// A point the data rule out (−Inf) ends the interval at its neighbour.
func TestLikelihoodIntervalRuledOut(t *testing.T) {
	xs := []float64{0, 1, 2, 3}
	ll := []float64{-100, -1, 0, math.Inf(-1)}
	fit, ok := LikelihoodInterval(xs, ll, 0.05)
	if !ok || fit.X != 2 || fit.CI.Hi != 2 || fit.HiOpen || fit.LoOpen {
		t.Fatalf("got %+v, %v", fit, ok)
	}
	// The cut is 1.92 below 0: between 1 (−1) and 0 (−100), at 1 − 0.92/99.
	if want := 1 - (1.920729-1)/99; math.Abs(fit.CI.Lo-want) > 1e-5 {
		t.Errorf("lo %g, want %g", fit.CI.Lo, want)
	}
	for _, bad := range []struct {
		name   string
		xs, ll []float64
	}{
		{"every value ruled out", xs, []float64{math.Inf(-1), math.NaN(), math.Inf(-1), math.Inf(-1)}},
		{"lengths differ", xs, []float64{0, 0}},
		{"empty", nil, nil},
	} {
		if _, ok := LikelihoodInterval(bad.xs, bad.ll, 0.05); ok {
			t.Errorf("%s: ok", bad.name)
		}
	}
}

// The likelihood-ratio interval of a binomial proportion holds the true
// proportion about as often as it says: 2,000 samples of 40 trials at
// p = 0.3 (seed 13001).
func TestLikelihoodIntervalCoverage(t *testing.T) {
	xs := grid(0, 1, 1000)
	rng := rand.New(rand.NewPCG(13001, 1))
	const p, n, reps = 0.3, 40, 2000
	in := 0
	ll := make([]float64, len(xs))
	for range reps {
		var k int64
		for range n {
			if rng.Float64() < p {
				k++
			}
		}
		for i, x := range xs {
			ll[i] = BinomialLogLik(k, n, x)
		}
		fit, _ := LikelihoodInterval(xs, ll, 0.05)
		if fit.CI.Lo <= p && p <= fit.CI.Hi {
			in++
		}
	}
	if rate := float64(in) / reps; rate < 0.93 || rate > 0.97 {
		t.Errorf("coverage %.3f, want about 0.95", rate)
	}
}

func TestBinomialLogLik(t *testing.T) {
	if got := BinomialLogLik(0, 5, 0); got != 0 {
		t.Errorf("0 of 5 at 0: %g", got)
	}
	if got := BinomialLogLik(5, 5, 1); got != 0 {
		t.Errorf("5 of 5 at 1: %g", got)
	}
	if got, want := BinomialLogLik(2, 5, 0.5), 5*math.Log(0.5); math.Abs(got-want) > 1e-12 {
		t.Errorf("2 of 5 at ½: %g, want %g", got, want)
	}
	if got := BinomialLogLik(1, 5, 0); !math.IsInf(got, -1) {
		t.Errorf("1 of 5 at 0: %g", got)
	}
}

func TestNormalLogLik(t *testing.T) {
	var m Moments
	for _, x := range []int64{1, 3} {
		m.Add(x)
	}
	// Two values one SD (2) from the mean 2: each density exp(−1/8)/(2√2π).
	if got, want := m.NormalLogLik(2, 2), 2*(-0.125-math.Log(2)-0.5*math.Log(2*math.Pi)); math.Abs(got-want) > 1e-12 {
		t.Errorf("got %g, want %g", got, want)
	}
	if got := m.SD(); math.Abs(got-math.Sqrt2) > 1e-12 {
		t.Errorf("SD %g, want √2", got)
	}
	if (Moments{N: 1, Sum: 4, SumSq: 16}).SD() != 0 {
		t.Error("SD of one value is not 0")
	}
}
