package opposition

import (
	"tallywood/engine"
	"tallywood/engine/kit"
)

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
	// Every placed tile is a Celebrity or a Public Works tile: count the
	// face-down ones of each District in one pass.
	var faceDown [engine.NumDistricts]int
	for i := range int(g.NPlaced) {
		if t := &g.Placed[i]; !t.FaceUp {
			faceDown[t.District]++
		}
	}
	best := int8(-1)
	var bestMine, bestYours int8
	var bestDown int
	for d := range int8(engine.NumDistricts) {
		down := faceDown[d]
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
	// A Public Works tile before a Celebrity, the highest tier, the
	// earliest placed (I-21): a strictly better tile replaces the pick.
	pick := -1
	for i := range int(g.NPlaced) {
		t := &g.Placed[i]
		if t.FaceUp || t.District != best {
			continue
		}
		if pick < 0 || revealsBefore(t, &g.Placed[pick]) {
			pick = i
		}
	}
	if g.Recording() {
		g.Note(s, best, "I-16", "Final Tally reveal: %s (Opposition %s, you %d, %s; ties: its shares ↓, yours ↑, face-down ↓, canonical order) → %s, highest tier",
			r.Districts[best], kit.Count(int(bestMine), "Vote Share"), bestYours, kit.Count(int(bestDown), "face-down tile"), g.Placed[pick].Kind)
	}
	return pick
}

// revealsBefore orders the tiles of the chosen District (I-16): Public
// Works first, then the higher tier.
func revealsBefore(a, b *engine.PlacedTile) bool {
	if a.Kind != b.Kind {
		return a.Kind == engine.TilePublicWorks
	}
	return a.Tier > b.Tier
}

// shares is a seat's Vote Shares in d at the Final Tally (I-7): icons, the
// token and the Round 4 majority share.
func shares(g *engine.Game, s int8, d int8) int8 {
	if s == engine.NoSeat {
		return 0
	}
	return g.VoteShares(s, d) + g.Seats[s].MajorityShares[d]
}
