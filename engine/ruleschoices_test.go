package engine

import (
	"errors"
	"slices"
	"testing"
)

// TestChoices: the reference set's choices and their alternatives, each
// one the rules accept alone.
func TestChoices(t *testing.T) {
	r := Reference()
	cases := []struct {
		glob, path, value string
		alternatives      []string
		rule              string
	}{
		// S-03 is Red | Green: its left District may not become Green.
		{"solo_cards[S-03].left_district", "solo_cards[S-03].left_district", "Red", []string{"Blue", "Yellow"}, "C-16: two different Districts"},
		{"solo_cards[S-03].right_action", "solo_cards[S-03].right_action", "Campaign", []string{"Public Works", "Celebrity", "Research"}, "C-16"},
		// The Plaza majority grants Money or Popularity only.
		{"rounds[0].plaza_majority.kind", "rounds[0].plaza_majority.kind", "popularity", []string{"money"}, "C-13"},
		{"difficulties.hard.bonus_rounding", "difficulties.hard.bonus_rounding", "up", []string{"down"}, "Solo Final Tally"},
		// A switch the file leaves out is false, and a choice still.
		{"variants.turns_clockwise", "variants.turns_clockwise", "false", []string{"true"}, "V-4"},
		{"strategy_cards[PW-02].ability.action", "strategy_cards[PW-02].ability.action", "Public Works", []string{"Celebrity", "Research", "Campaign"}, "C-15: a discount's action"},
	}
	for _, c := range cases {
		got, err := r.Choices(c.glob)
		if err != nil {
			t.Fatalf("%s (%s): %v", c.glob, c.rule, err)
		}
		if len(got) != 1 || got[0].Path != c.path || got[0].Value != c.value || !slices.Equal(got[0].Alternatives, c.alternatives) {
			t.Errorf("%s (%s): %+v, want %s = %s, alternatives %v", c.glob, c.rule, got, c.path, c.value, c.alternatives)
		}
		for _, alt := range got[0].Alternatives {
			if _, err := r.With(Assignment{Path: c.path, Value: alt}); err != nil {
				t.Errorf("%s=%s: refused: %v", c.path, alt, err)
			}
		}
	}
	all, err := r.Choices("solo_cards*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range all {
		n += len(c.Alternatives)
	}
	// 24 cards, each: two other Districts but one is the card's other
	// District (2 + 2), three other actions (3 + 3).
	if len(all) != 96 || n != 240 {
		t.Errorf("solo_cards*: %d choices, %d alternatives; want 96, 240", len(all), n)
	}
	// A discount's action is a choice; another ability has none.
	if _, err := r.Choices("strategy_cards[PW-01].ability.action"); err == nil {
		t.Error("PW-01 (polling here) has an ability action to choose")
	}
}

// TestVariables: a glob may match numbers, choices or both; one that
// matches neither names the nearest paths.
func TestVariables(t *testing.T) {
	r := Reference()
	fs, cs, err := r.Variables("difficulties.hard.*")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 4 || len(cs) != 1 || cs[0].Path != "difficulties.hard.bonus_rounding" {
		t.Errorf("difficulties.hard.*: %d numbers, choices %+v; want 4 and bonus_rounding", len(fs), cs)
	}
	fs, cs, err = r.Variables("solo_cards[S-03].*")
	if err != nil || len(fs) != 0 || len(cs) != 4 {
		t.Errorf("solo_cards[S-03].*: %d numbers, %d choices, %v; want 0, 4", len(fs), len(cs), err)
	}
	_, _, err = r.Variables("solo_cards[S-03].left_distrct")
	var nm *NoMatchError
	if !errors.As(err, &nm) || !slices.Contains(nm.Nearest, "solo_cards[S-03].left_district") {
		t.Errorf("a misspelt path: %v, want a *NoMatchError naming solo_cards[S-03].left_district", err)
	}
}

// TestIsChoicePath checks that IsChoicePath knows every choice of the
// reference rules and no number, nor a path the file does not have.
func TestIsChoicePath(t *testing.T) {
	r := Reference()
	choices, err := r.Choices()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range choices {
		if !IsChoicePath(c.Path) {
			t.Errorf("IsChoicePath(%q) = false for a choice", c.Path)
		}
	}
	fields, err := r.Fields()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if IsChoicePath(f.Path) {
			t.Errorf("IsChoicePath(%q) = true for a number", f.Path)
		}
	}
	for _, p := range []string{"", "solo_cards", "solo_cards[S-03]", "solo_cards[S-03].nope", "name", "solo_cards[S-03].left_district.x"} {
		if IsChoicePath(p) {
			t.Errorf("IsChoicePath(%q) = true", p)
		}
	}
}
