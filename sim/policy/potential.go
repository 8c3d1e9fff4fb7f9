package policy

import "tallywood/engine"

// The worths the turn potential gives what it cannot price from the rules
// alone, in votes: estimates set by hand (none is fitted), not quantities
// of the rules.
const (
	// repeatIconShare is what a second icon of one action in a
	// placement is worth, as a share of the first: it buys the same
	// action again in the same District (I-2), where the first has
	// already moved the margin, and it pays the cost again.
	repeatIconShare = 0.5
	// worksTierWorth is a tier of a Public Works tile's worth besides its
	// Strength (Weights.Strength): the tile's voter-cube icons, one a tier
	// (C-14), move cubes when it is flipped, and the Badge can break a
	// District majority tie (I-17).
	worksTierWorth = 1.5
	// researchFlipWorth is a Research's worth besides its polling: the
	// cubes the flipped tile moves from the Plaza to the District
	// (rulebook Research steps 3-4).
	researchFlipWorth = 1
	// cubeAbilityWorth is the worth of an ability that draws or attracts
	// a Voter cube (C-15): a cube is 2 votes (cubeVotes) in whichever
	// District it ends in, not all of them yours.
	cubeAbilityWorth = 1
)

// anyRegion is the region potential values the actions in before the
// Assistant is placed: any District.
const anyRegion int8 = -1

// potential values what is still open in your turn in progress: the
// Strategy icons connected (or, before the card is placed, connectable)
// and not spent, and the unused ability. It makes the choices before the
// actions (card, column, row, region) worth something to a one-step
// lookahead.
func (e *evaluator) potential() float64 {
	g := e.g
	tv := g.CurrentTurn()
	if tv.Card < 0 {
		return 0
	}
	card := &e.r.Cards[tv.Card]
	region := anyRegion
	switch g.Pending {
	case engine.DecAction, engine.DecAttract:
		region = g.Seats[e.me].Assistants[tv.Column].Region
	case engine.DecColumn, engine.DecRow, engine.DecRegion:
	default:
		return 0
	}
	// iconVal[a] is actionValue(a, region), worked out when first needed
	// (valued[a]): once the card is placed only the connected, unspent
	// icons count, and most of a turn's evaluations come after.
	var iconVal [engine.NumActions]float64
	var valued [engine.NumActions]bool
	if g.Pending == engine.DecColumn || g.Pending == engine.DecRow {
		for sl := range engine.NumSlots {
			if ic := card.Slots[sl]; ic.IsAction && !valued[ic.Action] {
				iconVal[ic.Action], valued[ic.Action] = e.actionValue(ic.Action, region), true
			}
		}
	}
	v := 0.0
	switch g.Pending {
	case engine.DecColumn, engine.DecRow:
		// The best free placement of the card, if there is one: the
		// board's resources, the card's income slots and the icons it
		// connects (C-11, I-3).
		best, placed := 0.0, false
		st := &g.Seats[e.me]
		for c := range int8(engine.NumColumns) {
			if st.Columns[c].Card >= 0 || (g.Pending == engine.DecRow && c != tv.Column) {
				continue
			}
			for row := range int8(engine.NumRows) {
				p := e.r.Columns[c][row]
				x := e.resVal * float64(p.Money+p.Popularity)
				seen := [engine.NumActions]bool{}
				for _, sl := range p.Slots {
					ic := card.Slots[sl]
					if ic.IsAction {
						if seen[ic.Action] {
							x += iconVal[ic.Action] * repeatIconShare
						} else {
							x += iconVal[ic.Action]
						}
						seen[ic.Action] = true
					} else {
						x += e.resVal * float64(ic.Money+ic.Popularity)
					}
				}
				if !placed || x > best {
					best, placed = x, true
				}
			}
		}
		v += best
	default:
		seen := [engine.NumActions]bool{}
		for sl := range int8(engine.NumSlots) {
			bit := uint8(1) << sl
			ic := card.Slots[sl]
			if tv.Connected&bit == 0 || tv.Used&bit != 0 || !ic.IsAction {
				continue
			}
			if !valued[ic.Action] {
				iconVal[ic.Action], valued[ic.Action] = e.actionValue(ic.Action, region), true
			}
			if seen[ic.Action] {
				v += iconVal[ic.Action] * repeatIconShare
			} else {
				v += iconVal[ic.Action]
			}
			seen[ic.Action] = true
		}
	}
	if !tv.AbilityUsed {
		v += e.abilityValue(card.Ability, region)
	}
	return v
}

// actionValue estimates the margin one Strategy icon of action a can
// still buy in region (anyRegion: any District, as the Assistant is not
// yet placed), net of its cost.
func (e *evaluator) actionValue(a engine.Action, region int8) float64 {
	if region == engine.Plaza {
		return e.plazaValue()
	}
	var c actionCosts
	priced := false
	best := 0.0
	for d := range int8(engine.NumDistricts) {
		if region != anyRegion && d != region {
			continue
		}
		v := e.resVal * float64(e.str[0][d]) // the wild Fundraise is always there
		if region == anyRegion {
			v += e.resVal // the Assistant itself will add Strength there
		}
		if e.g.SpotFree(d, a) {
			if !priced {
				c, priced = e.costsOf(a), true
			}
			v = max(v, e.districtAction(a, d, &c))
		}
		best = max(best, v)
	}
	return best
}

// actionCosts is what districtAction needs of an action that is the same
// in every District, worked out once for all four: whether each tier is
// affordable (and its tiles left) and the worth of what it costs.
type actionCosts struct {
	ok   [engine.NumTiers + 1]bool    // tier 0: Campaign and Research
	cost [engine.NumTiers + 1]float64 // resVal × (Money + Popularity)
	// research marks the Districts where a Research has something to turn.
	research [engine.NumDistricts]bool
	// works is the value of Public Works, which does not depend on where.
	works float64
}

func (e *evaluator) costsOf(a engine.Action) actionCosts {
	g, me := e.g, e.me
	var c actionCosts
	switch a {
	case engine.Campaign:
		m, p := g.Cost(me, engine.Campaign, 0)
		c.ok[0], c.cost[0] = g.CanPay(me, m, p), e.resVal*float64(m+p)
	case engine.Celebrity:
		for t := int8(1); t <= engine.NumTiers; t++ {
			m, p := g.Cost(me, engine.Celebrity, t)
			c.ok[t] = g.TilesLeft(engine.TileCelebrity, t) > 0 && g.CanPay(me, m, p)
			c.cost[t] = e.resVal * float64(m+p)
		}
	case engine.Research:
		// A face-down Celebrity or Public Works tile, or the face-down
		// Initial Support token, is something to turn.
		for i := range g.NPlaced {
			t := &g.Placed[i]
			if !t.FaceUp && t.District >= 0 && t.District < engine.NumDistricts &&
				(t.Kind == engine.TileCelebrity || t.Kind == engine.TilePublicWorks) {
				c.research[t.District] = true
			}
		}
		for d := range engine.NumDistricts {
			c.research[d] = c.research[d] || !g.Districts[d].SupportFaceUp
		}
	case engine.PublicWorks:
		if g.BadgesLeft(me) > 0 {
			for t := int8(1); t <= engine.NumTiers; t++ {
				m, p := g.Cost(me, engine.PublicWorks, t)
				if g.TilesLeft(engine.TilePublicWorks, t) > 0 && g.CanPay(me, m, p) {
					c.works = max(c.works, float64(t)*(e.w.Strength*float64(e.turns)/e.tab.gameTurns+worksTierWorth)-e.resVal*float64(m+p))
				}
			}
		}
	}
	return c
}

// districtAction is the margin action a buys in d, net of its cost c.
func (e *evaluator) districtAction(a engine.Action, d int8, c *actionCosts) float64 {
	best := 0.0
	switch a {
	case engine.Campaign:
		if c.ok[0] {
			best = e.pollingValue(d, e.r.Costs.CampaignPolling, false) - c.cost[0]
		}
	case engine.Celebrity:
		for t := int8(1); t <= engine.NumTiers; t++ {
			if c.ok[t] {
				best = max(best, e.pollingValue(d, t, false)-c.cost[t])
			}
		}
	case engine.Research:
		if c.research[d] {
			best = e.pollingValue(d, e.r.Costs.ResearchPolling+e.g.Seats[e.me].ResearchBonus, false) + researchFlipWorth
		}
	case engine.PublicWorks:
		best = c.works
	}
	return best
}

// plazaValue is the best wild Plaza action for one icon.
func (e *evaluator) plazaValue() float64 {
	c := e.r.Costs
	rally := float64(c.RallyPopularityPerStrength) * float64(e.str[0][engine.Plaza]+1)
	n := 0
	for d := range engine.NumDistricts {
		if e.str[0][d] > 0 {
			n++
		}
	}
	fund := float64(c.PlazaFundraiseMoneyPerDistrict) * float64(n)
	return e.resVal * max(rally, fund)
}

// abilityValue is a rough worth of an unused card ability.
func (e *evaluator) abilityValue(a engine.Ability, region int8) float64 {
	switch a.Kind {
	case engine.AbilityPollingHere:
		if region != anyRegion && region < engine.NumDistricts {
			return e.pollingValue(region, a.Polling, false)
		}
		if region == anyRegion {
			return e.bestPolling(a.Polling)
		}
	case engine.AbilityPollingAny:
		return e.bestPolling(a.Polling)
	case engine.AbilityGain:
		return e.resVal * float64(a.Money+a.Popularity)
	case engine.AbilityAttractCube, engine.AbilityDrawAttract, engine.AbilityDrawCube:
		return cubeAbilityWorth
	}
	return 0
}

func (e *evaluator) bestPolling(n int8) float64 {
	best := 0.0
	for d := range int8(engine.NumDistricts) {
		best = max(best, e.pollingValue(d, n, false))
	}
	return best
}
