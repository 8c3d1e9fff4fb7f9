package opposition

import "tallywood/engine"

// "Unable to Take an Action" (I-9): try performs an action in d if the
// Opposition is able to, and reports whether it did. Each action's own
// file says when that action is unable; the block of a spot is common to
// all four and is decided here.
func try(g *engine.Game, s int8, d int8, action engine.Action) bool {
	r := g.Rules()
	// I-9, V-1: a spot holding any Assistant makes the action unable, while
	// opposition_respects_blocks is on.
	if !g.SpotFree(d, action) {
		if r.Variants.OppositionRespectsBlocks {
			if g.Recording() {
				g.Note(s, d, "V-1", "%s in %s: its spot holds an Assistant → unable (I-9)", action, r.Districts[d])
			}
			return false
		}
		if g.Recording() {
			g.Note(s, d, "V-1", "%s in %s: its spot holds an Assistant, ignored (opposition_respects_blocks off)", action, r.Districts[d])
		}
	}
	return Act(g, s, d, action)
}

// Act performs action in d as the rulebook defines the Opposition's
// Strategy Action of that name (Solo: Public Works, Celebrity, Research,
// Campaign, with I-9, I-11, I-12, I-13 and I-21), or reports that the
// Opposition is unable to. The block of the action's spot is not its
// question: try asks it first, as a scripted Opposition (package
// opposition/script) does before it calls Act.
func Act(g *engine.Game, s int8, d int8, action engine.Action) bool {
	switch action {
	case engine.PublicWorks:
		return publicWorks(g, s, d)
	case engine.Celebrity:
		return celebrity(g, s, d)
	case engine.Research:
		return research(g, s, d)
	case engine.Campaign:
		return campaign(g, s, d)
	}
	panic("opposition: unknown action")
}

// nextTier is the fallback shared by Public Works (I-11) and Celebrity
// (I-12): "If the Tier ... has no remaining unplaced tiles, they will
// instead build the next highest Tier"; it only goes up, and past the top
// tier there is none (0).
func nextTier(g *engine.Game, k engine.TileKind, from int8) int8 {
	for t := from; t <= engine.NumTiers; t++ {
		if g.TilesLeft(k, t) > 0 {
			return t
		}
	}
	return 0
}

// rival is the seat the Opposition compares itself with: you.
func rival(g *engine.Game, s int8) int8 {
	for o := range g.NSeats {
		if o != s && !g.Seats[o].Automaton {
			return o
		}
	}
	return engine.NoSeat
}
