package engine

import (
	"errors"
	"strings"
	"testing"
)

// withVariants returns a copy of the reference rules with some switches
// changed.
func withVariants(change func(v *Variants)) *Rules {
	r := *Reference()
	change(&r.Variants)
	return &r
}

// TestEndorsementCheckSwitch: the I-6 check covers this turn's District
// (default) or every District acted in this round
// (endorsement_check_every_district).
func TestEndorsementCheckSwitch(t *testing.T) {
	for _, every := range []bool{false, true} {
		t.Run(map[bool]string{false: "this turn's District", true: "every District acted in"}[every], func(t *testing.T) {
			r := withVariants(func(v *Variants) { v.EndorsementCheckEveryDistrict = every })
			g, err := New(r, 1, Config{Mode: Normal, Opposition: scriptedOpposition{}})
			if err != nil {
				t.Fatal(err)
			}
			// An earlier turn of the round acted in Red; polling there has
			// reached level 1 since, without an action.
			g.Seats[0].ActedDistricts = 1 << red
			g.Seats[0].Polling[red] = 3
			g.Seats[0].Hand[0] = uint8(cardIndex(t, "CA-01"))
			mustApply(t, g, Option{Kind: OptCard, A: 0})
			mustApply(t, g, Option{Kind: OptColumn, A: 0})
			mustApply(t, g, Option{Kind: OptRow, A: 1}) // TL Campaign + BL 1 Money
			mustApply(t, g, Option{Kind: OptRegion, A: blue})
			mustApply(t, g, Option{Kind: OptFundraise, A: SlotTL})
			mustApply(t, g, Option{Kind: OptEnd})
			mustApply(t, g, Option{Kind: OptSpot, A: 0})
			want := int8(0)
			if every {
				want = 1
			}
			if got := g.EndorsementHeld(0, red); got != want {
				t.Errorf("Red Endorsement %d, want %d", got, want)
			}
			if g.Seats[0].ActedDistricts != 1<<red|1<<blue {
				t.Errorf("acted in %b, want Red and Blue", g.Seats[0].ActedDistricts)
			}
		})
	}
	t.Run("Clean Up forgets the Districts acted in", func(t *testing.T) {
		g := newTestGame(t, 1, Normal)
		g.Seats[0].ActedDistricts = 1 << green
		g.startCleanup()
		if g.Seats[0].ActedDistricts != 0 {
			t.Error("the round's Districts survive Clean Up")
		}
	})
}

// TestUpgradedFavorSwitch: the token taken for a used one is ready
// (default) or used (upgraded_favor_inherits_used), I-5.
func TestUpgradedFavorSwitch(t *testing.T) {
	for _, inherit := range []bool{false, true} {
		for _, used := range []bool{false, true} {
			r := withVariants(func(v *Variants) { v.UpgradedFavorInheritsUsed = inherit })
			g, err := New(r, 1, Config{Mode: Normal, Opposition: scriptedOpposition{}})
			if err != nil {
				t.Fatal(err)
			}
			g.Districts[red].Endorsements[0] = 0
			g.Districts[red].FavorUsed[0] = used
			g.Seats[0].Polling[red] = 6
			g.endorse(0, red, "I-6")
			if g.EndorsementHeld(0, red) != 2 {
				t.Fatalf("held %d, want level 2", g.EndorsementHeld(0, red))
			}
			want := [NumLevels]bool{false, inherit && used, false}
			if g.Districts[red].FavorUsed != want {
				t.Errorf("inherit %v, level 1 used %v: Favors used %v, want %v", inherit, used, g.Districts[red].FavorUsed, want)
			}
		}
	}
}

// TestV2CleanUpReturnsAssistants: with V-2 on, the Opposition's Clean Up
// after the last round returns its Assistants (I-22); off, they stay.
func TestV2CleanUpReturnsAssistants(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		r := withVariants(func(v *Variants) { v.OppositionCleanupAfterRound4 = v2 })
		g, err := New(r, 1, Config{Mode: Normal, Opposition: scriptedOpposition{}})
		if err != nil {
			t.Fatal(err)
		}
		g.Round = int8(r.LastRound())
		g.MoveAssistant(1, 0, red)
		g.OccupySpot(1, 0, 0)
		g.endRound()
		home := g.Seats[1].Assistants[0].Region == Home
		if home != v2 || (g.Districts[red].Spots[0] == NoSeat) != v2 {
			t.Errorf("V-2 %v: Assistant home %v, spot %d", v2, home, g.Districts[red].Spots[0])
		}
	}
}

// TestScenarioEntryPoints: the steps package scenario runs refuse what makes
// no sense in the position, and the reveals alternate across calls.
func TestScenarioEntryPoints(t *testing.T) {
	keep := func(g *Game, legal []Option) Option { return legal[len(legal)-1] }
	g := newTestGame(t, 1, Normal)
	g.Pending = DecNone
	if err := g.ApplyOnly(Option{Kind: OptEnd}); err == nil || !strings.Contains(err.Error(), "no decision is pending") {
		t.Errorf("ApplyOnly with nothing pending: %v", err)
	}
	var refused *TurnError
	if err := g.BeginTurn(1); !errors.As(err, &refused) || refused.Why != "the Opposition's turns are its own" {
		t.Errorf("BeginTurn for the Opposition: %v", err)
	}
	if err := g.CleanUp(keep); err != nil {
		t.Fatal(err)
	}
	if g.Round != 1 || g.Order[0] != 1 || g.Phase != PhaseStrategy {
		t.Errorf("after Clean Up: round %d, order %v, phase %d; want round 2, the Opposition first (I-20)", g.Round+1, g.Order[:2], g.Phase)
	}
	g.Round = int8(g.rules.LastRound())
	if err := g.CleanUp(keep); err == nil || !strings.Contains(err.Error(), "has no Clean Up") {
		t.Errorf("Clean Up in the last round: %v", err)
	}
	placeTileForTest(g, TileCelebrity, red, 1, NoSeat)
	placeTileForTest(g, TileCelebrity, red, 1, NoSeat)
	placeTileForTest(g, TileCelebrity, blue, 1, NoSeat)
	// The Opposition holds Initiative 1: it reveals, then you, then it.
	var who []int8
	for {
		more, err := g.RevealNext(keep)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		who = append(who, g.Order[g.Step])
		if len(who) == 1 {
			if err := g.EndRound(keep); err == nil {
				t.Error("EndRound accepted once the Final Tally began")
			}
		}
	}
	if len(who) != 3 || who[0] != 1 || who[1] != 0 || who[2] != 1 {
		t.Errorf("reveals by %v, want the Opposition, you, the Opposition", who)
	}
	if err := g.FinalTally(keep); err != nil || !g.Over() {
		t.Fatalf("FinalTally: %v, over %v", err, g.Over())
	}
	if _, err := g.RevealNext(keep); err == nil {
		t.Error("RevealNext accepted after the game")
	}
}

// TestRuleSwitchesInTheRulesFile: the switches are read from variants, and
// a file that leaves them out means what it meant, with the same hash.
func TestRuleSwitchesInTheRulesFile(t *testing.T) {
	ref := string(ReferenceJSON())
	for _, c := range []struct {
		key  string
		read func(v Variants) bool
	}{
		{"endorsement_check_every_district", func(v Variants) bool { return v.EndorsementCheckEveryDistrict }},
		{"upgraded_favor_inherits_used", func(v Variants) bool { return v.UpgradedFavorInheritsUsed }},
		{"turns_clockwise", func(v Variants) bool { return v.TurnsClockwise }},
		{"reform_deck_at_once", func(v Variants) bool { return v.ReformDeckAtOnce }},
	} {
		src := strings.Replace(ref, `"variants": {`, `"variants": {"`+c.key+`": true, `, 1)
		r, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if !c.read(r.Variants) || c.read(Reference().Variants) {
			t.Errorf("%s: on %v, reference %v", c.key, c.read(r.Variants), c.read(Reference().Variants))
		}
		if r.Hash == Reference().Hash {
			t.Errorf("%s: switching it on leaves the hash", c.key)
		}
	}
	if r, err := Parse([]byte(ref)); err != nil || r.Hash != Reference().Hash {
		t.Errorf("the reference set reparsed: %v, hash %s", err, r.Hash)
	}
}

// TestRuleSwitchOffKeepsHash: stating a switch false is the same rules,
// with the same hash, as leaving it out.
func TestRuleSwitchOffKeepsHash(t *testing.T) {
	src := strings.Replace(string(ReferenceJSON()), `"variants": {`, `"variants": {"endorsement_check_every_district": false, "upgraded_favor_inherits_used": false, "turns_clockwise": false, "reform_deck_at_once": false, `, 1)
	r, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if r.Hash != Reference().Hash {
		t.Errorf("hash %s, want the reference set's %s", r.Hash, Reference().Hash)
	}
}
