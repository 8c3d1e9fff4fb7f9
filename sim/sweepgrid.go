package sim

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tallywood/engine"
)

// maxSweepPoints bounds a sweep's grid: each point plays every game again.
const maxSweepPoints = 1000

// SweepGrid reads the parameters of a sweep, each PATH=VALUES as sweep
// --set takes it, and returns the paths and the points: every combination
// of the values, the first parameter varying slowest, each validated by
// the rules. VALUES is a comma-separated list of values and integer ranges
// A..B (1,3..5); the grid has at most maxSweepPoints points.
func SweepGrid(base *engine.Rules, sets []string) ([]string, []SweepPoint, error) {
	var params []string
	var values [][]string
	for _, s := range sets {
		a, err := engine.ParseAssignment(s)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range params {
			if p == a.Path {
				return nil, nil, fmt.Errorf("%q: %s is swept twice", s, a.Path)
			}
		}
		vs, err := expandValues(a.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %v", s, err)
		}
		params = append(params, a.Path)
		values = append(values, vs)
	}
	total := 1
	for _, vs := range values {
		total *= len(vs)
		if total > maxSweepPoints {
			return nil, nil, fmt.Errorf("%d or more points: at most %d", total, maxSweepPoints)
		}
	}
	points := make([]SweepPoint, 0, total)
	for i := range total {
		set := make([]engine.Assignment, len(params))
		rest := i
		for k := len(params) - 1; k >= 0; k-- {
			set[k] = engine.Assignment{Path: params[k], Value: values[k][rest%len(values[k])]}
			rest /= len(values[k])
		}
		r, err := base.With(set...)
		if err != nil {
			return nil, nil, err
		}
		points = append(points, SweepPoint{Set: set, Rules: r})
	}
	return params, points, nil
}

// expandValues reads VALUES: comma-separated values, each a value or an
// integer range A..B (A ≤ B), with no value twice.
func expandValues(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(v string) error {
		if seen[v] {
			return fmt.Errorf("value %s given twice", v)
		}
		seen[v] = true
		out = append(out, v)
		if len(out) > maxSweepPoints {
			return fmt.Errorf("more than %d values", maxSweepPoints)
		}
		return nil
	}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, errors.New("an empty value")
		}
		if lo, hi, ok := strings.Cut(p, ".."); ok {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || a > b {
				return nil, fmt.Errorf("range %q is not A..B with integers A ≤ B", p)
			}
			if b-a >= maxSweepPoints {
				return nil, fmt.Errorf("range %q has more than %d values", p, maxSweepPoints)
			}
			for v := a; v <= b; v++ {
				if err := add(strconv.Itoa(v)); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}
