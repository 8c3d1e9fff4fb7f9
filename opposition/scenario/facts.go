package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"tallywood/engine"
)

// runInfo is what a run leaves besides the game: its narration and the
// Opposition's reveal choices.
type runInfo struct {
	reveals []any
}

// fact evaluates one expect key on the game after the run (docs/scenarios.md
// lists them). info is nil when the key is only being checked at load time.
func fact(g *engine.Game, key string, info *runInfo) (any, error) {
	r := g.Rules()
	parts := strings.Split(key, ".")
	district := func(name string) (int8, error) {
		for d, n := range r.Districts {
			if norm(n) == norm(name) {
				return int8(d), nil
			}
		}
		return 0, fmt.Errorf("%q is not a District", name)
	}
	bad := fmt.Errorf("unknown fact (see docs/scenarios.md)")
	switch parts[0] {
	case "you", "opposition":
		seat := int8(0)
		if parts[0] == "opposition" {
			seat = g.Opponent()
		}
		if len(parts) < 2 {
			return nil, bad
		}
		return seatFact(g, seat, parts[1:], district)
	case "district":
		if len(parts) != 3 {
			return nil, bad
		}
		d, err := district(parts[1])
		if err != nil {
			return nil, err
		}
		return districtFact(g, d, parts[2])
	case "plaza", "bag":
		switch {
		case len(parts) == 2 && parts[0] == "plaza" && parts[1] == "total":
			return g.PlazaCount(), nil
		case len(parts) != 2 || parts[1] != "cubes":
			return nil, bad
		case parts[0] == "plaza":
			return colours(r, g.Plaza), nil
		}
		return colours(r, g.Bag), nil
	case "piles":
		if len(parts) != 2 {
			return nil, bad
		}
		name, faces := strings.CutSuffix(parts[1], "_faces")
		k, err := tileKind(key, name)
		if err != nil {
			return nil, err
		}
		var left []any
		for t := int8(1); t <= engine.NumTiers; t++ {
			if !faces {
				left = append(left, g.TilesLeft(k, t))
				continue
			}
			// Top first, as they will be taken.
			p := &g.Piles[k][t-1]
			l := []any{}
			for i := int(p.N) - 1; i >= 0; i-- {
				l = append(l, r.Tiles[k][t-1][p.Faces[i]].String())
			}
			left = append(left, l)
		}
		return left, nil
	case "decks":
		if len(parts) != 2 {
			return nil, bad
		}
		for d := range engine.Action(engine.NumDecks) {
			if norm(d.String()) == norm(parts[1]) {
				return cardIDs(r, g.Decks[d]), nil
			}
		}
		return nil, fmt.Errorf("%q is not a deck (want public_works, celebrity, research or campaign)", parts[1])
	case "solo":
		if len(parts) != 2 {
			return nil, bad
		}
		switch parts[1] {
		case "deck":
			return int(g.Solo.N), nil
		case "box":
			return int(g.SoloBox.N), nil
		case "deck_cards":
			return soloIDs(r, g.Solo, true), nil
		case "box_cards":
			return soloIDs(r, g.SoloBox, false), nil
		}
		return nil, bad
	case "initiative":
		if len(parts) != 1 {
			return nil, bad
		}
		l := []any{}
		for i := range g.NSeats {
			l = append(l, seatName(g, g.Order[i]))
		}
		return l, nil
	case "round":
		if len(parts) != 1 {
			return nil, bad
		}
		return int(g.Round) + 1, nil
	case "phase":
		if len(parts) != 1 {
			return nil, bad
		}
		switch g.Phase {
		case engine.PhaseReveal:
			return "final_tally", nil
		case engine.PhaseOver:
			return "over", nil
		}
		return "rounds", nil
	case "reveal", "reveals":
		if len(parts) != 1 {
			return nil, bad
		}
		if info == nil {
			return nil, nil
		}
		if parts[0] == "reveals" {
			return info.reveals, nil
		}
		if len(info.reveals) == 0 {
			return nil, nil
		}
		return info.reveals[len(info.reveals)-1], nil
	case "result":
		return resultFact(g, parts[1:])
	case "events":
		if len(parts) != 2 || (parts[1] != "contain" && parts[1] != "exclude") {
			return nil, bad
		}
		// Handled by the runner: it compares lines with substrings.
		return nil, nil
	}
	return nil, bad
}

func seatFact(g *engine.Game, seat int8, parts []string, district func(string) (int8, error)) (any, error) {
	r := g.Rules()
	st := &g.Seats[seat]
	bad := fmt.Errorf("unknown fact (see docs/scenarios.md)")
	if len(parts) == 2 && parts[0] == "polling" {
		d, err := district(parts[1])
		if err != nil {
			return nil, err
		}
		return int(st.Polling[d]), nil
	}
	if len(parts) != 1 {
		return nil, bad
	}
	switch parts[0] {
	case "money":
		return int(st.Money), nil
	case "popularity":
		return int(st.Popularity), nil
	case "polling":
		m := map[string]any{}
		for d, n := range r.Districts {
			m[n] = int(st.Polling[d])
		}
		return m, nil
	case "badges_left":
		return int(g.BadgesLeft(seat)), nil
	case "plaza_badge":
		return st.PlazaBadge, nil
	case "endorsements":
		m := map[string]any{}
		for d, n := range r.Districts {
			if lvl := g.EndorsementHeld(seat, int8(d)); lvl > 0 {
				m[n] = int(lvl)
			}
		}
		return m, nil
	case "tokens":
		l := []any{}
		for d, n := range r.Districts {
			if g.Districts[d].VoteShareToken == seat {
				l = append(l, n)
			}
		}
		return l, nil
	case "vote_shares":
		m := map[string]any{}
		for d, n := range r.Districts {
			m[n] = int(g.VoteShares(seat, int8(d)))
		}
		return m, nil
	case "majority_shares":
		m := map[string]any{}
		for d, n := range r.Districts {
			m[n] = int(st.MajorityShares[d])
		}
		return m, nil
	case "board":
		l := []any{}
		for c := range st.Columns {
			if card := st.Columns[c].Card; card >= 0 && st.Automaton {
				l = append(l, r.Solo[card].ID)
			} else if card >= 0 {
				l = append(l, r.Cards[card].ID)
			}
		}
		return l, nil
	case "assistants":
		l := []any{}
		for c := range st.Assistants {
			if st.Assistants[c].Region != engine.Home {
				l = append(l, assistant(g, seat, int8(c)))
			}
		}
		return l, nil
	}
	if !st.Automaton {
		if parts[0] == "hand" {
			l := []any{}
			for i := range st.NHand {
				l = append(l, r.Cards[st.Hand[i]].ID)
			}
			return l, nil
		}
		return nil, bad
	}
	switch parts[0] {
	case "assistant":
		// The Assistant of the last column holding a Solo card: the one
		// this turn moved.
		for c := engine.NumColumns - 1; c >= 0; c-- {
			if st.Columns[c].Card >= 0 {
				return assistant(g, seat, int8(c)), nil
			}
		}
		return nil, nil
	case "fallback_other":
		return int(st.FallbackOther), nil
	case "fallback_both":
		return int(st.FallbackBoth), nil
	}
	return nil, bad
}

// assistant describes where a column's Assistant stands.
func assistant(g *engine.Game, seat, col int8) map[string]any {
	r := g.Rules()
	a := g.Seats[seat].Assistants[col]
	m := map[string]any{"district": r.RegionName(a.Region), "spot": nil}
	if a.Region == engine.Plaza {
		m["district"] = "Plaza"
	}
	if a.Spot != engine.NoSpot {
		m["spot"] = r.Spots[a.Spot].String()
	}
	return m
}

func seatName(g *engine.Game, s int8) any {
	switch {
	case s == engine.NoSeat:
		return nil
	case g.Seats[s].Automaton:
		return "opposition"
	}
	return "you"
}

func colours(r *engine.Rules, n [engine.NumDistricts]int8) map[string]any {
	m := map[string]any{}
	for c, name := range r.Districts {
		m[name] = int(n[c])
	}
	return m
}

func districtFact(g *engine.Game, d int8, what string) (any, error) {
	r := g.Rules()
	ds := &g.Districts[d]
	switch what {
	case "tiles":
		l := []any{}
		for i := range int(g.NPlaced) {
			t := &g.Placed[i]
			if t.District != d {
				continue
			}
			// The face is stated face down too: a scenario sees what
			// the players do not.
			l = append(l, map[string]any{"kind": kindName(t.Kind), "tier": int(t.Tier), "face_up": t.FaceUp,
				"badge": seatName(g, t.Badge), "face": r.Tiles[t.Kind][t.Tier-1][t.Face].String()})
		}
		return l, nil
	case "cubes":
		return colours(r, ds.Cubes), nil
	case "spots":
		m := map[string]any{}
		for sp, h := range ds.Spots {
			m[r.Spots[sp].String()] = seatName(g, h)
		}
		return m, nil
	case "endorsements":
		m := map[string]any{}
		for l, h := range ds.Endorsements {
			m[strconv.Itoa(l+1)] = seatName(g, h)
		}
		return m, nil
	case "favors_used":
		m := map[string]any{}
		for l, used := range ds.FavorUsed {
			m[strconv.Itoa(l+1)] = used
		}
		return m, nil
	case "token":
		return seatName(g, ds.VoteShareToken), nil
	case "initial_support":
		return int(ds.InitialSupport), nil
	case "support_face_up":
		return ds.SupportFaceUp, nil
	case "votes":
		return int(g.DistrictVotes(d)), nil
	}
	return nil, fmt.Errorf("unknown District fact %q (see docs/scenarios.md)", what)
}

func kindName(k engine.TileKind) string {
	if k == engine.TilePublicWorks {
		return "public_works"
	}
	return "celebrity"
}

func resultFact(g *engine.Game, parts []string) (any, error) {
	res := &g.Result
	bad := fmt.Errorf("unknown result fact (see docs/scenarios.md)")
	if len(parts) == 1 && parts[0] == "outcome" {
		return res.Outcome.String(), nil
	}
	if len(parts) != 2 {
		return nil, bad
	}
	seat := int8(0)
	switch parts[1] {
	case "you":
	case "opposition":
		seat = g.Opponent()
	default:
		return nil, bad
	}
	switch parts[0] {
	case "total":
		return int(res.Total[seat]), nil
	case "bonus":
		return int(res.Bonus[seat]), nil
	case "endorsements":
		return int(res.Endorsements[seat]), nil
	}
	return nil, bad
}

// cardIDs lists a deck's Strategy cards, top first.
func cardIDs(r *engine.Rules, dk engine.Deck) []any {
	l := []any{}
	for i := int(dk.N) - 1; i >= 0; i-- {
		l = append(l, r.Cards[dk.Cards[i]].ID)
	}
	return l
}

// soloIDs lists Solo cards: the deck top first, the box in the order the
// cards went in.
func soloIDs(r *engine.Rules, dk engine.Deck, topFirst bool) []any {
	l := []any{}
	for i := range int(dk.N) {
		if topFirst {
			i = int(dk.N) - 1 - i
		}
		l = append(l, r.Solo[dk.Cards[i]].ID)
	}
	return l
}
