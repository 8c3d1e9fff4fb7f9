package report

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// textOf is src's text, as --format table writes it.
func textOf(t *testing.T, src Source) string {
	t.Helper()
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pageOf is the one section of src's report.
func pageOf(t *testing.T, src Source) *parsedSection {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, []Source{src}, testMeta); err != nil {
		t.Fatal(err)
	}
	secs := parsePage(t, b.Bytes())
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	return secs[0]
}

// column is column k of a figure's table, every step-th row.
func column(f *parsedFigure, k, step int) []string {
	var out []string
	for i := 0; i < len(f.Rows); i += step {
		out = append(out, f.Rows[i][k].Text)
	}
	return out
}

// TestCompareSaidOnce: a
// comparison's text and page title each cell alike (the page wrote
// "normal → hard · greedy · random") and give it the same answer in
// words (the page had its own sentence).
func TestCompareSaidOnce(t *testing.T) {
	pol := func(s string) policy.Spec {
		sp, err := policy.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	// Arms differ in difficulty; the second cell names a politician, which
	// the title then shows.
	cfg := sim.CompareConfig{RunConfig: sim.RunConfig{Seed: 1},
		A: sim.CompareArm{Name: "reference", Rules: engine.Reference()}, B: sim.CompareArm{Name: "hard", Rules: engine.Reference()}}
	for _, c := range []struct {
		policy     string
		politician int
	}{{"greedy", sim.RandomPoliticianIndex}, {"random", 0}} {
		a := sim.CellSpec{Mode: engine.Normal, Policy: pol(c.policy), Politician: c.politician}
		b := a
		b.Mode = engine.Hard
		cfg.Cells = append(cfg.Cells, sim.ComparePair{A: a, B: b, Games: 20})
	}
	r, err := sim.Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := Source{Name: "r.json", Study: r}
	text, page := textOf(t, src), pageOf(t, src)

	wantTitles := []string{"Normal → Hard, casual", "Normal → Hard, random, " + engine.Reference().Politicians[0].ID}
	var titles []string
	for _, m := range regexp.MustCompile(`(?m)^(.*): \d+ paired games`).FindAllStringSubmatch(text, -1) {
		titles = append(titles, m[1])
	}
	if !slices.Equal(titles, wantTitles) {
		t.Errorf("text titles %q, want %q", titles, wantTitles)
	}
	for _, f := range []struct {
		id   string
		step int // rows per cell
	}{{"s1-winrate", 2}, {"s1-score-diff", 1}, {"s1-margin-diff", 1}} {
		if got := column(figureByID(t, page, f.id), 0, f.step); !slices.Equal(got, wantTitles) {
			t.Errorf("page %s: cells %q, want %q", f.id, got, wantTitles)
		}
	}

	// The text wraps its lines at 100 columns; --wide writes each whole.
	var wide bytes.Buffer
	if err := Text(&wide, src, TextOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	if got := unwrap(text); got != wide.String() {
		t.Errorf("the text unwrapped:\n%s\nis not the wide text:\n%s", got, wide.String())
	}
	_, words, ok := strings.Cut(wide.String(), "\nIn words")
	if !ok {
		t.Fatalf("no lines in words:\n%s", text)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(words), "\n")[1:] {
		lines = append(lines, strings.TrimSpace(l))
	}
	if !slices.Equal(page.Answers, lines) || len(lines) != 2 {
		t.Errorf("page's answers\n%q\nwant the text's\n%q", page.Answers, lines)
	}
}

// unwrap joins the lines wrap continued (indented four spaces more than
// the line before) to the line they continue.
func unwrap(s string) string {
	lines := strings.Split(s, "\n")
	var out []string
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	for i, l := range lines {
		if i > 0 && len(out) > 0 && strings.TrimSpace(l) != "" && indent(l) == indent(out[len(out)-1])+4 {
			out[len(out)-1] += " " + strings.TrimSpace(l)
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// TestSweepSaidOnce: where a cell's win rate crosses the target is one
// sentence, the text's line and the page's answer for the cell, above
// its plot (the page had its own, with other numbers: 15% for 15.0%, 4
// digits for 2 decimals); the page titles the cell as the text does.
func TestSweepSaidOnce(t *testing.T) {
	data := sweepJSON(t, max(games(300), 100), 5, 0.15)
	src, err := Decode("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	text, page := textOf(t, src), pageOf(t, src)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "  the win rate "):
			lines = append(lines, strings.TrimSpace(l))
		case strings.HasPrefix(l, "  ") && len(lines) > 0:
			lines[len(lines)-1] += " " + strings.TrimSpace(l)
		}
	}
	for i, cell := range []string{"Hard, casual", "Hard, random"} {
		if i < len(lines) {
			lines[i] = cell + ": " + lines[i]
		}
	}
	if !slices.Equal(page.Answers, lines) || len(lines) != 2 {
		t.Errorf("page's answers\n%q\nwant the text's lines\n%q", page.Answers, lines)
	}
	if len(page.Answers) == 0 || !strings.HasPrefix(page.Answers[0], "Hard, casual: the win rate may meet 15.0% at difficulties.hard.bonus_divisor: values whose simultaneous 95% interval contains 15.0%: ") {
		t.Errorf("greedy's answer %q", page.Answers)
	}
}

// TestSimTitles: the page titles a sim result's cells as every output
// titles a cell (it wrote "normal · greedy · random").
func TestSimTitles(t *testing.T) {
	src, err := Decode("r.json", simJSON(t, 10, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Normal, casual", "Normal, random", "Hard, casual", "Hard, random"}
	if got := pageOf(t, src).Headings; !slices.Equal(got, want) {
		t.Errorf("headings %q, want %q", got, want)
	}
}

// TestSeatsSaidOnce: a study's first-seat advantage, and a comparison's
// at a table, are the text's sentence on the page too (the page said it
// without what it means).
func TestSeatsSaidOnce(t *testing.T) {
	lineup := []policy.Spec{mustSpec(t, "random"), mustSpec(t, "greedy")}
	cfg := sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 3}, Rules: engine.Reference(), Deals: 20, Lineup: lineup}
	study, err := sim.RunSeats(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	other, err := engine.Reference().With(engine.Assignment{Path: "track.max", Value: "14"})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := sim.CompareSeats(context.Background(), cfg, sim.SeatsArm{Name: "reference", Rules: engine.Reference()}, sim.SeatsArm{Name: "track 14", Rules: other})
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []Source{{Name: "s.json", Study: study}, {Name: "c.json", Study: cmp}} {
		var line string
		for _, l := range strings.Split(textOf(t, src), "\n") {
			if strings.HasPrefix(l, "First-seat advantage: ") {
				line = l
			}
		}
		notes := strings.Join(pageOf(t, src).Notes, "\n")
		if line == "" || !strings.Contains(notes, line) {
			t.Errorf("%s: the page's notes\n%s\nlack the text's %q", src.Name, notes, line)
		}
	}
}

// TestCrossingWords: a target is answered in swept values with their
// simultaneous intervals; several places are each said; with none, the
// words say which way to sweep (a target above every value and
// one below every value printed the same words) only when the paired test
// of the ends can tell (the trend of two estimates pointed the
// way); and which values meet the target within the tolerance, and which
// have not enough games.
func TestCrossingWords(t *testing.T) {
	ptr := func(s string) *string { return &s }
	answer := func(a sim.TargetAnswer) *sim.TargetAnswer { return &a }
	point := func(v string, w, lo, hi float64, base bool, a sim.TargetAnswer, settle int64) sim.SweepPointResult {
		p := sim.SweepPointResult{Values: []string{v}, IsBase: base, WinCISimultaneous: &[2]float64{lo, hi}, Target: answer(a), GamesToSettle: settle}
		p.Result.WinRate = w
		return p
	}
	r := &sim.SweepResult{Params: []string{"actions.campaign_popularity"}, Target: 0.15, Tolerance: 0.02}
	c := sim.SweepCell{Points: []sim.SweepPointResult{
		point("1", 0.10, 0.083, 0.12, false, sim.TargetOutside, 0), point("2", 0.175, 0.154, 0.197, true, sim.TargetUnsettled, 9000),
		point("3", 0.155, 0.135, 0.166, false, sim.TargetWithin, 0), point("4", 0.20, 0.178, 0.223, false, sim.TargetOutside, 0),
	}}
	const meets = "; meets 15.0% ±2 points at 3; not enough games to tell at 2 (about 9000 games)"
	tests := []struct {
		name     string
		crossing sim.Crossing
		want     string
	}{
		{"one place", sim.Crossing{Regions: []sim.CrossingRegion{{Values: []string{"3"}, Below: ptr("2"), Above: ptr("4")}}},
			"the win rate may meet 15.0% at actions.campaign_popularity: values whose simultaneous 95% interval contains 15.0%: " +
				"3 (15.5% [13.5%, 16.6%]); nearest below: 2 (the base: 17.5% [15.4%, 19.7%]), nearest above: 4 (20.0% [17.8%, 22.3%])" + meets},
		{"at the top", sim.Crossing{Regions: []sim.CrossingRegion{{Values: []string{"4"}, Below: ptr("3")}}},
			"the win rate may meet 15.0% at actions.campaign_popularity: values whose simultaneous 95% interval contains 15.0%: " +
				"4 (20.0% [17.8%, 22.3%]); nearest below: 3 (15.5% [13.5%, 16.6%]), nearest above: none (sweep higher)" + meets},
		{"two places", sim.Crossing{Multiple: true, Regions: []sim.CrossingRegion{
			{Values: []string{}, Below: ptr("1"), Above: ptr("2")}, {Values: []string{"3"}, Below: ptr("2"), Above: ptr("4")}}},
			"the win rate may meet 15.0% at actions.campaign_popularity in 2 places: " +
				"(1) it passes 15.0% between 1 (10.0% [8.3%, 12.0%]) and 2 (the base: 17.5% [15.4%, 19.7%]), " +
				"and no whole number lies between: no setting of this parameter alone gives it; " +
				"(2) values whose simultaneous 95% interval contains 15.0%: 3 (15.5% [13.5%, 16.6%]); " +
				"nearest below: 2 (the base: 17.5% [15.4%, 19.7%]), nearest above: 4 (20.0% [17.8%, 22.3%])" + meets},
		{"between values not consecutive", sim.Crossing{Regions: []sim.CrossingRegion{{Values: []string{}, Below: ptr("1"), Above: ptr("3")}}},
			"the win rate at actions.campaign_popularity passes 15.0% between 1 (10.0% [8.3%, 12.0%]) " +
				"and 3 (15.5% [13.5%, 16.6%]), with no swept value between: sweep between them" + meets},
		{"above, rising", sim.Crossing{Side: "above", Sweep: "lower", EndsDiff: 0.03, EndsDiffCI: &[2]float64{0.01, 0.05}},
			"the win rate is above the target 15.0% at every swept value of actions.campaign_popularity (by its simultaneous 95% interval): " +
				"sweep actions.campaign_popularity lower (the last value against the first: +3.0 points [+1.0, +5.0], paired)" + meets},
		{"below, rising", sim.Crossing{Side: "below", Sweep: "higher", EndsDiff: 0.03, EndsDiffCI: &[2]float64{0.01, 0.05}},
			"the win rate is below the target 15.0% at every swept value of actions.campaign_popularity (by its simultaneous 95% interval): " +
				"sweep actions.campaign_popularity higher (the last value against the first: +3.0 points [+1.0, +5.0], paired)" + meets},
		// −0.5 points [−1.7, +0.6] must not say "sweep higher".
		{"no direction", sim.Crossing{Side: "below", EndsDiff: -0.005, EndsDiffCI: &[2]float64{-0.017, 0.006}},
			"the win rate is below the target 15.0% at every swept value of actions.campaign_popularity (by its simultaneous 95% interval): " +
				"no direction at this precision (the last value against the first: -0.5 points [-1.7, +0.6], paired)" + meets},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c.Crossing = &tt.crossing
			if got := crossingWords(r, &c); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestSweepWidth: sweep's text fits 100 columns (in runes) without --wide,
// its footnote wrapped (149 columns and a 287-character line);
// --wide has every column.
func TestSweepWidth(t *testing.T) {
	src, err := Decode("r.json", sweepJSON(t, games(100), 5, 0.15))
	if err != nil {
		t.Fatal(err)
	}
	for _, wide := range []bool{false, true} {
		var b bytes.Buffer
		if err := Text(&b, src, TextOptions{Wide: wide}); err != nil {
			t.Fatal(err)
		}
		widest := 0
		for _, l := range strings.Split(b.String(), "\n") {
			widest = max(widest, utf8.RuneCountInString(l))
		}
		if wide != (widest > 100) || wide != strings.Contains(b.String(), "W / D / L |") {
			t.Errorf("wide %t: the widest line is %d columns:\n%s", wide, widest, b.String())
		}
	}
}

// TestValueWords: every verdict, decision and statistic has words of its
// own here, so an output never falls back on a JSON name or on nothing.
func TestValueWords(t *testing.T) {
	for v := sim.NotEnoughGames; v <= sim.NotDecided; v++ {
		if verdictWords[v] == "" {
			t.Errorf("verdict %v has no words", v)
		}
	}
	for d := sim.Undecided; d <= sim.NearerP1; d++ {
		if decisionWords[d] == "" {
			t.Errorf("decision %v has no words", d)
		}
	}
	for _, s := range []sim.Statistic{sim.OnScore, sim.OnMargin} {
		if statisticWords[s] == "" {
			t.Errorf("statistic %v has no words", s)
		}
	}
	if len(verdictWords) != int(sim.NotDecided)+1 || len(decisionWords) != int(sim.NearerP1)+1 {
		t.Errorf("%d verdict words and %d decision words for values that do not exist", len(verdictWords), len(decisionWords))
	}
}

// TestPlayerWords checks a player's name in a sentence: a level with its
// article ("for a expert player" was printed: issue 42), and one name
// for a level however it was given.
func TestPlayerWords(t *testing.T) {
	for _, c := range []struct{ label, want string }{
		{"novice", "a novice player"},
		{"greedy", "a casual player"},
		{"casual", "a casual player"},
		{"learned", "a skilled player"},
		{"expert", "an expert player"},
		{"mcts:iters=100,prior=16", "an expert player"},
		{"master", "a master player"},
		{"random", "the player random"},
	} {
		if got := playerWords(c.label); got != c.want {
			t.Errorf("playerWords(%q) = %q, want %q", c.label, got, c.want)
		}
	}
	for _, c := range []struct{ label, want string }{{"greedy", "casual"}, {"builder", "novice"}, {"mcts:iters=7", "mcts:iters=7"}} {
		if got := levelName(c.label); got != c.want {
			t.Errorf("levelName(%q) = %q, want %q", c.label, got, c.want)
		}
	}
}
