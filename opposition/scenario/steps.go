package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"tallywood/engine"
)

// play runs the steps on g with the engine's own code. The first step that
// makes no sense in its position, or scripted choice that is not legal,
// stops it with an error naming the step and the decision.
func play(g *engine.Game, steps []Step) (err error) {
	// A scripted Opposition's error fails the run like a refused step.
	defer engine.CatchOpposition(&err)
	for i := range steps {
		field := fmt.Sprintf("run[%d]", i)
		if err := playStep(g, field, &steps[i]); err != nil {
			return fmt.Errorf("scenario: %s: %v", field, err)
		}
	}
	return nil
}

// inPlay refuses a step of the rounds once the Final Tally has begun.
func inPlay(g *engine.Game, step string) error {
	if g.Phase != engine.PhaseStrategy {
		return fmt.Errorf("%q: the rounds are over, the Final Tally has begun", step)
	}
	return nil
}

func playStep(g *engine.Game, field string, st *Step) error {
	opp := g.Opponent()
	switch st.Name {
	case StepOppositionTurn:
		if err := inPlay(g, st.Name); err != nil {
			return err
		}
		board := 0
		for c := range g.Seats[opp].Columns {
			if g.Seats[opp].Columns[c].Card >= 0 {
				board++
			}
		}
		if board == engine.NumColumns {
			return fmt.Errorf("%q: the Opposition's %d columns all hold a Solo card; run %q first", st.Name, board, StepCleanUp)
		}
		if g.Solo.N+g.SoloBox.N == 0 {
			return fmt.Errorf("%q: the Opposition has no Solo card left", st.Name)
		}
		g.Emit(engine.Event{Kind: engine.EvTurn, Seat: opp, District: -1})
		g.OppositionTurn(opp)
	case StepYourTurn:
		if err := inPlay(g, st.Name); err != nil {
			return err
		}
		return yourTurn(g, st.YourTurn)
	case StepRoundScoring:
		if err := inPlay(g, st.Name); err != nil {
			return err
		}
		g.ScoreRound()
	case StepCleanUp:
		if err := inPlay(g, st.Name); err != nil {
			return err
		}
		if int(g.Round) == g.Rules().LastRound() {
			return fmt.Errorf("%q: round %d is the last round and has no Clean Up; run %q to see what follows it (V-2)", st.Name, g.Round+1, StepEndOfRound)
		}
		return cleanUp(g, st, g.CleanUp)
	case StepEndOfRound:
		if err := inPlay(g, st.Name); err != nil {
			return err
		}
		if st.CleanUp != nil && int(g.Round) == g.Rules().LastRound() {
			return fmt.Errorf("%q: round %d is the last round; it has no Clean Up to make choices in", st.Name, g.Round+1)
		}
		return cleanUp(g, st, g.EndRound)
	case StepReveal:
		if g.Phase == engine.PhaseOver {
			return fmt.Errorf("%q: the Final Tally is over", st.Name)
		}
		more, err := g.RevealNext(yourReveal)
		if err != nil {
			return err
		}
		if !more {
			g.Note(opp, -1, "I-16", "no face-down tile to reveal")
		}
	case StepFinalTally:
		if g.Phase == engine.PhaseOver {
			return fmt.Errorf("%q: the Final Tally is over", st.Name)
		}
		return g.FinalTally(yourReveal)
	default:
		return fmt.Errorf("%q is not a step (want %s)", st.Name, strings.Join(stepNames, ", "))
	}
	return nil
}

// yourReveal is your Final Tally reveal when the run does not script it:
// the earliest placed face-down tile.
func yourReveal(_ *engine.Game, legal []engine.Option) engine.Option { return legal[0] }

// cleanUp runs a Clean Up (or the end of a round) with your scripted
// discards and draws; what is not scripted keeps every card and draws from
// the first deck that has one.
func cleanUp(g *engine.Game, st *Step, run func(engine.Chooser) error) error {
	var ch CleanUpChoices
	if st.CleanUp != nil {
		ch = *st.CleanUp
	}
	r := g.Rules()
	discards, draws := 0, 0
	var cerr error
	choose := func(g *engine.Game, legal []engine.Option) engine.Option {
		you := &g.Seats[g.Decision().Seat]
		switch {
		case g.Pending == engine.DecDiscard && discards < len(ch.Discard):
			id := ch.Discard[discards]
			discards++
			for i := range you.NHand {
				if norm(r.Cards[you.Hand[i]].ID) == norm(id) {
					return engine.Option{Kind: engine.OptDiscard, A: i}
				}
			}
			if cerr == nil {
				cerr = fmt.Errorf("%s.discard[%d]: %q is not in your hand (%s)", st.Name, discards-1, id, handIDs(g, you))
			}
		case g.Pending == engine.DecDraw && draws < len(ch.Draw):
			name := ch.Draw[draws]
			draws++
			for _, o := range legal {
				if norm(engine.Action(o.A).String()) == norm(name) {
					return o
				}
			}
			if cerr == nil {
				cerr = fmt.Errorf("%s.draw[%d]: %q is not a deck with a card to draw (%s)", st.Name, draws-1, name, describe(g, legal))
			}
		}
		if g.Pending == engine.DecDiscard {
			return engine.Option{Kind: engine.OptKeep}
		}
		return legal[0]
	}
	if err := run(choose); err != nil {
		return err
	}
	switch {
	case cerr != nil:
		return cerr
	case discards < len(ch.Discard):
		return fmt.Errorf("%s.discard[%d]: no discard decision is left (your hand was empty)", st.Name, discards)
	case draws < len(ch.Draw):
		return fmt.Errorf("%s.draw[%d]: no draw is left (the hand is full for the new Round card)", st.Name, draws)
	}
	return nil
}

func handIDs(g *engine.Game, st *engine.Seat) string {
	var ids []string
	for i := range st.NHand {
		ids = append(ids, g.Rules().Cards[st.Hand[i]].ID)
	}
	if len(ids) == 0 {
		return "your hand is empty"
	}
	return "your hand: " + strings.Join(ids, ", ")
}

// describe lists options in words, for errors.
func describe(g *engine.Game, opts []engine.Option) string {
	var l []string
	for _, o := range opts {
		l = append(l, g.Describe(o))
	}
	if len(l) == 0 {
		return "none is legal"
	}
	return "legal: " + strings.Join(l, "; ")
}

// yourTurn plays a scripted turn of yours, each decision checked against
// the engine's legal options.
func yourTurn(g *engine.Game, t *YourTurn) error {
	r := g.Rules()
	const field = StepYourTurn
	if err := g.BeginTurn(0); err != nil {
		var refused *engine.TurnError
		if errors.As(err, &refused) {
			return fmt.Errorf("%s: %s", field, refused.Why)
		}
		return fmt.Errorf("%s: %v", field, err)
	}
	var buf [engine.MaxOptions]engine.Option
	// decide applies the one legal option that match accepts, or says
	// which decision failed and what was legal.
	decide := func(f, stated string, match func(engine.Option) bool) error {
		legal := g.Legal(buf[:0])
		var hits []engine.Option
		for _, o := range legal {
			if match(o) {
				hits = append(hits, o)
			}
		}
		switch len(hits) {
		case 0:
			return fmt.Errorf("%s.%s: %s is not legal in the %s decision (%s)", field, f, stated, g.Pending, describe(g, legal))
		case 1:
			return g.ApplyOnly(hits[0])
		}
		return fmt.Errorf("%s.%s: %s fits %d options (%s); say which icon, tile, colour or District", field, f, stated, len(hits), describe(g, hits))
	}
	you := &g.Seats[0]
	err := decide("card", fmt.Sprintf("%q", t.Card), func(o engine.Option) bool {
		return norm(r.Cards[you.Hand[o.A]].ID) == norm(t.Card)
	})
	if err != nil {
		return err
	}
	if err := decide("column", fmt.Sprint(t.Column), func(o engine.Option) bool { return int(o.A) == t.Column-1 }); err != nil {
		return err
	}
	if err := decide("row", fmt.Sprintf("%q", t.Row), func(o engine.Option) bool { return norm(g.Describe(o)) == norm(t.Row+" row") }); err != nil {
		return err
	}
	if err := decide("region", fmt.Sprintf("%q", t.Region), func(o engine.Option) bool {
		return norm(strings.TrimPrefix(r.RegionName(o.A), "the ")) == norm(strings.TrimPrefix(t.Region, "the "))
	}); err != nil {
		return err
	}
	for i, c := range t.Actions {
		f := fmt.Sprintf("actions[%d]", i)
		match, err := choiceMatcher(g, f, c)
		if err != nil {
			return fmt.Errorf("%s.%v", field, err)
		}
		if c.Do == "attract" && g.Pending != engine.DecAttract {
			return fmt.Errorf("%s.%s: no attract is pending (only the draw_attract ability asks for one)", field, f)
		}
		if err := decide(f, fmt.Sprintf("%q", c.Do), match); err != nil {
			return err
		}
	}
	if g.Pending == engine.DecAttract {
		return fmt.Errorf("%s.actions[%d]: the draw_attract ability waits for its attract", field, len(t.Actions))
	}
	if err := decide("actions", "the end of the actions", func(o engine.Option) bool { return o.Kind == engine.OptEnd }); err != nil {
		return err
	}
	if g.Pending != engine.DecSpot {
		if t.Spot != "" {
			return fmt.Errorf("%s.spot: the Assistant is in the Plaza, which has no spots (C-2)", field)
		}
		return nil
	}
	if t.Spot == "" {
		legal := g.Legal(buf[:0])
		if len(legal) == 1 && legal[0].A == engine.NoSpot {
			return g.ApplyOnly(legal[0])
		}
		return fmt.Errorf("%s.spot: missing (%s)", field, describe(g, legal))
	}
	return decide("spot", fmt.Sprintf("%q", t.Spot), func(o engine.Option) bool {
		if o.A == engine.NoSpot {
			return norm(t.Spot) == "none"
		}
		return norm(r.Spots[o.A].String()) == norm(t.Spot)
	})
}

// choiceKinds maps the names of Choice.Do to option kinds.
var choiceKinds = map[string]engine.OptionKind{
	"publicworks":    engine.OptPublicWorks,
	"celebrity":      engine.OptCelebrity,
	"research":       engine.OptResearch,
	"campaign":       engine.OptCampaign,
	"fundraise":      engine.OptFundraise,
	"directappeal":   engine.OptDirectAppeal,
	"rally":          engine.OptRally,
	"plazafundraise": engine.OptPlazaFundraise,
	"ability":        engine.OptAbility,
	"favor":          engine.OptFavor,
	"attract":        engine.OptAttract,
}

// choiceMatcher turns a scripted choice into a test on options; fields the
// choice does not use are refused, so that nothing stated is ignored.
func choiceMatcher(g *engine.Game, f string, c Choice) (func(engine.Option) bool, error) {
	r := g.Rules()
	kind, ok := choiceKinds[norm(c.Do)]
	if !ok {
		return nil, fmt.Errorf("%s.do: %q is not a choice (want public_works, celebrity, research, campaign, fundraise, direct_appeal, rally, plaza_fundraise, ability, favor or attract)", f, c.Do)
	}
	uses := map[engine.OptionKind][]string{
		engine.OptPublicWorks: {"tier"}, engine.OptCelebrity: {"tier"}, engine.OptResearch: {"tile"},
		engine.OptFundraise: {"icon"}, engine.OptDirectAppeal: {"colour", "district"}, engine.OptAbility: {"colour", "district"},
		engine.OptAttract: {"colour", "district"}, engine.OptFavor: {"district", "slot"},
	}[kind]
	for _, u := range []struct {
		name string
		set  bool
	}{{"tier", c.Tier != 0}, {"tile", c.Tile != nil}, {"icon", c.Icon != ""}, {"colour", c.Colour != ""}, {"district", c.District != ""}, {"slot", c.Slot != ""}} {
		if u.set && !slices.Contains(uses, u.name) {
			return nil, fmt.Errorf("%s.%s: %s takes no %s", f, u.name, c.Do, u.name)
		}
	}
	district := func(name string) (int8, error) {
		if d := r.DistrictIndex(canonDistrict(r, name)); d >= 0 {
			return int8(d), nil
		}
		return 0, fmt.Errorf("%q is not a District", name)
	}
	var colour, dist int8 = -1, -1
	var err error
	if c.Colour != "" {
		if colour, err = district(c.Colour); err != nil {
			return nil, fmt.Errorf("%s.colour: %v", f, err)
		}
	}
	if c.District != "" {
		if dist, err = district(c.District); err != nil {
			return nil, fmt.Errorf("%s.district: %v", f, err)
		}
	}
	tile := int8(-1) // the Initial Support token
	if c.Tile != nil {
		// The n-th tile of the Assistant's District, in placement order.
		n, here := *c.Tile, g.AssistantRegion(0, g.CurrentTurn().Column)
		tile = -2
		for i := range int(g.NPlaced) {
			if g.Placed[i].District == here {
				if n--; n == 0 {
					tile = int8(i)
				}
			}
		}
		if tile == -2 {
			return nil, fmt.Errorf("%s.tile: %d is not a tile of the Assistant's District (1-based, placement order)", f, *c.Tile)
		}
	}
	icon, anyIcon := engine.Action(0), c.Icon == ""
	if !anyIcon {
		found := false
		for a := range engine.Action(engine.NumActions) {
			if norm(a.String()) == norm(c.Icon) {
				icon, found = a, true
			}
		}
		if !found {
			return nil, fmt.Errorf("%s.icon: %q is not an action", f, c.Icon)
		}
	}
	slot := int8(-1)
	if c.Slot != "" {
		slot = -2
		for s := range engine.NumSlots {
			if norm(engine.SlotName(s)) == norm(c.Slot) {
				slot = int8(s)
			}
		}
		if slot == -2 {
			return nil, fmt.Errorf("%s.slot: %q is not a slot (TL, BL, TR or BR)", f, c.Slot)
		}
	}
	card := g.CurrentTurn().Card
	return func(o engine.Option) bool {
		if o.Kind != kind {
			return false
		}
		switch kind {
		case engine.OptPublicWorks, engine.OptCelebrity:
			return c.Tier == 0 || int(o.B) == c.Tier
		case engine.OptResearch:
			return o.B == tile
		case engine.OptFundraise:
			return anyIcon || r.Cards[card].Slots[o.A].Action == icon
		case engine.OptDirectAppeal, engine.OptAttract:
			return (colour < 0 || o.B == colour) && (dist < 0 || o.C == dist)
		case engine.OptAbility:
			// Polling abilities name the District in B; attract names
			// the colour in B and the District in C.
			if r.Cards[card].Ability.Kind == engine.AbilityAttractCube {
				return (colour < 0 || o.B == colour) && (dist < 0 || o.C == dist)
			}
			return colour < 0 && (dist < 0 || o.B == dist)
		case engine.OptFavor:
			return (dist < 0 || o.A == dist) && (slot < 0 || o.B == slot)
		}
		return true
	}, nil
}

// canonDistrict finds the rules' spelling of a District name.
func canonDistrict(r *engine.Rules, name string) string {
	for _, n := range r.Districts {
		if norm(n) == norm(name) {
			return n
		}
	}
	return name
}
