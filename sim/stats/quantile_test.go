package stats

import "testing"

func TestHistQuantile(t *testing.T) {
	// Ten values: 1 in bin 0, 4 in bin 2, 5 in bin 3.
	h := []int64{1, 0, 4, 5}
	tests := []struct {
		q    float64
		want int
	}{
		{0.05, 0}, // ⌈0.5⌉ = 1 value
		{0.1, 0},
		{0.11, 2}, // ⌈1.1⌉ = 2 values
		{0.5, 2},  // 5 values: bins 0..2 hold 5
		{0.51, 3},
		{1, 3},
	}
	for _, tt := range tests {
		if got := HistQuantile(h, tt.q); got != tt.want {
			t.Errorf("q %g: bin %d, want %d", tt.q, got, tt.want)
		}
	}
	if got := HistQuantile([]int64{0, 0}, 0.5); got != -1 {
		t.Errorf("no values: %d, want -1", got)
	}
}
