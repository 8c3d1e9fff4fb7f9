package sim

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// The recovery study of calibration: synthetic testers, made from the dial
// at known settings and from policies off the dial (greedy, pollster,
// builder), play panels of recorded games on Normal; each panel is
// calibrated on a curve of the dial played once; the study counts how
// often the dial's true setting lies inside the fit's interval, and how
// often the predicted win rates (from the decisions on Normal and Hard,
// from the results on Hard) hold the tester's own rates, measured on other
// seeds. docs/calibration.md quotes a larger run of it:
//
//	go test -tags calibration ./sim -run Recovery -v -timeout 0 \
//	    -recovery-panels 20 -recovery-sizes 10,20,30,100 -recovery-curve 500 -recovery-true 1000
//
// Seeds (all in 13000-13999): the curve 13500, the true rates 13400 + the
// tester's index, the panels of tester i and size k 13300 + 10·i + k.
var (
	recoveryPanels = flag.Int("recovery-panels", 20, "recovery study: panels per tester and size (a fifth for the testers that search)")
	recoverySizes  = flag.String("recovery-sizes", "10,30", "recovery study: recorded games per panel, a list")
	recoveryCurve  = flag.Int64("recovery-curve", 300, "recovery study: games a point of the curve (a tenth above skill 1)")
	recoveryTrue   = flag.Int64("recovery-true", 1000, "recovery study: games measuring each tester's own win rates (a tenth for the testers that search)")
)

// recoveryTester is a kind of synthetic tester: a policy, and its skill
// on the dial when it is the dial.
type recoveryTester struct {
	spec  string
	skill float64 // −1: off the dial
}

var recoveryTesters = []recoveryTester{
	{"dial:skill=0.25", 0.25}, {"dial:skill=0.5", 0.5}, {"dial:skill=0.75", 0.75}, {"dial:skill=1.5", 1.5},
	{"greedy", -1}, {"pollster", -1}, {"builder", -1},
}

// recoveryRow sums one tester's panels of one size.
type recoveryRow struct {
	tester  string
	size    int64
	panels  int
	skillIn int     // decision fits holding the true skill
	skill   float64 // sum of the fitted skills
	width   float64 // sum of the decision fits' interval widths
	// predictions holding the tester's own rate, and their widths: from
	// the decisions on Normal and on Hard, from the results on Hard.
	normalIn, hardIn, resultsIn          int
	normalWidth, hardWidth, resultsWidth float64
	resultsSkillWidth                    float64
}

func TestCalibrationRecovery(t *testing.T) {
	calibrationStudy(t)
	var sizes []int64
	for _, s := range strings.Split(*recoverySizes, ",") {
		var n int64
		if _, err := fmt.Sscan(s, &n); err != nil || n < 1 {
			t.Fatalf("-recovery-sizes %q", *recoverySizes)
		}
		sizes = append(sizes, n)
	}
	ctx := context.Background()
	rules := engine.Reference()
	curve, err := Curve(ctx, CurveConfig{RunConfig: RunConfig{Seed: 13500},
		Rules: rules, Skills: []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2},
		Modes: []engine.Mode{engine.Normal, engine.Hard}, Politician: RandomPoliticianIndex, Games: *recoveryCurve, SearchGames: max(1, *recoveryCurve/10)})
	if err != nil {
		t.Fatal(err)
	}
	curves := []RulesCurve{{RulesID: rulesID(rules), Points: curve.Points}}
	var rows []recoveryRow
	for i, tt := range recoveryTesters {
		search := tt.skill > 1
		panels, trueGames := *recoveryPanels, *recoveryTrue
		if search {
			panels, trueGames = max(1, panels/5), max(1, trueGames/10)
		}
		truth := run(t, Config{RunConfig: RunConfig{Seed: uint64(13400 + i)}, Rules: rules, Games: trueGames, Cells: []CellSpec{
			{Mode: engine.Normal, Policy: mustSpec(t, tt.spec), Politician: RandomPoliticianIndex},
			{Mode: engine.Hard, Policy: mustSpec(t, tt.spec), Politician: RandomPoliticianIndex}}})
		normal, hard := truth.Cells[0].WinRate, truth.Cells[1].WinRate
		for k, size := range sizes {
			games := recordGames(t, tt.spec, engine.Normal, uint64(13300+10*i+k), size*int64(panels))
			row := recoveryRow{tester: tt.spec, size: size, panels: panels}
			for p := range panels {
				cfg := CalibrateConfig{Rules: rules, Records: games[int64(p)*size : int64(p+1)*size]}
				testers, err := readTesters(ctx, &cfg, map[string]int{"": 0}, search)
				if err != nil {
					t.Fatal(err)
				}
				r := &CalibrateResult{Curves: curves, Testers: testers}
				r.derive()
				tr := &r.Testers[0]
				f := tr.DecisionFit
				row.skill += f.Skill
				row.width += f.CI95[1] - f.CI95[0]
				if f.CI95[0] <= tt.skill && tt.skill <= f.CI95[1] {
					row.skillIn++
				}
				row.resultsSkillWidth += tr.ResultFit.CI95[1] - tr.ResultFit.CI95[0]
				for _, pr := range tr.Predictions {
					in := pr.WinCI[0] <= rateOf(pr.Mode, normal, hard) && rateOf(pr.Mode, normal, hard) <= pr.WinCI[1]
					w := pr.WinCI[1] - pr.WinCI[0]
					switch {
					case pr.From == FromDecisions && pr.Mode == "normal":
						row.normalIn, row.normalWidth = row.normalIn+b2i(in), row.normalWidth+w
					case pr.From == FromDecisions:
						row.hardIn, row.hardWidth = row.hardIn+b2i(in), row.hardWidth+w
					case pr.Mode == "hard":
						row.resultsIn, row.resultsWidth = row.resultsIn+b2i(in), row.resultsWidth+w
					}
				}
			}
			rows = append(rows, row)
		}
		t.Logf("%s: own rates %.1f%% Normal, %.1f%% Hard (%d games each, seed %d)", tt.spec, 100*normal, 100*hard, trueGames, 13400+i)
	}
	t.Log("\n" + recoveryTable(rows))
	// The dial's setting within its interval, and its own win rates within
	// the predictions from its decisions, about as often as stated (95%,
	// the predictions at least): pooled over the dial's testers and panel
	// sizes, so that one row's noise (15 of 20 is 1.6% likely at 95%) does
	// not fail the study; refused only when a 99.8% Wilson interval of the
	// pooled rate lies below 95%.
	var in, predIn, panels int64
	for _, r := range rows {
		if strings.HasPrefix(r.tester, "dial") {
			in, predIn, panels = in+int64(r.skillIn), predIn+int64(r.normalIn+r.hardIn), panels+int64(r.panels)
		}
	}
	if ci := stats.Wilson(in, panels, 0.002); ci.Hi < 0.95 {
		t.Errorf("the dial's true skill in %d of %d intervals (%.1f%%, 99.8%% interval [%.1f%%, %.1f%%])", in, panels, 100*float64(in)/float64(panels), 100*ci.Lo, 100*ci.Hi)
	}
	if ci := stats.Wilson(predIn, 2*panels, 0.002); ci.Hi < 0.95 {
		t.Errorf("the dial's own win rates in %d of %d predictions from its decisions", predIn, 2*panels)
	}
}

func rateOf(mode string, normal, hard float64) float64 {
	if mode == "normal" {
		return normal
	}
	return hard
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// recoveryTable writes the study's rows as the markdown table
// docs/calibration.md holds.
func recoveryTable(rows []recoveryRow) string {
	var b strings.Builder
	b.WriteString("| tester | games a panel | panels | skill from decisions (mean) | true skill in its interval | mean width | Normal predicted (decisions): own rate in it | mean width | Hard predicted (decisions): own rate in it | mean width | skill from results: mean width | Hard predicted (results on Normal): own rate in it | mean width |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	pc := func(k, n int) string { return fmt.Sprintf("%.0f%%", 100*float64(k)/float64(n)) }
	for _, r := range rows {
		n := float64(r.panels)
		skillIn := "—"
		if strings.HasPrefix(r.tester, "dial") {
			skillIn = pc(r.skillIn, r.panels)
		}
		fmt.Fprintf(&b, "| `%s` | %d | %d | %.2f | %s | %.3f | %s | %.1f pts | %s | %.1f pts | %.2f | %s | %.1f pts |\n",
			r.tester, r.size, r.panels, r.skill/n, skillIn, r.width/n, pc(r.normalIn, r.panels), 100*r.normalWidth/n,
			pc(r.hardIn, r.panels), 100*r.hardWidth/n, r.resultsSkillWidth/n, pc(r.resultsIn, r.panels), 100*r.resultsWidth/n)
	}
	return b.String()
}
