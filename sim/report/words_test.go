package report

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

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

// TestCompareSaidOnce is issue 21's "one sentence per fact": a
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
	cfg := sim.CompareConfig{A: sim.CompareArm{Name: "reference", Rules: engine.Reference()}, B: sim.CompareArm{Name: "hard", Rules: engine.Reference()}, Seed: 1}
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
	src := Source{Name: "r.json", Compare: r}
	text, page := textOf(t, src), pageOf(t, src)

	wantTitles := []string{"Normal → Hard, greedy", "Normal → Hard, random, " + engine.Reference().Politicians[0].ID}
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
	if !slices.Equal(page.List, lines) || len(lines) != 2 {
		t.Errorf("page's answers\n%q\nwant the text's\n%q", page.List, lines)
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
// sentence, the text's line and the page's note under the cell's plot (the
// page had its own, with other numbers: 15% for 15.0%, 4 digits for 2
// decimals); the page titles the cell as the text does.
func TestSweepSaidOnce(t *testing.T) {
	data := sweepJSON(t, max(games(300), 100), 5, 0.15)
	src, err := Decode("r.json", data)
	if err != nil {
		t.Fatal(err)
	}
	text, page := textOf(t, src), pageOf(t, src)
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l, ok := strings.CutPrefix(l, "  the win rate "); ok {
			lines = append(lines, "The win rate "+l+".")
		}
	}
	notes := []string{figureByID(t, page, "s1-cell1-winrate").Note, figureByID(t, page, "s1-cell2-winrate").Note}
	if !slices.Equal(notes, lines) || len(lines) != 2 {
		t.Errorf("page's notes\n%q\nwant the text's lines\n%q", notes, lines)
	}
	if !strings.HasPrefix(notes[0], "The win rate crosses 15.0% at difficulties.hard.bonus_divisor = ") {
		t.Errorf("greedy's note %q", notes[0])
	}
	if got, want := column(figureByID(t, page, "s1-crossings"), 0, 1), []string{"Hard, greedy", "Hard, random"}; !slices.Equal(got, want) {
		t.Errorf("crossings' cells %q, want %q", got, want)
	}
}

// TestSimTitles: the page titles a sim result's cells as every output
// titles a cell (it wrote "normal · greedy · random").
func TestSimTitles(t *testing.T) {
	src, err := Decode("r.json", simJSON(t, 10, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Normal, greedy", "Normal, random", "Hard, greedy", "Hard, random"}
	if got := pageOf(t, src).Headings; !slices.Equal(got, want) {
		t.Errorf("headings %q, want %q", got, want)
	}
}

// TestSeatsSaidOnce: a study's first-seat advantage, and a comparison's
// at a table, are the text's sentence on the page too (the page said it
// without what it means).
func TestSeatsSaidOnce(t *testing.T) {
	lineup := []policy.Spec{mustSpec(t, "random"), mustSpec(t, "greedy")}
	cfg := sim.SeatsConfig{Rules: engine.Reference(), Seed: 3, Deals: 20, Lineup: lineup}
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
	for _, src := range []Source{{Name: "s.json", Seats: study}, {Name: "c.json", SeatsCompare: cmp}} {
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
