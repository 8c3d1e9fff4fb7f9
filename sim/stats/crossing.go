package stats

import (
	"cmp"
	"slices"
)

// CurvePoint is one measured point of a curve: at X, an Estimate and its
// interval. FindCrossing needs intervals that hold together (simultaneous
// ones, such as Wilson's at BonferroniLevel over the points).
type CurvePoint struct {
	X, Estimate float64
	CI          Interval
}

// Crossing is where a measured curve may meet a target. Its indexes are
// those of the points given to FindCrossing.
type Crossing struct {
	// Regions are the places where the curve may meet the target, in the
	// order of X.
	Regions []CrossingRegion
	// Side, with no region and some points, says where every interval
	// lies: −1 below the target, +1 above it. Which way along X the target
	// lies is not the points' to say: estimates that differ by chance
	// point a way (a paired test of the ends can tell).
	Side int
}

// CrossingRegion is one place where the curve may meet the target.
type CrossingRegion struct {
	// In are the points whose interval contains the target, in the order
	// of X; none: the curve passes it between Below and Above.
	In []int
	// Below and Above are the nearest points on either side of In, their
	// intervals clear of the target; −1: none.
	Below, Above int
}

// FindCrossing finds where a curve measured at points meets target: at the
// points whose interval contains it, and between two points adjacent in X
// whose intervals lie on either side of it. If the curve is monotone and
// the intervals hold together, the X that gives the target lies between
// the nearest points below and above a region; nothing is assumed between
// measured points. Points of equal X keep their order.
func FindCrossing(points []CurvePoint, target float64) Crossing {
	order := make([]int, len(points))
	side := make([]int, len(points)) // −1: the interval lies below the target, +1: above, 0: it contains it
	for i, p := range points {
		order[i] = i
		switch {
		case p.CI.Hi < target:
			side[i] = -1
		case p.CI.Lo > target:
			side[i] = 1
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(points[a].X, points[b].X) })
	at := func(k int) int {
		if k < 0 || k >= len(order) {
			return -1
		}
		return order[k]
	}
	var c Crossing
	for k := 0; k < len(order); k++ {
		s := side[order[k]]
		switch {
		case s == 0:
			r := CrossingRegion{Below: at(k - 1)}
			j := k
			for ; j < len(order) && side[order[j]] == 0; j++ {
				r.In = append(r.In, order[j])
			}
			r.Above = at(j)
			c.Regions = append(c.Regions, r)
			k = j - 1
		case k+1 < len(order) && side[order[k+1]] == -s:
			c.Regions = append(c.Regions, CrossingRegion{Below: order[k], Above: order[k+1]})
		}
	}
	if len(c.Regions) == 0 && len(order) > 0 {
		c.Side = side[order[0]] // every interval lies on one side
	}
	return c
}
