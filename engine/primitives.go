package engine

// Primitives: each is one rule step that changes the board, shared by the
// players' actions and the Opposition (which never pays, rulebook Solo
// Gameplay 4). And the queries the Opposition decides with.

// GainResources moves Money and Popularity right; a gain past the end of
// the track is lost (C-7).
func (g *Game) GainResources(s int8, money, pop int8, rule string) {
	st := &g.Seats[s]
	if money > 0 {
		to := int8(min(int(g.rules.TrackMax), int(st.Money)+int(money)))
		if g.rec != nil {
			g.emit(Event{Kind: EvTracker, Seat: s, District: -1, Action: TrackerMoney, From: int16(st.Money), To: int16(to), Item: int16(money), Rule: rule})
		}
		st.Money = to
	}
	if pop > 0 {
		to := int8(min(int(g.rules.TrackMax), int(st.Popularity)+int(pop)))
		if g.rec != nil {
			g.emit(Event{Kind: EvTracker, Seat: s, District: -1, Action: TrackerPopularity, From: int16(st.Popularity), To: int16(to), Item: int16(pop), Rule: rule})
		}
		st.Popularity = to
	}
}

// GainPolling advances seat's polling in d (C-7). A player reaching the
// token space takes the Vote Share token at once if it is still there
// (C-10, I-22); the Opposition takes it at its Clean Up (I-15).
func (g *Game) GainPolling(s int8, d int8, n int8, rule string) {
	st := &g.Seats[s]
	to := int8(min(int(g.rules.TrackMax), int(st.Polling[d])+int(n)))
	if g.rec != nil {
		g.emit(Event{Kind: EvTracker, Seat: s, District: -1, Action: TrackerPolling + d, From: int16(st.Polling[d]), To: int16(to), Item: int16(n), Rule: rule})
	}
	st.Polling[d] = to
	if !st.Automaton && to >= g.rules.TokenSpace {
		g.TakeVoteShareToken(s, d, "C-10")
	}
}

// mul8 multiplies small counts, saturating at the int8 maximum: a rules
// file may set per-Strength rewards whose product exceeds any track.
func mul8(a, b int8) int8 { return int8(min(127, int(a)*int(b))) }

// TakeVoteShareToken gives seat the Vote Share token of d if it is still in
// the District.
func (g *Game) TakeVoteShareToken(s int8, d int8, rule string) {
	if g.Districts[d].VoteShareToken != NoSeat {
		return
	}
	g.Districts[d].VoteShareToken = s
	if g.rec != nil {
		g.emit(Event{Kind: EvToken, Seat: s, District: d, Rule: rule})
	}
}

// MoveAssistant sends the Assistant of a column to a region, freeing the
// spot it held.
func (g *Game) MoveAssistant(s int8, col int8, region int8) {
	a := &g.Seats[s].Assistants[col]
	if a.Spot != NoSpot {
		g.Districts[a.Region].Spots[a.Spot] = NoSeat
	}
	*a = AssistantState{Region: region, Spot: NoSpot}
	if g.rec != nil {
		g.emit(Event{Kind: EvAssistant, Seat: s, District: region, Action: col})
	}
}

// OccupySpot puts the column's Assistant on a free spot of its District.
func (g *Game) OccupySpot(s int8, col int8, spot int8) {
	a := &g.Seats[s].Assistants[col]
	a.Spot = spot
	g.Districts[a.Region].Spots[spot] = s
	if g.rec != nil {
		g.emit(Event{Kind: EvSpot, Seat: s, District: a.Region, Item: int16(spot), Rule: "I-1"})
	}
}

// AssistantRegion returns where a column's Assistant stands.
func (g *Game) AssistantRegion(s int8, col int8) int8 { return g.Seats[s].Assistants[col].Region }

// SpotFree reports whether action a's spot in d holds no Assistant (I-1).
func (g *Game) SpotFree(d int8, a Action) bool {
	return g.Districts[d].Spots[g.rules.SpotOf[a]] == NoSeat
}

// PlacePublicWorks builds the top tile of a tier face down in d with
// seat's Badge on it (Public Works steps 3–5). It returns the tile index.
func (g *Game) PlacePublicWorks(s int8, d int8, tier int8) int {
	i := g.placeTile(TilePublicWorks, d, tier, s)
	if g.rec != nil {
		m, _ := g.paid(s, PublicWorks, tier)
		g.emit(Event{Kind: EvPublicWorks, Seat: s, District: d, Tier: tier, Item: int16(i), From: int16(m)})
	}
	return i
}

// PlaceCelebrity builds the top tile of a tier face down in d, gains
// Polling equal to the tier and draws cubes to the Plaza (Celebrity 3–5).
func (g *Game) PlaceCelebrity(s int8, d int8, tier int8) int {
	i := g.placeTile(TileCelebrity, d, tier, NoSeat)
	if g.rec != nil {
		m, p := g.paid(s, Celebrity, tier)
		g.emit(Event{Kind: EvCelebrity, Seat: s, District: d, Tier: tier, Item: int16(i), From: int16(m), To: int16(p)})
	}
	g.GainPolling(s, d, tier, "")
	g.DrawCubes(g.rules.Costs.CelebrityCubes)
	return i
}

// paid is the cost shown in events: nothing for the Opposition (Solo
// Gameplay 4).
func (g *Game) paid(s int8, a Action, tier int8) (money, pop int8) {
	if g.Seats[s].Automaton {
		return 0, 0
	}
	return g.Cost(s, a, tier)
}

func (g *Game) placeTile(k TileKind, d int8, tier int8, badge int8) int {
	p := &g.Piles[k][tier-1]
	p.N--
	i := int(g.NPlaced)
	g.Placed[i] = PlacedTile{Kind: k, Tier: tier, Face: p.Faces[p.N], District: d, Badge: badge}
	g.NPlaced++
	return i
}

// Research flips a face-down tile in d (tile index, or -1 for the Initial
// Support token) and gains the Research polling there (Research 1–5).
func (g *Game) Research(s int8, d int8, tile int) {
	if tile < 0 {
		if !g.Districts[d].SupportFaceUp {
			g.flips++
		}
		g.Districts[d].SupportFaceUp = true
		if g.rec != nil {
			g.emit(Event{Kind: EvFlip, Seat: s, District: d, Item: -1, To: int16(g.Districts[d].InitialSupport)})
		}
	} else {
		g.FlipTile(s, tile, EvFlip, "")
	}
	g.GainPolling(s, d, g.rules.Costs.ResearchPolling, "")
}

// FlipTile turns a placed tile face up and attracts a matching cube from
// the Plaza for each cube icon; multi-colour icons take the District's
// colour; a colour not in the Plaza moves nothing (Research 3–4, Final
// Tally 1.b–1.c, I-21).
func (g *Game) FlipTile(s int8, i int, kind EventKind, rule string) {
	t := &g.Placed[i]
	if !t.FaceUp {
		g.flips++
	}
	t.FaceUp = true
	if g.rec != nil {
		g.emit(Event{Kind: kind, Seat: s, District: t.District, Item: int16(i), Note: g.TileName(i), Rule: rule})
	}
	f := g.rules.Tiles[t.Kind][t.Tier-1][t.Face]
	for c := range int8(NumDistricts) {
		n := f.Cubes[c]
		if c == t.District {
			n += f.Multi
		}
		for range n {
			if g.Plaza[c] > 0 {
				g.MoveCube(c, Plaza, t.District)
			}
		}
	}
}

// Campaign gains the Campaign polling in d (Campaign step 2).
func (g *Game) Campaign(s int8, d int8) {
	if g.rec != nil {
		_, p := g.paid(s, Campaign, 0)
		g.emit(Event{Kind: EvCampaign, Seat: s, District: d, From: int16(p)})
	}
	g.GainPolling(s, d, g.rules.Costs.CampaignPolling, "")
}

// DrawCubes draws n cubes from the bag into the Plaza (I-19: an empty bag
// gives what it has).
func (g *Game) DrawCubes(n int8) {
	for range n {
		c := g.drawCube()
		if g.rec != nil {
			g.emit(Event{Kind: EvCubeDraw, Seat: NoSeat, District: Plaza, Item: int16(c)})
		}
		if c < 0 {
			return
		}
	}
}

// MoveCube moves one cube of a colour between regions (District or Plaza).
func (g *Game) MoveCube(colour, from, to int8) {
	*g.cubes(from, colour)--
	*g.cubes(to, colour)++
	if g.rec != nil {
		g.emit(Event{Kind: EvCubeMove, Seat: NoSeat, District: to, Item: int16(colour), From: int16(from), To: int16(to)})
	}
}

func (g *Game) cubes(region, colour int8) *int8 {
	if region == Plaza {
		return &g.Plaza[colour]
	}
	return &g.Districts[region].Cubes[colour]
}

// Strength is seat's Strength in a region: 1 per Assistant, the tier of
// each Public Works carrying its Badge, 1 for its Plaza Badge (rulebook
// Strength).
func (g *Game) Strength(s int8, region int8) int8 {
	st := &g.Seats[s]
	n := int8(0)
	for _, a := range st.Assistants {
		if a.Region == region {
			n++
		}
	}
	if region == Plaza {
		if st.PlazaBadge {
			n++
		}
		return n
	}
	for i := range g.NPlaced {
		t := &g.Placed[i]
		if t.District == region && t.Badge == s {
			n += t.Tier
		}
	}
	return n
}

// Strengths is every seat's Strength in every region (Districts, then the
// Plaza at index Plaza), in one pass over the board, for Round Scoring.
func (g *Game) Strengths() (t [MaxSeats][NumDistricts + 1]int8) {
	for s := range g.NSeats {
		st := &g.Seats[s]
		for _, a := range st.Assistants {
			if a.Region != Home {
				t[s][a.Region]++
			}
		}
		if st.PlazaBadge {
			t[s][Plaza]++
		}
	}
	for i := range g.NPlaced {
		if p := &g.Placed[i]; p.Badge != NoSeat {
			t[p.Badge][p.District] += p.Tier
		}
	}
	return t
}

// VoteShares is seat's Vote Shares in d during play: icons reached plus the
// Vote Share token (I-7).
func (g *Game) VoteShares(s int8, d int8) int8 {
	n := g.rules.SharesAt(g.Seats[s].Polling[d])
	if g.Districts[d].VoteShareToken == s {
		n++
	}
	return n
}

// FaceDown counts the face-down tiles of a kind and tier in d (tier 0: any).
func (g *Game) FaceDown(d int8, k TileKind, tier int8) int {
	n := 0
	for i := range g.NPlaced {
		t := &g.Placed[i]
		if t.District == d && !t.FaceUp && t.Kind == k && (tier == 0 || t.Tier == tier) {
			n++
		}
	}
	return n
}

// FirstFaceDown returns the earliest placed face-down tile of a kind and
// tier in d (I-21), or -1.
func (g *Game) FirstFaceDown(d int8, k TileKind, tier int8) int {
	for i := range int(g.NPlaced) {
		t := &g.Placed[i]
		if t.District == d && !t.FaceUp && t.Kind == k && t.Tier == tier {
			return i
		}
	}
	return -1
}

// Built counts the tiles of a kind and tier in d, face up or down; with a
// seat other than NoSeat, only those carrying its Badge.
func (g *Game) Built(d int8, k TileKind, tier int8, badge int8) int {
	n := 0
	for i := range g.NPlaced {
		t := &g.Placed[i]
		if t.District == d && t.Kind == k && t.Tier == tier && (badge == NoSeat || t.Badge == badge) {
			n++
		}
	}
	return n
}

// TilesLeft is the number of unbuilt tiles of a kind and tier.
func (g *Game) TilesLeft(k TileKind, tier int8) int { return int(g.Piles[k][tier-1].N) }

// BadgesLeft is seat's Badges not on the board.
func (g *Game) BadgesLeft(s int8) int8 {
	n := g.rules.BadgesPerPlayer
	if g.Seats[s].PlazaBadge {
		n--
	}
	for i := range g.NPlaced {
		if g.Placed[i].Badge == s {
			n--
		}
	}
	return n
}

// Flips counts the tiles and Initial Support tokens turned face up in play
// since Reset: a Research, a Final Tally reveal or the Final Tally's turning
// of the tokens adds one for each that was face down. Nothing turns face
// down again, so two positions of one game differ in what lies face up
// exactly when their Flips differ (a search compares them to learn whether
// a move uncovered anything).
func (g *Game) Flips() int { return int(g.flips) }

// BagCount is the number of cubes in the bag.
func (g *Game) BagCount() int {
	return int(g.Bag[0]) + int(g.Bag[1]) + int(g.Bag[2]) + int(g.Bag[3])
}

// PlazaCount is the number of cubes in the Plaza.
func (g *Game) PlazaCount() int {
	return int(g.Plaza[0]) + int(g.Plaza[1]) + int(g.Plaza[2]) + int(g.Plaza[3])
}

// FlipSoloCard is Solo Gameplay step 1: the top Solo card goes into the
// leftmost open column, middle row. An empty Solo deck is reformed from
// the box (I-19). It returns the card and the column.
func (g *Game) FlipSoloCard(s int8) (card int, col int8) {
	if g.Solo.N == 0 {
		g.reformSolo(s)
	}
	st := &g.Seats[s]
	col = 0
	for st.Columns[col].Card >= 0 {
		col++
	}
	c := g.Solo.pop()
	st.Columns[col] = Column{Card: int16(c), Row: 1}
	if g.rec != nil {
		g.emit(Event{Kind: EvSoloCard, Seat: s, District: -1, Item: int16(c), Action: col, Rule: "Solo Gameplay 1"})
	}
	return int(c), col
}

// RevealSoloCards turns up to n cards from the top of the Solo deck face
// up where they lie, for a scripted Opposition that looks before it
// chooses (package opposition/script); an empty deck is reformed from the
// box first, as FlipSoloCard does (I-19). The cards are public from then
// on. It returns how many it turned: fewer than n when the deck holds
// fewer.
func (g *Game) RevealSoloCards(s int8, n int) int {
	if g.Solo.N == 0 {
		g.reformSolo(s)
	}
	n = min(n, int(g.Solo.N))
	for k := range n {
		if g.rec != nil {
			g.emit(Event{Kind: EvSoloReveal, Seat: s, District: -1, Item: int16(g.SoloCardAt(k)), Action: int8(k)})
		}
	}
	return n
}

// SoloCardAt is the card k places from the top of the Solo deck (0 the
// top). It reads hidden information: the engine's callers ask it only of
// cards turned up (RevealSoloCards) or flipped.
func (g *Game) SoloCardAt(k int) int { return int(g.Solo.Cards[int(g.Solo.N)-1-k]) }

// FlipSoloCardAt is FlipSoloCard for the card k places from the top: a
// revealed card the automaton chose (0 is FlipSoloCard itself).
func (g *Game) FlipSoloCardAt(s int8, k int) (card int, col int8) {
	if k == 0 {
		return g.FlipSoloCard(s)
	}
	i := int(g.Solo.N) - 1 - k
	c := g.Solo.Cards[i]
	// Lift it out and close the gap: the cards above it move down one.
	copy(g.Solo.Cards[i:g.Solo.N-1], g.Solo.Cards[i+1:g.Solo.N])
	g.Solo.Cards[g.Solo.N-1] = c
	return g.FlipSoloCard(s)
}

// SoloCardToBottom puts the card k places from the top of the Solo deck
// at its bottom, face down again but known to everyone who saw it.
func (g *Game) SoloCardToBottom(s int8, k int) {
	i := int(g.Solo.N) - 1 - k
	c := g.Solo.Cards[i]
	copy(g.Solo.Cards[1:i+1], g.Solo.Cards[:i])
	g.Solo.Cards[0] = c
	if g.rec != nil {
		g.emit(Event{Kind: EvSoloBottom, Seat: s, District: -1, Item: int16(c)})
	}
}

// AutomatonIntN is a uniform integer in [0, n), n > 0, from the game's
// own generator for a scripted Opposition's chance: a game stays a pure
// function of its rules, seed and choices, and a search's Determinize
// resamples these draws as it does every other.
func (g *Game) AutomatonIntN(n int) int { return IntN(&g.autoRng, n) }

// GainVotes gives seat n votes now, counted at the Final Tally with the
// rest: a scripted Opposition's reward (package opposition/script), which
// the printed rules do not have. The total a seat may gain so is bounded
// by MaxPlayVotes; more is lost, as a gain past the end of a track is.
func (g *Game) GainVotes(s int8, n int16, rule string) {
	st := &g.Seats[s]
	to := min(MaxPlayVotes, st.Votes+max(0, n))
	if g.rec != nil {
		g.emit(Event{Kind: EvVotes, Seat: s, District: -1, From: st.Votes, To: to, Item: n, Rule: rule})
	}
	st.Votes = to
}

// reformSolo reforms the empty Solo deck from the box (I-19).
func (g *Game) reformSolo(s int8) {
	g.Solo, g.SoloBox = g.SoloBox, Deck{}
	shuffle(&g.soloRng, g.Solo.Cards[:g.Solo.N])
	if g.rec != nil {
		g.emit(Event{Kind: EvReshuffle, Seat: s, District: -1, Action: -1, Rule: "I-19"})
	}
}

// BoxSoloCards is the Opposition's Clean Up 1–3: the cards on its board and
// as many from the top of its deck go to the box.
func (g *Game) BoxSoloCards(s int8) {
	st := &g.Seats[s]
	n := 0
	for c := range st.Columns {
		if st.Columns[c].Card >= 0 {
			g.SoloBox.push(uint8(st.Columns[c].Card))
			st.Columns[c] = Column{Card: -1}
			n++
		}
	}
	for range n {
		if g.Solo.N == 0 {
			break
		}
		g.SoloBox.push(g.Solo.pop())
		n++
	}
	if g.rec != nil {
		g.emit(Event{Kind: EvSoloBox, Seat: s, District: -1, Item: int16(n), Rule: "Solo Clean Up 1-3"})
	}
}

// RevealTile flips a face-down tile in the Final Tally (1.a–1.c).
func (g *Game) RevealTile(s int8, i int) { g.FlipTile(s, i, EvReveal, "Final Tally 1.a") }
