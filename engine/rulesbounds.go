package engine

import (
	"fmt"
	"math"
	"sort"
)

// MaxHeld is the largest count the engine stores for a player's
// accumulators, one signed byte each: its Vote Shares in a District, its
// passive discounts and its Research bonus (C-15); a Research's gain is
// added to a Polling tracker, so it is bounded by MaxHeld - track.max.
// compileBounds refuses a rules file under which some game could pass it
// (40-share rewards would wrap to negative shares, four 40-Polling
// bonuses to −96).
// Bounded rather than widened: a discount above the dearest action's cost,
// or a Research gain above track.max, changes nothing, and 127 Vote Shares
// in one District is far beyond any board the rulebook describes.
const MaxHeld = math.MaxInt8

// MaxPoliticians bounds the politicians of a rules file: a seat stores its
// politician's index in a signed byte, 0..127 (a 129th politician would
// index -128).
const MaxPoliticians = math.MaxInt8 + 1

// compileBounds proves from the file's own numbers that no game can push an
// accumulator past MaxHeld.
func compileBounds(c *checker, r *Rules) {
	if c.err != nil {
		return
	}
	// A seat plays one Strategy card a turn and its passives last until
	// Clean Up (C-15), so in a round it holds at most the round's turns of
	// them: the largest of them add up.
	turns := 0
	for _, rd := range r.Rounds {
		turns = max(turns, int(rd.Turns))
	}
	passive := func(what string, kind AbilityKind, action Action, start, limit int, get func(Ability) int8, field string) {
		var cards []int
		for i, card := range r.Cards {
			if a := card.Ability; a.Kind == kind && (kind != AbilityDiscount || a.Action == action) && get(a) > 0 {
				cards = append(cards, i)
			}
		}
		sort.SliceStable(cards, func(i, j int) bool { return get(r.Cards[cards[i]].Ability) > get(r.Cards[cards[j]].Ability) })
		sum := start
		for n, i := range cards[:min(turns, len(cards))] {
			if sum += int(get(r.Cards[i].Ability)); sum > limit {
				c.fail(fmt.Sprintf("strategy_cards[%d].ability.%s", i, field),
					"%s reaches %d with %d cards played in a round of %d turns, more than the limit of %d", what, sum, n+1, turns, limit)
				return
			}
		}
	}
	// A Research's gain is added to a tracker before track.max caps it.
	passive("one Research's Polling (actions.research_polling and research_bonus cards)", AbilityResearchBonus, 0,
		int(r.Costs.ResearchPolling), MaxHeld-int(r.TrackMax), func(a Ability) int8 { return a.Polling }, "polling")
	for a := range Action(NumActions) {
		passive(fmt.Sprintf("the %s money discount", a), AbilityDiscount, a, 0, MaxHeld, func(a Ability) int8 { return a.Money }, "money")
		passive(fmt.Sprintf("the %s popularity discount", a), AbilityDiscount, a, 0, MaxHeld, func(a Ability) int8 { return a.Popularity }, "popularity")
	}
	// A seat's Vote Shares in a District: every icon, the token (C-8,
	// C-10), and each round's presence and majority rewards when they grant
	// Vote Shares there (C-13).
	shares := len(r.ShareIcons) + 1
	for i, rd := range r.Rounds {
		for _, w := range []struct {
			field string
			w     Reward
		}{{"presence", rd.Presence}, {"district_majority", rd.DistrictMajority}} {
			if w.w.Kind != RewardVoteShare {
				continue
			}
			if shares += int(w.w.Amount); shares > MaxHeld {
				c.fail(fmt.Sprintf("rounds[%d].%s.amount", i, w.field),
					"a player's Vote Shares in a District reach %d (%d icons, the token and the vote_share rewards up to this one), more than the limit of %d", shares, len(r.ShareIcons), MaxHeld)
				return
			}
		}
	}
}
