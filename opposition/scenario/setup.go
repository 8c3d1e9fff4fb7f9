package scenario

import (
	"fmt"
	"sort"
	"strings"

	"tallywood/engine"
)

// builder applies a Setup to a freshly set-up game, keeping the components
// conserved: tiles come from their piles, cubes from the bag, Solo cards
// from the Solo deck, Initial Support values are exchanged between
// Districts. An inconsistent setup is refused with the field named.
type builder struct {
	g *engine.Game
	r *engine.Rules
}

func errf(field, format string, args ...any) error {
	return fmt.Errorf("scenario: %s: %s", field, fmt.Sprintf(format, args...))
}

// norm folds a name for matching: case, spaces, underscores and hyphens
// do not matter ("Public Works", "public_works").
func norm(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s)
}

func (b *builder) district(field, name string) (int8, error) {
	for d, n := range b.r.Districts {
		if norm(n) == norm(name) {
			return int8(d), nil
		}
	}
	return 0, errf(field, "%q is not a District (want %s)", name, strings.Join(b.r.Districts[:], ", "))
}

func (b *builder) seat(field, name string) (int8, error) {
	switch norm(name) {
	case "you":
		return 0, nil
	case "opposition":
		return b.g.Opponent(), nil
	}
	return 0, errf(field, "%q is not a seat (want you or opposition)", name)
}

func (b *builder) action(field, name string) (engine.Action, error) {
	for a := range engine.Action(engine.NumActions) {
		if norm(a.String()) == norm(name) {
			return a, nil
		}
	}
	return 0, errf(field, "%q is not an action (want Public Works, Celebrity, Research or Campaign)", name)
}

func tileKind(field, name string) (engine.TileKind, error) {
	switch norm(name) {
	case "publicworks":
		return engine.TilePublicWorks, nil
	case "celebrity":
		return engine.TileCelebrity, nil
	}
	return 0, errf(field, "%q is not a tile kind (want public_works or celebrity)", name)
}

func (b *builder) track(field string, v int) (int8, error) {
	if v < 0 || v > int(b.r.TrackMax) {
		return 0, errf(field, "%d is off the track (0..%d, C-7)", v, b.r.TrackMax)
	}
	return int8(v), nil
}

// sortedKeys gives map keys in a fixed order, so errors are reproducible.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (b *builder) apply(s *Setup) error {
	g, r := b.g, b.r
	if s.Round != nil {
		if *s.Round < 1 || *s.Round > len(r.Rounds) {
			return errf("setup.round", "%d is not a round (1..%d)", *s.Round, len(r.Rounds))
		}
		g.Round = int8(*s.Round - 1)
	}
	if s.Turn != nil {
		if *s.Turn < 1 || *s.Turn > int(g.RoundCard().Turns) {
			return errf("setup.turn", "%d is not a turn of round %d (1..%d)", *s.Turn, g.Round+1, g.RoundCard().Turns)
		}
		g.Turn = int8(*s.Turn - 1)
	}
	// The initiative tokens swap at every Clean Up (I-20): you hold "1" in
	// the rounds of the same parity as round 1 when the difficulty gives it
	// to you at the start (Solo Setup 5).
	you, opp := int8(0), g.Opponent()
	if (g.Difficulty().PlayerInitiative == 1) == (g.Round%2 == 0) {
		g.Order[0], g.Order[1] = you, opp
	} else {
		g.Order[0], g.Order[1] = opp, you
	}
	if s.Initiative != nil {
		if len(s.Initiative) != int(g.NSeats) {
			return errf("setup.initiative", "names %d seats, want %d in initiative order", len(s.Initiative), g.NSeats)
		}
		var seen [engine.MaxSeats]bool
		for i, name := range s.Initiative {
			seat, err := b.seat(fmt.Sprintf("setup.initiative[%d]", i), name)
			if err != nil {
				return err
			}
			if seen[seat] {
				return errf(fmt.Sprintf("setup.initiative[%d]", i), "%q is named twice", name)
			}
			seen[seat] = true
			g.Order[i] = seat
		}
	}
	// Solo cards first: the board's cards and the next cards come out of
	// the deck.
	if s.Opposition != nil {
		if err := b.board(s.Opposition.Board); err != nil {
			return err
		}
	}
	if err := b.nextSolo(s.NextSolo); err != nil {
		return err
	}
	if s.Plaza != nil {
		// The Plaza is stated whole: the setup's cubes go back to the bag
		// before the Districts take theirs.
		for c := range int8(engine.NumDistricts) {
			g.Bag[c] += g.Plaza[c]
			g.Plaza[c] = 0
		}
	}
	if err := b.districts(s.Districts); err != nil {
		return err
	}
	if err := b.plaza(s); err != nil {
		return err
	}
	for _, side := range []struct {
		name string
		seat int8
		st   *Seat
	}{{"you", 0, s.You}, {"opposition", g.Opponent(), s.Opposition}} {
		if side.st == nil {
			continue
		}
		if err := b.seatSetup("setup."+side.name, side.seat, side.st); err != nil {
			return err
		}
	}
	// The stated position must be one a game can reach: the engine's own
	// invariants (components conserved, Badges within the supply, spots
	// matching Assistants, one Endorsement per District) hold.
	if err := g.Check(); err != nil {
		return errf("setup", "%v", err)
	}
	return nil
}

func (b *builder) soloIndex(field, id string) (uint8, error) {
	for i, c := range b.r.Solo {
		if norm(c.ID) == norm(id) {
			return uint8(i), nil
		}
	}
	return 0, errf(field, "%q is not a Solo card", id)
}

// takeSolo removes a card from the Solo deck.
func (b *builder) takeSolo(field string, c uint8) error {
	dk := &b.g.Solo
	for i := range int(dk.N) {
		if dk.Cards[i] == c {
			copy(dk.Cards[i:dk.N-1], dk.Cards[i+1:dk.N])
			dk.N--
			return nil
		}
	}
	return errf(field, "%s is not in the Solo deck (named twice?)", b.r.Solo[c].ID)
}

func (b *builder) board(cards []BoardCard) error {
	g := b.g
	opp := g.Opponent()
	if len(cards) > engine.NumColumns {
		return errf("setup.opposition.board", "has %d cards, the board has %d columns", len(cards), engine.NumColumns)
	}
	for i, bc := range cards {
		field := fmt.Sprintf("setup.opposition.board[%d]", i)
		c, err := b.soloIndex(field+".card", bc.Card)
		if err != nil {
			return err
		}
		if err := b.takeSolo(field+".card", c); err != nil {
			return err
		}
		g.Seats[opp].Columns[i] = engine.Column{Card: int16(c), Row: 1}
		if bc.District == "" {
			if bc.Spot != "" {
				return errf(field+".spot", "an Assistant at home takes no spot")
			}
			continue
		}
		if err := b.assistant(field, opp, int8(i), Assistant{District: bc.District, Spot: bc.Spot}); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) nextSolo(ids []string) error {
	var cards []uint8
	for i, id := range ids {
		field := fmt.Sprintf("setup.next_solo_cards[%d]", i)
		c, err := b.soloIndex(field, id)
		if err != nil {
			return err
		}
		if err := b.takeSolo(field, c); err != nil {
			return err
		}
		cards = append(cards, c)
	}
	dk := &b.g.Solo
	for i := len(cards) - 1; i >= 0; i-- { // the first named is the top
		dk.Cards[dk.N] = cards[i]
		dk.N++
	}
	return nil
}

// assistant places a column's Assistant (I-1: a spot holds one Assistant).
func (b *builder) assistant(field string, seat int8, col int8, a Assistant) error {
	g := b.g
	if norm(a.District) == "plaza" {
		if a.Spot != "" {
			return errf(field+".spot", "the Plaza has no spots (C-2)")
		}
		g.MoveAssistant(seat, col, engine.Plaza)
		return nil
	}
	d, err := b.district(field+".district", a.District)
	if err != nil {
		return err
	}
	g.MoveAssistant(seat, col, d)
	if a.Spot == "" {
		return nil
	}
	act, err := b.action(field+".spot", a.Spot)
	if err != nil {
		return err
	}
	if !g.SpotFree(d, act) {
		return errf(field+".spot", "the %s spot in %s already holds an Assistant (I-1)", act, b.r.Districts[d])
	}
	g.OccupySpot(seat, col, b.r.SpotOf[act])
	return nil
}

func (b *builder) districts(ds map[string]District) error {
	g, r := b.g, b.r
	byIndex := map[int8]string{}
	for _, name := range sortedKeys(ds) {
		d, err := b.district("setup.districts."+name, name)
		if err != nil {
			return err
		}
		if prev, ok := byIndex[d]; ok {
			return errf("setup.districts."+name, "the same District as %q", prev)
		}
		byIndex[d] = name
	}
	// Initial Support: exchange values so the four tokens stay the four
	// of the rules (C-4).
	stated := map[int8]string{}
	for d := range int8(engine.NumDistricts) {
		name, ok := byIndex[d]
		if !ok || ds[name].InitialSupport == 0 {
			continue
		}
		field := "setup.districts." + name + ".initial_support"
		v := int8(ds[name].InitialSupport)
		if int(v) != ds[name].InitialSupport {
			return errf(field, "%d is not an Initial Support value", ds[name].InitialSupport)
		}
		if prev, ok := stated[v]; ok {
			return errf(field, "%d is also stated for %s; each value is on one token (C-4)", v, prev)
		}
		other := int8(-1)
		for e := range g.Districts {
			if g.Districts[e].InitialSupport == v {
				other = int8(e)
			}
		}
		if other < 0 {
			return errf(field, "%d is not an Initial Support value of the rules %v (C-4)", v, r.InitialSupport)
		}
		g.Districts[other].InitialSupport, g.Districts[d].InitialSupport = g.Districts[d].InitialSupport, v
		stated[v] = name
	}
	// Districts in canonical order, tiles in the order listed: that is the
	// placement order I-21 breaks ties by.
	for d := range int8(engine.NumDistricts) {
		name, ok := byIndex[d]
		if !ok {
			continue
		}
		ds := ds[name]
		field := "setup.districts." + name
		g.Districts[d].SupportFaceUp = ds.SupportFaceUp
		for i, t := range ds.Tiles {
			if err := b.tile(fmt.Sprintf("%s.tiles[%d]", field, i), d, t); err != nil {
				return err
			}
		}
		for _, cname := range sortedKeys(ds.Cubes) {
			c, err := b.district(field+".cubes."+cname, cname)
			if err != nil {
				return err
			}
			if err := b.cubes(field+".cubes."+cname, c, d, ds.Cubes[cname]); err != nil {
				return err
			}
		}
	}
	return nil
}

// cubes sets the cubes of one colour in a region, from the bag (or back to
// it).
func (b *builder) cubes(field string, colour, region int8, n int) error {
	g := b.g
	at := &g.Plaza[colour]
	if region != engine.Plaza {
		at = &g.Districts[region].Cubes[colour]
	}
	if n < 0 || n > int(*at)+int(g.Bag[colour]) {
		return errf(field, "%d %s cubes wanted, only %d left in the bag (C-3: %d of each colour)",
			n, b.r.Districts[colour], int(*at)+int(g.Bag[colour]), b.r.CubesPerDistrict)
	}
	g.Bag[colour] += *at - int8(n)
	*at = int8(n)
	return nil
}

func (b *builder) plaza(s *Setup) error {
	g, r := b.g, b.r
	if s.Plaza != nil {
		for _, name := range sortedKeys(s.Plaza) {
			c, err := b.district("setup.plaza."+name, name)
			if err != nil {
				return err
			}
			if err := b.cubes("setup.plaza."+name, c, engine.Plaza, s.Plaza[name]); err != nil {
				return err
			}
		}
	}
	// The bag holds what is left; stating it only checks that.
	for _, name := range sortedKeys(s.Bag) {
		c, err := b.district("setup.bag."+name, name)
		if err != nil {
			return err
		}
		if int(g.Bag[c]) != s.Bag[name] {
			return errf("setup.bag."+name, "%d stated, but %d %s cubes are left after the Plaza and the Districts (C-3: %d of each colour)",
				s.Bag[name], g.Bag[c], r.Districts[c], r.CubesPerDistrict)
		}
	}
	return nil
}

func (b *builder) tile(field string, d int8, t Tile) error {
	g, r := b.g, b.r
	k, err := tileKind(field+".kind", t.Kind)
	if err != nil {
		return err
	}
	if t.Tier < 1 || t.Tier > engine.NumTiers {
		return errf(field+".tier", "%d is not a tier (1..%d)", t.Tier, engine.NumTiers)
	}
	n := t.Count
	if n == 0 {
		n = 1
	}
	if n < 0 || n > engine.MaxPile {
		return errf(field+".count", "%d is not a count (1..%d)", t.Count, engine.MaxPile)
	}
	badge := engine.NoSeat
	switch {
	case k == engine.TilePublicWorks && t.Badge == "":
		return errf(field+".badge", "a Public Works tile carries its builder's Badge: you or opposition")
	case k == engine.TileCelebrity && t.Badge != "":
		return errf(field+".badge", "a Celebrity tile carries no Badge")
	case t.Badge != "":
		if badge, err = b.seat(field+".badge", t.Badge); err != nil {
			return err
		}
	}
	p := &g.Piles[k][t.Tier-1]
	for range n {
		if p.N == 0 {
			return errf(field, "no %s tier %d tile left in the pile (%d in all, C-14)", k, t.Tier, len(r.Tiles[k][t.Tier-1]))
		}
		pick := int(p.N) - 1 // the top of the pile
		if t.Face != "" {
			pick = -1
			for i := range int(p.N) {
				if norm(r.Tiles[k][t.Tier-1][p.Faces[i]].String()) == norm(t.Face) {
					pick = i
				}
			}
			if pick < 0 {
				return errf(field+".face", "no %s tier %d tile showing %q left in the pile", k, t.Tier, t.Face)
			}
		}
		face := p.Faces[pick]
		copy(p.Faces[pick:p.N-1], p.Faces[pick+1:p.N])
		p.N--
		g.Placed[g.NPlaced] = engine.PlacedTile{Kind: k, Tier: int8(t.Tier), Face: face, District: d, FaceUp: t.FaceUp, Badge: badge}
		g.NPlaced++
	}
	return nil
}

func (b *builder) seatSetup(field string, seat int8, s *Seat) error {
	g, r := b.g, b.r
	st := &g.Seats[seat]
	var err error
	if s.Money != nil {
		if st.Money, err = b.track(field+".money", *s.Money); err != nil {
			return err
		}
	}
	if s.Popularity != nil {
		if st.Popularity, err = b.track(field+".popularity", *s.Popularity); err != nil {
			return err
		}
	}
	for _, name := range sortedKeys(s.Polling) {
		d, err := b.district(field+".polling."+name, name)
		if err != nil {
			return err
		}
		if st.Polling[d], err = b.track(field+".polling."+name, s.Polling[name]); err != nil {
			return err
		}
	}
	if err := b.hand(field+".hand", seat, s.Hand); err != nil {
		return err
	}
	if st.Automaton && s.Assistants != nil {
		return errf(field+".assistants", "the Opposition's Assistants stand with its Solo cards: use board")
	}
	if !st.Automaton && s.Board != nil {
		return errf(field+".board", "only the Opposition has Solo cards; use assistants")
	}
	if len(s.Assistants) > engine.NumColumns {
		return errf(field+".assistants", "%d Assistants, a player has %d", len(s.Assistants), engine.NumColumns)
	}
	for i, a := range s.Assistants {
		if err := b.assistant(fmt.Sprintf("%s.assistants[%d]", field, i), seat, int8(i), a); err != nil {
			return err
		}
	}
	if s.PlazaBadge != nil {
		st.PlazaBadge = *s.PlazaBadge
	}
	for _, name := range sortedKeys(s.Endorsements) {
		f := field + ".endorsements." + name
		d, err := b.district(f, name)
		if err != nil {
			return err
		}
		lvl := s.Endorsements[name]
		if lvl < 1 || lvl > engine.NumLevels {
			return errf(f, "%d is not a level (1..%d, C-5)", lvl, engine.NumLevels)
		}
		if h := g.Districts[d].Endorsements[lvl-1]; h != engine.NoSeat {
			return errf(f, "the level %d Endorsement of %s is already held by %s", lvl, r.Districts[d], engine.SeatName(h))
		}
		g.Districts[d].Endorsements[lvl-1] = seat
	}
	for i, name := range s.Tokens {
		f := fmt.Sprintf("%s.tokens[%d]", field, i)
		d, err := b.district(f, name)
		if err != nil {
			return err
		}
		if h := g.Districts[d].VoteShareToken; h != engine.NoSeat {
			return errf(f, "the %s Vote Share token is already held by %s (C-6)", r.Districts[d], engine.SeatName(h))
		}
		g.Districts[d].VoteShareToken = seat
	}
	for _, name := range sortedKeys(s.MajorityShares) {
		f := field + ".majority_shares." + name
		d, err := b.district(f, name)
		if err != nil {
			return err
		}
		n := s.MajorityShares[name]
		if n < 0 || n > 10 {
			return errf(f, "%d is not a number of Round 4 majority shares", n)
		}
		// With every icon, the token and every vote_share reward still to
		// come, a seat's Vote Shares must stay within what the engine
		// holds (engine.MaxHeld), as the rules' own bound proves for play.
		most := n + len(b.r.ShareIcons) + 1
		for _, rd := range b.r.Rounds {
			for _, w := range []engine.Reward{rd.Presence, rd.DistrictMajority} {
				if w.Kind == engine.RewardVoteShare {
					most += int(w.Amount)
				}
			}
		}
		if most > engine.MaxHeld {
			return errf(f, "%d: with the rules' icons, token and vote_share rewards the seat could reach %d Vote Shares, more than the limit of %d", n, most, engine.MaxHeld)
		}
		st.MajorityShares[d] = int8(n)
	}
	return nil
}

// hand states your hand: the standard hand goes back on top of its decks,
// then each named card comes out of its deck.
func (b *builder) hand(field string, seat int8, ids []string) error {
	g, r := b.g, b.r
	st := &g.Seats[seat]
	if ids == nil {
		return nil
	}
	if st.Automaton {
		return errf(field, "the Opposition has no hand; its cards are Solo cards")
	}
	if len(ids) > engine.MaxHand {
		return errf(field, "%d cards, a hand holds at most %d", len(ids), engine.MaxHand)
	}
	for i := range st.NHand {
		c := st.Hand[i]
		dk := &g.Decks[r.Cards[c].Deck]
		dk.Cards[dk.N] = c
		dk.N++
	}
	st.NHand = 0
	for i, id := range ids {
		f := fmt.Sprintf("%s[%d]", field, i)
		card := -1
		for c := range r.Cards {
			if norm(r.Cards[c].ID) == norm(id) {
				card = c
			}
		}
		if card < 0 {
			return errf(f, "%q is not a Strategy card", id)
		}
		dk := &g.Decks[r.Cards[card].Deck]
		at := -1
		for j := range int(dk.N) {
			if int(dk.Cards[j]) == card {
				at = j
			}
		}
		if at < 0 {
			return errf(f, "%s is named twice", r.Cards[card].ID)
		}
		copy(dk.Cards[at:dk.N-1], dk.Cards[at+1:dk.N])
		dk.N--
		st.Hand[st.NHand] = uint8(card)
		st.NHand++
	}
	return nil
}
