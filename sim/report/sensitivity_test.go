package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
)

// sensitivityJSON scans Hard's divisor and the Campaign costs for
// greedy on both difficulties.
func sensitivityJSON(t testing.TB, games int64) []byte {
	t.Helper()
	cfg := sim.SensitivityConfig{Base: engine.Reference(), Fields: []string{"difficulties.hard.bonus_divisor", "actions.campaign_*"},
		Step: sim.Step{By: 1}, Seed: 9802, Games: games}
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
	data := sensitivityJSON(t, 60)
	doc := decodeGeneric(t, data)
	secs := parsePage(t, render(t, testMeta, data))
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	sec := secs[0]
	checkFigures(t, sec, doc, []string{"s1-cell1-tornado", "s1-cell2-tornado"})
	want := "tallywood sensitivity --fields difficulties.hard.bonus_divisor --fields 'actions.campaign_*' --step 1 --games 60 --seed 9802 --mode normal,hard --policy greedy --politician random --format json"
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
	if !strings.Contains(b.String(), "20 tests (a score and a margin per change, every cell), Bonferroni at 5%") {
		t.Errorf("the family is not stated:\n%s", b.String())
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
