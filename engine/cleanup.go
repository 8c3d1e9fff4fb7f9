package engine

// Clean Up Phase (rulebook steps 1–8, Solo Clean Up, I-19, I-20, I-22).

// startCleanup does steps 1–3 for everyone: the Opposition's cards go to
// the box with its own Clean Up, the players' to the discards, and every
// Assistant goes home (I-22). Then the players' decisions of step 4 begin.
func (g *Game) startCleanup() {
	if g.rec != nil {
		g.emit(Event{Kind: EvCleanup, Seat: NoSeat, District: -1})
	}
	for s := range g.NSeats {
		st := &g.Seats[s]
		if st.Automaton {
			g.opp.CleanUp(g, s)
		} else {
			for c := range st.Columns {
				if card := st.Columns[c].Card; card >= 0 {
					g.Discards[g.rules.Cards[card].Deck].push(uint8(card))
				}
				st.Columns[c] = Column{Card: -1}
			}
		}
		g.returnAssistants(s)
		// Passives last until Clean Up (C-15), and so does the round's
		// record of Districts acted in (I-6).
		st.DiscountMoney, st.DiscountPopularity, st.ResearchBonus = [NumActions]int8{}, [NumActions]int8{}, 0
		st.ActedDistricts = 0
	}
	g.Phase = PhaseCleanupDiscard
	g.Step = 0
}

// returnAssistants sends every Assistant of seat home (Clean Up 3, I-22).
func (g *Game) returnAssistants(s int8) {
	st := &g.Seats[s]
	for c := range st.Assistants {
		if st.Assistants[c].Region != Home {
			g.MoveAssistant(s, int8(c), Home)
		}
	}
}

// cleanupNext moves Clean Up on to the next player decision and reports
// whether one is pending.
//
// OPEN: Clean Up 4 says "Players may optionally discard any of the cards
// in their hand", with no order: at a table everyone discards at once.
// The engine asks one decision at a time, so the players discard in
// Initiative order (the order step 7 names), each one card at a time
// until it keeps the rest. The order decides only what a later player
// knows of an earlier one's discards, how many cards went face down,
// which a table sees too, and the order of the cards in the discard pile,
// which is shuffled before anyone draws from it again (I-19). No outcome
// of the rules depends on it, so there is no switch.
func (g *Game) cleanupNext() bool {
	for g.Phase == PhaseCleanupDiscard {
		if g.Step >= g.NSeats {
			g.readyForNextRound()
			break
		}
		if g.Pending == DecDiscard {
			return true
		}
		st := &g.Seats[g.Order[g.Step]]
		if st.Automaton || st.NHand == 0 {
			g.Step++
			continue
		}
		g.Pending = DecDiscard
		return true
	}
	for g.Phase == PhaseCleanupDraw {
		if g.Pending == DecInitiative {
			return true
		}
		if g.Step >= g.NSeats {
			g.Round++
			g.startRound()
			return false
		}
		s := g.Order[g.Step]
		st := &g.Seats[s]
		// Step 7 draws up to the hand size of the new Round card, revealed
		// in step 1; g.Round moves on once the draws are done.
		if st.Automaton || st.NHand >= g.rules.Rounds[g.Round+1].HandSize || !g.canDraw() {
			g.Step++
			continue
		}
		g.Pending = DecDraw
		return true
	}
	return false
}

// cleanupDiscard is step 4: discard one card, or keep the rest.
func (g *Game) cleanupDiscard(s int8, o Option) {
	if o.Kind == OptKeep {
		g.Pending = DecNone
		g.Step++
		return
	}
	st := &g.Seats[s]
	card := st.Hand[o.A]
	st.NHand--
	copy(st.Hand[o.A:st.NHand], st.Hand[o.A+1:st.NHand+1])
	deck := g.rules.Cards[card].Deck
	g.Discards[deck].push(card)
	if !g.IsSolo() {
		g.faceDown[deck][s] |= 1 << (g.Discards[deck].N - 1)
	}
	if g.rec != nil {
		g.emit(Event{Kind: EvDiscard, Seat: s, District: -1, Item: int16(card)})
	}
	if st.NHand == 0 {
		g.Pending = DecNone
		g.Step++
	}
}

// readyForNextRound is steps 5–6: Favors ready, initiative exchanged; then
// step 7's draws begin, in the new order. With two seats the tokens swap
// (I-20); with more, the "1" holder chooses whom to exchange with.
func (g *Game) readyForNextRound() {
	for d := range g.Districts {
		g.Districts[d].FavorUsed = [NumLevels]bool{}
	}
	g.Pending = DecNone
	g.Phase = PhaseCleanupDraw
	g.Step = 0
	if g.NSeats > 2 {
		g.Pending = DecInitiative
		return
	}
	g.Order[0], g.Order[1] = g.Order[1], g.Order[0]
	// Narrated like the exchange of three or four players. The solo
	// trace leaves it out, as it always has: its goldens stay as they are.
	if g.rec != nil && !g.IsSolo() {
		g.emit(Event{Kind: EvInitiative, Seat: g.Order[0], District: -1, Item: int16(g.Order[1]), From: 2, Rule: "I-20"})
	}
}

// cleanupDraw is step 7: one card from the chosen deck (I-19 reshuffles).
// With reform_deck_at_once the deck whose last card this was is reformed
// at once (see drawStrategy), after the draw it follows.
func (g *Game) cleanupDraw(s int8, d int) {
	g.drawStrategy(s, d)
	if g.rec != nil {
		st := &g.Seats[s]
		g.emit(Event{Kind: EvDraw, Seat: s, District: -1, Action: int8(d), Item: int16(st.Hand[st.NHand-1])})
	}
	if g.rules.Variants.ReformDeckAtOnce && g.Decks[d].N == 0 {
		g.reformDeck(d)
	}
	g.Pending = DecNone
}

// canDraw reports whether any deck or its discards has a card.
func (g *Game) canDraw() bool {
	for d := range g.Decks {
		if g.Decks[d].N > 0 || g.Discards[d].N > 0 {
			return true
		}
	}
	return false
}
