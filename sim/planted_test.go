package sim

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
)

// TestSensitivityPlantedOnRealRules: the default scan (a race, 2000 games
// a change on average), on the reference rules and real games, finds
// changes of known size among changes that cannot matter, and calls those
// negligible. The cell is Hard, casual, with the magnate every game: the
// other politicians' starting trackers are read only by games they play
// (C-12; setup step 6), so moving them changes no game here and their
// truth is exactly 0 (every pair must be identical). The planted changes'
// sizes are measured by compares of 10,000 pairs on seeds the scan never
// played.
// Seeds: scan 14700, confirmation 14701, sizes 14710 (issue 32's range).
func TestSensitivityPlantedOnRealRules(t *testing.T) {
	calibrationStudy(t)
	r := engine.Reference()
	cell := CellSpec{Mode: engine.Hard, Policy: mustSpec(t, "casual"), Politician: r.PoliticianIndex("magnate")}
	inert := []string{"politicians[starlet].*", "politicians[moderate].*", "politicians[red-favourite].*"}
	planted := []string{"actions.celebrity_popularity_per_tier", "actions.direct_appeal_money"}
	res, err := Sensitivity(context.Background(), SensitivityConfig{
		RunConfig: RunConfig{Seed: 14700, Workers: 2}, Base: r, Fields: append(planted, inert...), Step: Step{By: 1}, Cells: []CellSpec{cell},
		ConfirmSeed: 14701, Games: 2000, Design: DesignRace,
	})
	if err != nil {
		t.Fatal(err)
	}
	var inertSeen, found int
	for _, ch := range res.Cells[0].Changes {
		name := ch.Path + "=" + strconv.Itoa(ch.To)
		if strings.HasPrefix(ch.Path, "politicians[") {
			inertSeen++
			for _, l := range ch.Looks {
				if l.Cross[0][0]+l.Cross[1][1]+l.Cross[2][2] != l.Games || l.MarginDiffSum != 0 || l.MarginDiffSumSq != 0 {
					t.Fatalf("%s: a game changed, so the change is not inert here: %+v", name, l)
				}
			}
			if ch.Verdict != InZone {
				t.Errorf("%s: no game changed, but the verdict is %v (score %+.1f [%+.1f, %+.1f] pts)", name, ch.Verdict,
					100*ch.ScoreDiff, 100*ch.ScoreDiffCI[0], 100*ch.ScoreDiffCI[1])
			}
			continue
		}
		truth := plantedSize(t, r, cell, ch)
		t.Logf("%s: scan %v, %+.1f [%+.1f, %+.1f] pts; size %+.1f pts (10,000 pairs)", name, ch.Verdict,
			100*ch.ScoreDiff, 100*ch.ScoreDiffCI[0], 100*ch.ScoreDiffCI[1], 100*truth)
		switch ch.Verdict {
		case ScoreEasier, ScoreHarder:
			if (ch.Verdict == ScoreEasier) != (truth > 0) {
				t.Errorf("%s: the scan says %v, the change's size is %+.1f points", name, ch.Verdict, 100*truth)
			}
			found++
		case InZone:
			if math.Abs(truth) > res.Tolerance {
				t.Errorf("%s: called negligible, but its size is %+.1f points", name, 100*truth)
			}
		default:
			// Not enough games is no claim; a change of 3 points or more
			// must not end so.
			if math.Abs(truth) >= 0.03 {
				t.Errorf("%s: %+.1f points, but the scan could not tell", name, 100*truth)
			}
		}
	}
	if inertSeen < 10 || found < 3 {
		t.Errorf("%d inert changes played (want 10 or more), %d planted found (want 3 or more)", inertSeen, found)
	}
}

// plantedSize is the score difference a change makes in cell, from a
// compare of 10,000 pairs on seed 14710.
func plantedSize(t *testing.T, r *engine.Rules, cell CellSpec, ch SensitivityChange) float64 {
	b, err := r.With(engine.Assignment{Path: ch.Path, Value: strconv.Itoa(ch.To)})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(context.Background(), CompareConfig{
		RunConfig: RunConfig{Seed: 14710, Workers: 2}, A: CompareArm{Name: "base", Rules: r}, B: CompareArm{Name: "change", Rules: b},
		Cells: []ComparePair{{A: cell, B: cell, Games: 10000}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cmp.Cells[0].ScoreDiff
}
