package engine

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Hidden information and determinization.
//
// What the player cannot know in the solo game:
//
//   - the order of the Solo deck, and which of the unplayed Solo cards went
//     to the box unseen (Solo Clean Up 2: cards "from the top of the
//     Opposition deck" are boxed without being shown);
//   - the order of each Strategy deck (its contents are known: every card
//     not in the hand, on the board or in the discards);
//   - the faces of face-down Celebrity and Public Works tiles, on the board
//     and in the piles, and the order of the piles;
//   - the values of face-down Initial Support tokens;
//   - the order in which cubes come out of the bag (its contents are known);
//   - the future of the game's generators (reshuffles, draws).
//
// In a game without the Opposition, the seat to move also cannot see the
// other players' hands nor the cards they discarded face down at Clean Up
// (step 4); it sees each card's back, so how many cards of each deck every
// hand holds (determinizeHands).
//
// Determinize resamples all of it. Its result depends only on what the
// player can know and on the seed: two games that differ only in hidden
// information become identical after Determinize with the same seed. That
// is what lets search players simulate a game without peeking, and what
// the no-peeking tests of the policies rest on.

// Determinize replaces every piece of hidden information of g with a
// sample drawn from seed, consistent with what the player can know, and
// reseeds the game's generators. Every count is conserved: cards per deck,
// tiles per kind and tier, Initial Support values, cubes in the bag.
//
// Search players call it on a copy (c := *g; c.Determinize(seed)).
// Called on a game itself it replaces that game's hidden future: tests do
// this to build another world the player cannot tell apart.
func (g *Game) Determinize(seed uint64) {
	var rng rand.PCG
	rng.Seed(seed, streamDeterminize)

	// Strategy decks: the contents are known, the order is not. Sorting
	// first makes the sample independent of the true order.
	for d := range g.Decks {
		dk := g.Decks[d].Cards[:g.Decks[d].N]
		sortCards(dk)
		shuffle(&rng, dk)
	}

	if !g.IsSolo() {
		g.determinizeHands(&rng, g.Decision().Seat)
	}
	g.determinizeSolo(&rng)

	// Tiles: for each kind and tier, the faces not yet seen are those of
	// the face-down placed tiles and of the pile; any of them can be under
	// any of these tiles. The faces are indexes into the rules' list, each
	// tile once, so the unseen ones in ascending order are the list minus
	// the face-up ones.
	// One pass sorts the placed tiles: the faces seen, and the face-down
	// tiles of each kind and tier in placement order.
	var seen [2][NumTiers]uint64
	var down [2][NumTiers][MaxPile]uint8
	var nDown [2][NumTiers]uint8
	for i := range g.NPlaced {
		p := &g.Placed[i]
		if p.FaceUp {
			seen[p.Kind][p.Tier-1] |= 1 << p.Face
		} else {
			down[p.Kind][p.Tier-1][nDown[p.Kind][p.Tier-1]] = i
			nDown[p.Kind][p.Tier-1]++
		}
	}
	var faces [MaxTiles]uint8
	for k := range 2 {
		for t := range NumTiers {
			n := int(nDown[k][t])
			idx := &down[k][t]
			pile := &g.Piles[k][t]
			m := 0
			// The unseen faces, ascending: the set bits of unseen.
			for unseen := (uint64(1)<<len(g.rules.Tiles[k][t]) - 1) &^ seen[k][t]; unseen != 0; unseen &= unseen - 1 {
				faces[m] = uint8(bits.TrailingZeros64(unseen))
				m++
			}
			if m != n+int(pile.N) {
				panic("engine: Determinize: tile faces not conserved")
			}
			shuffle(&rng, faces[:m])
			for j := range n {
				g.Placed[idx[j]].Face = faces[j]
			}
			copy(pile.Faces[:pile.N], faces[n:m])
		}
	}

	// Initial Support: the face-down tokens hold the values not yet seen.
	var vals [NumDistricts]int8
	var ds [NumDistricts]int
	n := 0
	for d := range g.Districts {
		if !g.Districts[d].SupportFaceUp {
			vals[n] = g.Districts[d].InitialSupport
			ds[n] = d
			n++
		}
	}
	slices.Sort(vals[:n])
	shuffle(&rng, vals[:n])
	for j := range n {
		g.Districts[ds[j]].InitialSupport = vals[j]
	}

	// Generators: the bag's contents are known, its draws are not; the
	// reshuffles of exhausted decks are future chance too.
	for d := range g.deckRng {
		g.deckRng[d].Seed(rng.Uint64(), rng.Uint64())
	}
	g.soloRng.Seed(rng.Uint64(), rng.Uint64())
	g.bagRng.Seed(rng.Uint64(), rng.Uint64())
	// A scripted Opposition's chance draws (AutomatonIntN), last, so that
	// every other generator's resample is what it was before scripts.
	g.autoRng.Seed(rng.Uint64(), rng.Uint64())
}

// determinizeHands resamples, in a game without the Opposition, what seat
// v cannot see of the other players' Strategy cards: their hands and the
// cards they discarded face down at Clean Up (step 4), pooled per deck with
// the deck itself. A card's back shows its deck, so how many cards of each
// deck every hand and the discards hold is public, and kept.
func (g *Game) determinizeHands(rng *rand.PCG, v int8) {
	for d := range NumDecks {
		var pool [MaxSoloCards]uint8
		n := 0
		take := func(c *uint8) { pool[n] = *c; n++ }
		deal := func(c *uint8) { *c = pool[n]; n++ }
		g.hiddenCards(d, v, take)
		sortCards(pool[:n])
		shuffle(rng, pool[:n])
		n = 0
		g.hiddenCards(d, v, deal)
	}
}

// hiddenCards calls f on every place holding a card of deck d that seat v
// cannot see, in an order that depends only on what v can see.
func (g *Game) hiddenCards(d int, v int8, f func(*uint8)) {
	dk := &g.Decks[d]
	for i := range dk.N {
		f(&dk.Cards[i])
	}
	for s := range g.NSeats {
		if s == v {
			continue
		}
		st := &g.Seats[s]
		for i := range st.NHand {
			if int(g.rules.Cards[st.Hand[i]].Deck) == d {
				f(&st.Hand[i])
			}
		}
	}
	hidden := g.hiddenDiscards(d, v)
	dis := &g.Discards[d]
	for i := range dis.N {
		if hidden&(1<<i) != 0 {
			f(&dis.Cards[i])
		}
	}
}

// Unseen appends to buf, sorted, the cards of Strategy deck d that seat v
// cannot see: the deck's, and in a game without the Opposition the other
// players' hands and the cards they discarded face down. Sorted, the list
// tells neither the order nor who holds which card.
func (g *Game) Unseen(v int8, d int, buf []uint8) []uint8 {
	start := len(buf)
	g.hiddenCards(d, v, func(c *uint8) { buf = append(buf, *c) })
	slices.Sort(buf[start:])
	return buf
}

// DiscardHidden reports whether card i of discard pile d lies face down
// for seat v: discarded face down by another player (Clean Up 4).
func (g *Game) DiscardHidden(v int8, d, i int) bool {
	return g.hiddenDiscards(d, v)&(1<<i) != 0
}

// hiddenDiscards is the mask of the cards of discard pile d that seat v
// cannot see: those the other players discarded face down (Clean Up 4).
func (g *Game) hiddenDiscards(d int, v int8) uint64 {
	var hidden uint64
	for s := range g.NSeats {
		if s != v {
			hidden |= g.faceDown[d][s]
		}
	}
	return hidden
}

// determinizeSolo resamples the Solo deck. The player has seen every card
// the Opposition played; the cards boxed from the top of the deck at each
// Clean Up were not seen (Solo Clean Up 2), so they are pooled with the
// deck and dealt back out, keeping the deck's and the box's sizes.
//
// BoxSoloCards pushes, at each Clean Up, the cards of the board (seen,
// one per turn of the round) then as many from the top of the deck
// (unseen). The box is read back in those blocks. When the rules' turn
// counts can exhaust the Solo deck (not the reference set: 2·(3+3+4)+4 =
// 24 cards), I-19 may have reshuffled the box into the deck and the blocks
// no longer tell seen from unseen; then only the deck is resampled.
func (g *Game) determinizeSolo(rng *rand.PCG) {
	var pool [MaxSoloCards]uint8
	var unseen [MaxSoloCards]uint8 // positions in SoloBox
	nu := 0
	seen, ok := g.soloBoxSeen()
	for i, s := range seen[:g.SoloBox.N] {
		if ok && !s {
			unseen[nu] = uint8(i)
			nu++
		}
	}
	n := int(g.Solo.N)
	copy(pool[:n], g.Solo.Cards[:n])
	for j := range nu {
		pool[n+j] = g.SoloBox.Cards[unseen[j]]
	}
	m := n + nu
	sortCards(pool[:m])
	shuffle(rng, pool[:m])
	copy(g.Solo.Cards[:n], pool[:n])
	for j := range nu {
		g.SoloBox.Cards[unseen[j]] = pool[n+j]
	}
}

// soloBoxSeen tells, for each card of the Solo box, whether the player saw
// it: the cards of the board at each Clean Up were seen, those boxed from
// the top of the deck were not (see determinizeSolo). ok is false when the
// rules can exhaust the deck: then the blocks no longer tell seen from
// unseen. Only the first SoloBox.N entries mean anything; an array, not a
// slice, so Determinize does not allocate.
func (g *Game) soloBoxSeen() (mask [MaxSoloCards]bool, ok bool) {
	box := mask[:g.SoloBox.N]
	if !g.rules.soloNeverExhausted() {
		return mask, false
	}
	for i := range box {
		box[i] = true
	}
	pos := 0
	for r := 0; pos < len(box) && r < len(g.rules.Rounds); r++ {
		k := int(g.rules.Rounds[r].Turns)
		pos += k
		u := max(0, min(k, len(box)-pos))
		for j := range u {
			box[pos+j] = false
		}
		pos += u
	}
	return mask, true
}

// SoloBoxSeen appends to buf the cards of the Solo box the player saw
// played, in the order they were boxed: what the player may know of the
// box. The cards boxed unseen are hidden information; when the rules can
// exhaust the Solo deck (I-19) seen and unseen cannot be told apart and
// nothing is appended.
func (g *Game) SoloBoxSeen(buf []uint8) []uint8 {
	seen, _ := g.soloBoxSeen()
	for i, s := range seen[:g.SoloBox.N] {
		if s {
			buf = append(buf, g.SoloBox.Cards[i])
		}
	}
	return buf
}

// soloNeverExhausted reports whether the Solo deck lasts the whole game:
// two cards a turn (played and boxed) in every round but the last, one a
// turn in the last (C-13).
func (r *Rules) soloNeverExhausted() bool {
	need := 0
	for i, rd := range r.Rounds {
		need += int(rd.Turns)
		if i < len(r.Rounds)-1 {
			need += int(rd.Turns)
		}
	}
	return need <= len(r.Solo)
}

// sortCards sorts card indexes ascending. Cards are distinct and, in the
// reference set, below 64, so a bit mask sorts them in one pass; anything
// else goes to slices.Sort.
func sortCards(s []uint8) {
	var set uint64
	for _, v := range s {
		if v >= 64 || set&(1<<v) != 0 {
			slices.Sort(s)
			return
		}
		set |= 1 << v
	}
	for i := range s {
		s[i] = uint8(bits.TrailingZeros64(set))
		set &= set - 1
	}
}
