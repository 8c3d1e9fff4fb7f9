package report

import (
	"fmt"
	"strings"
	"testing"

	"tallywood/sim"
)

// checkLeads verifies the order of a section's page (issue 42): its
// answers, then the plot that shows them (the section's first SVG is
// figure lead's), then the statistics heading, and only then the
// statistics: how to read them, the facts and the notes.
func checkLeads(t *testing.T, page []byte, lead string) {
	t.Helper()
	s := string(page)
	at := func(what string) int {
		i := strings.Index(s, what)
		if i < 0 {
			t.Fatalf("the page has no %s", what)
		}
		return i
	}
	answers, svg, heading := at(`<ul class="answers">`), at("<svg"), at(`<h3 class="statistics">`+statisticsHeading+`</h3>`)
	if fig := at(`<figure id="` + lead + `"`); !(answers < fig && fig < svg) {
		t.Errorf("the first plot is not %s's, under the answers (answers at %d, figure at %d, first SVG at %d)", lead, answers, fig, svg)
	}
	if !(svg < heading) {
		t.Errorf("the statistics heading (at %d) comes before the first plot (at %d)", heading, svg)
	}
	for _, stat := range []string{`<dl class="facts">`, `<p class="note`} {
		if i := at(stat); i < heading {
			t.Errorf("%s (at %d) comes before the statistics heading (at %d)", stat, i, heading)
		}
	}
}

// TestCompareLeadsWithTheAnswer: a comparison's page leads with each
// cell's answer and the score's plot, with the band its verdicts read
// shaded: the tolerance, ±2 points; a sequential test's zone when the
// verdicts are the test's, ±5 points on the score's plot, or ±1 vote on
// the margin's when it tests the margin (issue 42). The statistics come
// after them.
func TestCompareLeadsWithTheAnswer(t *testing.T) {
	for _, c := range []struct {
		name             string
		test             *sim.Sequential
		shaded, unshaded string  // the figure with the shade, the one without
		half             float64 // the shade's half-width on its axis
		legend           string
	}{
		{"tolerance", nil, "s1-score-diff", "s1-margin-diff", 2, "shaded: the tolerance ±2 points"},
		{"sequential", fivePoints, "s1-score-diff", "s1-margin-diff", 5, "shaded: the sequential test's zone ±5 points"},
		{"sequential on the margin", &sim.Sequential{On: sim.OnMargin, Delta: 1, Alpha: 0.05, Beta: 0.05},
			"s1-margin-diff", "s1-score-diff", 1, "shaded: the sequential test's zone ±1 vote"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := compareJSON(t, games(400), 5, c.test)
			page := render(t, testMeta, data)
			checkLeads(t, page, "s1-score-diff")
			secs := parsePage(t, page)
			ids := []string{"s1-score-diff", "s1-winrate", "s1-margin-diff"}
			if c.test != nil {
				ids = append(ids, "s1-sequential")
			}
			checkFigures(t, secs[0], decodeGeneric(t, data), ids)
			if len(secs[0].Answers) != 2 {
				t.Errorf("%d answers, want one a cell", len(secs[0].Answers))
			}
			p := parseSVG(t, figureSVG(t, page, c.shaded))
			x := p.axis(t, false)
			box := p.shadeBox(t)
			if !near(box[0][0], x(-c.half)) || !near(box[1][0], x(c.half)) {
				t.Errorf("%s: the shade spans %g to %g on the plot, want %g to %g (±%g)", c.shaded, box[0][0], box[1][0], x(-c.half), x(c.half), c.half)
			}
			if !p.hasText(c.legend) {
				t.Errorf("%s does not say %q", c.shaded, c.legend)
			}
			if len(parseSVG(t, figureSVG(t, page, c.unshaded)).fills(shadeGrey)) != 0 {
				t.Errorf("%s is shaded, but no verdict reads a band on it", c.unshaded)
			}
		})
	}
}

// TestSweepLeadsWithTheAnswer: a sweep's page leads with each cell's
// answer and plot; with a target, the band a value's verdict reads,
// target ± tolerance, is shaded across the plot (issue 42).
func TestSweepLeadsWithTheAnswer(t *testing.T) {
	n := max(games(300), 100)
	data := sweepJSON(t, n, 5, 0.15)
	page := render(t, testMeta, data)
	checkLeads(t, page, "s1-cell1-winrate")
	sec := parsePage(t, page)[0]
	for i, cell := range []string{"Hard, casual: ", "Hard, random: "} {
		if i >= len(sec.Answers) || !strings.HasPrefix(sec.Answers[i], cell) || !strings.Contains(sec.Answers[i], "meets 15.0% ±2 points at ") {
			t.Errorf("answers %q: want %q's, where it meets 15.0%% ±2 points", sec.Answers, cell)
		}
		p := parseSVG(t, figureSVG(t, page, fmt.Sprintf("s1-cell%d-winrate", i+1)))
		y := p.axis(t, true)
		box := p.shadeBox(t)
		if !near(box[0][1], y(13)) || !near(box[1][1], y(17)) {
			t.Errorf("cell %d: the shade spans %g to %g on the plot, want %g to %g (15%% ±2 points)", i+1, box[0][1], box[1][1], y(13), y(17))
		}
		if !p.hasText("shaded: the target 15% ±2 points") {
			t.Errorf("cell %d: the plot does not name its shade", i+1)
		}
	}

	// Without a target no verdict reads a band: the answer says how far
	// the win rate runs, and nothing is shaded.
	data = sweepJSON(t, n, 5, 0)
	page = render(t, testMeta, data)
	checkLeads(t, page, "s1-cell1-winrate")
	sec = parsePage(t, page)[0]
	if len(sec.Answers) != 2 || !strings.HasPrefix(sec.Answers[0], "Hard, casual: the win rate runs from ") ||
		strings.Count(sec.Answers[0], " at difficulties.hard.bonus_divisor ") != 2 {
		t.Errorf("answers %q, want how far each cell's win rate runs", sec.Answers)
	}
	if len(parseSVG(t, figureSVG(t, page, "s1-cell1-winrate")).fills(shadeGrey)) != 0 {
		t.Error("a sweep without a target is shaded")
	}
}
