package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
)

// sensitivityJSON scans Hard's divisor and the Campaign costs for
// greedy on both difficulties, with every change on every seed (fixed)
// or raced.
func sensitivityJSON(t testing.TB, games int64, design sim.SensitivityDesign) []byte {
	t.Helper()
	cfg := sim.SensitivityConfig{RunConfig: sim.RunConfig{Seed: 9802},
		Base: engine.Reference(), Fields: []string{"difficulties.hard.bonus_divisor", "actions.campaign_*"},
		Step: sim.Step{By: 1}, Games: games, Design: design, ConfirmSeed: 9803}
	for _, m := range []engine.Mode{engine.Normal, engine.Hard} {
		cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: mustSpec(t, "greedy"), Politician: sim.RandomPoliticianIndex})
	}
	r, err := sim.Sensitivity(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Encode(r)
}

// TestSensitivityReport: the page has a tornado plot per cell whose
// table holds the file's numbers, the command that reproduces it, and
// the text stays within 100 columns.
func TestSensitivityReport(t *testing.T) {
	data := sensitivityJSON(t, 60, sim.DesignFixed)
	doc := decodeGeneric(t, data)
	page := render(t, testMeta, data)
	// Each tornado spans the page's width, not one plot column of two
	// (issue 42).
	for _, id := range []string{"s1-cell1-tornado", "s1-cell2-tornado"} {
		if !strings.Contains(string(page), `<figure id="`+id+`" class="wide">`) {
			t.Errorf("the figure %s is not wide", id)
		}
	}
	secs := parsePage(t, page)
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	sec := secs[0]
	checkFigures(t, sec, doc, []string{"s1-cell1-tornado", "s1-cell2-tornado"})
	want := "tallywood sensitivity --fields difficulties.hard.bonus_divisor --fields 'actions.campaign_*' --step 1 --games 60 --seed 9802 --mode normal,hard --policy greedy --politician random --fixed --format json"
	if got := sec.Facts["Command"]; got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	// Normal cannot read Hard's divisor: two changes; Hard plays six.
	for i, n := range []int{4, 6} {
		if rows := figureByID(t, sec, "s1-cell"+string(rune('1'+i))+"-tornado").Rows; len(rows) != n {
			t.Errorf("cell %d: %d rows, want %d", i+1, len(rows), n)
		}
	}
	src, err := Decode("scan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns: %s", n, line)
		}
	}
	for _, w := range []string{"tolerance ±2 points", "verdicts at 5% over 10 changes, from each change's interval (simultaneous, 99.5%): negligible when\nit lies within ±2 points",
		"a - says there were too few games to tell, not that the change does\nnothing"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the text does not say %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	if err := CSV(&b, src); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// A header, four changes played and the divisor skipped at Normal,
	// six played at Hard.
	if len(rows) != 1+5+6 {
		t.Errorf("%d CSV rows, want 12", len(rows))
	}
}

// TestSensitivityRaceReport: a race's text says how it played and what
// its words mean within 100 columns, the games of each change, and its
// page reproduces it by the command (no --fixed, the confirmation's seed
// the default).
func TestSensitivityRaceReport(t *testing.T) {
	data := sensitivityJSON(t, 200, sim.DesignRace)
	src, err := Decode("race.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns: %s", n, line)
		}
	}
	b.Reset()
	if err := Text(&b, src, TextOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"a budget of 200 games per change", "race: a screen of every change of a cell of 64 or more",
		"(--confirm-seed 9803)", "| # | FIELD"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the text does not say %q:\n%s", w, b.String())
		}
	}
	secs := parsePage(t, render(t, testMeta, data))
	want := "tallywood sensitivity --fields difficulties.hard.bonus_divisor --fields 'actions.campaign_*' --step 1 --games 200 --seed 9802 --mode normal,hard --policy greedy --politician random --format json"
	if got := secs[0].Facts["Command"]; got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
}

// TestPathWords: the tornado's labels are fields in words, not raw paths
// (issue 42).
func TestPathWords(t *testing.T) {
	for path, want := range map[string]string{
		"difficulties.hard.bonus_divisor":     "Hard: bonus divisor",
		"solo_cards[S-13].left_action":        "Solo card S-13: left action",
		"actions.campaign_popularity":         "campaign popularity",
		"rounds[3].turns":                     "round 4: turns",
		"track.vote_share_icons[2]":           "track: vote share icons 2",
		"variants.opposition_respects_blocks": "opposition respects blocks",
		"columns[1][2].money":                 "columns 1, 2: money",
	} {
		if got := pathWords(path); got != want {
			t.Errorf("pathWords(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestTornadoVerdicts: each row of a tornado says its changes' verdicts
// in words, level with the row's field, and the tolerance that
// "negligible" reads is shaded, ±2 points on the plot's axis (issue 42).
func TestTornadoVerdicts(t *testing.T) {
	// A short fixed scan, and a stored race whose changes are easier,
	// harder, negligible and not settled.
	race, err := os.ReadFile(filepath.Join("..", "testdata", "sensitivity-race-v2.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{sensitivityJSON(t, 60, sim.DesignFixed), race} {
		checkTornadoVerdicts(t, data)
	}
}

func checkTornadoVerdicts(t *testing.T, data []byte) {
	t.Helper()
	src, err := Decode("scan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	r := src.Study.(*sim.SensitivityResult)
	page := render(t, testMeta, data)
	words := map[sim.Verdict]string{sim.InZone: "negligible", sim.ScoreEasier: "easier", sim.ScoreHarder: "harder", sim.NotEnoughGames: "not enough games"}
	for i := range r.Cells {
		c := &r.Cells[i]
		p := parseSVG(t, figureSVG(t, page, fmt.Sprintf("s1-cell%d-tornado", i+1)))
		nameY := map[string]string{} // a text's y by its words
		atY := map[string][]string{} // the texts at a y
		for _, tx := range p.texts {
			nameY[tx.s] = tx.y
			atY[tx.y] = append(atY[tx.y], tx.s)
		}
		if len(c.Ranking) == 0 {
			t.Fatalf("cell %d ranks no field", i+1)
		}
		for _, f := range c.Ranking {
			var want []string
			for _, ch := range c.Changes {
				if ch.Path != f.Path {
					continue
				}
				way := "up"
				if ch.To < ch.From {
					way = "down"
				}
				want = append(want, way+": "+words[ch.Verdict])
			}
			line := strings.Join(want, " · ")
			y, ok := nameY[pathWords(f.Path)]
			if !ok {
				t.Errorf("cell %d: no row is %q", i+1, pathWords(f.Path))
				continue
			}
			if !slices.Contains(atY[y], line) {
				t.Errorf("cell %d: the row of %s says %q, want %q", i+1, f.Path, atY[y], line)
			}
		}
		x := p.axis(t, false)
		box := p.shadeBox(t)
		if !near(box[0][0], x(-2)) || !near(box[1][0], x(2)) {
			t.Errorf("cell %d: the shade spans %g to %g on the plot, want %g to %g (±2 points)", i+1, box[0][0], box[1][0], x(-2), x(2))
		}
		if !p.hasText("shaded: the tolerance ±2 points") {
			t.Errorf("cell %d: the tornado does not name its shade", i+1)
		}
	}
}
