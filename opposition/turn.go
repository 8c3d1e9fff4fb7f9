package opposition

import "tallywood/engine"

// The Opposition's Strategy Phase turn: rulebook Solo Gameplay 1–5, with
// the fallbacks of "Unable to Take an Action" as I-10 orders them.

// middleRow is the row every Solo card goes into (Solo Gameplay 1).
const middleRow = 1

// playTurn is Solo Gameplay 1–5.
func playTurn(g *engine.Game, s int8) {
	r := g.Rules()
	// Solo Gameplay 1: the top Solo card into the leftmost open column,
	// middle row.
	card, col := g.FlipSoloCard(s)
	sc := &r.Solo[card]
	a, b, connected, other := connections(r, sc, col)

	// Solo Gameplay 2: the column's Assistant to the District connected by
	// a string (C-11: column 1–2 the left District, 3–4 the right one).
	if g.Recording() {
		g.Note(s, a, "Solo Gameplay 2", "column %d connects %s and %s → Assistant to %s (C-11)",
			col+1, r.Districts[a], connected, r.Districts[a])
	}
	g.MoveAssistant(s, col, a)

	// Solo Gameplay 3: the left action first, then the right one; they
	// need not be connected. Solo Gameplay 4: nothing is paid.
	act(g, s, col, sc.LeftAction, "left", a, b)
	act(g, s, col, sc.RightAction, "right", a, b)

	// Solo Gameplay 5: block a spot where the Assistant now stands.
	block(g, s, col, connected, other)

	// OPEN: the turn ends here without an Endorsement check. I-6 is the
	// players' rule; the Solo rules grant the Opposition's Endorsements
	// only at its Clean Up (Solo Clean Up 4, I-15), and the literal reading
	// of "Follow these steps" (Solo Gameplay 1–5) adds none.
}

// connections reads the string table (C-11) for a Solo card in column col:
// the connected District a, the other District b, the connected action and
// the other action. A Solo card's TL is its left District, TR its right
// District, BL its left action and BR its right action.
func connections(r *engine.Rules, sc *engine.SoloCard, col int8) (a, b int8, connected, other engine.Action) {
	mask := r.ConnectedSlots(col, middleRow)
	a, b = int8(sc.LeftDistrict), int8(sc.RightDistrict)
	// OPEN: a rules file whose middle row connects both District slots
	// (or neither) leaves "the District connected by a string" ambiguous;
	// the left District is taken unless only TR is connected.
	if mask&(1<<engine.SlotTL) == 0 && mask&(1<<engine.SlotTR) != 0 {
		a, b = b, a
	}
	connected, other = sc.LeftAction, sc.RightAction
	// OPEN: likewise, the left action is the connected one unless only BR
	// is connected.
	if mask&(1<<engine.SlotBL) == 0 && mask&(1<<engine.SlotBR) != 0 {
		connected, other = other, connected
	}
	return a, b, connected, other
}

// act performs one of the card's actions with the fallbacks of I-10:
// try where the Assistant stands; unable in A (the connected District) →
// move to B and try there; still unable, or unable in B where it already
// stood → back to A with 1 Money + 1 Popularity, not retried in A.
func act(g *engine.Game, s int8, col int8, action engine.Action, side string, a, b int8) {
	r := g.Rules()
	d := g.AssistantRegion(s, col)
	if g.Recording() {
		g.Note(s, d, "Solo Gameplay 3", "%s action %s, tried in %s where the Assistant stands", side, action, r.Districts[d])
	}
	if try(g, s, d, action) {
		return
	}
	if d == a {
		// "they move their current Assistant to the District not
		// connected by a string, and attempt to take the Action there."
		if g.Recording() {
			g.Note(s, b, "I-10", "unable in %s (connected) → Assistant to %s (not connected), %s tried there",
				r.Districts[a], r.Districts[b], action)
		}
		g.Seats[s].FallbackOther++
		g.MoveAssistant(s, col, b)
		if try(g, s, b, action) {
			return
		}
		if g.Recording() {
			g.Note(s, a, "I-10", "unable in %s too → Assistant back to %s, gains %d Money + %d Popularity",
				r.Districts[b], r.Districts[a], r.FallbackMoney, r.FallbackPop)
		}
	} else if g.Recording() {
		// I-10: the left action moved it to B; the right one failing in
		// B goes straight back to A, without a retry in A.
		g.Note(s, a, "I-10", "unable in %s, where it already stood → Assistant straight back to %s, gains %d Money + %d Popularity (not retried in %s)",
			r.Districts[d], r.Districts[a], r.FallbackMoney, r.FallbackPop, r.Districts[a])
	}
	// OPEN: the engine's FallbackBoth counter also counts the straight-back
	// case: both end "back in the original District with 1 Money and 1
	// Popularity", which is what the counter measures.
	g.Seats[s].FallbackBoth++
	g.MoveAssistant(s, col, a)
	g.GainResources(s, r.FallbackMoney, r.FallbackPop, "I-10")
}

// block is Solo Gameplay 5 as I-10 reads it: in the District where the
// Assistant stands, the connected action's spot; if taken, the other
// action's spot; if both are taken, no spot.
func block(g *engine.Game, s int8, col int8, connected, other engine.Action) {
	r := g.Rules()
	d := g.AssistantRegion(s, col)
	switch {
	case g.SpotFree(d, connected):
		if g.Recording() {
			g.Note(s, d, "Solo Gameplay 5", "blocks the connected action's spot (%s) in %s", connected, r.Districts[d])
		}
		g.OccupySpot(s, col, r.SpotOf[connected])
	case g.SpotFree(d, other):
		if g.Recording() {
			g.Note(s, d, "Solo Gameplay 5", "the %s spot in %s is taken → blocks the other action's spot (%s)",
				connected, r.Districts[d], other)
		}
		g.OccupySpot(s, col, r.SpotOf[other])
	default:
		if g.Recording() {
			g.Note(s, d, "I-10", "the %s and %s spots in %s are both taken → no spot", connected, other, r.Districts[d])
		}
		g.Emit(engine.Event{Kind: engine.EvSpot, Seat: s, District: d, Item: -1, Rule: "I-10"})
	}
}
