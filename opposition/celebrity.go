package opposition

import "tallywood/engine"

// Celebrity Strategy Action (Opposition), I-9 and I-12.

// celebrity places a Celebrity tile face down in d, gains Polling equal to
// its tier there and draws the cubes to the Plaza, or reports that it is
// unable.
func celebrity(g *engine.Game, s int8, d int8) bool {
	r := g.Rules()
	pref, line := celebrityPreference(g, d)
	tier := nextTier(g, engine.TileCelebrity, pref)
	if tier == 0 {
		if g.Recording() {
			g.Note(s, d, "I-12", "Celebrity in %s: prefers tier %d (%s), no tile left in it or any higher tier → unable (I-9)",
				r.Districts[d], pref, line)
		}
		return false
	}
	if g.Recording() {
		if tier == pref {
			g.Note(s, d, "I-12", "Celebrity in %s: %s → tier %d, +%d Polling, %d cubes to the Plaza (Solo: Celebrity)",
				r.Districts[d], line, tier, tier, r.Costs.CelebrityCubes)
		} else {
			g.Note(s, d, "I-12", "Celebrity in %s: %s → tier %d, no tile left there → next highest tier %d, +%d Polling, %d cubes to the Plaza (Solo: Celebrity)",
				r.Districts[d], line, pref, tier, tier, r.Costs.CelebrityCubes)
		}
	}
	// PlaceCelebrity gains the Polling (the tier) and draws the cubes.
	g.PlaceCelebrity(s, d, tier)
	return true
}

// celebrityPreference is the rulebook's ordered list, first match wins.
func celebrityPreference(g *engine.Game, d int8) (int8, string) {
	// 1. "the lowest Tier of Celebrity tile that has not been built in this
	// District."
	for t := int8(1); t <= engine.NumTiers; t++ {
		if g.Built(d, engine.TileCelebrity, t, engine.NoSeat) == 0 {
			return t, "lowest tier not built here"
		}
	}
	// 2. Every tier is here: Tier 2 on Normal, Tier 3 on Hard (difficulty
	// data, celebrity_all_tiers). The reasons are constants: built by
	// concatenation they cost an allocation on every Opposition turn a
	// search plays.
	why := "every tier built here → the Normal mode tier"
	if g.Mode == engine.Hard {
		why = "every tier built here → the Hard mode tier"
	}
	return g.Difficulty().CelebrityAllTiers, why
}
