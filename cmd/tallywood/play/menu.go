package play

import (
	"fmt"
	"slices"
	"strings"

	"tallywood/engine"
)

// decisionTitles head the menu of each decision with the step as the
// rulebook numbers it (Strategy Phase 1-5, whose step 3, the income, asks
// nothing; I-1; Clean Up; Final Tally).
var decisionTitles = map[engine.DecisionKind]string{
	engine.DecCard:       "Step 1: select a Strategy card to play",
	engine.DecColumn:     "Step 2: place the card in an open Action Column (what each row would connect)",
	engine.DecRow:        "Step 2: place the card in a row of it (Step 3: its income is gained at once)",
	engine.DecRegion:     "Step 4: assign the column's Assistant",
	engine.DecAction:     "Step 5: take Strategy Actions, use the ability (5.a) or a Favor (5.b), or end",
	engine.DecAttract:    "Step 5: attract a Voter, a cube from the Plaza to a District",
	engine.DecSpot:       "After Step 5: the Assistant's spot (I-1)",
	engine.DecDiscard:    "Clean Up 4: discard cards you do not want, then keep the rest",
	engine.DecDraw:       "Clean Up 7: draw up to the hand size, from the deck of your choice",
	engine.DecReveal:     "Final Tally 1.a: flip a face-down Celebrity or Public Works tile",
	engine.DecInitiative: "Clean Up 6: exchange your Initiative 1 token with another player's",
}

// menu lists the legal options with their numbers (nums, see number)
// under the decision's title. A long menu of short lines goes in two
// columns so that board and menu fit one screen.
func (s *Session) menu(legal []engine.Option, nums []int) string {
	var b strings.Builder
	b.WriteString(s.paint(bold, decisionTitles[s.g.Decision().Kind]) + "\n")
	lines := make([]string, 0, len(legal))
	for i := 0; i < len(legal); i++ {
		if n := s.cubeRun(legal[i:]); n >= 4 {
			// Options that move a cube of a colour to a District are a
			// table: a row per colour, a column per District.
			lines = append(lines, s.cubeTable(legal[i:i+n], nums[i:i+n]))
			i += n - 1
			continue
		}
		if n := favorRun(legal[i:]); n >= 2 && s.turn.card >= 0 {
			lines = append(lines, s.favorTable(legal[i:i+n], nums[i:i+n]))
			i += n - 1
			continue
		}
		lines = append(lines, Wrap(fmt.Sprintf("%2d) %s", nums[i], s.describe(legal[i])), Width, "      "))
	}
	// Runs of short options (many Direct Appeals, attracts, reveals) go
	// in two columns, numbered down each column, so that board and menu
	// fit one screen; long options keep a line of their own.
	half := (Width - 2) / 2
	short := func(l string) bool { return visible(l) < half && !strings.Contains(l, "\n") }
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && short(lines[j]) {
			j++
		}
		if j-i < 4 {
			b.WriteString(lines[i] + "\n")
			i++
			continue
		}
		run := lines[i:j]
		rows := (len(run) + 1) / 2
		for r := range rows {
			l := run[r]
			if r+rows < len(run) {
				l += strings.Repeat(" ", half-visible(l)) + run[r+rows]
			}
			b.WriteString(l + "\n")
		}
		i = j
	}
	return b.String()
}

// cubeRun counts the options at the start of opts that move a Plaza cube
// of a colour (B) to a District (C): Direct Appeal, Attract a Voter, and
// the attract ability (C-15).
func (s *Session) cubeRun(opts []engine.Option) int {
	isCube := func(o engine.Option) bool {
		switch o.Kind {
		case engine.OptDirectAppeal, engine.OptAttract:
			return true
		case engine.OptAbility:
			return s.turn.card >= 0 && s.g.Rules().Cards[s.turn.card].Ability.Kind == engine.AbilityAttractCube
		}
		return false
	}
	n := 0
	for n < len(opts) && isCube(opts[n]) && opts[n].Kind == opts[0].Kind && validColour(opts[n].B) && validColour(opts[n].C) {
		n++
	}
	return n
}

// cubeTable lays out a run of cube options with their numbers.
func (s *Session) cubeTable(opts []engine.Option, nums []int) string {
	g := s.g
	r := g.Rules()
	var b strings.Builder
	switch opts[0].Kind {
	case engine.OptDirectAppeal:
		seat := g.Decision().Seat
		st := &g.Seats[seat]
		c := r.Costs
		fmt.Fprintf(&b, "Direct Appeal (%s): a Plaza cube to a District", cost(c.DirectAppealMoney, c.DirectAppealPopularity))
		if !st.DirectAppealTaken && !st.PlazaBadge && g.BadgesLeft(seat) > 0 {
			b.WriteString(";\n  the first one also puts your Badge in the Plaza (+1 Plaza Strength)")
		}
	case engine.OptAttract:
		b.WriteString("Attract a Voter: a Plaza cube to a District")
	default:
		fmt.Fprintf(&b, "Ability of %s: attract a Plaza cube to a District", r.Cards[s.turn.card].ID)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "%-16s", "      cube \\ to")
	for d := range int8(engine.NumDistricts) {
		b.WriteString(s.district(d, fmt.Sprintf("%8s", clip(r.Districts[d], 7))))
	}
	var cells [engine.NumDistricts][engine.NumDistricts]int
	var order []int8
	for i, o := range opts {
		if cells[o.B] == [engine.NumDistricts]int{} {
			order = append(order, o.B)
		}
		cells[o.B][o.C] = nums[i]
	}
	for _, c := range order {
		b.WriteString("\n" + s.district(c, fmt.Sprintf("%16s", clip(r.Districts[c], 10)+" cube")))
		for d := range engine.NumDistricts {
			if n := cells[c][d]; n > 0 {
				fmt.Fprintf(&b, "%8s", fmt.Sprintf("%d)", n))
			} else {
				fmt.Fprintf(&b, "%8s", "-")
			}
		}
	}
	return b.String()
}

// favorRun counts the Favor options at the start of opts.
func favorRun(opts []engine.Option) int {
	n := 0
	for n < len(opts) && opts[n].Kind == engine.OptFavor && validColour(opts[n].A) && opts[n].B >= 0 && opts[n].B < engine.NumSlots {
		n++
	}
	return n
}

// favorTable lays out Favors as a table: a row per ready Endorsement (with
// its cost, C-5), a column per unconnected slot of this turn's card (I-5).
func (s *Session) favorTable(opts []engine.Option, nums []int) string {
	g := s.g
	r := g.Rules()
	card := &r.Cards[s.turn.card]
	seat := g.Decision().Seat
	var slots []int8
	var tokens []int8
	var cells [engine.NumDistricts][engine.NumSlots]int
	for i, o := range opts {
		if !slices.Contains(slots, o.B) {
			slots = append(slots, o.B)
		}
		if !slices.Contains(tokens, o.A) {
			tokens = append(tokens, o.A)
		}
		cells[o.A][o.B] = nums[i]
	}
	slices.Sort(slots)
	const label, cell = 36, 14
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s", label, "Favor: flip an Endorsement to connect")
	for _, sl := range slots {
		fmt.Fprintf(&b, "%*s", cell, clip(engine.SlotName(int(sl))+" "+iconShort(card.Slots[sl])+iconNote(card.Slots[sl]), cell-1))
	}
	for _, d := range tokens {
		lvl := g.EndorsementHeld(seat, d)
		name := fmt.Sprintf("  %s %d", r.Districts[d], lvl)
		if lvl > 0 {
			e := r.Endorsements[lvl-1]
			name += " (" + strings.TrimPrefix(cost(e.FavorMoney, e.FavorPopularity), "pay ") + ")"
		}
		b.WriteString("\n" + s.district(d, fmt.Sprintf("%-*s", label, clip(name, label-1))))
		for _, sl := range slots {
			if n := cells[d][sl]; n > 0 {
				fmt.Fprintf(&b, "%*s", cell, fmt.Sprintf("%d)", n))
			} else {
				fmt.Fprintf(&b, "%*s", cell, "-")
			}
		}
	}
	return b.String()
}

// iconNote marks a Strategy icon, which acts, apart from a resource,
// which pays out when connected (I-3).
func iconNote(ic engine.Icon) string {
	if ic.IsAction {
		return " icon"
	}
	return ""
}

// help explains the pending decision, the commands and the board's
// notation.
func (s *Session) help() string {
	var b strings.Builder
	for _, l := range strings.Split(decisionHelp[s.g.Decision().Kind], "\n") {
		b.WriteString(Wrap(l, Width, "") + "\n")
	}
	b.WriteString(`Commands: a number picks that option; ? this help; b the board again;
  u undo your last decision (within your turn, and not past a flip, a cube
  drawn from the bag or a card drawn); h what the greedy bot would choose;
  s [FILE] save the game (a replayable record); q quit.
`)
	if s.others != nil {
		b.WriteString(`Board: 1-4 the seats (yours in colour). Track: each seat's trackers. IS:
  Initial Support (? face down); R B G Y: cubes; PW CE RE CA: who holds each
  spot; E1-E3: who holds each Endorsement (* flipped as a Favor this round);
  Shares, Strength: each seat's, seat 1 first; VS: the Vote Share token.
  Tiles: PW/CE and tier, ? face down or [face], +N the Badge on it. Other
  seats: policy/Politician, Initiative, hand size, Badges left, columns.
  Columns: the slots each row (top | middle | bottom) connects; M1 a board
  Money, P1 a board Popularity. Cards: [TL BL | TR BR]; PW CE RE CA action
  icons, M Money, P Popularity.
`)
		return b.String()
	}
	b.WriteString(`Board: Y you, O the Opposition. Track: S Vote Share icon, E1-E3 Endorsement
  levels, T the Vote Share token space. IS: Initial Support (? face down);
  R B G Y: cubes; PW CE RE CA: who holds each spot; E1-E3: who holds each
  Endorsement (* flipped as a Favor this round); ShY ShO: Vote Shares; StY
  StO: Strength; VS: the Vote Share token. Tiles: PW/CE and tier, ? face
  down or [face], +Y/+O the Badge on it. Columns: the slots each row (top |
  middle | bottom) connects; M1 a board Money, P1 a board Popularity.
  Cards: [TL BL | TR BR]; PW CE RE CA action icons, M Money, P Popularity.
`)
	return b.String()
}

var decisionHelp = map[engine.DecisionKind]string{
	engine.DecCard: "Pick the Strategy card for this turn. Its connected icons decide which actions\n" +
		"you can take; its ability can be used once this turn (passives last the round).",
	engine.DecColumn: "Each column can be used once a round. Its three rows connect different pairs\n" +
		"of the card's slots; some rows add a Money or Popularity from the board (C-11).",
	engine.DecRow: "The row decides which two slots are connected. Resources connected are gained\n" +
		"now; Strategy icons connected are the actions you can take (I-2, I-3).",
	engine.DecRegion: "A District lets you take its actions whose spots are free, and Fundraise;\n" +
		"the Plaza offers Direct Appeal, Rally and Fundraise. The Assistant is\n" +
		"1 Strength where it stands.",
	engine.DecAction: "Each connected icon activates one action; the ability and a Favor (flip a\n" +
		"ready Endorsement to connect another slot) can come before, between or after.",
	engine.DecAttract: "The ability drew a cube; now move one cube of any colour from the Plaza to\n" +
		"any District.",
	engine.DecSpot: "Your Assistant blocks the spot it takes for everyone until Clean Up; the\n" +
		"leftmost spot also wins District majority ties (I-1, I-17).",
	engine.DecDiscard: "Discarded cards go to their deck's discards; you then draw up to the next\n" +
		"round's hand size.",
	engine.DecDraw: "Draw one card at a time from the deck you choose.",
	engine.DecReveal: "Flipping a tile moves matching cubes from the Plaza to its District\n" +
		"(multi-colour icons take the District's colour).",
	engine.DecInitiative: "You hold the 1: give it to another player for their token, so that they\n" +
		"play first next round and you play in their place; with four players the\n" +
		"other two exchange theirs (Clean Up 6).",
}
