package report

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/sim"
)

func cardsJSON(t testing.TB, games int64, seed uint64) []byte {
	t.Helper()
	cfg := sim.CardsConfig{RunConfig: sim.RunConfig{Seed: seed, Workers: 2},
		Rules: engine.Reference(), Games: games, Cells: []sim.CellSpec{{Mode: engine.Hard, Policy: mustSpec(t, "greedy"), Politician: sim.RandomPoliticianIndex}}}
	r, err := sim.Cards(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Encode(r)
}

// TestCardsReport: the text fits 100 columns and says what it measured
// (effect or association, the adjustment), the CSV has a row per effect,
// and the page a plot per family whose numbers are the JSON's.
func TestCardsReport(t *testing.T) {
	data := cardsJSON(t, 200, 9)
	src, err := Decode("cards.json", data)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for i, line := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(line) > 100 {
			t.Errorf("line %d: %d columns: %s", i+1, len(line), line)
		}
	}
	for _, want := range []string{"Solo cards, effect: played vs not played", "Strategy cards, association: drawn vs not drawn", "a family of", "Bonferroni"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
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
	if len(rows) != 1+len(src.Study.(*sim.CardsResult).Cells[0].Effects) {
		t.Errorf("CSV: %d rows for %d effects", len(rows), len(src.Study.(*sim.CardsResult).Cells[0].Effects))
	}
	secs := parsePage(t, render(t, testMeta, data))
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	var ids []string
	for _, f := range sim.CardFamilies {
		for _, e := range src.Study.(*sim.CardsResult).Cells[0].Effects {
			if e.Family == f.Name {
				ids = append(ids, "s1-cell1-"+f.Name)
				break
			}
		}
	}
	checkFigures(t, secs[0], decodeGeneric(t, data), ids)
	want := "tallywood cards --games 200 --seed 9 --mode hard --policy greedy --format json"
	if got := secs[0].Facts["Command"]; got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
}

// TestCardsSayWhatEachItemIs: a cards study read alone says what each
// card it ranks is (C-15, C-16): a Solo card's Districts and actions, a
// Strategy card's deck, slots in the rules file's order and ability, in
// the text and the page's tables.
func TestCardsSayWhatEachItemIs(t *testing.T) {
	src, err := Decode("c.json", cardsJSON(t, 200, 15041))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Text(&b, src, TextOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  S-03: Red Celebrity | Green Campaign\n",
		"  PW-01: Public Works deck, PW M1 | CE P1, +1 Polling in this District\n",
		"  PW-02: Public Works deck, PW M1 | CE P1, Public Works costs 1 Money less (passive)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text does not say %q", want)
		}
	}
	items := src.Study.(*sim.CardsResult).Items
	for _, f := range pageOf(t, src).Figures {
		for _, row := range f.Rows {
			item, _, _ := strings.Cut(row[1].Text, " ") // S-03 r2 is S-03
			if want := itemWords(items, item); !strings.HasSuffix(f.ID, "-politician") && (want == "" || row[2].Text != want) {
				t.Errorf("%s: %s is %q, want %q", f.ID, row[1].Text, row[2].Text, want)
			}
		}
	}
}
