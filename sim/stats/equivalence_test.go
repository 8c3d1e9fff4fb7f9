package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestAgainst(t *testing.T) {
	tests := []struct {
		ci     Interval
		lo, hi float64
		want   Band
	}{
		{Interval{-0.01, 0.01}, -0.02, 0.02, Inside},
		{Interval{-0.02, 0.01}, -0.02, 0.02, Straddles}, // touching an edge is not inside
		{Interval{-0.03, 0.01}, -0.02, 0.02, Straddles},
		{Interval{0.02, 0.05}, -0.02, 0.02, Outside},
		{Interval{-0.09, -0.03}, -0.02, 0.02, Outside},
		{Interval{-0.05, 0.05}, -0.02, 0.02, Straddles}, // wider than the band
		{Interval{0.43, 0.47}, 0.43, 0.47, Straddles},
	}
	for _, tt := range tests {
		if got := tt.ci.Against(tt.lo, tt.hi); got != tt.want {
			t.Errorf("%v against (%g, %g): %v, want %v", tt.ci, tt.lo, tt.hi, got, tt.want)
		}
	}
	if !(Interval{0.001, 0.01}).Excludes(0) || (Interval{0, 0.01}).Excludes(0) || !(Interval{-0.3, -0.1}).Excludes(0) {
		t.Error("Excludes")
	}
}

func TestSampleSize(t *testing.T) {
	// (1.96 + 0.8416)² · 0.5² / 0.02² = 4905.5…: Cohen's n for a mean
	// difference of 0.04 standard deviations at 5 % and 80 % power.
	if got := SampleSize(0.5, 0.02, 0.05, 0.2); got != 4906 {
		t.Errorf("n = %g, want 4906", got)
	}
	if got := SampleSize(0.5, 0, 0.05, 0.2); !math.IsInf(got, 1) {
		t.Errorf("no gap: n = %g, want +Inf", got)
	}
	if got := SampleSize(0, 0.02, 0.05, 0.2); got != 0 {
		t.Errorf("no spread: n = %g, want 0", got)
	}
}

func TestScoreInterval(t *testing.T) {
	// Differences of 0 and +1 only: within [0, 1] the bounds are Wilson's.
	got, want := Pentanomial{0, 0, 182, 0, 81}.ScoreInterval(0.05), Wilson(81, 263, 0.05)
	if !scalar.EqualWithinAbs(got.Lo, want.Lo, 1e-12) || !scalar.EqualWithinAbs(got.Hi, want.Hi, 1e-12) {
		t.Errorf("0/+1 differences: %v, want Wilson's %v", got, want)
	}
	// No pair differs: about ±z²/N, never a point (Student's t gives one).
	n := Pentanomial{0, 0, 1000, 0, 0}
	ci := n.ScoreInterval(0.05)
	z2 := 1.959963984540054 * 1.959963984540054
	if !scalar.EqualWithinRel(ci.Hi, z2/(1000+z2), 1e-9) || !scalar.EqualWithinRel(ci.Lo, -ci.Hi, 1e-9) {
		t.Errorf("no pair differs: %v, want ±%.6f", ci, z2/(1000+z2))
	}
	if got := (Pentanomial{}).ScoreInterval(0.05); got != (Interval{-1, 1}) {
		t.Errorf("no pairs: %v", got)
	}
	// Every pair +1: the upper bound is 1; the lower is below Wilson's for
	// 50 of 50 (0.929), as a difference can reach −1: its variance at a
	// mean mu may be 1 − mu².
	if got := (Pentanomial{0, 0, 0, 0, 50}).ScoreInterval(0.05); got.Hi != 1 || got.Lo <= 0.8 || got.Lo >= 0.929 {
		t.Errorf("every pair +1: %v", got)
	}
	// Many differences both ways: close to Student's t.
	n = Pentanomial{400, 100, 3000, 150, 350}
	tci := n.Moments().MeanInterval(0.01)
	ci = n.ScoreInterval(0.01)
	if !scalar.EqualWithinAbs(ci.Lo, tci.Lo/2, 5e-4) || !scalar.EqualWithinAbs(ci.Hi, tci.Hi/2, 5e-4) {
		t.Errorf("many differences: score %v, t %v/2", ci, tci)
	}
	// The test the interval inverts: p below alpha just outside, above
	// just inside.
	for _, c := range []Pentanomial{{5, 10, 900, 20, 65}, {0, 0, 700, 0, 3}, {80, 20, 800, 20, 80}} {
		ci := c.ScoreInterval(0.01)
		for _, e := range []float64{ci.Lo, ci.Hi} {
			out, in := e+1e-6, e-1e-6
			if e == ci.Lo {
				out, in = e-1e-6, e+1e-6
			}
			if p := c.ScoreTest(out); p >= 0.01 {
				t.Errorf("%v: p(%g) = %g just outside %v", c, out, p, ci)
			}
			if p := c.ScoreTest(in); p < 0.01 {
				t.Errorf("%v: p(%g) = %g just inside %v", c, in, p, ci)
			}
		}
	}
}

// TestScoreIntervalCoverage: the score interval covers the true mean of
// paired differences about as often as it claims, where Student's t with
// few differences that are not 0 falls short: 95 % intervals over 2000
// draws of 300 pairs of which 2 % differ, all by +1 (a skewed, rare
// effect: t covers 93 % of them, the score interval 95 %).
func TestScoreIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(14002, 1))
	const runs, n, q = 2000, 300, 0.02
	var score, student int
	for range runs {
		var c Pentanomial
		for range n {
			if rng.Float64() < q {
				c[4]++
			} else {
				c[2]++
			}
		}
		if ci := c.ScoreInterval(0.05); ci.Lo <= q && q <= ci.Hi {
			score++
		}
		if ci := c.Moments().MeanInterval(0.05); ci.Lo/2 <= q && q <= ci.Hi/2 {
			student++
		}
	}
	cs, ct := float64(score)/runs, float64(student)/runs
	t.Logf("coverage of 95%%: score %.3f, Student's t %.3f", cs, ct)
	if cs < 0.93 {
		t.Errorf("score interval covers %.3f of %d, want about 0.95", cs, runs)
	}
	if ct >= cs {
		t.Errorf("t covers %.3f, the score interval %.3f: the case no longer shows why", ct, cs)
	}
}
