package report

import "testing"

func TestPct(t *testing.T) {
	for _, tt := range []struct {
		x    float64
		want string
	}{{0, "0.0%"}, {1e-17, "0.0%"}, {0.00005, "<0.01%"}, {0.0004, "0.04%"}, {0.0123, "1.2%"}, {0.2, "20.0%"}, {1, "100.0%"}} {
		if got := pct(tt.x); got != tt.want {
			t.Errorf("pct(%g) = %q, want %q", tt.x, got, tt.want)
		}
	}
}
