package engine

import "fmt"

// Check verifies what must hold at every decision of every game: cubes,
// tiles and cards conserved (C-3, C-14, C-15, C-16), trackers on the track
// (C-7), Badges within the supply, at most one Endorsement per District per
// player (I-6, I-15), spots and Assistants agreeing (I-1). Tokens are in
// one place by construction: each has a single holder field. Property
// tests call it after every decision; it reports the first violation.
func (g *Game) Check() error {
	r := g.rules
	// C-3: 40 cubes, ten of each colour, in the bag, the Plaza or Districts.
	for c := range NumDistricts {
		n := int(g.Bag[c]) + int(g.Plaza[c])
		for d := range g.Districts {
			n += int(g.Districts[d].Cubes[c])
		}
		if n != int(r.CubesPerDistrict) {
			return fmt.Errorf("engine: check: %d %s cubes, want %d", n, r.Districts[c], r.CubesPerDistrict)
		}
	}
	// C-14: every tile in its pile or on the board, once.
	var count [2][NumTiers][MaxPile]int
	for k := range 2 {
		for t := range NumTiers {
			p := g.Piles[k][t]
			for _, f := range p.Faces[:p.N] {
				count[k][t][f]++
			}
		}
	}
	for _, t := range g.Placed[:g.NPlaced] {
		count[t.Kind][t.Tier-1][t.Face]++
	}
	for k := range 2 {
		for t := range NumTiers {
			for f := range r.Tiles[k][t] {
				if count[k][t][f] != 1 {
					return fmt.Errorf("engine: check: %s tier %d tile %d seen %d times", TileKind(k), t+1, f, count[k][t][f])
				}
			}
		}
	}
	// C-15: every Strategy card in one place: a deck, discards, a hand or a
	// board. The counts are arrays at their bounds, not slices of the
	// rules' sizes: property tests call Check after every decision of
	// thousands of games, and allocating there took half its time.
	var cards [NumDecks * MaxDeckCards]int
	for d := range NumDecks {
		for _, c := range g.Decks[d].Cards[:g.Decks[d].N] {
			cards[c]++
		}
		for _, c := range g.Discards[d].Cards[:g.Discards[d].N] {
			cards[c]++
		}
	}
	var solo [MaxSoloCards]int
	for _, c := range g.Solo.Cards[:g.Solo.N] {
		solo[c]++
	}
	for _, c := range g.SoloBox.Cards[:g.SoloBox.N] {
		solo[c]++
	}
	for s := range g.NSeats {
		st := &g.Seats[s]
		for _, c := range st.Hand[:st.NHand] {
			cards[c]++
		}
		for _, col := range st.Columns {
			switch {
			case col.Card < 0:
			case st.Automaton:
				solo[col.Card]++
			default:
				cards[col.Card]++
			}
		}
		if s == g.seatAt(g.Step) && (g.Pending == DecColumn || g.Pending == DecRow) {
			cards[g.turn.Card]++ // chosen, not yet placed
		}
		// C-7: trackers on the track.
		trackers := [2 + NumDistricts]int8{st.Money, st.Popularity}
		copy(trackers[2:], st.Polling[:])
		for _, v := range trackers {
			if v < 0 || v > r.TrackMax {
				return fmt.Errorf("engine: check: seat %d tracker %d out of 0..%d", s, v, r.TrackMax)
			}
		}
		// C-13, C-15: the accumulators never wrap (compileBounds bounds
		// them; a wrapped sum of gains reads negative).
		if !st.Automaton && (st.Politician < 0 || int(st.Politician) >= len(r.Politicians)) {
			return fmt.Errorf("engine: check: seat %d politician %d out of 0..%d", s, st.Politician, len(r.Politicians)-1)
		}
		if st.Votes < 0 || st.Votes > MaxPlayVotes {
			return fmt.Errorf("engine: check: seat %d gained %d votes in play, out of 0..%d", s, st.Votes, MaxPlayVotes)
		}
		if st.ResearchBonus < 0 {
			return fmt.Errorf("engine: check: seat %d Research bonus %d", s, st.ResearchBonus)
		}
		for a := range NumActions {
			if st.DiscountMoney[a] < 0 || st.DiscountPopularity[a] < 0 {
				return fmt.Errorf("engine: check: seat %d %s discount %d Money, %d Popularity", s, Action(a), st.DiscountMoney[a], st.DiscountPopularity[a])
			}
		}
		for d := range int8(NumDistricts) {
			if st.MajorityShares[d] < 0 || g.VoteShares(s, d)+st.MajorityShares[d] < 0 {
				return fmt.Errorf("engine: check: seat %d Vote Shares in %s wrapped", s, r.Districts[d])
			}
		}
		if b := g.BadgesLeft(s); b < 0 {
			return fmt.Errorf("engine: check: seat %d has %d Badges left", s, b)
		}
		// I-6, I-15: at most one Endorsement per District.
		for d := range g.Districts {
			n := 0
			for _, h := range g.Districts[d].Endorsements {
				if h == s {
					n++
				}
			}
			if n > 1 {
				return fmt.Errorf("engine: check: seat %d holds %d Endorsements of %s", s, n, r.Districts[d])
			}
		}
		// I-1: spots and Assistants agree.
		for c, a := range st.Assistants {
			if a.Spot != NoSpot && g.Districts[a.Region].Spots[a.Spot] != s {
				return fmt.Errorf("engine: check: seat %d Assistant %d on a spot it does not hold", s, c)
			}
		}
	}
	for i, n := range cards[:len(r.Cards)] {
		if n != 1 {
			return fmt.Errorf("engine: check: the Strategy card %s is seen %d times", r.Cards[i].ID, n)
		}
	}
	for i, n := range solo[:len(r.Solo)] {
		if n != 1 && g.IsSolo() {
			return fmt.Errorf("engine: check: the Solo card %s is seen %d times", r.Solo[i].ID, n)
		}
	}
	for d := range g.Districts {
		for sp, h := range g.Districts[d].Spots {
			if h == NoSeat {
				continue
			}
			held := false
			for _, a := range g.Seats[h].Assistants {
				held = held || (a.Region == int8(d) && a.Spot == int8(sp))
			}
			if !held {
				return fmt.Errorf("engine: check: %s spot %d held by seat %d with no Assistant there", r.Districts[d], sp, h)
			}
		}
	}
	return nil
}
