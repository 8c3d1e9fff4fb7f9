package opposition

import "tallywood/engine"

// Campaign Strategy Action (Opposition): "The Opposition gains 2 Polling in
// this District." I-9: unable when its polling there is already at the top
// of the track.
func campaign(g *engine.Game, s int8, d int8) bool {
	r := g.Rules()
	if g.Seats[s].Polling[d] >= r.TrackMax {
		if g.Recording() {
			g.Note(s, d, "I-9", "Campaign in %s: its polling there is already %d → unable", r.Districts[d], r.TrackMax)
		}
		return false
	}
	if g.Recording() {
		g.Note(s, d, "Solo: Campaign", "Campaign in %s: +%d Polling", r.Districts[d], r.Costs.CampaignPolling)
	}
	g.Campaign(s, d)
	return true
}
