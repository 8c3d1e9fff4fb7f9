package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// tuned is a small tune: random's Normal win rate (0%) against an
// unreachable 10% over two divisors.
func tuned(t *testing.T) *sim.TuneResult {
	t.Helper()
	spec, err := policy.Parse("random")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Tune(context.Background(), sim.TuneConfig{
		RunConfig: sim.RunConfig{Seed: 3}, Base: engine.Reference(),
		Targets: []sim.CellSpec{{Mode: engine.Normal, Policy: spec, Politician: sim.RandomPoliticianIndex}},
		Rates:   []float64{0.1},
		Vary:    []sim.TuneVary{{Path: "difficulties.normal.bonus_divisor", Values: []int{2, 3, 4}}},
		Budget:  300, ConfirmSeed: 4, ConfirmGames: 40,
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTuneRenders: the text fits 100 columns, says the target is out of
// reach of the candidates played, and how many of the ranges they are;
// the CSV has a row per target and per candidate; the page has
// the section.
func TestTuneRenders(t *testing.T) {
	r := tuned(t)
	src := Source{Name: "tune.json", Study: r}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("a line of %d columns: %q", n, line)
		}
	}
	for _, w := range []string{"no candidate the search played came near it", "1 of the 3 combinations in the ranges (33.3%)",
		"tolerance ±2 points", "WIN RATE [95% CI]"} {
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
	if want := 1 + 1 + len(r.Trace); len(rows) != want {
		t.Errorf("%d CSV rows, want %d (a header, a target, %d candidates)", len(rows), want, len(r.Trace))
	}
	b.Reset()
	if err := Write(&b, []Source{src}, Meta{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "tune: tune.json") {
		t.Error("the page has no tune section")
	}
}
