package play

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// Short names used where the board is tight: actions by two letters
// (reference set, canonical order), resources as M (Money) and P
// (Popularity) with their amount, as in C-15.
var actionShort = [engine.NumActions]string{"PW", "CE", "RE", "CA"}

// iconShort writes a card slot: PW, CE, RE, CA, or M1, M2, P1.
func iconShort(ic engine.Icon) string {
	switch {
	case ic.IsAction:
		return actionShort[ic.Action]
	case ic.Money > 0 && ic.Popularity > 0:
		return fmt.Sprintf("M%dP%d", ic.Money, ic.Popularity)
	case ic.Money > 0:
		return fmt.Sprintf("M%d", ic.Money)
	case ic.Popularity > 0:
		return fmt.Sprintf("P%d", ic.Popularity)
	}
	return "--"
}

// iconLong writes a card slot in words.
func iconLong(ic engine.Icon) string {
	if ic.IsAction {
		return ic.Action.String() + " icon"
	}
	return resources(ic.Money, ic.Popularity)
}

// resources writes "+1 Money, +2 Popularity".
func resources(m, p int8) string {
	var parts []string
	if m > 0 {
		parts = append(parts, fmt.Sprintf("+%d Money", m))
	}
	if p > 0 {
		parts = append(parts, fmt.Sprintf("+%d Popularity", p))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// cost writes "pay 2 Money, 1 Popularity", or "free".
func cost(m, p int8) string {
	var parts []string
	if m > 0 {
		parts = append(parts, fmt.Sprintf("%d Money", m))
	}
	if p > 0 {
		parts = append(parts, fmt.Sprintf("%d Popularity", p))
	}
	if len(parts) == 0 {
		return "free"
	}
	return "pay " + strings.Join(parts, ", ")
}

// cardFace writes a card's slots in the one order every output uses, the
// rules file's (TL, BL, TR, BR): its left column, top then bottom, then
// its right: [TL BL | TR BR].
func cardFace(c *engine.Card) string {
	return fmt.Sprintf("[%s %s | %s %s]", iconShort(c.Slots[engine.SlotTL]), iconShort(c.Slots[engine.SlotBL]),
		iconShort(c.Slots[engine.SlotTR]), iconShort(c.Slots[engine.SlotBR]))
}

// abilityText writes a card's banner (C-15).
func abilityText(a engine.Ability) string {
	switch a.Kind {
	case engine.AbilityPollingHere:
		return fmt.Sprintf("+%d polling in this District", a.Polling)
	case engine.AbilityPollingAny:
		return fmt.Sprintf("+%d polling in any District", a.Polling)
	case engine.AbilityGain:
		return resources(a.Money, a.Popularity)
	case engine.AbilityDrawCube:
		return "draw a Voter cube"
	case engine.AbilityAttractCube:
		return "attract a Voter to any District"
	case engine.AbilityDrawAttract:
		return "draw a cube, then attract a Voter"
	case engine.AbilityDiscount:
		return fmt.Sprintf("passive: %s costs %s less", a.Action, strings.TrimPrefix(cost(a.Money, a.Popularity), "pay "))
	case engine.AbilityResearchBonus:
		return fmt.Sprintf("passive: each Research +%d polling", a.Polling)
	}
	return "?"
}

// cardLine is a card in one line: id, face and ability.
func cardLine(r *engine.Rules, card int) string {
	c := &r.Cards[card]
	return fmt.Sprintf("%-6s %s %s", c.ID, cardFace(c), abilityText(c.Ability))
}

// placementText writes what a row of a column connects for a card: the two
// slots' icons and the board's resource (C-11). With card < 0 it names the
// slots only.
func placementText(r *engine.Rules, card int, col, row int8) string {
	p := r.Columns[col][row]
	var parts []string
	for _, sl := range p.Slots {
		if card >= 0 {
			parts = append(parts, iconShort(r.Cards[card].Slots[sl]))
		} else {
			parts = append(parts, engine.SlotName(int(sl)))
		}
	}
	s := strings.Join(parts, "+")
	if p.Money > 0 {
		s += fmt.Sprintf("+M%d", p.Money)
	}
	if p.Popularity > 0 {
		s += fmt.Sprintf("+P%d", p.Popularity)
	}
	return s
}

// income is what placing card in col/row gains at once (I-3).
func income(r *engine.Rules, card int, col, row int8) (m, p int8) {
	pl := r.Columns[col][row]
	m, p = pl.Money, pl.Popularity
	for _, sl := range pl.Slots {
		ic := r.Cards[card].Slots[sl]
		m += ic.Money
		p += ic.Popularity
	}
	return m, p
}

// describe renders an option of the pending decision in words, with what
// it costs and gains, e.g. "Celebrity tier 2 in Blue — pay 2 Money,
// 2 Popularity, +2 Blue polling".
func (s *Session) describe(o engine.Option) string {
	g := s.g
	r := g.Rules()
	seat := g.Decision().Seat
	st := &g.Seats[seat]
	region := int8(-1)
	if s.turn.col >= 0 {
		region = g.AssistantRegion(seat, s.turn.col)
	}
	where := r.RegionName(region)
	switch o.Kind {
	case engine.OptCard:
		if o.A >= 0 && o.A < st.NHand {
			return "play " + s.cardText(int(st.Hand[o.A]))
		}
	case engine.OptColumn:
		if s.turn.card >= 0 {
			var rows []string
			for row := range int8(engine.NumRows) {
				rows = append(rows, engine.RowName(int(row))+" "+s.placement(int(s.turn.card), o.A, row))
			}
			return fmt.Sprintf("column %d: %s", o.A+1, strings.Join(rows, " · "))
		}
	case engine.OptRow:
		if s.turn.card >= 0 && s.turn.col >= 0 {
			c := &r.Cards[s.turn.card]
			pl := r.Columns[s.turn.col][o.A]
			m, p := income(r, int(s.turn.card), s.turn.col, o.A)
			return fmt.Sprintf("%s row: connects %s %s + %s %s, income %s", engine.RowName(int(o.A)),
				engine.SlotName(int(pl.Slots[0])), s.icon(c.Slots[pl.Slots[0]]),
				engine.SlotName(int(pl.Slots[1])), s.icon(c.Slots[pl.Slots[1]]), resources(m, p))
		}
	case engine.OptRegion:
		if o.A == engine.Plaza {
			return "Assistant to the Plaza (Direct Appeal, Rally, Fundraise)"
		}
		var blocked []string
		for sp, h := range g.Districts[o.A].Spots {
			if h != engine.NoSeat {
				blocked = append(blocked, s.action(r.Spots[sp]))
			}
		}
		b := "nothing blocked"
		if len(blocked) > 0 {
			b = "blocked: " + strings.Join(blocked, " ")
		}
		return fmt.Sprintf("Assistant to %s (%s)", r.Districts[o.A], b)
	case engine.OptPublicWorks:
		m, _ := g.Cost(seat, engine.PublicWorks, o.B)
		return fmt.Sprintf("Public Works tier %d in %s — %s, Badge on it: +%d Strength", o.B, where, cost(m, 0), o.B)
	case engine.OptCelebrity:
		m, p := g.Cost(seat, engine.Celebrity, o.B)
		return fmt.Sprintf("Celebrity tier %d in %s — %s, +%d %s polling", o.B, where, cost(m, p), o.B, where)
	case engine.OptResearch:
		what := "the Initial Support token"
		if o.B >= 0 && int(o.B) < int(g.NPlaced) {
			t := g.Placed[o.B]
			what = fmt.Sprintf("%s tier %d", s.tile(t.Kind), t.Tier)
			if t.Badge != engine.NoSeat {
				what += " (" + seatShort(g, seat, t.Badge) + " Badge)"
			}
		}
		return fmt.Sprintf("Research in %s: flip %s — +%d %s polling", where, what, r.Costs.ResearchPolling+st.ResearchBonus, where)
	case engine.OptCampaign:
		_, p := g.Cost(seat, engine.Campaign, 0)
		return fmt.Sprintf("Campaign in %s — %s, +%d %s polling", where, cost(0, p), r.Costs.CampaignPolling, where)
	case engine.OptFundraise:
		// Any connected icon can pay for the wild Fundraise (I-2), so
		// say which one this option spends.
		n := r.Costs.DistrictFundraiseMoneyPerStrength * g.Strength(seat, region)
		icon := ""
		if s.turn.card >= 0 && o.A >= 0 && o.A < engine.NumSlots {
			icon = " with the " + s.icon(r.Cards[s.turn.card].Slots[o.A]) + " icon"
		}
		return fmt.Sprintf("Fundraise in %s%s — +%d Money (1 per Strength)", where, icon, n)
	case engine.OptDirectAppeal:
		// The cost is the same for every cube; the menu's table of
		// Direct Appeals says it once (cubeTable).
		if validColour(o.B) && validColour(o.C) {
			return fmt.Sprintf("Direct Appeal: %s → %s", r.Districts[o.B], r.Districts[o.C])
		}
	case engine.OptRally:
		n := r.Costs.RallyPopularityPerStrength * g.Strength(seat, engine.Plaza)
		return fmt.Sprintf("Rally — +%d Popularity", n)
	case engine.OptPlazaFundraise:
		n := int8(0)
		for d := range int8(engine.NumDistricts) {
			if g.Strength(seat, d) > 0 {
				n++
			}
		}
		return fmt.Sprintf("Plaza Fundraise — +%d Money", n*r.Costs.PlazaFundraiseMoneyPerDistrict)
	case engine.OptAbility:
		if s.turn.card >= 0 {
			return "ability: " + s.abilityUse(r.Cards[s.turn.card].Ability, o, where)
		}
	case engine.OptFavor:
		if validColour(o.A) && o.B >= 0 && o.B < engine.NumSlots {
			lvl := g.EndorsementHeld(seat, o.A)
			if lvl > 0 && s.turn.card >= 0 {
				e := r.Endorsements[lvl-1]
				return fmt.Sprintf("Favor: flip %s Endorsement %d (%s) to connect %s: %s", r.Districts[o.A], lvl,
					cost(e.FavorMoney, e.FavorPopularity), engine.SlotName(int(o.B)), iconLong(r.Cards[s.turn.card].Slots[o.B]))
			}
		}
	case engine.OptEnd:
		if region == engine.Plaza {
			return "end the actions (and the turn)"
		}
		return "end the actions, then choose the Assistant's spot"
	case engine.OptAttract:
		if validColour(o.B) && validColour(o.C) {
			return fmt.Sprintf("attract a %s cube → %s", r.Districts[o.B], r.Districts[o.C])
		}
	case engine.OptSpot:
		if o.A == engine.NoSpot {
			return fmt.Sprintf("stay in %s with no spot (all four are taken)", where)
		}
		if o.A >= 0 && o.A < engine.NumActions {
			return fmt.Sprintf("the %s spot in %s (blocks it this round)", r.Spots[o.A], where)
		}
	case engine.OptDiscard:
		if o.A >= 0 && o.A < st.NHand {
			return "discard " + s.cardText(int(st.Hand[o.A]))
		}
	case engine.OptKeep:
		return "keep the rest of the hand"
	case engine.OptDraw:
		if o.A >= 0 && o.A < engine.NumDecks {
			return fmt.Sprintf("draw from the %s deck (%d left, %d discarded)", engine.Action(o.A), g.Decks[o.A].N, g.Discards[o.A].N)
		}
	case engine.OptReveal:
		if o.A >= 0 && int(o.A) < int(g.NPlaced) {
			// Short, as on the board, so that the many reveals fit two
			// columns: "reveal PW tier 1 in Blue, Badge O".
			t := g.Placed[o.A]
			s := fmt.Sprintf("reveal %s tier %d in %s", s.tile(t.Kind), t.Tier, r.RegionName(t.District))
			if t.Badge != engine.NoSeat {
				mark := map[bool]string{true: "O", false: "Y"}[g.Seats[t.Badge].Automaton]
				if !g.IsSolo() {
					mark = fmt.Sprint(t.Badge + 1)
				}
				s += ", Badge " + mark
			}
			return s
		}
	}
	return g.Describe(o)
}

// abilityUse describes one use of the card ability.
func (s *Session) abilityUse(a engine.Ability, o engine.Option, where string) string {
	r := s.g.Rules()
	switch a.Kind {
	case engine.AbilityPollingHere, engine.AbilityPollingAny:
		if validColour(o.B) {
			return fmt.Sprintf("+%d %s polling", a.Polling, r.Districts[o.B])
		}
	case engine.AbilityAttractCube:
		if validColour(o.B) && validColour(o.C) {
			return fmt.Sprintf("attract %s → %s", r.Districts[o.B], r.Districts[o.C])
		}
	case engine.AbilityDrawAttract:
		return "draw a cube from the bag, then attract a Voter"
	}
	return abilityText(a)
}

// tileShort names a tile kind as the board does: PW or CE.
func tileShort(k engine.TileKind) string {
	if k == engine.TilePublicWorks {
		return "PW"
	}
	return "CE"
}

func validColour(c int8) bool { return c >= 0 && c < engine.NumDistricts }

// seatShort names a seat in a few letters: "your" or "Opposition's"; at
// a table "your" or "Seat N's".
func seatShort(g *engine.Game, me, s int8) string {
	switch {
	case g.Seats[s].Automaton:
		return "Opposition's"
	case s != me:
		return engine.TableSeatName(s) + "'s"
	}
	return "your"
}

// The names describe gives cards, icons, actions and tiles: the board's
// short forms at the terminal (PW, M1, [TL BL | TR BR]), names in words
// with Config.Words, for a reader without the legend (tallywood serve).

// icon writes a card slot.
func (s *Session) icon(ic engine.Icon) string {
	if !s.cfg.Words {
		return iconShort(ic)
	}
	if ic.IsAction {
		return ic.Action.String()
	}
	return strings.ReplaceAll(resources(ic.Money, ic.Popularity), "+", "")
}

// action names an action.
func (s *Session) action(a engine.Action) string {
	if !s.cfg.Words {
		return actionShort[a]
	}
	return a.String()
}

// tile names a tile kind.
func (s *Session) tile(k engine.TileKind) string {
	if !s.cfg.Words {
		return tileShort(k)
	}
	return TileName(k)
}

// TileName names a tile kind in words: Celebrity or Public Works.
func TileName(k engine.TileKind) string {
	if k == engine.TilePublicWorks {
		return "Public Works"
	}
	return "Celebrity"
}

// cardText is a card in one line: id, slots and ability.
func (s *Session) cardText(card int) string {
	if !s.cfg.Words {
		return cardLine(s.g.Rules(), card)
	}
	c := &s.g.Rules().Cards[card]
	return fmt.Sprintf("%s (%s, %s on the left; %s, %s on the right; ability: %s)", c.ID,
		s.icon(c.Slots[engine.SlotTL]), s.icon(c.Slots[engine.SlotBL]), s.icon(c.Slots[engine.SlotTR]), s.icon(c.Slots[engine.SlotBR]),
		abilityText(c.Ability))
}

// placement writes what a row of a column connects for a card (C-11).
func (s *Session) placement(card int, col, row int8) string {
	r := s.g.Rules()
	if !s.cfg.Words {
		return placementText(r, card, col, row)
	}
	p := r.Columns[col][row]
	var parts []string
	for _, sl := range p.Slots {
		parts = append(parts, s.icon(r.Cards[card].Slots[sl]))
	}
	if p.Money > 0 || p.Popularity > 0 {
		parts = append(parts, strings.ReplaceAll(resources(p.Money, p.Popularity), "+", "")+" from the board")
	}
	return strings.Join(parts, " + ")
}
