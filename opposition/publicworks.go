package opposition

import "tallywood/engine"

// Public Works Strategy Action (Opposition), I-9 and I-11.

// publicWorks places a Public Works tile face down in d with one of the
// Opposition's Badges on it, or reports that it is unable.
func publicWorks(g *engine.Game, s int8, d int8) bool {
	r := g.Rules()
	// I-9: no Badge left → unable.
	if g.BadgesLeft(s) <= 0 {
		if g.Recording() {
			g.Note(s, d, "I-9", "Public Works in %s: no Badge left → unable", r.Districts[d])
		}
		return false
	}
	pref, line := publicWorksPreference(g, s, d)
	tier := nextTier(g, engine.TilePublicWorks, pref)
	if tier == 0 {
		if g.Recording() {
			g.Note(s, d, "I-11", "Public Works in %s: prefers tier %d (%s), no tile left in it or any higher tier → unable (I-9)",
				r.Districts[d], pref, line)
		}
		return false
	}
	if g.Recording() {
		if tier == pref {
			g.Note(s, d, "I-11", "Public Works in %s: %s → tier %d (Solo: Public Works)", r.Districts[d], line, tier)
		} else {
			g.Note(s, d, "I-11", "Public Works in %s: %s → tier %d, no tile left there → next highest tier %d (Solo: Public Works)",
				r.Districts[d], line, pref, tier)
		}
	}
	g.PlacePublicWorks(s, d, tier)
	return true
}

// publicWorksPreference is the rulebook's ordered list, first match wins.
// It returns the preferred tier and the line that chose it.
func publicWorksPreference(g *engine.Game, s int8, d int8) (int8, string) {
	// 1. "the lowest Tier of Public Works tile that has not been built in
	// this District."
	for t := int8(1); t <= engine.NumTiers; t++ {
		if g.Built(d, engine.TilePublicWorks, t, engine.NoSeat) == 0 {
			return t, "lowest tier not built here"
		}
	}
	// 2. Every tier is here: "the lowest Tier ... that they have not yet
	// built here (as shown by their Badges)."
	for t := int8(1); t <= engine.NumTiers; t++ {
		if g.Built(d, engine.TilePublicWorks, t, s) == 0 {
			return t, "every tier built here, lowest tier without its Badge"
		}
	}
	// I-11: its Badge is on every tier here → tier 1.
	return 1, "its Badge on every tier here → tier 1 (I-11)"
}
