package sim

import (
	"testing"

	"tallywood/engine"
)

// TestArms checks what compare says of its arms before the games: how B
// differs from A (a card named by its id, as --b-set takes it), and whether the arms
// play alike or are the same.
func TestArms(t *testing.T) {
	ref := engine.Reference()
	card, err := ref.With(engine.Assignment{Path: "solo_cards[S-13].left_action", Value: "Celebrity"})
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := ref.With(engine.Assignment{Path: "name", Value: "copy"})
	if err != nil {
		t.Fatal(err)
	}
	greedy, random := mustSpec(t, "greedy"), mustSpec(t, "random")
	solo := func(m engine.Mode, pol int) CellSpec { return CellSpec{Mode: m, Policy: greedy, Politician: pol} }
	config := func(b *engine.Rules, bName string, cell ComparePair) *CompareConfig {
		return &CompareConfig{A: CompareArm{Name: "reference", Rules: ref}, B: CompareArm{Name: bName, Rules: b}, Cells: []ComparePair{cell}}
	}
	for _, c := range []struct {
		name            string
		cfg             *CompareConfig
		text            string
		same, identical bool
	}{
		{"a Solo card", config(card, "B", ComparePair{A: solo(engine.Normal, 0), B: solo(engine.Normal, 0)}),
			"arm A: reference (rules " + engine.ShortHash(ref.Hash) + ")\narm B: B (rules " + engine.ShortHash(card.Hash) + ")\n" +
				"B differs from A in:\n  rules solo_cards[S-13].left_action: \"Research\" → \"Celebrity\"\n", false, false},
		{"the difficulty, policy and politician", config(ref, "reference", ComparePair{A: solo(engine.Normal, 1), B: CellSpec{Mode: engine.Hard, Policy: random, Politician: RandomPoliticianIndex}}),
			"arm A: reference (rules " + engine.ShortHash(ref.Hash) + ")\narm B: reference (rules " + engine.ShortHash(ref.Hash) + ")\n" +
				"B differs from A in:\n  difficulty: normal → hard\n  policy: greedy → random\n  politician: " + ref.Politicians[1].ID + " → random\n", false, false},
		{"the name of the rules alone", config(renamed, "reference", ComparePair{A: solo(engine.Hard, 2), B: solo(engine.Hard, 2)}),
			"arm A: reference (rules " + engine.ShortHash(ref.Hash) + ")\narm B: reference (rules " + engine.ShortHash(ref.Hash) + ")\n" +
				"B differs from A in: nothing that affects play\n", true, false},
		{"the same", config(ref, "reference", ComparePair{A: solo(engine.Hard, 2), B: solo(engine.Hard, 2)}),
			"arm A: reference (rules " + engine.ShortHash(ref.Hash) + ")\narm B: reference (rules " + engine.ShortHash(ref.Hash) + ")\n" +
				"B differs from A in: nothing that affects play\n", true, true},
	} {
		if got := c.cfg.DescribeArms(); got != c.text {
			t.Errorf("%s: DescribeArms\n%s\nwant\n%s", c.name, got, c.text)
		}
		if same, identical := c.cfg.ArmsAlike(); same != c.same || identical != c.identical {
			t.Errorf("%s: ArmsAlike %v, %v; want %v, %v", c.name, same, identical, c.same, c.identical)
		}
	}
}
