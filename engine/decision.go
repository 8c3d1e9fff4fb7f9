package engine

import "fmt"

// DecisionKind names the decision the game waits for.
type DecisionKind uint8

const (
	DecNone       DecisionKind = iota // the game is over
	DecCard                           // Strategy Phase 1: a card from the hand
	DecColumn                         // 2: an open Action Column
	DecRow                            // 2: a row of that column
	DecRegion                         // 4: a District or the Plaza for the Assistant
	DecAction                         // 5: an action, ability, Favor, or the end of actions
	DecAttract                        // the attract half of draw_attract (C-15)
	DecSpot                           // I-1: the Assistant's spot
	DecDiscard                        // Clean Up 4: discard a card or keep the rest
	DecDraw                           // Clean Up 7: the deck to draw from
	DecReveal                         // Final Tally 1.a: a tile to flip
	DecInitiative                     // Clean Up 6: whom the "1" holder exchanges with
)

var decisionNames = []string{"none", "card", "column", "row", "region", "action", "attract", "spot", "discard", "draw", "reveal", "initiative"}

func (k DecisionKind) String() string { return decisionNames[k] }

// OptionKind is the kind of a legal option.
type OptionKind uint8

const (
	OptCard           OptionKind = iota // A hand index
	OptColumn                           // A column
	OptRow                              // A row
	OptRegion                           // A District or Plaza
	OptPublicWorks                      // A slot, B tier
	OptCelebrity                        // A slot, B tier
	OptResearch                         // A slot, B tile index (-1: Initial Support)
	OptCampaign                         // A slot
	OptFundraise                        // A slot: District Fundraise
	OptDirectAppeal                     // A slot, B colour, C District
	OptRally                            // A slot
	OptPlazaFundraise                   // A slot
	OptAbility                          // B, C: choices of the ability
	OptFavor                            // A District of the token, B slot
	OptEnd                              // end the actions
	OptAttract                          // B colour, C District
	OptSpot                             // A spot, or NoSpot when all are taken
	OptDiscard                          // A hand index
	OptKeep                             // discard no more
	OptDraw                             // A deck
	OptReveal                           // A tile index
	OptExchange                         // A seat: exchange Initiative tokens with it
)

// Option is one legal choice: a small comparable value.
type Option struct {
	Kind    OptionKind
	A, B, C int8
}

// MaxOptions bounds the options of any decision; a buffer this long never
// overflows.
const MaxOptions = 320

// Decision is what the game waits for and from whom.
type Decision struct {
	Kind DecisionKind
	Seat int8
}

// Decision returns the pending decision.
func (g *Game) Decision() Decision {
	if g.Pending == DecNone {
		return Decision{Kind: DecNone, Seat: NoSeat}
	}
	return Decision{Kind: g.Pending, Seat: g.seatAt(g.Step)}
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Phase == PhaseOver }

// Legal appends the options of the pending decision to buf and returns it.
func (g *Game) Legal(buf []Option) []Option {
	s := g.seatAt(g.Step)
	switch g.Pending {
	case DecCard:
		for i := range g.Seats[s].NHand {
			buf = append(buf, Option{Kind: OptCard, A: i})
		}
	case DecColumn:
		for c := range int8(NumColumns) {
			if g.Seats[s].Columns[c].Card < 0 {
				buf = append(buf, Option{Kind: OptColumn, A: c})
			}
		}
	case DecRow:
		for r := range int8(NumRows) {
			buf = append(buf, Option{Kind: OptRow, A: r})
		}
	case DecRegion:
		for r := range int8(NumDistricts + 1) {
			buf = append(buf, Option{Kind: OptRegion, A: r})
		}
	case DecAction:
		buf = g.legalActions(buf, s)
	case DecAttract:
		buf = g.legalAttract(buf, OptAttract)
	case DecSpot:
		buf = g.legalSpots(buf, s)
	case DecDiscard:
		for i := range g.Seats[s].NHand {
			buf = append(buf, Option{Kind: OptDiscard, A: i})
		}
		buf = append(buf, Option{Kind: OptKeep})
	case DecDraw:
		for d := range int8(NumDecks) {
			if g.Decks[d].N > 0 || g.Discards[d].N > 0 {
				buf = append(buf, Option{Kind: OptDraw, A: d})
			}
		}
	case DecReveal:
		for i := range g.NPlaced {
			if !g.Placed[i].FaceUp {
				buf = append(buf, Option{Kind: OptReveal, A: int8(i)})
			}
		}
	case DecInitiative:
		for _, o := range g.Order[1:g.NSeats] {
			buf = append(buf, Option{Kind: OptExchange, A: o})
		}
	}
	return buf
}

// IsLegal reports whether o is among the pending decision's options. It
// checks the option's own kind directly and generates only the action menu
// in full, so validating a choice costs far less than listing the options
// again; TestIsLegalMatchesLegal holds it to Legal.
func (g *Game) IsLegal(o Option) bool {
	s := g.seatAt(g.Step)
	st := &g.Seats[s]
	switch g.Pending {
	case DecCard:
		return o == Option{Kind: OptCard, A: o.A} && o.A >= 0 && o.A < st.NHand
	case DecColumn:
		return o == Option{Kind: OptColumn, A: o.A} && o.A >= 0 && o.A < NumColumns && st.Columns[o.A].Card < 0
	case DecRow:
		return o == Option{Kind: OptRow, A: o.A} && o.A >= 0 && o.A < NumRows
	case DecRegion:
		return o == Option{Kind: OptRegion, A: o.A} && o.A >= 0 && o.A <= Plaza
	case DecAttract:
		return o == Option{Kind: OptAttract, B: o.B, C: o.C} && o.B >= 0 && o.B < NumDistricts &&
			g.Plaza[o.B] > 0 && o.C >= 0 && o.C < NumDistricts
	case DecSpot:
		var buf [NumActions]Option
		return contains(g.legalSpots(buf[:0], s), o)
	case DecDiscard:
		return o == Option{Kind: OptKeep} || o == Option{Kind: OptDiscard, A: o.A} && o.A >= 0 && o.A < st.NHand
	case DecDraw:
		return o == Option{Kind: OptDraw, A: o.A} && o.A >= 0 && o.A < NumDecks && (g.Decks[o.A].N > 0 || g.Discards[o.A].N > 0)
	case DecReveal:
		return o == Option{Kind: OptReveal, A: o.A} && o.A >= 0 && int(o.A) < int(g.NPlaced) && !g.Placed[o.A].FaceUp
	case DecAction:
		var buf [MaxOptions]Option
		return contains(g.legalActions(buf[:0], s), o)
	case DecInitiative:
		return o == Option{Kind: OptExchange, A: o.A} && o.A >= 0 && o.A < g.NSeats && o.A != s
	}
	return false
}

func contains(opts []Option, o Option) bool {
	for _, l := range opts {
		if l == o {
			return true
		}
	}
	return false
}

// Apply plays option o for the pending decision and advances the game to
// the next decision. An option that is not legal is refused.
func (g *Game) Apply(o Option) error {
	if g.Pending == DecNone {
		return fmt.Errorf("engine: the game is over")
	}
	if !g.IsLegal(o) {
		return fmt.Errorf("engine: %s is not a legal option for the %s decision", g.Describe(o), g.Pending)
	}
	g.apply(o)
	g.advance()
	return nil
}

func (g *Game) apply(o Option) {
	s := g.seatAt(g.Step)
	switch o.Kind {
	case OptCard:
		g.chooseCard(s, o.A)
	case OptColumn:
		g.turn.Column = o.A
		g.Pending = DecRow
	case OptRow:
		g.placeCard(s, o.A)
	case OptRegion:
		g.assignAssistant(s, o.A)
	case OptEnd:
		g.endActions(s)
	case OptAttract:
		g.MoveCube(o.B, Plaza, o.C) // "Attract a Voter" (C-15)
		g.Pending = DecAction
	case OptSpot:
		g.takeSpot(s, o.A)
	case OptDiscard, OptKeep:
		g.cleanupDiscard(s, o)
	case OptDraw:
		g.cleanupDraw(s, int(o.A))
	case OptReveal:
		g.RevealTile(s, int(o.A))
		g.reveals++
	case OptExchange:
		g.exchangeInitiative(o.A)
		g.Pending = DecNone
	default:
		g.applyAction(s, o)
	}
}

// advance runs everything automatic (the Opposition's turns, Round
// Scoring, Clean Up, the Final Tally) until a player's decision is pending
// or the game is over.
func (g *Game) advance() {
	for {
		switch g.Phase {
		case PhaseStrategy:
			if g.Pending != DecNone {
				return
			}
			if g.Step >= g.NSeats {
				g.Step = 0
				g.Turn++
			}
			if g.Turn >= g.RoundCard().Turns {
				g.endRound()
				continue
			}
			s := g.seatAt(g.Step)
			if g.rec != nil {
				g.emit(Event{Kind: EvTurn, Seat: s, District: -1})
			}
			if g.Seats[s].Automaton {
				g.opp.Turn(g, s)
				g.Step++
				continue
			}
			g.turn = turnState{Card: -1}
			g.Pending = DecCard
			return
		case PhaseCleanupDiscard, PhaseCleanupDraw:
			if g.cleanupNext() {
				return
			}
		case PhaseReveal:
			if g.revealNext() {
				return
			}
		case PhaseOver:
			g.Pending = DecNone
			return
		}
	}
}

// endRound runs Round Scoring, then Clean Up or, after the last round, the
// Final Tally.
func (g *Game) endRound() {
	g.scoreRound()
	if int(g.Round) == g.rules.LastRound() {
		// Clean Up 1: no Round card is left, so go to the Final Tally.
		if g.rules.Variants.OppositionCleanupAfterRound4 {
			if g.rec != nil {
				g.emit(Event{Kind: EvCleanup, Seat: NoSeat, District: -1})
			}
			for s := range g.NSeats {
				if g.Seats[s].Automaton {
					// V-2, and its Assistants go home with it: Clean Up
					// returns every Assistant (I-22).
					g.opp.CleanUp(g, s)
					g.returnAssistants(s)
				}
			}
		}
		g.startFinalTally()
		return
	}
	g.startCleanup()
}

// Describe renders an option in words, for errors and menus.
func (g *Game) Describe(o Option) string {
	r := g.rules
	s := g.seatAt(g.Step)
	st := &g.Seats[s]
	switch o.Kind {
	case OptCard:
		if o.A >= 0 && o.A < st.NHand {
			return "play " + r.Cards[st.Hand[o.A]].ID
		}
	case OptColumn:
		return fmt.Sprintf("column %d", o.A+1)
	case OptRow:
		if o.A >= 0 && o.A < NumRows {
			return rowNames[o.A] + " row"
		}
	case OptRegion:
		return "Assistant to " + r.RegionName(o.A)
	case OptPublicWorks:
		return fmt.Sprintf("Public Works tier %d", o.B)
	case OptCelebrity:
		return fmt.Sprintf("Celebrity tier %d", o.B)
	case OptResearch:
		if o.B < 0 {
			return "Research: flip the Initial Support token"
		}
		if int(o.B) < int(g.NPlaced) {
			return "Research: flip " + g.TileName(int(o.B))
		}
	case OptCampaign:
		return "Campaign"
	case OptFundraise:
		// Several icons can pay for it (I-2): name the one spent.
		if c := g.turn.Card; c >= 0 && o.A >= 0 && o.A < NumSlots {
			return fmt.Sprintf("District Fundraise (%s icon)", r.Cards[c].Slots[o.A].Action)
		}
		return "District Fundraise"
	case OptDirectAppeal:
		if o.B >= 0 && o.B < NumDistricts && o.C >= 0 && o.C < NumDistricts {
			return fmt.Sprintf("Direct Appeal: %s cube to %s", r.Districts[o.B], r.Districts[o.C])
		}
	case OptRally:
		return "Rally"
	case OptPlazaFundraise:
		return "Plaza Fundraise"
	case OptAbility:
		// Name the District or cube that tells one use of the ability
		// from another (C-15).
		if c := g.turn.Card; c >= 0 {
			switch r.Cards[c].Ability.Kind {
			case AbilityPollingHere, AbilityPollingAny:
				if o.B >= 0 && o.B < NumDistricts {
					return "use the card ability in " + r.Districts[o.B]
				}
			case AbilityAttractCube:
				if o.B >= 0 && o.B < NumDistricts && o.C >= 0 && o.C < NumDistricts {
					return fmt.Sprintf("use the card ability: %s cube to %s", r.Districts[o.B], r.Districts[o.C])
				}
			}
		}
		return "use the card ability"
	case OptFavor:
		if o.A >= 0 && o.A < NumDistricts && o.B >= 0 && o.B < NumSlots {
			return fmt.Sprintf("Favor from the %s Endorsement on slot %s", r.Districts[o.A], slotNames[o.B])
		}
	case OptEnd:
		return "end the actions"
	case OptAttract:
		if o.B >= 0 && o.B < NumDistricts && o.C >= 0 && o.C < NumDistricts {
			return fmt.Sprintf("attract a %s cube to %s", r.Districts[o.B], r.Districts[o.C])
		}
	case OptSpot:
		if o.A == NoSpot {
			return "no spot"
		}
		if o.A >= 0 && o.A < NumActions {
			return "the " + r.Spots[o.A].String() + " spot"
		}
	case OptDiscard:
		if o.A >= 0 && o.A < st.NHand {
			return "discard " + r.Cards[st.Hand[o.A]].ID
		}
	case OptKeep:
		return "keep the rest"
	case OptDraw:
		if o.A >= 0 && o.A < NumDecks {
			return "draw from the " + Action(o.A).String() + " deck"
		}
	case OptReveal:
		if int(o.A) < int(g.NPlaced) && o.A >= 0 {
			return "reveal " + g.TileName(int(o.A)) + " in " + r.RegionName(g.Placed[o.A].District)
		}
	case OptExchange:
		if o.A >= 0 && o.A < g.NSeats {
			return fmt.Sprintf("exchange the Initiative 1 token with %s (Initiative %d)", TableSeatName(o.A), g.Initiative(o.A))
		}
	}
	return fmt.Sprintf("option{%d %d %d %d}", o.Kind, o.A, o.B, o.C)
}
