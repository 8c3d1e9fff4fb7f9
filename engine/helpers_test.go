package engine

import "testing"

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

// cardIndex returns the index of a Strategy card by id.
func cardIndex(t testing.TB, id string) int16 {
	t.Helper()
	for i, c := range Reference().Cards {
		if c.ID == id {
			return int16(i)
		}
	}
	t.Fatalf("no card %s", id)
	return -1
}

// mustApply applies an option that the test expects to be legal.
func mustApply(t testing.TB, g *Game, o Option) {
	t.Helper()
	if err := g.Apply(o); err != nil {
		t.Fatal(err)
	}
}

// startTurn sets up a Normal game (you go first, I-20), lets setup adjust
// the position, then plays card id into column col, row, with the
// Assistant to region. The game then waits for the actions (DecAction).
func startTurn(t testing.TB, id string, col, row, region int8, setup func(g *Game)) *Game {
	t.Helper()
	g := newTestGame(t, 1, Normal)
	if d := g.Decision(); d.Kind != DecCard || d.Seat != 0 {
		t.Fatalf("want your card decision first, got %v", d)
	}
	g.Seats[0].Hand[0] = uint8(cardIndex(t, id))
	if setup != nil {
		setup(g)
	}
	mustApply(t, g, Option{Kind: OptCard, A: 0})
	mustApply(t, g, Option{Kind: OptColumn, A: col})
	mustApply(t, g, Option{Kind: OptRow, A: row})
	mustApply(t, g, Option{Kind: OptRegion, A: region})
	return g
}

// has reports whether o is among the legal options.
func has(g *Game, o Option) bool { return g.IsLegal(o) }

// legalKinds counts the legal options of each kind.
func legalKinds(g *Game) map[OptionKind]int {
	var buf [MaxOptions]Option
	m := map[OptionKind]int{}
	for _, o := range g.Legal(buf[:0]) {
		m[o.Kind]++
	}
	return m
}

// placeTileForTest builds a tile as a primitive would, for positions.
func placeTileForTest(g *Game, k TileKind, d int8, tier int8, badge int8) int {
	return g.placeTile(k, d, tier, badge)
}
