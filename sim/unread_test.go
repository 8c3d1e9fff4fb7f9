package sim

import (
	"strings"
	"testing"

	"tallywood/engine"
)

// TestUnreadWarning: a comparison warns before playing when no
// changed rules field can affect the games it plays, and names the field
// and why; a change some cell reads, or arms that differ in more than their
// rules, get no warning.
func TestUnreadWarning(t *testing.T) {
	ref := engine.Reference()
	with := func(sets ...string) *engine.Rules {
		as := make([]engine.Assignment, len(sets))
		for i, s := range sets {
			a, err := engine.ParseAssignment(s)
			if err != nil {
				t.Fatal(err)
			}
			as[i] = a
		}
		r, err := ref.With(as...)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	greedy, random := mustSpec(t, "greedy"), mustSpec(t, "random")
	cell := func(m engine.Mode) ComparePair {
		c := CellSpec{Mode: m, Policy: greedy, Politician: RandomPoliticianIndex}
		return ComparePair{A: c, B: c, Games: 1}
	}
	divisor := with("difficulties.hard.bonus_divisor=3")
	for _, c := range []struct {
		name string
		got  string
		want string // "" for no warning
	}{
		{"Hard's divisor at Normal", (&CompareConfig{A: CompareArm{Rules: ref}, B: CompareArm{Rules: divisor}, Cells: []ComparePair{cell(engine.Normal)}}).UnreadWarning(),
			"no changed rules field can affect the solo games played (--mode normal): every difference will be 0\n" +
				"  difficulties.hard.bonus_divisor is read by only the solo game at hard (a difficulty of the solo game: I-20 initiative, I-12 Celebrity tier, I-14 Plaza, Solo Final Tally bonus)"},
		{"Hard's divisor at both", (&CompareConfig{A: CompareArm{Rules: ref}, B: CompareArm{Rules: divisor}, Cells: []ComparePair{cell(engine.Normal), cell(engine.Hard)}}).UnreadWarning(), ""},
		{"the arms' policies differ too", (&CompareConfig{A: CompareArm{Rules: ref}, B: CompareArm{Rules: divisor},
			Cells: []ComparePair{{A: cell(engine.Normal).A, B: CellSpec{Mode: engine.Normal, Policy: random, Politician: RandomPoliticianIndex}}}}).UnreadWarning(), ""},
		{"clockwise turns alone", (&CompareConfig{A: CompareArm{Rules: ref}, B: CompareArm{Rules: with("variants.turns_clockwise=true")}, Cells: []ComparePair{cell(engine.Normal), cell(engine.Hard)}}).UnreadWarning(),
			"  variants.turns_clockwise is read by only the game of 2–4 players"},
		{"a Solo card at a table", TableUnreadWarning(ref, with("solo_cards[S-03].left_action=Research"), 3),
			"no changed rules field can affect the games of 3 players (--seats 3, no Opposition): every difference will be 0\n  solo_cards[S-03].left_action is read by only the solo game (C-16"},
		{"the fallback at a table", TableUnreadWarning(ref, with("opposition_fallback.money=2", "variants.opposition_respects_blocks=false"), 2),
			"  opposition_fallback.money is read by only the solo game (I-10"},
		{"a cost at a table", TableUnreadWarning(ref, with("actions.campaign_polling=3"), 2), ""},
		{"the same rules", TableUnreadWarning(ref, ref, 2), ""},
	} {
		switch {
		case c.want == "" && c.got != "":
			t.Errorf("%s: warns on a field the games read:\n%s", c.name, c.got)
		case c.want != "" && !strings.Contains(c.got, c.want):
			t.Errorf("%s: warning\n%s\nwant it to hold %q", c.name, c.got, c.want)
		}
	}
}
