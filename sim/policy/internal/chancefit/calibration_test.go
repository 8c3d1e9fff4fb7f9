//go:build calibration

package main

import (
	"math"
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

// TestChanceHighChancesOnFreshSeeds holds casual's chances of 70–90% to
// their games' outcomes on seeds no fit or choice used (42301–42305,
// 2,000 games each, Normal and Hard in turn, as make chance-check plays
// them), at every point and at the turns' starts alone, where trace, play
// and the arc's fan read them. Issue 42 found them 4.6 [0.8, 8.4] and 3.7
// [0.2, 7.3] points too high over five seeds (at the turns' starts, where
// the shipped model 9f4c766f1293 read −4.7 [−7.9, −1.6] and −2.6
// [−5.7, +0.5] on seeds 42101–42105): its knee, fitted on the 6,000
// calibration games alone, lifted every chance above 60%. Each tenth's
// observed − predicted is held within ±3.5 points (its standard error is
// 1.4 to 1.7 points at the turns' starts on 10,000 games).
func TestChanceHighChancesOnFreshSeeds(t *testing.T) {
	levels, err := parseLevels([]string{"casual"}, false)
	if err != nil {
		t.Fatal(err)
	}
	o := options{levels: levels, rules: engine.Reference(), workers: 2}
	c, err := policy.ShippedChance().For("casual")
	if err != nil {
		t.Fatal(err)
	}
	held := &data{}
	for seed := uint64(42301); seed <= 42305; seed++ {
		d, err := collect(o, levels[0], 0, seed, 2000, 1)
		if err != nil {
			t.Fatal(err)
		}
		held.append(d)
	}
	base := held.wins / float64(held.games)
	_, all := measure(c, held, base)
	_, starts := measure(c, turnStarts(held), base)
	t.Logf("casual on seeds 42301–42305, %d games, every point:\n%sat the turns' starts:\n%s", held.games, binTable(all), binTable(starts))
	for _, m := range []struct {
		name string
		rows [bins]binRow
	}{{"every point", all}, {"the turns' starts", starts}} {
		for _, b := range []int{7, 8} {
			r := m.rows[b]
			if d := r.observed - r.predicted; math.Abs(d) > 0.035 {
				t.Errorf("%s, %d–%d%%: observed − predicted %+.1f [%+.1f, %+.1f] points over %d games", m.name, 10*b, 10*b+10,
					100*d, 100*(d-r.half), 100*(d+r.half), r.games)
			}
		}
	}
}
