package opposition

import (
	"tallywood/engine"
	"tallywood/engine/kit"
)

// Research Strategy Action (Opposition), I-9, I-13 and I-21.

// research flips a face-down tile in d by the Opposition's preference and
// gains the Research Polling there, or reports that it is unable.
func research(g *engine.Game, s int8, d int8) bool {
	r := g.Rules()
	you := rival(g, s)
	// I-13: Vote Shares as in I-7 (icons reached + the Vote Share token).
	mine, yours := g.VoteShares(s, d), int8(0)
	if you != engine.NoSeat {
		yours = g.VoteShares(you, d)
	}
	behind := mine < yours
	tile, what := researchChoice(g, d, behind)
	if tile == noTile {
		if g.Recording() {
			g.Note(s, d, "I-9", "Research in %s: no face-down tile here → unable", r.Districts[d])
		}
		return false
	}
	if g.Recording() {
		cmp, pref := "more", "preference 1, 2, 3"
		switch {
		case behind:
			cmp, pref = "fewer", "preference inverted"
		case mine == yours:
			cmp = "the same"
		}
		g.Note(s, d, "I-13", "Research in %s: Opposition has %s, you %d (%s) → %s (Solo: Research) → flips %s",
			r.Districts[d], kit.Count(int(mine), "Vote Share"), yours, cmp, pref, what)
	}
	g.Research(s, d, tile)
	return true
}

// noTile says that no face-down tile fits; -1 is the Initial Support
// token in the engine's Research.
const noTile = -2

// researchChoice walks the preference list. With at least as many Vote
// Shares: 1. the highest tier of face-down Public Works, 2. the highest
// tier of face-down Celebrity, 3. the unflipped Initial Support. With
// fewer: 3, 2, 1, lowest tier first. Equal tiles: the earliest placed
// (I-21).
func researchChoice(g *engine.Game, d int8, behind bool) (tile int, what string) {
	support := !g.Districts[d].SupportFaceUp
	if behind {
		if support {
			return -1, "the Initial Support token"
		}
		for _, k := range [2]engine.TileKind{engine.TileCelebrity, engine.TilePublicWorks} {
			for t := int8(1); t <= engine.NumTiers; t++ {
				if i := g.FirstFaceDown(d, k, t); i >= 0 {
					return i, lowest(g, i)
				}
			}
		}
		return noTile, ""
	}
	for _, k := range [2]engine.TileKind{engine.TilePublicWorks, engine.TileCelebrity} {
		for t := int8(engine.NumTiers); t >= 1; t-- {
			if i := g.FirstFaceDown(d, k, t); i >= 0 {
				return i, highest(g, i)
			}
		}
	}
	if support {
		return -1, "the Initial Support token"
	}
	return noTile, ""
}

// lowest and highest name the chosen tile for the note; they run only when
// recording.
func lowest(g *engine.Game, i int) string {
	if !g.Recording() {
		return ""
	}
	return "the lowest-tier face-down " + g.TileName(i)
}

func highest(g *engine.Game, i int) string {
	if !g.Recording() {
		return ""
	}
	return "the highest-tier face-down " + g.TileName(i)
}
