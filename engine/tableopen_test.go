package engine

import (
	"slices"
	"testing"
)

// The readings of the game for 2–4 players that the rulebook leaves open
// (docs/rules.md, "Readings of the game for 2–4 players"), and the two
// switches for the other readings: turns_clockwise and
// reform_deck_at_once.

// switched returns the reference rules with the rule switches given, read
// from a rules file as a designer would write them.
func switched(t testing.TB, set ...string) *Rules {
	t.Helper()
	r := Reference()
	for _, s := range set {
		a, err := ParseAssignment(s)
		if err != nil {
			t.Fatal(err)
		}
		if r, err = r.With(a); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// cardSeats plays g with the random player until it leaves the Strategy
// Phase of the current round and returns the seat of every card choice
// (Strategy Phase 1), one per turn.
func cardSeats(t *testing.T, g *Game, p *RandomPlayer) []int8 {
	t.Helper()
	var seats []int8
	for g.Phase == PhaseStrategy {
		if d := g.Decision(); d.Kind == DecCard {
			seats = append(seats, d.Seat)
		}
		mustApply(t, g, p.Choose(g))
	}
	return seats
}

// cleanupSeats plays g with the random player through one Clean Up and
// returns the seats of its discard (step 4) and draw (step 7) decisions,
// each seat once, in the order they decided, and the cards discarded. A seat that decides again
// after another seat's turn in the same step fails the test: each seat
// discards (OPEN in cleanupNext) and draws one card after another.
func cleanupSeats(t *testing.T, g *Game, p *RandomPlayer) (discards, draws []int8, cards int) {
	t.Helper()
	add := func(seats []int8, s int8) []int8 {
		switch {
		case len(seats) > 0 && seats[len(seats)-1] == s:
		case slices.Contains(seats, s):
			t.Fatalf("seat %d decides again after seats %v", s, seats)
		default:
			seats = append(seats, s)
		}
		return seats
	}
	round := g.Round
	for g.Round == round && !g.Over() {
		d, o := g.Decision(), p.Choose(g)
		switch d.Kind {
		case DecDiscard:
			discards = add(discards, d.Seat)
			if o.Kind == OptDiscard {
				cards++
			}
		case DecDraw:
			draws = add(draws, d.Seat)
		}
		mustApply(t, g, o)
	}
	return discards, draws, cards
}

// isSubsequence reports whether every seat of got appears in order, in
// the order of want.
func isSubsequence(got, want []int8) bool {
	i := 0
	for _, s := range want {
		if i < len(got) && got[i] == s {
			i++
		}
	}
	return i == len(got)
}

// TestTableTurnOrder: the Strategy Phase goes in the Initiative token order
// (rulebook Flow of Play Overview; OPEN in seatAt), or with turns_clockwise
// clockwise from the holder of the "1" (Strategy Phase: "play proceeds to
// the next player clockwise"). Clean Up 4 and 7 keep the token order
// either way (Clean Up 7 names it).
func TestTableTurnOrder(t *testing.T) {
	cases := []struct {
		name      string
		clockwise bool
		order     []int8 // the Initiative order set at the start
		want      []int8 // the seats of a round's turns, one cycle
	}{
		{"3 players, Initiative order", false, []int8{2, 1, 0}, []int8{2, 1, 0}},
		{"3 players, clockwise", true, []int8{2, 1, 0}, []int8{2, 0, 1}},
		{"4 players, Initiative order", false, []int8{1, 3, 0, 2}, []int8{1, 3, 0, 2}},
		{"4 players, clockwise", true, []int8{1, 3, 0, 2}, []int8{1, 2, 3, 0}},
		{"2 players, clockwise is the same order", true, []int8{1, 0}, []int8{1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Reference()
			if c.clockwise {
				r = switched(t, "variants.turns_clockwise=true")
			}
			n := len(c.order)
			g, err := NewTable(r, 5, TableConfig{Politicians: []int{0, 1, 2, 3}[:n]})
			if err != nil {
				t.Fatal(err)
			}
			// Nobody has acted yet: the first decision passes to the new
			// "1" holder.
			copy(g.Order[:], c.order)
			for i, s := range c.want {
				if got := g.TurnPosition(s); got != int8(i+1) {
					t.Errorf("TurnPosition(%d) = %d, want %d", s, got, i+1)
				}
			}
			p := NewRandomPlayer(9)
			seats := cardSeats(t, g, p)
			var want []int8
			for range g.rules.Rounds[0].Turns {
				want = append(want, c.want...)
			}
			if !slices.Equal(seats, want) {
				t.Errorf("round 1 turns by seats %v, want %v", seats, want)
			}
			order := slices.Clone(g.Order[:n])
			discards, draws, _ := cleanupSeats(t, g, p)
			if !isSubsequence(discards, order) {
				t.Errorf("Clean Up 4 discards by seats %v, want the Initiative order %v", discards, order)
			}
			if !isSubsequence(draws, g.Order[:n]) {
				t.Errorf("Clean Up 7 draws by seats %v, want the new Initiative order %v", draws, g.Order[:n])
			}
		})
	}
}

// TestTableCleanUpDiscardOrder: Clean Up 4 gives its discards no order;
// the players discard in Initiative order, each one card after another
// until it keeps the rest (OPEN in cleanupNext), under either turn order.
// Round 2 holds 6 cards for its 3 turns, so its Clean Up has hands of 3.
func TestTableCleanUpDiscardOrder(t *testing.T) {
	for _, clockwise := range []string{"false", "true"} {
		r := switched(t, "rounds[1].hand_size=6", "variants.turns_clockwise="+clockwise)
		for seats := 3; seats <= MaxSeats; seats++ {
			several := 0 // Clean Ups where a seat discarded two cards or more
			for seed := uint64(1); seed <= 30; seed++ {
				g, err := NewTable(r, seed, TableConfig{Politicians: []int{0, 1, 2, 3}[:seats]})
				if err != nil {
					t.Fatal(err)
				}
				p := NewRandomPlayer(seed)
				cardSeats(t, g, p)
				cleanupSeats(t, g, p)
				cardSeats(t, g, p)
				order := slices.Clone(g.Order[:seats])
				discards, _, cards := cleanupSeats(t, g, p)
				if !isSubsequence(discards, order) {
					t.Errorf("turns_clockwise=%s, %d seats, seed %d: discards by seats %v, want the Initiative order %v", clockwise, seats, seed, discards, order)
				}
				if cards > len(discards) {
					several++
				}
			}
			if several == 0 {
				t.Errorf("turns_clockwise=%s, %d seats: no seat discarded two cards; the test shows nothing", clockwise, seats)
			}
		}
	}
}

// TestTableTokenTieSeatOrder: two players reaching the token space of one
// District in the same Round Scoring step (a presence reward of Polling,
// round 4): the lower seat number takes the Vote Share token (C-10,
// rulebook Round Scoring; OPEN in scoreRound), whoever holds the "1".
func TestTableTokenTieSeatOrder(t *testing.T) {
	g := newTable(t, 1, 0, 1, 2)
	g.Order = [MaxSeats]int8{2, 0, 1, NoSeat}
	g.Round = 3 // round 4: presence is 1 Polling there
	for _, s := range []int8{1, 2} {
		g.Seats[s].Polling[red] = 11
		put(g, s, 0, red, NoSpot)
	}
	g.scoreRound()
	if got := g.Districts[red].VoteShareToken; got != 1 {
		t.Errorf("Red's Vote Share token went to seat %d, want seat 1 (the lower seat of the two at 12)", got)
	}
	for _, s := range []int8{1, 2} {
		if g.Seats[s].Polling[red] != 12 {
			t.Errorf("seat %d: Red polling %d, want 12", s, g.Seats[s].Polling[red])
		}
	}
}

// TestTableDeckReform: Clean Up 7, "If a deck runs out, reform it" (I-19).
// By default the empty deck is reformed when a player next draws from it,
// with every card discarded to it by then (OPEN in drawStrategy); with
// reform_deck_at_once, the moment its last card is drawn, so a later
// discard waits in the new discard pile.
func TestTableDeckReform(t *testing.T) {
	cases := []struct {
		name   string
		atOnce bool
		// deck and discards after the last card is drawn, and after a
		// later discard and one more draw
		emptied, later [2]int
	}{
		{"at the next draw", false, [2]int{0, 12}, [2]int{12, 0}},
		{"reform_deck_at_once", true, [2]int{12, 0}, [2]int{11, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Reference()
			if c.atOnce {
				r = switched(t, "variants.reform_deck_at_once=true")
			}
			log := &Log{}
			g, err := NewTable(r, 2, TableConfig{Politicians: []int{0, 1, 2}, Recorder: log})
			if err != nil {
				t.Fatal(err)
			}
			// Three setup draws leave 13 Public Works cards: one stays in
			// the deck, twelve go to the discards.
			pw := int(PublicWorks)
			for g.Decks[pw].N > 1 {
				g.Discards[pw].push(g.Decks[pw].pop())
			}
			counts := func() [2]int { return [2]int{int(g.Decks[pw].N), int(g.Discards[pw].N)} }
			g.cleanupDraw(0, pw)
			if got := counts(); got != c.emptied {
				t.Errorf("after the last card: deck and discards %v, want %v", got, c.emptied)
			}
			if c.atOnce {
				last := log.Events[len(log.Events)-2:]
				if last[0].Kind != EvDraw || last[1].Kind != EvReshuffle {
					t.Errorf("events %s, %s: want the draw, then the reform", last[0].Kind, last[1].Kind)
				}
			}
			// A later Clean Up 2 discards a Public Works card, then the
			// next draw from the deck.
			st := &g.Seats[1]
			for i := range st.NHand {
				if g.rules.Cards[st.Hand[i]].Deck == PublicWorks {
					g.Discards[pw].push(st.Hand[i])
					st.NHand--
					copy(st.Hand[i:st.NHand], st.Hand[i+1:st.NHand+1])
					break
				}
			}
			g.cleanupDraw(1, pw)
			if got := counts(); got != c.later {
				t.Errorf("after a later discard and a draw: deck and discards %v, want %v", got, c.later)
			}
			reforms := 0
			for _, e := range log.Events {
				if e.Kind == EvReshuffle {
					reforms++
				}
			}
			if reforms != 1 {
				t.Errorf("%d reforms, want 1", reforms)
			}
		})
	}
}

// TestTableSwitchesPlay: whole games of 2–4 players under each switch
// keep every invariant after every decision, and with two players
// turns_clockwise plays exactly the default game (one order).
func TestTableSwitchesPlay(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 40
	}
	var buf [MaxOptions]Option
	for _, set := range []string{"variants.turns_clockwise=true", "variants.reform_deck_at_once=true"} {
		r := switched(t, set)
		for seats := 2; seats <= MaxSeats; seats++ {
			for seed := uint64(1); seed <= uint64(games); seed++ {
				pols := []int{0, 1, 2, 3}[:seats]
				g, err := NewTable(r, seed, TableConfig{Politicians: pols})
				if err != nil {
					t.Fatal(err)
				}
				p := NewRandomPlayer(seed)
				for !g.Over() {
					if len(g.Legal(buf[:0])) == 0 {
						t.Fatalf("%s, %d seats, seed %d: %s decision with no options", set, seats, seed, g.Pending)
					}
					mustApply(t, g, p.Choose(g))
					if err := g.Check(); err != nil {
						t.Fatalf("%s, %d seats, seed %d: %v", set, seats, seed, err)
					}
				}
				if seats == 2 && set == "variants.turns_clockwise=true" {
					def := newTable(t, seed, pols...)
					if err := NewRandomPlayer(seed).Play(def); err != nil {
						t.Fatal(err)
					}
					if def.Result != g.Result || def.Seats != g.Seats {
						t.Fatalf("seed %d: two players play another game clockwise", seed)
					}
				}
			}
		}
	}
}
