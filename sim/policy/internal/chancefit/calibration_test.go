//go:build calibration

package main

import (
	"testing"

	"tallywood/engine"
	"tallywood/sim/policy"
	"tallywood/sim/stats"
)

// TestShippedChanceCalibrated is the shipped model's check on a smaller
// budget than make chance-check's (docs/arc.md has the full one): for
// casual and skilled, on 4,000 held-out games of seed 12001, a Brier
// score at most 0.9 of the base rate's, every tenth of predicted chance
// with enough games within ±2 points, and make
// chance-check's continuation check (300 positions of seed 12002, 100
// continuations each): the model's chance minus the continuations' mean
// outcome within ±3 points on average, and the continuations' mean
// within the model's 95% interval at a share of the positions whose 95%
// interval holds 95%. (The model is not within the continuations' own
// interval at each position: it is off by 13 to 17 points RMS, which its
// interval states; docs/arc.md.)
func TestShippedChanceCalibrated(t *testing.T) {
	levels, err := parseLevels([]string{"casual", "skilled"}, false)
	if err != nil {
		t.Fatal(err)
	}
	o := options{levels: levels, heldout: 12001, heldoutGames: 4000, checkSeed: 12002, checkPositions: 300, continuations: 100,
		rules: engine.Reference(), workers: 2}
	rep, checks, err := checkModel(o, policy.ShippedChance())
	if err != nil {
		t.Fatal(err)
	}
	t.Log(rep)
	for i, c := range checks {
		name := levels[i].name
		if c.score.Brier > 0.9*c.score.BaseBrier {
			t.Errorf("%s: Brier %.4f, the base rate's %.4f", name, c.score.Brier, c.score.BaseBrier)
		}
		for b, r := range c.rows {
			if !r.ok() {
				t.Errorf("%s: bin %d: predicted %.3f, observed %.3f (±%.3f)", name, b, r.predicted, r.observed, r.half)
			}
		}
		if ci := stats.Wilson(int64(c.cont.covered), int64(c.cont.positions), 0.05); ci.Lo > 0.95 || ci.Hi < 0.95 {
			t.Errorf("%s: the continuations' mean within the model's interval at %d of %d positions, not 95%%", name, c.cont.covered, c.cont.positions)
		}
		if c.cont.mean > 0.03 || c.cont.mean < -0.03 {
			t.Errorf("%s: %d of %d positions within the continuations' interval, mean difference %+.3f", name, c.cont.inside, c.cont.positions, c.cont.mean)
		}
	}
}
