package stats

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
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
