package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func momentsOf(xs ...int64) Moments {
	var m Moments
	for _, x := range xs {
		m.Add(x)
	}
	return m
}

// Student's sleep data (Cushny & Peebles 1905, as Student 1908 and R's
// ?sleep give them), in tenths of an hour: the extra sleep of ten
// patients under each of two drugs.
var (
	sleep1 = []int64{7, -16, -2, -12, -1, 34, 37, 8, 0, 20}
	sleep2 = []int64{19, 8, 11, 1, -1, 44, 55, 16, 46, 34}
)

// sleepDiffs are drug 1 − drug 2, patient by patient.
func sleepDiffs() []int64 {
	d := make([]int64, len(sleep1))
	for i := range d {
		d[i] = sleep1[i] - sleep2[i]
	}
	return d
}

func TestMoments(t *testing.T) {
	m := momentsOf(1, 2, 3)
	o := momentsOf(-4, 10)
	m.Merge(o)
	if want := momentsOf(1, 2, 3, -4, 10); m != want {
		t.Errorf("merged %+v, want %+v", m, want)
	}
	if m.Mean() != 12.0/5 {
		t.Errorf("mean %g, want 2.4", m.Mean())
	}
	if (Moments{}).Mean() != 0 {
		t.Error("the mean of nothing is not 0")
	}
}

func TestMeanInterval(t *testing.T) {
	tests := []struct {
		name         string
		xs           []int64
		alpha        float64
		mean, lo, hi float64
	}{
		// 1..10: mean 5.5, s = 3.02765, t(0.975, 9) = 2.262157.
		{"1..10", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.05, 5.5, 3.334149, 7.665851},
		// t(0.995, 9) = 3.249836.
		{"1..10 at 99%", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.01, 5.5, 2.388523, 8.611477},
		// −3, 5: mean 1, s = 5.656854, t(0.975, 1) = 12.7062.
		{"two", []int64{-3, 5}, 0.05, 1, -49.82482, 51.82482},
		// R: t.test(extra ~ group, data = sleep, paired = TRUE) gives
		// [−2.4598858, −0.7001142] hours.
		{"sleep, paired", sleepDiffs(), 0.05, -15.8, -24.598858, -7.001142},
		{"constant", []int64{4, 4, 4}, 0.05, 4, 4, 4},
		{"one", []int64{7}, 0.05, 7, 7, 7},
		{"none", nil, 0.05, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := momentsOf(tt.xs...)
			mean, ci := m.Mean(), m.MeanInterval(tt.alpha)
			if !scalar.EqualWithinAbs(mean, tt.mean, 1e-9) || !scalar.EqualWithinAbs(ci.Lo, tt.lo, 1e-5) || !scalar.EqualWithinAbs(ci.Hi, tt.hi, 1e-5) {
				t.Errorf("got %.6f [%.6f, %.6f], want %.6f [%.6f, %.6f]", mean, ci.Lo, ci.Hi, tt.mean, tt.lo, tt.hi)
			}
		})
	}
}

func TestTTest(t *testing.T) {
	tests := []struct {
		name string
		xs   []int64
		p    float64
		tolP float64
	}{
		// 1..10 against 0: t = 5.5/(3.02765/√10) = 5.74456, 9 df:
		// two-sided p = 0.000279.
		{"1..10", []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.000279, 5e-6},
		// R: t.test(extra ~ group, data = sleep, paired = TRUE):
		// t = −4.0621, df = 9, p-value = 0.002833.
		{"sleep, paired", sleepDiffs(), 0.002833, 5e-7},
		// −1, 1, −1, 1 has mean 0: p = 1.
		{"symmetric", []int64{-1, 1, -1, 1}, 1, 1e-12},
		{"constant 0", []int64{0, 0, 0}, 1, 0},
		{"constant 2", []int64{2, 2, 2}, 0, 0},
		{"one", []int64{3}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := momentsOf(tt.xs...).TTest(); !scalar.EqualWithinAbs(p, tt.p, tt.tolP) {
				t.Errorf("p %.6g, want %.6g", p, tt.p)
			}
		})
	}
}

func TestTOST(t *testing.T) {
	// 1..10: mean 5.5, standard error 0.9574271; t(0.95, 9) = 1.833113 puts
	// a bound 1.833113 standard errors from the mean at p = 0.05.
	oneTen := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	se := 3.0276504 / math.Sqrt(10)
	tests := []struct {
		name   string
		xs     []int64
		lo, hi float64
		p      float64
		tolP   float64
	}{
		{"upper bound at t(0.95)", oneTen, -100, 5.5 + 1.833113*se, 0.05, 1e-6},
		{"lower bound at t(0.95)", oneTen, 5.5 - 1.833113*se, 100, 0.05, 1e-6},
		// Both bounds at the same distance: both one-sided tests agree.
		{"symmetric", oneTen, 5.5 - 1.833113*se, 5.5 + 1.833113*se, 0.05, 1e-6},
		// A bound at the mean: p = ½ whatever the other.
		{"at the mean", oneTen, 0, 5.5, 0.5, 1e-12},
		{"outside", oneTen, 8, 9, 0.9859, 1e-4}, // t = 2.61, 9 df: 1 − 0.0141
		{"constant inside", []int64{2, 2, 2}, 1, 3, 0, 0},
		{"constant outside", []int64{2, 2, 2}, 2, 3, 1, 0},
		{"one", []int64{2}, 1, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := momentsOf(tt.xs...).TOST(tt.lo, tt.hi); !scalar.EqualWithinAbs(p, tt.p, tt.tolP) {
				t.Errorf("TOST(%g, %g) = %.6g, want %.6g", tt.lo, tt.hi, p, tt.p)
			}
		})
	}
}

func TestWelch(t *testing.T) {
	tests := []struct {
		name         string
		a, b         []int64
		diff, lo, hi float64
		p, tolP      float64
	}{
		// R: t.test(extra ~ group, data = sleep) (Welch's by default):
		// t = −1.8608, df = 17.776, p-value = 0.07939, 95 % interval
		// [−3.3654832, 0.2054832] hours.
		{"sleep", sleep1, sleep2, -15.8, -33.654832, 2.054832, 0.07939, 5e-6},
		{"sleep, reversed", sleep2, sleep1, 15.8, -2.054832, 33.654832, 0.07939, 5e-6},
		{"no spread, equal", []int64{3, 3}, []int64{3, 3, 3}, 0, 0, 0, 1, 0},
		{"no spread, apart", []int64{3, 3}, []int64{1, 1, 1}, 2, 2, 2, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff, ci, p := Welch(momentsOf(tt.a...), momentsOf(tt.b...), 0.05)
			if !scalar.EqualWithinAbs(diff, tt.diff, 1e-9) || !scalar.EqualWithinAbs(ci.Lo, tt.lo, 1e-5) || !scalar.EqualWithinAbs(ci.Hi, tt.hi, 1e-5) ||
				!scalar.EqualWithinAbs(p, tt.p, tt.tolP) {
				t.Errorf("got %g [%.6f, %.6f] p %.6g, want %g [%.6f, %.6f] p %.6g", diff, ci.Lo, ci.Hi, p, tt.diff, tt.lo, tt.hi, tt.p)
			}
		})
	}
}

func TestMeanTests(t *testing.T) {
	oneTen := momentsOf(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	sym := momentsOf(-1, 1, -1, 1)
	got := MeanTests([]Moments{oneTen, sym}, 0.05)
	// Each test at 0.025: 1..10's interval uses t(0.9875, 9) = 2.685011.
	half := 2.685011 * 3.0276504 / math.Sqrt(10)
	if c := got[0]; !c.Rejected || c.Mean != 5.5 || !scalar.EqualWithinAbs(c.CI.Lo, 5.5-half, 1e-5) || !scalar.EqualWithinAbs(c.CI.Hi, 5.5+half, 1e-5) ||
		!scalar.EqualWithinAbs(c.PAdj, 2*c.P, 1e-15) {
		t.Errorf("1..10: %+v, want rejected, 5.5 ± %.6f, PAdj 2·P", c, half)
	}
	if c := got[1]; c.Rejected || c.P != 1 || c.PAdj != 1 {
		t.Errorf("symmetric: %+v, want not rejected, P = PAdj = 1", c)
	}
	// Rejected exactly when the simultaneous interval excludes 0.
	for _, c := range MeanTests([]Moments{momentsOf(0, 1, 2, 1, 3, 0, 2), momentsOf(-2, -3, 0, -1, -4), oneTen}, 0.05) {
		if excl := c.CI.Lo > 0 || c.CI.Hi < 0; excl != c.Rejected {
			t.Errorf("%+v: rejected %v but interval excludes 0 %v", c, c.Rejected, excl)
		}
	}
	if len(MeanTests(nil, 0.05)) != 0 {
		t.Error("tests of no means")
	}
}

func TestPossible(t *testing.T) {
	for _, tt := range []struct {
		m    Moments
		most int64
		want bool
	}{
		{Moments{}, 5, true},
		{Moments{N: 3, Sum: 2, SumSq: 6}, 5, true},    // 1, −1, 2
		{Moments{N: 3, Sum: -15, SumSq: 75}, 5, true}, // −5 three times
		{Moments{N: 3, Sum: 16, SumSq: 86}, 5, false}, // |sum| > 3·5
		{Moments{N: 3, Sum: 2, SumSq: 76}, 5, false},  // sum of squares > 3·25
		{Moments{N: 2, Sum: 6, SumSq: 10}, 5, false},  // 36 > 2·10: a negative variance
		{Moments{N: 50, Sum: -2000, SumSq: 80000}, 100, true},
		{Moments{N: 4, Sum: 3, SumSq: 4}, 5, false}, // parities differ
		{Moments{N: 4, Sum: 0, SumSq: 0}, 5, true},  // zeros
		{Moments{N: 0, Sum: 0, SumSq: 2}, 5, false}, // squares of no values
		{Moments{N: 1, Sum: 2, SumSq: 0}, 5, false}, // |sum| > sum of squares
		{Moments{N: -1}, 5, false},                  // a negative count
		{Moments{N: 50, Sum: 1e15, SumSq: 1e15}, 65534, false},
		{Moments{N: 1e12, Sum: math.MinInt64, SumSq: math.MaxInt64}, math.MaxInt64, false}, // no overflow
		{Moments{N: 1e12, Sum: 1e12, SumSq: 1e12}, math.MaxInt64, true},                    // all ones
	} {
		if got := tt.m.Possible(tt.most); got != tt.want {
			t.Errorf("%+v.Possible(%d) = %v, want %v", tt.m, tt.most, got, tt.want)
		}
	}
}

func TestBounded(t *testing.T) {
	for _, tt := range []struct {
		x, per, n int64
		want      bool
	}{
		{0, 0, 0, true},
		{10, 5, 2, true},
		{-10, 5, 2, true},
		{11, 5, 2, false},
		{math.MinInt64, math.MaxInt64, 2, true},
		{math.MaxInt64, 1 << 32, 1 << 32, true}, // the product overflows int64, not the check
		{math.MaxInt64, 1 << 31, 1 << 31, false},
		{1, -1, -1, false},
	} {
		if got := Bounded(tt.x, tt.per, tt.n); got != tt.want {
			t.Errorf("Bounded(%d, %d, %d) = %v, want %v", tt.x, tt.per, tt.n, got, tt.want)
		}
	}
}
