package stats

import (
	"reflect"
	"testing"
)

func TestFindCrossing(t *testing.T) {
	// pt is a point at x whose interval is est ± 0.05.
	pt := func(x, est float64) CurvePoint { return CurvePoint{x, est, Interval{est - 0.05, est + 0.05}} }
	tests := []struct {
		name   string
		points []CurvePoint
		want   Crossing
	}{
		{"one point holds it", []CurvePoint{pt(2, 0.1), pt(3, 0.3), pt(4, 0.5)},
			Crossing{Regions: []CrossingRegion{{In: []int{1}, Below: 0, Above: 2}}}},
		{"in any order", []CurvePoint{pt(4, 0.5), pt(2, 0.1), pt(3, 0.3)},
			Crossing{Regions: []CrossingRegion{{In: []int{2}, Below: 1, Above: 0}}}},
		{"two points hold it, at the end", []CurvePoint{pt(2, 0.1), pt(3, 0.28), pt(4, 0.32)},
			Crossing{Regions: []CrossingRegion{{In: []int{1, 2}, Below: 0, Above: -1}}}},
		{"passed between two points", []CurvePoint{pt(2, 0.1), pt(3, 0.2), pt(4, 0.4)},
			Crossing{Regions: []CrossingRegion{{Below: 1, Above: 2}}}},
		{"twice", []CurvePoint{pt(1, 0.1), pt(2, 0.4), pt(3, 0.3), pt(4, 0.1)},
			Crossing{Regions: []CrossingRegion{{Below: 0, Above: 1}, {In: []int{2}, Below: 1, Above: 3}}}},
		{"all below", []CurvePoint{pt(1, 0.1), pt(2, 0.15)}, Crossing{Side: -1}},
		{"all above", []CurvePoint{pt(1, 0.5), pt(2, 0.4), pt(3, 0.5)}, Crossing{Side: 1}},
		{"no points", nil, Crossing{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FindCrossing(tt.points, 0.3); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
