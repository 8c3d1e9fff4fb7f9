package opposition

import "tallywood/engine"

// Clean Up Phase (Solo) steps 1–5, I-15. Returning the Assistants is the
// engine's (I-22): rulebook Clean Up step 3 is for everyone. After the last
// round the engine calls this only when V-2 is switched on.

func cleanUp(g *engine.Game, s int8) {
	r := g.Rules()
	if int(g.Round) == r.LastRound() && g.Recording() {
		g.Note(s, -1, "V-2", "Clean Up after the last round: opposition_cleanup_after_round_4 is on")
	}
	// Steps 1–3: the cards of its board and as many from the top of its
	// deck go to the box. OPEN: after the last round (V-2 on) this boxes
	// the round 4 cards too; nothing reads the box afterwards, so the
	// whole Clean Up is done as written rather than only steps 4–5.
	g.BoxSoloCards(s)
	// Step 4, 4.a, I-15: every unclaimed Endorsement it is entitled to, one
	// per District, the highest level above the one it holds, returning the
	// lower; no action in the District is needed.
	for d := range int8(engine.NumDistricts) {
		held := g.EndorsementHeld(s, d)
		g.GrantEndorsement(s, d)
		if g.Recording() && g.EndorsementHeld(s, d) == held {
			entitled := r.EntitledLevel(g.Seats[s].Polling[d])
			if entitled > held {
				g.Note(s, d, "I-15", "Endorsement in %s: polling %d entitles it to level %d, but every level above %d is claimed",
					r.Districts[d], g.Seats[s].Polling[d], entitled, held)
			}
		}
	}
	// Step 5, I-15: polling at space 12 and the Vote Share token still in
	// the District → it takes the token.
	for d := range int8(engine.NumDistricts) {
		if g.Seats[s].Polling[d] >= r.TokenSpace && g.Districts[d].VoteShareToken == engine.NoSeat {
			if g.Recording() {
				g.Note(s, d, "I-15", "%s polling at %d and the Vote Share token is still there → takes it (Solo Clean Up 5)",
					r.Districts[d], g.Seats[s].Polling[d])
			}
			g.TakeVoteShareToken(s, d, "I-15")
		}
	}
}
