package sim

import (
	"context"
	"testing"
	"time"

	"tallywood/engine"
)

// TestInterruptStopsASearch: a search of 100,000 iterations per decision
// takes minutes a game; an interrupt must cut the decision in progress, and the game cut short must not be counted. Without
// the stop check this test runs until the test binary's timeout.
func TestInterruptStopsASearch(t *testing.T) {
	big := mustSpec(t, "mcts:iters=100000")
	for _, compare := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		if compare {
			arm := CellSpec{Mode: engine.Normal, Policy: big, Politician: RandomPoliticianIndex}
			other := arm
			other.Mode = engine.Hard
			res, err := Compare(ctx, CompareConfig{RunConfig: RunConfig{Seed: 1, Workers: 1},
				A: CompareArm{Name: "a", Rules: engine.Reference()}, B: CompareArm{Name: "b", Rules: engine.Reference()},
				Cells: []ComparePair{{A: arm, B: other, Games: 2}}})
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if !res.Interrupted || res.Cells[0].Games != 0 {
				t.Errorf("compare: interrupted %v after %d games; want true after 0", res.Interrupted, res.Cells[0].Games)
			}
			continue
		}
		cfg := Config{RunConfig: RunConfig{Seed: 1, Workers: 1},
			Rules: engine.Reference(), Games: 2, Cells: []CellSpec{{Mode: engine.Normal, Policy: big, Politician: RandomPoliticianIndex}}}
		res, err := Run(ctx, cfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if !res.Interrupted || res.Cells[0].Games != 0 {
			t.Errorf("run: interrupted %v after %d games; want true after 0", res.Interrupted, res.Cells[0].Games)
		}
	}
}
