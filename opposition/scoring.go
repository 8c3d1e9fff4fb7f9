package opposition

import (
	"fmt"

	"tallywood/engine"
)

// Round Scoring (Solo): "During round 3 and 4, if the Opposition has the
// most Strength in the Plaza, advance their lowest Polling tracker(s)
// forward a number of spaces equal to what is shown." Hard mode: the lowest
// 2. The engine calls this only in the rounds marked for it, after
// deciding the Plaza majority (a tie counts as the most, I-14); V-3 is the
// engine's too.

// plazaMajority advances the Opposition's lowest polling trackers by
// amount (I-14): Normal every tracker tied at the lowest position; Hard the
// lowest two, and all trackers tied at the second place when a tie
// straddles it. The count comes from difficulty data
// (plaza_lowest_trackers), so both read as "every tracker at or below the
// n-th lowest position".
func plazaMajority(g *engine.Game, s int8, amount int8) {
	r := g.Rules()
	st := &g.Seats[s]
	n := int(g.Difficulty().PlazaLowestTrackers)
	// The trackers are compared before any of them moves.
	sorted := st.Polling
	for i := 1; i < len(sorted); i++ {
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	threshold := sorted[min(n, len(sorted))-1]
	var advance [engine.NumDistricts]bool
	for d := range st.Polling {
		advance[d] = st.Polling[d] <= threshold
	}
	g.Emit(engine.Event{Kind: engine.EvPlazaAdvance, Seat: s, District: engine.Plaza, To: int16(amount), Rule: "I-14"})
	if g.Recording() {
		var names []string
		for d := range advance {
			if advance[d] {
				names = append(names, r.Districts[d])
			}
		}
		lowest := "the lowest tracker, ties included, is"
		if n > 1 {
			lowest = fmt.Sprintf("the lowest %d trackers, ties included, are", n)
		}
		g.Note(s, engine.Plaza, "I-14", "Plaza majority in round %d (%s mode): %s at %d or below → %v +%d Polling",
			g.Round+1, g.Mode, lowest, threshold, names, amount)
	}
	for d := range int8(engine.NumDistricts) {
		// A tracker already at the end of the track is among the lowest
		// only when all are there; moving it changes nothing (C-7).
		if advance[d] && st.Polling[d] < r.TrackMax {
			g.GainPolling(s, d, amount, "I-14")
		}
	}
}
