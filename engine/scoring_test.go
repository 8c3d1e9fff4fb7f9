package engine

import (
	"encoding/json"
	"testing"
)

// put stands seat's Assistant of column col in region d on spot (NoSpot
// for none).
func put(g *Game, s, col, d, spot int8) {
	g.Seats[s].Assistants[col] = AssistantState{Region: d, Spot: spot}
	if spot != NoSpot {
		g.Districts[d].Spots[spot] = s
	}
}

// rulesWith returns the reference rules changed by edit, parsed and
// validated like any rules file.
func rulesWith(t testing.TB, edit func(f *rulesFile)) *Rules {
	t.Helper()
	var f rulesFile
	if err := json.Unmarshal(ReferenceJSON(), &f); err != nil {
		t.Fatal(err)
	}
	edit(&f)
	b, err := json.Marshal(&f)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRoundScoring: the Round card's rewards and the tie rules (rulebook
// Round Scoring, C-13, I-17, E-5).
func TestRoundScoring(t *testing.T) {
	type seatWant struct{ money, pop, polling, shares int8 }
	cases := []struct {
		name  string
		round int8
		setup func(g *Game)
		want  [2]seatWant // Red District figures
	}{
		{"C-13 round 1: presence 1 Money each; majority 1 Popularity", 0, func(g *Game) {
			put(g, 0, 0, red, 0)
			put(g, 0, 1, red, 1)
			put(g, 1, 0, red, 2)
		}, [2]seatWant{{money: 1, pop: 1}, {money: 1}}},
		{"I-17: a tie goes to the Assistant on the leftmost spot", 1, func(g *Game) {
			put(g, 0, 0, red, 2)
			put(g, 1, 0, red, 0)
		}, [2]seatWant{{money: 1}, {money: 1, polling: 1}}},
		{"I-17: a tie with no Assistant on a spot goes to the highest-tier Badge", 1, func(g *Game) {
			placeTileForTest(g, TilePublicWorks, red, 2, 0)
			placeTileForTest(g, TilePublicWorks, red, 1, 1)
			placeTileForTest(g, TilePublicWorks, red, 1, 1)
		}, [2]seatWant{{money: 1, polling: 1}, {money: 1}}},
		{"I-17: equal highest tiers: nobody wins the majority", 1, func(g *Game) {
			placeTileForTest(g, TilePublicWorks, red, 2, 0)
			placeTileForTest(g, TilePublicWorks, red, 2, 1)
		}, [2]seatWant{{money: 1}, {money: 1}}},
		{"I-17: the spot tie-break looks at tied players only", 1, func(g *Game) {
			put(g, 0, 0, red, 3)
			put(g, 1, 0, red, NoSpot)
			placeTileForTest(g, TilePublicWorks, red, 1, 1)
			placeTileForTest(g, TilePublicWorks, red, 1, 0)
		}, [2]seatWant{{money: 1, polling: 1}, {money: 1}}},
		{"C-13 round 4: presence polling, majority a Vote Share", 3, func(g *Game) {
			put(g, 0, 0, red, 0)
			put(g, 1, 0, red, NoSpot)
			placeTileForTest(g, TilePublicWorks, red, 1, 1)
		}, [2]seatWant{{polling: 1}, {polling: 1, shares: 1}}},
		{"I-17: a majority needs at least 1 Strength", 0, nil, [2]seatWant{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newTestGame(t, 1, Normal)
			g.Round = c.round
			for s := range 2 {
				g.Seats[s].Money, g.Seats[s].Popularity, g.Seats[s].Polling = 0, 0, [4]int8{}
				g.Seats[s].PlazaBadge = false
			}
			if c.setup != nil {
				c.setup(g)
			}
			g.scoreRound()
			for s, w := range c.want {
				st := g.Seats[s]
				got := seatWant{st.Money, st.Popularity, st.Polling[red], st.MajorityShares[red]}
				if got != w {
					t.Errorf("seat %d: got %+v, want %+v", s, got, w)
				}
			}
		})
	}
}

// TestPlazaScoring: everyone tied in the Plaza gets the reward; in rounds
// 3–4 the Opposition's share follows I-14 (its PlazaMajority), plus the
// Popularity under V-3.
func TestPlazaScoring(t *testing.T) {
	cases := []struct {
		name       string
		round      int8
		v3         bool
		pop        [2]int8
		oppPolling int8 // the scripted Opposition advances its lowest tracker
	}{
		{"E-5/I-17: a tied Plaza rewards both (round 1: 2 Popularity)", 0, false, [2]int8{2, 2}, 0},
		{"I-14: round 3, the Opposition advances instead of Popularity", 2, false, [2]int8{3, 0}, 3},
		{"V-3: round 3, the Opposition gets the Popularity too", 2, true, [2]int8{3, 3}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rulesWith(t, func(f *rulesFile) { f.Variants.OppositionPlazaPopularityToo = c.v3 })
			g, err := New(r, 1, Config{Opposition: scriptedOpposition{}})
			if err != nil {
				t.Fatal(err)
			}
			g.Round = c.round
			put(g, 0, 0, Plaza, NoSpot) // 1 Strength; the Opposition has its Plaza Badge
			for s := range 2 {
				g.Seats[s].Popularity = 0
			}
			g.scoreRound()
			if g.Seats[0].Popularity != c.pop[0] || g.Seats[1].Popularity != c.pop[1] {
				t.Errorf("Popularity %d %d, want %v", g.Seats[0].Popularity, g.Seats[1].Popularity, c.pop)
			}
			if g.Seats[1].Polling[red] != c.oppPolling {
				t.Errorf("Opposition Red polling %d, want %d", g.Seats[1].Polling[red], c.oppPolling)
			}
		})
	}
}

// TestE5: the rulebook's Round Scoring example between two players in round
// 3: both present get 1 Money, the tied majority goes to the leftmost
// Assistant (1 Polling), a tied Plaza gives both 3 Popularity.
func TestE5(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	g.Seats[1].Automaton = false // two players, as in the example
	g.Round = 2
	for s := range 2 {
		g.Seats[s].Money, g.Seats[s].Popularity, g.Seats[s].Polling = 0, 0, [4]int8{}
		g.Seats[s].PlazaBadge = false
	}
	put(g, 0, 0, blue, 0) // "blue player": leftmost spot
	put(g, 1, 0, blue, 2)
	put(g, 0, 1, Plaza, NoSpot)
	put(g, 1, 1, Plaza, NoSpot)
	g.scoreRound()
	want := [2][3]int8{{1, 3, 1}, {1, 3, 0}}
	for s := range 2 {
		st := g.Seats[s]
		if got := [3]int8{st.Money, st.Popularity, st.Polling[blue]}; got != want[s] {
			t.Errorf("seat %d: Money, Popularity, Blue polling %v, want %v", s, got, want[s])
		}
	}
}

// TestCleanUp: Clean Up steps 2–7 (I-19, I-20, I-22).
func TestCleanUp(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	p := NewRandomPlayer(1)
	for g.Round == 0 {
		mustApply(t, g, p.Choose(g))
	}
	// Round 1 is scored and Clean Up done: you played 3 cards.
	discarded := 0
	for d := range g.Discards {
		discarded += int(g.Discards[d].N)
	}
	if discarded < 3 {
		t.Errorf("%d cards in the discards, want at least the 3 played", discarded)
	}
	// The Opposition goes first in round 2 and has played column 1.
	for s := range 2 {
		for c := s; c < NumColumns; c++ {
			if a := g.Seats[s].Assistants[c]; a.Region != Home {
				t.Errorf("I-22: seat %d Assistant %d still in region %d", s, c, a.Region)
			}
			if g.Seats[s].Columns[c].Card >= 0 {
				t.Errorf("seat %d column %d still holds a card", s, c)
			}
		}
	}
	if g.Order[0] != 1 {
		t.Errorf("I-20: the Opposition should go first in round 2 on Normal")
	}
	if g.Seats[0].NHand != g.RoundCard().HandSize {
		t.Errorf("hand %d, want %d", g.Seats[0].NHand, g.RoundCard().HandSize)
	}
	if g.SoloBox.N != 6 || g.Solo.N != 17 {
		t.Errorf("Solo box %d deck %d, want 6 and 17 (Solo Clean Up 1-3, then one flipped)", g.SoloBox.N, g.Solo.N)
	}
}

// TestCleanUpDecisions: optional discards, then a deck chosen for each draw.
func TestCleanUpDecisions(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	g.Seats[0].NHand = 2
	g.startCleanup()
	g.advance()
	if g.Pending != DecDiscard {
		t.Fatalf("pending %s, want discard", g.Pending)
	}
	card := g.Seats[0].Hand[0]
	mustApply(t, g, Option{Kind: OptDiscard, A: 0})
	deck := g.rules.Cards[card].Deck
	if g.Discards[deck].N != 1 || g.Discards[deck].Cards[0] != card {
		t.Errorf("Clean Up 4: the card is not in its deck's discards")
	}
	mustApply(t, g, Option{Kind: OptKeep})
	if g.Pending != DecDraw {
		t.Fatalf("pending %s, want draw", g.Pending)
	}
	// I-19: an empty deck reforms from its discards.
	g.Decks[deck].N = 0
	mustApply(t, g, Option{Kind: OptDraw, A: int8(deck)})
	if g.Seats[0].Hand[1] != card || g.Discards[deck].N != 0 {
		t.Errorf("the reformed deck did not deal the discarded card")
	}
	var buf [MaxOptions]Option
	for g.Pending == DecDraw {
		mustApply(t, g, g.Legal(buf[:0])[0])
	}
	if g.Seats[0].NHand != 4 {
		t.Errorf("hand %d after drawing, want 4", g.Seats[0].NHand)
	}
}

// TestDrawOptions: a deck with no card and no discards cannot be chosen.
func TestDrawOptions(t *testing.T) {
	g := newTestGame(t, 1, Normal)
	g.Seats[0].NHand = 0
	g.Decks[Research].N = 0
	g.startCleanup()
	g.advance()
	if g.Pending != DecDraw {
		t.Fatalf("pending %s", g.Pending)
	}
	if has(g, Option{Kind: OptDraw, A: int8(Research)}) || !has(g, Option{Kind: OptDraw, A: int8(Campaign)}) {
		t.Error("draw options wrong")
	}
}

// TestInitiative: I-20, with two players the first player alternates;
// Normal: you in rounds 1 and 3, Hard: the Opposition.
func TestInitiative(t *testing.T) {
	for _, c := range []struct {
		mode  Mode
		first [4]int8
	}{{Normal, [4]int8{0, 1, 0, 1}}, {Hard, [4]int8{1, 0, 1, 0}}} {
		log := &Log{}
		g, err := New(Reference(), 3, Config{Mode: c.mode, Opposition: scriptedOpposition{}, Recorder: log})
		if err != nil {
			t.Fatal(err)
		}
		if err := NewRandomPlayer(3).Play(g); err != nil {
			t.Fatal(err)
		}
		seen := [4]bool{}
		var first [4]int8
		for _, e := range log.Events {
			if e.Kind == EvTurn && !seen[e.Round] {
				seen[e.Round], first[e.Round] = true, e.Seat
			}
		}
		if first != c.first {
			t.Errorf("%s: first seats %v, want %v", c.mode, first, c.first)
		}
	}
}

// TestHandSizeEachRound: Clean Up 7 draws up to the hand size of the new
// Round card (C-13: 4, 4, 5, 5), so each round starts with a full hand.
func TestHandSizeEachRound(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		g := newTestGame(t, seed, Mode(seed%2))
		p := NewRandomPlayer(seed)
		seen := [MaxRounds]bool{}
		for !g.Over() {
			if g.Pending == DecCard && !seen[g.Round] {
				seen[g.Round] = true
				if want := g.RoundCard().HandSize; g.Seats[0].NHand != want {
					t.Fatalf("seed %d round %d: hand %d, want %d", seed, g.Round+1, g.Seats[0].NHand, want)
				}
			}
			mustApply(t, g, p.Choose(g))
		}
	}
}
