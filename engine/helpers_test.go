package engine

// scriptedOpposition is a test helper, not the Opposition of the Solo
// rules (that is package opposition): it flips the Solo card, stands in the
// connected District and applies the card's actions with the engine's
// primitives wherever the components allow, without the Solo preferences
// or fallbacks. It lets the engine's tests play whole games.
type scriptedOpposition struct{}

func (scriptedOpposition) Turn(g *Game, s int8) {
	card, col := g.FlipSoloCard(s)
	sc := g.Rules().Solo[card]
	d := int8(sc.LeftDistrict)
	if col >= 2 {
		d = int8(sc.RightDistrict)
	}
	g.MoveAssistant(s, col, d)
	for _, a := range []Action{sc.LeftAction, sc.RightAction} {
		switch a {
		case PublicWorks:
			if g.BadgesLeft(s) > 0 && g.TilesLeft(TilePublicWorks, 1) > 0 {
				g.PlacePublicWorks(s, d, 1)
			}
		case Celebrity:
			if g.TilesLeft(TileCelebrity, 1) > 0 {
				g.PlaceCelebrity(s, d, 1)
			}
		case Research:
			for i := range int(g.NPlaced) {
				if g.Placed[i].District == d && !g.Placed[i].FaceUp {
					g.Research(s, d, i)
					break
				}
			}
		case Campaign:
			g.Campaign(s, d)
		}
	}
	for sp := range int8(NumActions) {
		if g.Districts[d].Spots[sp] == NoSeat {
			g.OccupySpot(s, col, sp)
			break
		}
	}
}

func (scriptedOpposition) PlazaMajority(g *Game, s int8, amount int8) {
	low := int8(0)
	for d := range int8(NumDistricts) {
		if g.Seats[s].Polling[d] < g.Seats[s].Polling[low] {
			low = d
		}
	}
	g.GainPolling(s, low, amount, "test")
}

func (scriptedOpposition) CleanUp(g *Game, s int8) {
	g.BoxSoloCards(s)
	for d := range int8(NumDistricts) {
		g.GrantEndorsement(s, d)
	}
}

func (scriptedOpposition) Reveal(g *Game, s int8) int {
	for i := range int(g.NPlaced) {
		if !g.Placed[i].FaceUp {
			return i
		}
	}
	return -1
}

// newTestGame sets up a game against the scripted Opposition.
func newTestGame(t interface{ Fatal(...any) }, seed uint64, mode Mode) *Game {
	g, err := New(Reference(), seed, Config{Mode: mode, Opposition: scriptedOpposition{}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
