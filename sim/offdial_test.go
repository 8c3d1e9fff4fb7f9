//go:build calibration

package sim

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tallywood/engine"
)

// The off-dial study of calibration (issue 42): synthetic panels of 30
// recorded games on Normal, of testers off the dial (greedy, pollster,
// builder) and of the dial itself (0.25, 0.5, 0.75, 1.5), each calibrated on a
// curve of the dial played once. Either a kind of tester off the dial is
// flagged (its decisions fail the test of fit) in at least 95% of panels,
// or every panel not flagged predicts its own win rates (measured on other
// seeds) within the intervals from decisions; the dial's panels are
// flagged in at most 5%. Seeds (none used in choosing the test's level,
// which used 13800–13805): the panels of tester i 13820 + i, the curve
// 13830, the testers' own rates 13840 + i. docs/calibration.md gives the
// table.
func TestCalibrationOffDial(t *testing.T) {
	calibrationStudy(t)
	ctx := context.Background()
	rules := engine.Reference()
	curve, err := Curve(ctx, CurveConfig{RunConfig: RunConfig{Seed: 13830},
		Rules: rules, Skills: []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2},
		Modes: []engine.Mode{engine.Normal, engine.Hard}, Politician: RandomPoliticianIndex, Games: 300, SearchGames: 30})
	if err != nil {
		t.Fatal(err)
	}
	curves := []RulesCurve{{RulesID: rulesID(rules), Points: curve.Points}}
	const size = 30
	var table strings.Builder
	table.WriteString("| tester | own rates Normal, Hard | panels | flagged | not flagged: decisions' predictions hold (both difficulties) | flagged: results' Hard prediction holds | fits disagree |\n|---|---|---|---|---|---|---|\n")
	var dialFlagged, dialPanels int
	for i, tt := range []recoveryTester{{"greedy", -1}, {"pollster", -1}, {"builder", -1},
		{"dial:skill=0.25", 0.25}, {"dial:skill=0.5", 0.5}, {"dial:skill=0.75", 0.75}, {"dial:skill=1.5", 1.5}} {
		// 12 panels a tester, as the issue counted, and at 1.5, where the
		// dial searches at every decision (its own rates measured on 200
		// games); 100 of the dial below 1, where games are cheap, to hold
		// its false rate to ±4 points.
		search := tt.skill > 1
		panels, trueGames := 12, int64(1000)
		switch {
		case search:
			trueGames = 200
		case tt.skill >= 0:
			panels = 100
		}
		truth := run(t, Config{RunConfig: RunConfig{Seed: uint64(13840 + i)}, Rules: rules, Games: trueGames, Cells: []CellSpec{
			{Mode: engine.Normal, Policy: mustSpec(t, tt.spec), Politician: RandomPoliticianIndex},
			{Mode: engine.Hard, Policy: mustSpec(t, tt.spec), Politician: RandomPoliticianIndex}}})
		normal, hard := truth.Cells[0].WinRate, truth.Cells[1].WinRate
		games := recordGames(t, tt.spec, engine.Normal, uint64(13820+i), size*int64(panels))
		var flagged, unflaggedHold, flaggedHold, disagree int
		for p := range panels {
			cfg := CalibrateConfig{Rules: rules, Records: games[p*size : (p+1)*size]}
			testers, err := readTesters(ctx, &cfg, map[string]int{"": 0}, search)
			if err != nil {
				t.Fatal(err)
			}
			r := &CalibrateResult{Curves: curves, Testers: testers}
			r.derive()
			tr := &r.Testers[0]
			disagree += b2i(tr.FitsDisagree)
			hold := map[FitSource]int{}
			for _, pr := range tr.Predictions {
				own := rateOf(pr.Mode, normal, hard)
				if pr.WinCI[0] <= own && own <= pr.WinCI[1] && (pr.From == FromDecisions || pr.Mode == "hard") {
					hold[pr.From]++
				}
			}
			if tr.OffDial {
				flagged++
				flaggedHold += b2i(hold[FromResults] == 1)
				if hold[FromDecisions] > 0 {
					t.Errorf("%s panel %d: flagged, yet predicted from decisions", tt.spec, p)
				}
			} else {
				unflaggedHold += b2i(hold[FromDecisions] == 2)
			}
		}
		fmt.Fprintf(&table, "| `%s` | %.1f%%, %.1f%% | %d | %d | %d of %d | %d of %d | %d |\n", tt.spec, 100*normal, 100*hard, panels,
			flagged, unflaggedHold, panels-flagged, flaggedHold, flagged, disagree)
		if tt.skill >= 0 {
			dialFlagged, dialPanels = dialFlagged+flagged, dialPanels+panels
		} else if 100*flagged < 95*panels && unflaggedHold < panels-flagged {
			t.Errorf("%s: flagged in %d of %d panels, and %d of the %d not flagged predict its own rates wrongly from decisions",
				tt.spec, flagged, panels, panels-flagged-unflaggedHold, panels-flagged)
		}
	}
	t.Log("\n" + table.String())
	if 100*dialFlagged > 5*dialPanels {
		t.Errorf("the dial's own panels flagged in %d of %d", dialFlagged, dialPanels)
	}
}
