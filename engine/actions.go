package engine

// Strategy Actions (rulebook "Strategy Actions in Detail", "Plaza Wild
// Strategy Actions") as the player takes them: costs, "cannot" and effects.
// The effects themselves are the primitives in primitives.go, which the
// Opposition uses without paying.

// Cost returns what seat pays for an action of tier t, after its passive
// discounts (C-15: costs never go below 0).
func (g *Game) Cost(s int8, a Action, tier int8) (money, pop int8) {
	c := g.rules.Costs
	switch a {
	case PublicWorks:
		money = mul8(c.PublicWorksMoneyPerTier, tier)
	case Celebrity:
		money, pop = mul8(c.CelebrityMoneyPerTier, tier), mul8(c.CelebrityPopularityPerTier, tier)
	case Campaign:
		pop = c.CampaignPopularity
	}
	st := &g.Seats[s]
	return max(0, money-st.DiscountMoney[a]), max(0, pop-st.DiscountPopularity[a])
}

// CanPay reports whether seat's trackers cover a cost (C-7).
func (g *Game) CanPay(s int8, money, pop int8) bool {
	return g.Seats[s].Money >= money && g.Seats[s].Popularity >= pop
}

// freeIcons returns the connected, unspent Strategy-icon slots of this turn,
// keeping one slot per Action: two unspent icons of one Action are
// interchangeable (I-2).
func (g *Game) freeIcons() (slots [NumSlots]int8, n int) {
	card := &g.rules.Cards[g.turn.Card]
	var seen [NumActions]bool
	for slot := range int8(NumSlots) {
		bit := uint8(1) << slot
		ic := card.Slots[slot]
		if g.turn.Connected&bit == 0 || g.turn.Used&bit != 0 || !ic.IsAction || seen[ic.Action] {
			continue
		}
		seen[ic.Action] = true
		slots[n] = slot
		n++
	}
	return slots, n
}

func (g *Game) legalActions(buf []Option, s int8) []Option {
	r := g.rules
	st := &g.Seats[s]
	region := g.AssistantRegion(s, g.turn.Column)
	slots, n := g.freeIcons()
	card := &r.Cards[g.turn.Card]
	if region == Plaza && n > 0 {
		// In the Plaza every icon serves only the wild actions, so one
		// slot stands for all (I-2).
		buf = g.legalPlaza(buf, s, slots[0])
	}
	if region != Plaza {
		for _, slot := range slots[:n] {
			buf = g.legalDistrictAction(buf, s, region, slot, card.Slots[slot].Action)
			buf = append(buf, Option{Kind: OptFundraise, A: slot})
		}
	}
	if !g.turn.AbilityUsed {
		buf = g.legalAbility(buf, region, card.Ability)
	}
	// 5.b, I-5: a ready Endorsement token connects one more slot.
	for d := range int8(NumDistricts) {
		lvl := g.EndorsementHeld(s, d)
		if lvl == 0 || g.Districts[d].FavorUsed[lvl-1] {
			continue
		}
		e := r.Endorsements[lvl-1]
		if st.Money < e.FavorMoney || st.Popularity < e.FavorPopularity {
			continue
		}
		for slot := range int8(NumSlots) {
			if g.turn.Connected&(1<<slot) == 0 {
				buf = append(buf, Option{Kind: OptFavor, A: d, B: slot})
			}
		}
	}
	return append(buf, Option{Kind: OptEnd})
}

// legalDistrictAction lists action a in District d: the icon must match,
// the spot must be free (I-1), the cost payable and the components there.
func (g *Game) legalDistrictAction(buf []Option, s, d, slot int8, a Action) []Option {
	if !g.SpotFree(d, a) {
		return buf
	}
	switch a {
	case PublicWorks:
		if g.BadgesLeft(s) == 0 {
			return buf
		}
		for t := int8(1); t <= NumTiers; t++ {
			m, p := g.Cost(s, PublicWorks, t)
			if g.TilesLeft(TilePublicWorks, t) > 0 && g.CanPay(s, m, p) {
				buf = append(buf, Option{Kind: OptPublicWorks, A: slot, B: t})
			}
		}
	case Celebrity:
		for t := int8(1); t <= NumTiers; t++ {
			m, p := g.Cost(s, Celebrity, t)
			if g.TilesLeft(TileCelebrity, t) > 0 && g.CanPay(s, m, p) {
				buf = append(buf, Option{Kind: OptCelebrity, A: slot, B: t})
			}
		}
	case Research:
		if !g.Districts[d].SupportFaceUp {
			buf = append(buf, Option{Kind: OptResearch, A: slot, B: -1})
		}
		for i := range int8(g.NPlaced) {
			t := &g.Placed[i]
			if t.District == d && !t.FaceUp {
				buf = append(buf, Option{Kind: OptResearch, A: slot, B: i})
			}
		}
	case Campaign:
		m, p := g.Cost(s, Campaign, 0)
		if g.CanPay(s, m, p) {
			buf = append(buf, Option{Kind: OptCampaign, A: slot})
		}
	}
	return buf
}

// legalPlaza lists the Plaza wild actions (rulebook "Plaza Wild Strategy
// Actions"; I-8: Direct Appeal needs a cube in the Plaza).
func (g *Game) legalPlaza(buf []Option, s, slot int8) []Option {
	c := g.rules.Costs
	if g.CanPay(s, c.DirectAppealMoney, c.DirectAppealPopularity) {
		for colour := range int8(NumDistricts) {
			if g.Plaza[colour] == 0 {
				continue
			}
			for d := range int8(NumDistricts) {
				buf = append(buf, Option{Kind: OptDirectAppeal, A: slot, B: colour, C: d})
			}
		}
	}
	return append(buf, Option{Kind: OptRally, A: slot}, Option{Kind: OptPlazaFundraise, A: slot})
}

// legalAbility lists the uses of the card ability (I-4, C-15).
// OPEN: an ability that could change nothing (a draw from an empty bag, an
// attract with an empty Plaza, "this District" in the Plaza, which C-15
// says has no effect) is not offered: using it would be a no-op, and
// offering it only dilutes the choices.
func (g *Game) legalAbility(buf []Option, region int8, a Ability) []Option {
	switch a.Kind {
	case AbilityPollingHere:
		if region != Plaza {
			buf = append(buf, Option{Kind: OptAbility, B: region})
		}
	case AbilityPollingAny:
		for d := range int8(NumDistricts) {
			buf = append(buf, Option{Kind: OptAbility, B: d})
		}
	case AbilityGain:
		buf = append(buf, Option{Kind: OptAbility})
	case AbilityDrawCube:
		if g.BagCount() > 0 {
			buf = append(buf, Option{Kind: OptAbility})
		}
	case AbilityDrawAttract:
		// I-19: an empty bag draws nothing, but the attract still moves a
		// cube already in the Plaza.
		if g.BagCount() > 0 || g.PlazaCount() > 0 {
			buf = append(buf, Option{Kind: OptAbility})
		}
	case AbilityAttractCube:
		buf = g.legalAttract(buf, OptAbility)
	}
	return buf
}

// legalAttract lists "Attract a Voter": one cube of any colour in the
// Plaza to any District.
func (g *Game) legalAttract(buf []Option, kind OptionKind) []Option {
	for colour := range int8(NumDistricts) {
		if g.Plaza[colour] == 0 {
			continue
		}
		for d := range int8(NumDistricts) {
			buf = append(buf, Option{Kind: kind, B: colour, C: d})
		}
	}
	return buf
}

// applyAction resolves an action, ability or Favor option in full (5.a:
// one is resolved before the next begins).
func (g *Game) applyAction(s int8, o Option) {
	region := g.AssistantRegion(s, g.turn.Column)
	switch o.Kind {
	case OptPublicWorks, OptCelebrity, OptResearch, OptCampaign, OptFundraise:
		g.turn.Acted = true // I-6: an action in the District
		g.Seats[s].ActedDistricts |= 1 << region
	}
	if o.Kind != OptAbility && o.Kind != OptFavor {
		g.turn.Used |= 1 << o.A
	}
	c := g.rules.Costs
	switch o.Kind {
	case OptPublicWorks:
		m, _ := g.Cost(s, PublicWorks, o.B)
		g.spend(s, m, 0)
		g.PlacePublicWorks(s, region, o.B)
	case OptCelebrity:
		m, p := g.Cost(s, Celebrity, o.B)
		g.spend(s, m, p)
		g.PlaceCelebrity(s, region, o.B)
	case OptResearch:
		g.Research(s, region, int(o.B))
		if bonus := g.Seats[s].ResearchBonus; bonus > 0 {
			g.GainPolling(s, region, bonus, "C-15")
		}
	case OptCampaign:
		_, p := g.Cost(s, Campaign, 0)
		g.spend(s, 0, p)
		g.Campaign(s, region)
	case OptFundraise:
		if g.rec != nil {
			g.emit(Event{Kind: EvFundraise, Seat: s, District: region})
		}
		g.GainResources(s, mul8(c.DistrictFundraiseMoneyPerStrength, g.Strength(s, region)), 0, "")
	case OptDirectAppeal:
		g.directAppeal(s, o.B, o.C)
	case OptRally:
		str := g.Strength(s, Plaza)
		if g.rec != nil {
			g.emit(Event{Kind: EvRally, Seat: s, District: Plaza, From: int16(str)})
		}
		g.GainResources(s, 0, mul8(c.RallyPopularityPerStrength, str), "")
	case OptPlazaFundraise:
		if g.rec != nil {
			g.emit(Event{Kind: EvFundraise, Seat: s, District: Plaza})
		}
		n := int8(0)
		for d := range int8(NumDistricts) {
			if g.Strength(s, d) > 0 {
				n++
			}
		}
		g.GainResources(s, mul8(c.PlazaFundraiseMoneyPerDistrict, n), 0, "")
	case OptAbility:
		g.useAbility(s, region, o)
	case OptFavor:
		g.useFavor(s, o.A, o.B)
	}
}

// spend pays a cost the legal-option generator has checked.
func (g *Game) spend(s int8, money, pop int8) {
	st := &g.Seats[s]
	if money > 0 {
		if g.rec != nil {
			g.emit(Event{Kind: EvTracker, Seat: s, District: -1, Action: TrackerMoney, From: int16(st.Money), To: int16(st.Money - money), Item: -int16(money)})
		}
		st.Money -= money
	}
	if pop > 0 {
		if g.rec != nil {
			g.emit(Event{Kind: EvTracker, Seat: s, District: -1, Action: TrackerPopularity, From: int16(st.Popularity), To: int16(st.Popularity - pop), Item: -int16(pop)})
		}
		st.Popularity -= pop
	}
}

// Plaza A, Direct Appeal: pay, move a cube, and the first time a Badge in
// the Plaza (I-8).
func (g *Game) directAppeal(s int8, colour, d int8) {
	c := g.rules.Costs
	g.spend(s, c.DirectAppealMoney, c.DirectAppealPopularity)
	if g.rec != nil {
		g.emit(Event{Kind: EvDirectAppeal, Seat: s, District: d, Item: int16(colour)})
	}
	g.MoveCube(colour, Plaza, d)
	st := &g.Seats[s]
	if !st.DirectAppealTaken {
		st.DirectAppealTaken = true
		// OPEN: with all six Badges already on Public Works, none is left
		// for the Plaza space. Literal reading: the action is still taken
		// (the Badge is a consequence, not a condition) and no Badge is
		// placed.
		if g.BadgesLeft(s) > 0 && !st.PlazaBadge {
			st.PlazaBadge = true
			if g.rec != nil {
				g.emit(Event{Kind: EvBadge, Seat: s, District: Plaza, Rule: "I-8"})
			}
		}
	}
}

// useAbility resolves the card ability (5.a, I-4, C-15).
func (g *Game) useAbility(s int8, region int8, o Option) {
	g.turn.AbilityUsed = true
	a := g.rules.Cards[g.turn.Card].Ability
	if g.rec != nil {
		g.emit(Event{Kind: EvAbility, Seat: s, District: region, Item: g.turn.Card, Rule: "C-15"})
	}
	switch a.Kind {
	case AbilityPollingHere, AbilityPollingAny:
		g.GainPolling(s, o.B, a.Polling, "C-15")
	case AbilityGain:
		g.GainResources(s, a.Money, a.Popularity, "C-15")
	case AbilityDrawCube:
		g.DrawCubes(1)
	case AbilityAttractCube:
		g.MoveCube(o.B, Plaza, o.C)
	case AbilityDrawAttract:
		g.DrawCubes(1)
		if g.PlazaCount() > 0 {
			g.Pending = DecAttract
		}
	}
}

// useFavor flips a ready Endorsement token as a Favor, pays its cost (C-5)
// and connects one more slot; a resource slot pays out at once (I-3, I-5).
func (g *Game) useFavor(s int8, d int8, slot int8) {
	lvl := g.EndorsementHeld(s, d)
	e := g.rules.Endorsements[lvl-1]
	g.Districts[d].FavorUsed[lvl-1] = true
	g.spend(s, e.FavorMoney, e.FavorPopularity)
	st := &g.Seats[s]
	st.Columns[g.turn.Column].Favors |= 1 << slot
	g.turn.Connected |= 1 << slot
	if g.rec != nil {
		g.emit(Event{Kind: EvFavor, Seat: s, District: d, Tier: lvl, Item: int16(slot), From: g.turn.Card, Rule: "I-5"})
	}
	ic := g.rules.Cards[g.turn.Card].Slots[slot]
	if !ic.IsAction {
		g.GainResources(s, ic.Money, ic.Popularity, "I-3")
	}
}
