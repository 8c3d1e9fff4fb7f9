package sim

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"tallywood/engine"
	"tallywood/sim/deal"
)

// TuneRange is the range a search takes for a field of value v when it is
// given none: v ± max(3, ⌈|v|/2⌉), wide enough to move a small number and
// proportionate for a large one.
func TuneRange(v int) (lo, hi int) {
	step := max(3, (abs(v)+1)/2)
	return v - step, v + step
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TuneValues returns the values of lo..hi that the rules accept for the
// field at path with every other field at its base value: the values a
// search may give it (TuneVary.Values).
func TuneValues(base *engine.Rules, path string, lo, hi int) []int {
	var values []int
	for v := lo; v <= hi; v++ {
		if _, err := base.With(engine.Assignment{Path: path, Value: strconv.Itoa(v)}); err == nil {
			values = append(values, v)
		}
	}
	return values
}

// TuneBudget returns the budget in games of a search of cfg that takes
// about d, and the speed in games a second it is set from: it plays one
// block of cfg's targets on the base rules, on seeds of its own (neither
// the search's nor the confirmation's), and times it.
func TuneBudget(ctx context.Context, cfg TuneConfig, d time.Duration) (games int64, perSec float64, err error) {
	const block = 200
	start := time.Now()
	run := cfg.stage(deal.GameSeed(cfg.ConfirmSeed, 1<<62), Shard{K: 1, N: 1}, 0)
	run.Progress = nil // a timing, not the study's games
	cells, interrupted, err := runCells(ctx, run, cfg.Base, block, cfg.Targets, nil)
	switch {
	case err != nil:
		return 0, 0, fmt.Errorf("timing a first block: %v", err)
	case cells == nil || interrupted:
		// Not "<nil>": an interrupted block has no error of its own.
		return 0, 0, errors.New("interrupted while timing a first block: no budget, and no search")
	}
	perSec = float64(block*len(cfg.Targets)) / max(time.Since(start).Seconds(), 1e-3)
	return int64(perSec * d.Seconds()), perSec, nil
}

// TuneMinBudget is the smallest budget in games that a search of cfg's
// targets over the values of its fields can be planned with (halvingPlan
// halves the candidates down to two, or the grid): a smaller --budget,
// or a --time that makes one, is refused before the search.
func TuneMinBudget(cfg TuneConfig) int64 {
	space := make([][]int, len(cfg.Vary))
	for i, v := range cfg.Vary {
		space[i] = v.Values
	}
	n := startCandidates(gridSize(space))
	for n > 2 {
		n /= 2
	}
	return halvingBlocks(n) * int64(len(cfg.Targets)) * minTuneBlock
}
