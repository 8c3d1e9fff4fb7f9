package stats

import (
	"math"
	"testing"
)

// TestRowShareMergesAndBounds: rows added in two parts and merged give
// the same sums and share as one table; deals that decide everything
// give a share near 1, columns that decide everything one at or below 0;
// too small a table gives 0.
func TestRowShareMergesAndBounds(t *testing.T) {
	rows := [][]int64{{2, 2, 1}, {0, 0, 0}, {2, 1, 2}, {0, 1, 0}, {2, 2, 2}, {1, 0, 0}}
	var all, a, b TwoWay
	for i, r := range rows {
		all.AddRow(r)
		if i < 2 {
			a.AddRow(r)
		} else {
			b.AddRow(r)
		}
	}
	a.Merge(b)
	s1, c1 := all.RowShare(0.05)
	s2, c2 := a.RowShare(0.05)
	if s1 != s2 || c1 != c2 {
		t.Errorf("merged %v %v, whole %v %v", s2, c2, s1, c1)
	}
	if !(c1.Lo <= s1 && s1 <= c1.Hi) {
		t.Errorf("share %v outside its interval %v", s1, c1)
	}
	var rowsDecide, colsDecide TwoWay
	for i := range 40 {
		x := int64(2 * (i % 2))
		rowsDecide.AddRow([]int64{x, x, x})
		colsDecide.AddRow([]int64{0, 1, 2})
	}
	if s, _ := rowsDecide.RowShare(0.05); s < 0.99 || math.IsNaN(s) {
		t.Errorf("rows that decide: share %v", s)
	}
	if s, _ := colsDecide.RowShare(0.05); s > 0 {
		t.Errorf("columns that decide: share %v", s)
	}
	var one TwoWay
	one.AddRow([]int64{1, 2})
	if s, ci := one.RowShare(0.05); s != 0 || ci != (Interval{}) {
		t.Errorf("one row: %v %v", s, ci)
	}
}
