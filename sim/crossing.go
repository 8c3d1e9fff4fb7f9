package sim

import "tallywood/sim/stats"

// Where a series of win rates meets a target (stats.FindCrossing), named
// by the values of its points: a sweep's swept values (values a rules file
// can hold: every numeric rules parameter is a whole number, and nothing
// is assumed between them) or a curve's skills.

// Crossing is where a cell's win rate meets the target, in the values of
// its points; crossingOf finds it.
type Crossing struct {
	// Regions are the places where the win rate may meet the target, in
	// the order of the values: a run of swept values whose simultaneous
	// interval contains the target, or two adjacent values whose
	// intervals lie on either side of it.
	Regions []CrossingRegion `json:"regions"`
	// Multiple: more than one region, judged on the intervals (judged on
	// the point estimates, a second value that fits the target would go
	// unsaid).
	Multiple bool `json:"multiple"`
	// With no region, Side is where the win rate lies at every swept
	// value, "above" or "below" the target, and Sweep where the target
	// lies, "higher" or "lower" values, by the paired test of the last
	// swept value against the first (their win rates on the same seeds,
	// EndsDiff with its 95% interval EndsDiffCI); "" when that test cannot
	// tell.
	Side       string      `json:"side,omitempty"`
	Sweep      string      `json:"sweep,omitempty"`
	EndsDiff   float64     `json:"ends_diff,omitempty"`
	EndsDiffCI *[2]float64 `json:"ends_diff_ci95,omitempty"`
}

// UnmarshalJSON reads a stored crossing as nothing: derive computes it
// again from the counts on every decode, and a tallywood-sweep/2 or /1
// result stored another shape (an interpolated value and interval).
func (c *Crossing) UnmarshalJSON([]byte) error { return nil }

// CrossingRegion is one place where the win rate may meet the target.
type CrossingRegion struct {
	// Values are the swept values whose interval contains the target;
	// none: the win rate passes it between Below and Above.
	Values []string `json:"values"`
	// Below and Above are the nearest swept values on either side of
	// Values, their intervals clear of the target; nil: none swept there.
	Below *string `json:"nearest_below"`
	Above *string `json:"nearest_above"`
}

// crossingOf finds where curve meets target (stats.FindCrossing) and
// names its points by values, one per point of curve; the way to sweep
// is only what ends, the paired games of its first and last points,
// show (none without them).
func crossingOf(curve []stats.CurvePoint, values []string, target float64, ends *PairCounts) *Crossing {
	x := stats.FindCrossing(curve, target)
	at := func(i int) *string {
		if i < 0 {
			return nil
		}
		return &values[i]
	}
	c := &Crossing{Multiple: len(x.Regions) > 1}
	for _, r := range x.Regions {
		in := []string{}
		for _, i := range r.In {
			in = append(in, values[i])
		}
		c.Regions = append(c.Regions, CrossingRegion{Values: in, Below: at(r.Below), Above: at(r.Above)})
	}
	if len(x.Regions) > 0 || len(curve) == 0 {
		return c
	}
	c.Side = map[int]string{-1: "below", 1: "above"}[x.Side]
	if ends == nil || ends.Games == 0 {
		return c
	}
	wins := stats.Pentanomial(ends.winPentanomial())
	ci := wins.ScoreInterval(0.05)
	c.EndsDiff, c.EndsDiffCI = wins.Moments().Mean()/2, &[2]float64{ci.Lo, ci.Hi}
	// The target lies the way the win rate goes toward it: up the values
	// when it rises and lies below the target, or falls and lies above.
	if ci.Excludes(0) {
		if (ci.Lo > 0) == (x.Side < 0) {
			c.Sweep = "higher"
		} else {
			c.Sweep = "lower"
		}
	}
	return c
}
