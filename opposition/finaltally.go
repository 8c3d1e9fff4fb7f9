package opposition

import "tallywood/engine"

// Solo Final Tally: the Opposition's reveal (I-16). Its resource bonus is
// the engine's ResourceBonus, from difficulty data.

// reveal picks the face-down tile the Opposition flips: among Districts
// with a face-down Celebrity or Public Works tile, the one where it has the
// most Vote Shares (I-7, with the Round 4 majority share); tied → the one
// where you have the fewest; tied → the most face-down tiles; tied → the
// canonical order. There, a Public Works tile if any, else a Celebrity, of
// the highest tier, the earliest placed (I-21).
func reveal(g *engine.Game, s int8) int {
	r := g.Rules()
	you := rival(g, s)
	best := int8(-1)
	var bestMine, bestYours int8
	var bestDown int
	for d := range int8(engine.NumDistricts) {
		down := g.FaceDown(d, engine.TilePublicWorks, 0) + g.FaceDown(d, engine.TileCelebrity, 0)
		if down == 0 {
			continue
		}
		mine, yours := shares(g, s, d), shares(g, you, d)
		better := best < 0 ||
			mine > bestMine ||
			mine == bestMine && yours < bestYours ||
			mine == bestMine && yours == bestYours && down > bestDown
		// Equal on all three: the earlier District in canonical order,
		// which is the one already chosen.
		if better {
			best, bestMine, bestYours, bestDown = d, mine, yours, down
		}
	}
	if best < 0 {
		return -1
	}
	for _, k := range [2]engine.TileKind{engine.TilePublicWorks, engine.TileCelebrity} {
		for t := int8(engine.NumTiers); t >= 1; t-- {
			if i := g.FirstFaceDown(best, k, t); i >= 0 {
				if g.Recording() {
					g.Note(s, best, "I-16", "Final Tally reveal: %s (Opposition %d Vote Shares, you %d, %d face-down tiles; ties: its shares ↓, yours ↑, face-down ↓, canonical order) → %s, highest tier",
						r.Districts[best], bestMine, bestYours, bestDown, k)
				}
				return i
			}
		}
	}
	panic("opposition: a District counted face-down tiles but has none")
}

// shares is a seat's Vote Shares in d at the Final Tally (I-7): icons, the
// token and the Round 4 majority share.
func shares(g *engine.Game, s int8, d int8) int8 {
	if s == engine.NoSeat {
		return 0
	}
	return g.VoteShares(s, d) + g.Seats[s].MajorityShares[d]
}
