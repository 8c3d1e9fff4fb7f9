package sim

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"tallywood/engine"
)

// pointAt is a sweep point of one parameter with the given win rate and
// Wilson bounds.
func pointAt(value string, w, lo, hi float64) SweepPointResult {
	var p SweepPointResult
	p.Values = []string{value}
	p.Result.WinRate, p.Result.WinCI95 = w, [2]float64{lo, hi}
	return p
}

func TestCrossing(t *testing.T) {
	ptr := func(x float64) *float64 { return &x }
	tests := []struct {
		name   string
		points []SweepPointResult
		value  *float64
		lo, hi *float64
		multi  bool
	}{
		// Rising: 0.30 at 1, 0.50 at 3 → 0.40 at 2; the upper bound (0.35
		// at 1, 0.55 at 3) reaches 0.40 at 1.5, the lower (0.25, 0.45) at 2.5.
		{"rising", []SweepPointResult{pointAt("1", 0.30, 0.25, 0.35), pointAt("3", 0.50, 0.45, 0.55)},
			ptr(2), ptr(1.5), ptr(2.5), false},
		// Falling, given out of order.
		{"falling", []SweepPointResult{pointAt("3", 0.30, 0.25, 0.35), pointAt("1", 0.50, 0.45, 0.55)},
			ptr(2), ptr(1.5), ptr(2.5), false},
		// The lower bound never reaches the target: the high end is open.
		{"open above", []SweepPointResult{pointAt("1", 0.30, 0.25, 0.35), pointAt("2", 0.42, 0.36, 0.48)},
			ptr(1 + 10.0/12), ptr(1 + 5.0/13), nil, false},
		{"never", []SweepPointResult{pointAt("1", 0.10, 0.05, 0.15), pointAt("2", 0.20, 0.15, 0.25)},
			nil, nil, nil, false},
		{"exactly at a point", []SweepPointResult{pointAt("1", 0.30, 0.25, 0.35), pointAt("2", 0.40, 0.35, 0.45), pointAt("3", 0.50, 0.45, 0.55)},
			ptr(2), ptr(1.5), ptr(2.5), false},
		{"twice", []SweepPointResult{pointAt("1", 0.30, 0.29, 0.31), pointAt("2", 0.50, 0.49, 0.51), pointAt("3", 0.30, 0.29, 0.31)},
			ptr(1.5), ptr(1.45), ptr(1.55), true},
	}
	same := func(a, b *float64) bool {
		if a == nil || b == nil {
			return a == b
		}
		return *a-*b < 1e-9 && *b-*a < 1e-9
	}
	show := func(x *float64) any {
		if x == nil {
			return "nil"
		}
		return *x
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := crossing(tt.points, 0.40)
			if !same(c.Value, tt.value) || !same(c.Lo, tt.lo) || !same(c.Hi, tt.hi) || c.Multiple != tt.multi {
				t.Errorf("crossing %v [%v, %v] multiple %v; want %v [%v, %v] %v",
					show(c.Value), show(c.Lo), show(c.Hi), c.Multiple, show(tt.value), show(tt.lo), show(tt.hi), tt.multi)
			}
		})
	}
}

// sweepConfig sweeps Hard's bonus divisor over 1..3 for random and greedy.
func sweepConfig(t testing.TB, games int64) SweepConfig {
	base := engine.Reference()
	cfg := SweepConfig{Base: base, Params: []string{"difficulties.hard.bonus_divisor"}, Seed: 5, Games: games, Target: 0.15}
	for _, v := range []string{"1", "2", "3"} {
		a := engine.Assignment{Path: "difficulties.hard.bonus_divisor", Value: v}
		r, err := base.With(a)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Points = append(cfg.Points, SweepPoint{Set: []engine.Assignment{a}, Rules: r})
	}
	for _, p := range []string{"random", "greedy"} {
		cfg.Cells = append(cfg.Cells, CellSpec{Mode: engine.Hard, Policy: mustSpec(t, p), Politician: RandomPoliticianIndex})
	}
	return cfg
}

func untimedSweep(r *SweepResult) []byte {
	c := *r
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	c.Cells = append([]SweepCell(nil), r.Cells...)
	for i := range c.Cells {
		c.Cells[i].Base.GamesPerSecond, c.Cells[i].Base.ElapsedSeconds = 0, 0
	}
	return Encode(&c)
}

// TestSweepWorkersAndShards: the same result for any number of workers,
// and for shards merged; the point equal to the base rules pairs to 0.
func TestSweepWorkersAndShards(t *testing.T) {
	var want []byte
	var whole *SweepResult
	games := int64(150)
	if testing.Short() {
		games = 40 // the race detector runs this too
	}
	for _, w := range []int{1, 3} {
		cfg := sweepConfig(t, games)
		cfg.Workers = w
		r, err := Sweep(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := untimedSweep(r)
		if want == nil {
			want, whole = got, r
		} else if !bytes.Equal(got, want) {
			t.Errorf("workers %d differ from workers 1", w)
		}
	}
	for _, c := range whole.Cells {
		if p := c.Points[1]; p.ScoreDiff != 0 || p.Pairs.MarginDiffSumSq != 0 || p.Result.Games != games {
			t.Errorf("%s: the base's own value differs from the base: %+v", c.Policy, p.Pairs)
		}
		if c.Crossing == nil {
			t.Errorf("%s: no crossing computed", c.Policy)
		}
	}
	var parts []*SweepResult
	var names []string
	for k := 1; k <= 2; k++ {
		cfg := sweepConfig(t, games)
		cfg.Shard = Shard{K: k, N: 2}
		r, err := Sweep(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAs[*SweepResult](Encode(r))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
		names = append(names, cfg.Shard.String())
	}
	merged, err := mergeAs(parts, names, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimedSweep(merged); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole run:\n%s\nwant\n%s", got, want)
	}
	parts[1].Cells[0].Points[0].Pairs.Games++
	want2 := fmt.Sprintf("2/2: cell 1: point 1: paired cross-table sums to %d, not to its %d games", games/2, games/2+1)
	if _, err := mergeAs(parts, names, MergeOptions{}); err == nil || err.Error() != want2 {
		t.Errorf("a corrupted shard: %v", err)
	}
}
