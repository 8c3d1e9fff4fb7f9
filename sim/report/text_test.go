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

func TestWrap(t *testing.T) {
	for _, tt := range []struct {
		in    string
		width int
		want  string
	}{
		{"  short", 10, "  short"},
		// After the comma in the last quarter, not inside the brackets.
		{"  score +2.6 points [+0.6, +4.6], margin", 36, "  score +2.6 points [+0.6, +4.6],\n      margin"},
		{"  a b c d e f g h", 9, "  a b c d\n      e f\n      g h"},
		{"  unbreakable-word-longer", 8, "  unbreakable-word-longer"},
		// Not inside brackets where a space outside them will do.
		{"  score +10.4 points [+9.3, +11.5]", 30, "  score +10.4 points\n      [+9.3, +11.5]"},
		{"  [aa bb cc dd ee]", 12, "  [aa bb cc\n      dd ee]"},
		{"  → → → → →", 7, "  → → →\n      →\n      →"},
	} {
		if got := wrap(tt.in, tt.width); got != tt.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

// TestBandCIDigits: an interval read against a target's edges shows the
// digits that tell a bound from an edge it is not (issue 42:
// "[15.4%, 18.0%]" for an upper bound of 18.018% against an edge of 18%
// could not show why it did not meet), and pct's digits otherwise.
func TestBandCIDigits(t *testing.T) {
	for _, c := range []struct {
		ci    [2]float64
		edges []float64
		want  string
	}{
		{[2]float64{0.154, 0.18018}, []float64{0.14, 0.18}, "[15.4%, 18.02%]"},
		{[2]float64{0.154, 0.18}, []float64{0.14, 0.18}, "[15.4%, 18.0%]"},
		{[2]float64{0.154, 0.180001}, []float64{0.14, 0.18}, "[15.4%, 18.0001%]"},
		{[2]float64{0.139996, 0.17}, []float64{0.14, 0.18}, "[13.9996%, 17.0%]"},
		{[2]float64{0.154, 0.18018}, nil, "[15.4%, 18.0%]"},
	} {
		if got := bandCI(c.ci, c.edges...); got != c.want {
			t.Errorf("bandCI(%v, %v) = %s, want %s", c.ci, c.edges, got, c.want)
		}
	}
}
