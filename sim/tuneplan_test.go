package sim

import (
	"context"
	"slices"
	"testing"
	"time"

	"tallywood/engine"
)

// TestTuneRange pins the default range of a field: its value ± the larger
// of 3 and half of it, rounded up.
func TestTuneRange(t *testing.T) {
	for _, c := range []struct{ v, lo, hi int }{
		{0, -3, 3}, {2, -1, 5}, {6, 3, 9}, {7, 3, 11}, {10, 5, 15}, {-7, -11, -3},
	} {
		if lo, hi := TuneRange(c.v); lo != c.lo || hi != c.hi {
			t.Errorf("TuneRange(%d) = %d..%d, want %d..%d", c.v, lo, hi, c.lo, c.hi)
		}
	}
}

// TestTuneValues: a value the rules refuse is left out of the range.
func TestTuneValues(t *testing.T) {
	r := engine.Reference()
	lo, hi := TuneRange(int(r.Difficulties[engine.Hard].BonusDivisor))
	got := TuneValues(r, "difficulties.hard.bonus_divisor", lo, hi)
	if want := []int{1, 2, 3, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("bonus_divisor in %d..%d: %v, want %v (0 and below refused)", lo, hi, got, want)
	}
	if got := TuneValues(r, "difficulties.hard.bonus_divisor", -3, 0); got != nil {
		t.Errorf("bonus_divisor in -3..0: %v, want none", got)
	}
}

// TestTuneBudget: the budget is the speed of the first block times the
// time; an interrupted block gives none.
func TestTuneBudget(t *testing.T) {
	cfg := TuneConfig{RunConfig: RunConfig{Workers: 1},
		Base: engine.Reference(), ConfirmSeed: 2, Targets: []CellSpec{{Mode: engine.Normal, Policy: mustSpec(t, "random"), Politician: RandomPoliticianIndex}}}
	games, perSec, err := TuneBudget(context.Background(), cfg, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if perSec <= 0 || games != int64(perSec*3600) {
		t.Errorf("%d games at %g a second for an hour", games, perSec)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// It said "timing a first block: <nil>".
	if _, _, err := TuneBudget(ctx, cfg, time.Hour); err == nil || err.Error() != "interrupted while timing a first block: no budget, and no search" {
		t.Errorf("an interrupted block: %v", err)
	}
}
