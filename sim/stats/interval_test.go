package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/stat/distuv"
)

const tol = 5e-5 // published values have four decimals

func TestWilson(t *testing.T) {
	tests := []struct {
		name   string
		k, n   int64
		alpha  float64
		lo, hi float64
	}{
		// Newcombe 1998 (single proportion), method 3, worked examples.
		{"Newcombe 81/263", 81, 263, 0.05, 0.2553, 0.3662},
		{"Newcombe 15/148", 15, 148, 0.05, 0.0624, 0.1605},
		{"Newcombe 0/20", 0, 20, 0.05, 0, 0.1611},
		{"Newcombe 1/29", 1, 29, 0.05, 0.0061, 0.1718},
		{"0/10", 0, 10, 0.05, 0, 0.2775},
		{"5/10", 5, 10, 0.05, 0.2366, 0.7634},
		{"10/10", 10, 10, 0.05, 0.7225, 1},
		// 99 %: z = 2.575829, so 5/10 gives 0.5 ± z/(1 + z²/10)·√(0.025 + z²/400).
		{"5/10 at 99%", 5, 10, 0.01, 0.1842, 0.8158},
		{"no games", 0, 0, 0.05, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wilson(tt.k, tt.n, tt.alpha)
			if !scalar.EqualWithinAbs(got.Lo, tt.lo, tol) || !scalar.EqualWithinAbs(got.Hi, tt.hi, tol) {
				t.Errorf("Wilson(%d, %d, %g) = [%.5f, %.5f], want [%.4f, %.4f]", tt.k, tt.n, tt.alpha, got.Lo, got.Hi, tt.lo, tt.hi)
			}
		})
	}
}

// TestClopperPearson checks the exact interval against published values
// and against its definition: at each bound the binomial tail beyond k is
// alpha/2, whatever n (up to 50,000 trials).
func TestClopperPearson(t *testing.T) {
	for _, c := range []struct {
		k, n   int64
		lo, hi float64
	}{
		// Clopper and Pearson's bounds, each found by bisection on the
		// exact binomial tail.
		{0, 10, 0, 0.3084971},
		{5, 10, 0.1870860, 0.8129140},
		{10, 10, 0.6915029, 1},
		{1, 250, 0.0001012661, 0.0220838650},
	} {
		ci := ClopperPearson(c.k, c.n, 0.05)
		if math.Abs(ci.Lo-c.lo) > 1e-6 || math.Abs(ci.Hi-c.hi) > 1e-6 {
			t.Errorf("ClopperPearson(%d, %d) = [%.7f, %.7f], want [%.7f, %.7f]", c.k, c.n, ci.Lo, ci.Hi, c.lo, c.hi)
		}
	}
	if ci := ClopperPearson(0, 0, 0.05); ci != (Interval{0, 1}) {
		t.Errorf("no trials: %v", ci)
	}
	for _, n := range []int64{100, 2_000, 50_000} {
		for _, k := range []int64{1, n / 100, n / 3, n - 1} {
			for _, alpha := range []float64{0.05, 0.05 / 7} {
				ci := ClopperPearson(k, n, alpha)
				// P(X ≥ k | lo) = alpha/2 and P(X ≤ k | hi) = alpha/2.
				up := distuv.Binomial{N: float64(n), P: ci.Lo}.Survival(float64(k) - 0.5)
				down := distuv.Binomial{N: float64(n), P: ci.Hi}.CDF(float64(k))
				if math.Abs(up-alpha/2) > 1e-6 || math.Abs(down-alpha/2) > 1e-6 {
					t.Errorf("ClopperPearson(%d, %d, %g) = [%g, %g]: tails %g and %g, want %g", k, n, alpha, ci.Lo, ci.Hi, up, down, alpha/2)
				}
			}
		}
	}
}
