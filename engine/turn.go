package engine

// A player's Strategy Phase turn, steps 1–5 of the rulebook, then the
// Assistant's spot (I-1) and the Endorsement check (I-6).

// Strategy Phase 1: select a Strategy card in hand.
func (g *Game) chooseCard(s int8, i int8) {
	st := &g.Seats[s]
	g.turn.Card = int16(st.Hand[i])
	st.NHand--
	copy(st.Hand[i:st.NHand], st.Hand[i+1:st.NHand+1])
	g.Pending = DecColumn
}

// ConnectedSlots returns the slot mask a card placed in column c, row r
// connects (C-11).
func (r *Rules) ConnectedSlots(c, row int8) uint8 {
	p := r.Columns[c][row]
	return 1<<p.Slots[0] | 1<<p.Slots[1]
}

// Strategy Phase 2 and 3: place the card and gain income (I-3, C-11).
func (g *Game) placeCard(s int8, row int8) {
	r := g.rules
	st := &g.Seats[s]
	col := g.turn.Column
	st.Columns[col] = Column{Card: g.turn.Card, Row: row}
	card := &r.Cards[g.turn.Card]
	if g.rec != nil {
		g.emit(Event{Kind: EvPlayCard, Seat: s, District: -1, Item: g.turn.Card, Action: col, Tier: row, Rule: "C-11"})
	}
	g.turn.Connected = r.ConnectedSlots(col, row)
	p := r.Columns[col][row]
	money, pop := p.Money, p.Popularity
	for slot := range NumSlots {
		if g.turn.Connected&(1<<slot) != 0 {
			money += card.Slots[slot].Money
			pop += card.Slots[slot].Popularity
		}
	}
	g.GainResources(s, money, pop, "I-3")
	// C-15: a passive is in effect from when its card is played.
	switch card.Ability.Kind {
	case AbilityDiscount:
		st.DiscountMoney[card.Ability.Action] += card.Ability.Money
		st.DiscountPopularity[card.Ability.Action] += card.Ability.Popularity
	case AbilityResearchBonus:
		st.ResearchBonus += card.Ability.Polling
	}
	g.Pending = DecRegion
}

// Strategy Phase 4: the column's Assistant goes to a District or the Plaza.
func (g *Game) assignAssistant(s int8, region int8) {
	g.MoveAssistant(s, g.turn.Column, region)
	g.Pending = DecAction
}

// The end of step 5: in a District the Assistant takes a spot (I-1); in the
// Plaza it takes none and the turn ends.
func (g *Game) endActions(s int8) {
	if g.AssistantRegion(s, g.turn.Column) == Plaza {
		g.endTurn(s)
		return
	}
	g.Pending = DecSpot
}

// legalSpots lists the free spots of the Assistant's District, or "no spot"
// when all four are taken (I-1).
func (g *Game) legalSpots(buf []Option, s int8) []Option {
	d := g.AssistantRegion(s, g.turn.Column)
	n := len(buf)
	for sp := range int8(NumActions) {
		if g.Districts[d].Spots[sp] == NoSeat {
			buf = append(buf, Option{Kind: OptSpot, A: sp})
		}
	}
	if len(buf) == n {
		buf = append(buf, Option{Kind: OptSpot, A: NoSpot})
	}
	return buf
}

func (g *Game) takeSpot(s int8, spot int8) {
	if spot != NoSpot {
		g.OccupySpot(s, g.turn.Column, spot)
	} else {
		if g.rec != nil {
			g.emit(Event{Kind: EvSpot, Seat: s, District: g.AssistantRegion(s, g.turn.Column), Item: -1, Rule: "I-1"})
		}
	}
	g.endTurn(s)
}

// endTurn checks the Endorsement (I-6) and passes the turn on: in the
// District of this turn's Assistant if it took an action there, or with
// endorsement_check_every_district in every District the seat took an
// action in this round, in canonical order.
func (g *Game) endTurn(s int8) {
	if g.rules.Variants.EndorsementCheckEveryDistrict {
		for d := range int8(NumDistricts) {
			if g.Seats[s].ActedDistricts&(1<<d) != 0 {
				g.endorse(s, d, "I-6")
			}
		}
	} else if d := g.AssistantRegion(s, g.turn.Column); g.turn.Acted && d >= 0 && d < NumDistricts {
		g.endorse(s, d, "I-6")
	}
	g.Pending = DecNone
	g.Step++
}

// endorse gives seat the highest Endorsement level in d that its polling
// entitles it to, is still unclaimed and is above the one it holds,
// returning the lower token (rulebook "Gaining an Endorsement", C-9; I-6
// for players, I-15 for the Opposition).
func (g *Game) endorse(s int8, d int8, rule string) {
	ds := &g.Districts[d]
	held := g.EndorsementHeld(s, d)
	for lvl := g.rules.EntitledLevel(g.Seats[s].Polling[d]); lvl > held; lvl-- {
		if ds.Endorsements[lvl-1] != NoSeat {
			continue
		}
		if held > 0 {
			// The returned token goes back unclaimed, its Favor side
			// reset. The new token has not served as a Favor (I-5 is per
			// token), so it is ready this round; with
			// upgraded_favor_inherits_used it takes over the used state of
			// the token it replaces, one Favor per District a round.
			if g.rules.Variants.UpgradedFavorInheritsUsed {
				ds.FavorUsed[lvl-1] = ds.FavorUsed[held-1]
			}
			ds.Endorsements[held-1] = NoSeat
			ds.FavorUsed[held-1] = false
		}
		ds.Endorsements[lvl-1] = s
		if g.rec != nil {
			g.emit(Event{Kind: EvEndorsement, Seat: s, District: d, Tier: lvl, From: int16(held), Rule: rule})
		}
		return
	}
}

// EndorsementHeld returns the level of seat's Endorsement from d, 0 for none.
func (g *Game) EndorsementHeld(s int8, d int8) int8 {
	for l, h := range g.Districts[d].Endorsements {
		if h == s {
			return int8(l + 1)
		}
	}
	return 0
}

// GrantEndorsement is the Opposition's Clean Up step 4 in d (I-15).
func (g *Game) GrantEndorsement(s int8, d int8) { g.endorse(s, d, "I-15") }
