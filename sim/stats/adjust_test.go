package stats

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestAdjust(t *testing.T) {
	tests := []struct {
		name   string
		adjust func([]float64) []float64
		ps     []float64
		want   []float64
	}{
		// Holm 1979 style example: raw 0.01, 0.04, 0.03, 0.005 with m = 4:
		// sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 =
		// 0.04 → monotone 0.06.
		{"Holm, four", Holm, []float64{0.01, 0.04, 0.03, 0.005}, []float64{0.03, 0.06, 0.06, 0.02}},
		// R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm").
		{"Holm, R", Holm, []float64{0.01, 0.02, 0.03, 0.04, 0.05}, []float64{0.05, 0.08, 0.09, 0.09, 0.09}},
		{"Holm caps at 1", Holm, []float64{0.5, 0.9}, []float64{1, 1}},
		{"Holm, ties keep their order", Holm, []float64{0.02, 0.02}, []float64{0.04, 0.04}},
		{"Holm, none", Holm, nil, []float64{}},
		// R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "bonferroni").
		{"Bonferroni, R", Bonferroni, []float64{0.01, 0.02, 0.03, 0.04, 0.05}, []float64{0.05, 0.1, 0.15, 0.2, 0.25}},
		{"Bonferroni caps at 1", Bonferroni, []float64{0.3, 0.9, 0.5}, []float64{0.9, 1, 1}},
		{"Bonferroni, none", Bonferroni, nil, []float64{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.adjust(tt.ps)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if !scalar.EqualWithinAbs(got[i], tt.want[i], 1e-12) {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
	if got := BonferroniLevel(0.05, 4); got != 0.0125 {
		t.Errorf("BonferroniLevel(0.05, 4) = %g, want 0.0125", got)
	}
}
