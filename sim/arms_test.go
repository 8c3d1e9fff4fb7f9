package sim

import (
	"testing"

	"tallywood/engine"
)

// TestArms checks whether compare's arms play alike or are the same, and
// that a result records what B's rules differ in, a card by its id as
// --b-set takes it.
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
		same, identical bool
	}{
		{"a Solo card", config(card, "B", ComparePair{A: solo(engine.Normal, 0), B: solo(engine.Normal, 0)}), false, false},
		{"the difficulty, policy and politician", config(ref, "reference", ComparePair{A: solo(engine.Normal, 1), B: CellSpec{Mode: engine.Hard, Policy: random, Politician: RandomPoliticianIndex}}), false, false},
		{"the name of the rules alone", config(renamed, "reference", ComparePair{A: solo(engine.Hard, 2), B: solo(engine.Hard, 2)}), true, false},
		{"the same", config(ref, "reference", ComparePair{A: solo(engine.Hard, 2), B: solo(engine.Hard, 2)}), true, true},
	} {
		if same, identical := c.cfg.ArmsAlike(); same != c.same || identical != c.identical {
			t.Errorf("%s: ArmsAlike %v, %v; want %v, %v", c.name, same, identical, c.same, c.identical)
		}
	}
	cfg := config(card, "B", ComparePair{A: solo(engine.Normal, 0), B: solo(engine.Normal, 0), Games: 2})
	r, err := Compare(t.Context(), *cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 1 || r.Changes[0] != (engine.Difference{Path: "solo_cards[S-13].left_action", A: `"Research"`, B: `"Celebrity"`}) {
		t.Errorf("changes %+v, want S-13's left action, by id", r.Changes)
	}
}
