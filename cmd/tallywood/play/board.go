package play

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// Width is the terminal width the board and the menus are laid out for.
const Width = 80

// trackCells is the widest track drawn cell by cell; a rules file with a
// longer track gets numbers only.
const trackCells = 16

// board renders the game at a glance: round and turn, both sides'
// trackers on the track, each District, the Plaza, the Opposition's board
// and revealed Solo card, your columns, hand and turn in progress. It
// fits Width columns; without colour it is plain text.
func (s *Session) board() string {
	var b strings.Builder
	s.boardHeader(&b)
	s.boardTrack(&b)
	s.boardDistricts(&b)
	if s.others != nil {
		s.boardOthers(&b)
	} else {
		s.boardOpposition(&b)
	}
	s.boardYou(&b)
	return b.String()
}

func (s *Session) boardHeader(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	first := "you play 1st"
	if g.Order[0] != 0 {
		first = "you play 2nd"
	}
	game := g.Mode.String()
	if s.others != nil {
		first = fmt.Sprintf("Seat %d, plays %s", s.me+1, engine.Ordinal(int(g.TurnPosition(s.me))))
		game = fmt.Sprintf("%d players", g.NSeats)
	}
	var when string
	rd, card := g.RoundCard(), "Rewards"
	switch g.Phase {
	case engine.PhaseStrategy:
		when = fmt.Sprintf("Round %d of %d, turn %d of %d", g.Round+1, len(r.Rounds), g.Turn+1, g.RoundCard().Turns)
	case engine.PhaseCleanupDiscard, engine.PhaseCleanupDraw:
		// Clean Up 1 revealed the next Round card; step 7 draws up to
		// its hand size.
		rd, card = r.Rounds[g.Round+1], fmt.Sprintf("Round %d", g.Round+2)
		when = fmt.Sprintf("Clean Up after round %d: draw up to %d cards", g.Round+1, rd.HandSize)
	case engine.PhaseReveal:
		when = "Final Tally: reveals"
	default:
		when = "Game over"
	}
	head := fmt.Sprintf("Tallywood Rally · %s · %s · %s · %s", when, game, GameName(s.cfg.Seed, s.cfg.Game), first)
	b.WriteString(s.paint(bold, clip(head, Width)) + "\n")
	fmt.Fprintf(b, "%s: presence %s, majority %s, Plaza %s; hand %d\n", card,
		rewardText(rd.Presence), rewardText(rd.DistrictMajority), rewardText(rd.PlazaMajority), rd.HandSize)
}

var rewardNames = []string{"Money", "Popularity", "Polling", "Vote Share"}

func rewardText(w engine.Reward) string {
	name := "?"
	if int(w.Kind) < len(rewardNames) {
		name = rewardNames[w.Kind]
	}
	return fmt.Sprintf("%d %s", w.Amount, name)
}

// boardTrack draws the six trackers of both sides on the track (C-7), with
// the Vote Share icons (S, C-8), the endorsement thresholds (E1-E3, C-9)
// and the token space (T, C-10) marked above.
func (s *Session) boardTrack(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	if s.others != nil {
		s.tableTrack(b)
		return
	}
	you, opp := int8(0), g.Opponent()
	n := int(r.TrackMax) + 1
	cells := n <= trackCells
	if cells {
		fmt.Fprintf(b, "%-11s", fmt.Sprintf("Track 0-%d", r.TrackMax))
		for p := range int8(n) {
			fmt.Fprintf(b, " %-2s", trackIcon(r, p))
		}
		b.WriteString("   You Opp\n")
	} else {
		b.WriteString(fmt.Sprintf("%-11s You Opp   (track 0-%d; Vote Share icons at %v)\n", "Track", r.TrackMax, r.ShareIcons))
	}
	row := func(label string, d int8, y, o int8) {
		l := fmt.Sprintf("%-11s", label)
		if d >= 0 {
			l = s.district(d, l)
		}
		b.WriteString(l)
		if cells {
			for p := range int8(n) {
				var c string
				switch {
				case p == y && p == o:
					c = s.paint(colourYou, "Y") + s.paint(colourOpp, "O")
				case p == y:
					c = s.paint(colourYou, "Y") + " "
				case p == o:
					c = s.paint(colourOpp, "O") + " "
				default:
					c = ". "
				}
				b.WriteString(" " + c)
			}
		}
		fmt.Fprintf(b, "%6d%4d\n", y, o)
	}
	row("Money", -1, g.Seats[you].Money, g.Seats[opp].Money)
	row("Popularity", -1, g.Seats[you].Popularity, g.Seats[opp].Popularity)
	for d := range int8(engine.NumDistricts) {
		row(clip(r.Districts[d], 10), d, g.Seats[you].Polling[d], g.Seats[opp].Polling[d])
	}
}

// tableTrack gives every seat's trackers as numbers, a column per seat:
// four markers do not fit a cell of the track.
func (s *Session) tableTrack(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	fmt.Fprintf(b, "%-11s", fmt.Sprintf("Track 0-%d", r.TrackMax))
	for seat := range g.NSeats {
		b.WriteString("    " + s.seatMark(seat, 1)) // right-aligned over %5d
	}
	// The marks of the track, as the solo board draws them above it.
	fmt.Fprintf(b, "  (S at %v, E1-E3 at %v, T at %d)\n", r.ShareIcons, r.EndorseAt, r.TokenSpace)
	row := func(label string, d int8, v func(st *engine.Seat) int8) {
		l := fmt.Sprintf("%-11s", label)
		if d >= 0 {
			l = s.district(d, l)
		}
		b.WriteString(l)
		for seat := range g.NSeats {
			fmt.Fprintf(b, "%5d", v(&g.Seats[seat]))
		}
		b.WriteString("\n")
	}
	row("Money", -1, func(st *engine.Seat) int8 { return st.Money })
	row("Popularity", -1, func(st *engine.Seat) int8 { return st.Popularity })
	for d := range int8(engine.NumDistricts) {
		row(clip(r.Districts[d], 10), d, func(st *engine.Seat) int8 { return st.Polling[d] })
	}
}

// perSeat joins a number of every seat with "/", seat 1 first.
func (s *Session) perSeat(v func(seat int8) int) string {
	var parts []string
	for seat := range s.g.NSeats {
		parts = append(parts, fmt.Sprint(v(seat)))
	}
	return strings.Join(parts, "/")
}

// trackIcon marks a space of the track.
func trackIcon(r *engine.Rules, p int8) string {
	var m string
	for _, icon := range r.ShareIcons {
		if icon == p {
			m += "S"
		}
	}
	for i, t := range r.EndorseAt {
		if t == p {
			m += fmt.Sprintf("E%d", i+1)
		}
	}
	if p == r.TokenSpace {
		m += "T"
	}
	if m == "" {
		return "."
	}
	return clip(m, 2)
}

// boardDistricts draws a table row per District and a line of its tiles.
func (s *Session) boardDistricts(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	you, opp := int8(0), g.Opponent()
	b.WriteString(fmt.Sprintf("%-8s %3s  ", "District", "IS"))
	for c := range int8(engine.NumDistricts) {
		b.WriteString(s.district(c, fmt.Sprintf("%2s ", initial(r.Districts[c]))))
	}
	b.WriteString(" ")
	for _, a := range r.Spots {
		fmt.Fprintf(b, "%-3s", actionShort[a])
	}
	if s.others != nil {
		fmt.Fprintf(b, " %-3s%-3s%-3s %-8s %-11s %s\n", "E1", "E2", "E3", "Shares", "Strength", "VS")
	} else {
		fmt.Fprintf(b, " %-3s%-3s%-3s %3s %3s %3s %3s %s\n", "E1", "E2", "E3", "ShY", "ShO", "StY", "StO", "VS")
	}
	for d := range int8(engine.NumDistricts) {
		ds := &g.Districts[d]
		is := "?"
		if ds.SupportFaceUp {
			is = fmt.Sprint(ds.InitialSupport)
		}
		var cubes, spots, end strings.Builder
		for _, c := range ds.Cubes {
			fmt.Fprintf(&cubes, "%2d ", c)
		}
		for _, h := range ds.Spots {
			spots.WriteString(s.seatMark(h, 3))
		}
		for l, h := range ds.Endorsements {
			m := s.seatMark(h, 1)
			if ds.FavorUsed[l] {
				m += "* "
			} else {
				m += "  "
			}
			end.WriteString(m)
		}
		vs := s.seatMark(ds.VoteShareToken, 1)
		if s.others != nil {
			fmt.Fprintf(b, "%s %3s  %s %s %s%-8s %-11s %s\n",
				s.district(d, fmt.Sprintf("%-8s", clip(r.Districts[d], 8))), is, cubes.String(), spots.String(), end.String(),
				s.perSeat(func(seat int8) int { return int(g.VoteShares(seat, d)) }),
				s.perSeat(func(seat int8) int { return int(g.Strength(seat, d)) }), vs)
			s.tileLine(b, d)
			continue
		}
		fmt.Fprintf(b, "%s %3s  %s %s %s%3d %3d %3d %3d %s\n",
			s.district(d, fmt.Sprintf("%-8s", clip(r.Districts[d], 8))), is, cubes.String(), spots.String(),
			end.String(), g.VoteShares(you, d), g.VoteShares(opp, d), g.Strength(you, d), g.Strength(opp, d), vs)
		s.tileLine(b, d)
	}
	var plaza strings.Builder
	for c, n := range g.Plaza {
		fmt.Fprintf(&plaza, " %s%d", s.district(int8(c), initial(r.Districts[c])), n)
	}
	badges := ""
	seats := []int8{you, opp}
	if s.others != nil {
		seats = seats[:0]
		for seat := range g.NSeats {
			seats = append(seats, seat)
		}
	}
	for _, seat := range seats {
		if g.Seats[seat].PlazaBadge {
			badges += " " + s.seatMark(seat, 1)
		}
	}
	if badges == "" {
		badges = " none"
	}
	if s.others != nil {
		fmt.Fprintf(b, "%-8s cubes%s · Badges%s%s · Str %s · bag %d\n", "Plaza", plaza.String(), badges,
			s.assistantsOff(engine.Plaza), s.perSeat(func(seat int8) int { return int(g.Strength(seat, engine.Plaza)) }), g.BagCount())
		return
	}
	fmt.Fprintf(b, "%-8s cubes%s · Badges%s%s · Str Y%d O%d · bag %d\n", "Plaza", plaza.String(), badges,
		s.assistantsOff(engine.Plaza), g.Strength(you, engine.Plaza), g.Strength(opp, engine.Plaza), g.BagCount())
}

// tileLine lists a District's tiles: kind and tier, "?" face down or the
// face, and the Badge on it; then Assistants standing there with no spot.
func (s *Session) tileLine(b *strings.Builder, d int8) {
	g := s.g
	r := g.Rules()
	var items []string
	for i := range int(g.NPlaced) {
		t := g.Placed[i]
		if t.District != d {
			continue
		}
		m := fmt.Sprintf("%s%d", tileShort(t.Kind), t.Tier)
		if t.FaceUp {
			m += "[" + r.Tiles[t.Kind][t.Tier-1][t.Face].String() + "]"
		} else {
			m += "?"
		}
		if t.Badge != engine.NoSeat {
			m += "+" + s.seatMark(t.Badge, 1)
		}
		items = append(items, m)
	}
	off := s.assistantsOff(d)
	if len(items) == 0 && off == "" {
		return // no line for a District with nothing more to show
	}
	line := "         tiles"
	if len(items) == 0 {
		line += " none"
	}
	width := len(line)
	for _, it := range items {
		w := visible(it) + 1
		if width+w > Width-2 {
			b.WriteString(line + "\n")
			line, width = "              ", 14
		}
		line += " " + it
		width += w
	}
	if off != "" {
		if width+visible(off) > Width-2 {
			b.WriteString(line + "\n")
			line = "             "
		}
		line += off
	}
	b.WriteString(line + "\n")
}

// assistantsOff lists the Assistants in a region that stand on no spot.
// The Assistant of your turn in progress has not chosen its spot yet (it
// does after the actions, I-1), so it is shown as such, not as "no spot".
func (s *Session) assistantsOff(region int8) string {
	g := s.g
	var who []string
	pending := ""
	for seat := range g.NSeats {
		for c, a := range g.Seats[seat].Assistants {
			if a.Region != region || a.Spot != engine.NoSpot {
				continue
			}
			if region != engine.Plaza && seat == g.Decision().Seat && int8(c) == s.turn.col && g.Phase == engine.PhaseStrategy {
				pending = " · " + s.seatMark(seat, 1) + " spot after the actions"
				continue
			}
			who = append(who, s.seatMark(seat, 1))
		}
	}
	switch {
	case len(who) == 0:
		return pending
	case region == engine.Plaza:
		return " · Assistants " + strings.Join(who, " ")
	}
	return " · no spot: " + strings.Join(who, " ") + pending
}

// seatMark is Y (you), O (Opposition) or "." padded to width; at a table
// the seat's number, the person's in the colour of "you".
func (s *Session) seatMark(seat int8, width int) string {
	pad := strings.Repeat(" ", max(0, width-1))
	switch {
	case seat == engine.NoSeat:
		return "." + pad
	case s.others != nil && seat == s.me:
		return s.paint(colourYou, fmt.Sprint(seat+1)) + pad
	case s.others != nil:
		return fmt.Sprint(seat+1) + pad
	case s.g.Seats[seat].Automaton:
		return s.paint(colourOpp, "O") + pad
	}
	return s.paint(colourYou, "Y") + pad
}

// boardOpposition shows the Opposition's board: its Solo cards this round
// and the one just revealed, with what its column connects (C-11).
func (s *Session) boardOpposition(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	opp := g.Opponent()
	st := &g.Seats[opp]
	last := -1
	var cols strings.Builder
	for c, col := range st.Columns {
		card := "--"
		if col.Card >= 0 {
			card = r.Solo[col.Card].ID
			last = c
		}
		fmt.Fprintf(&cols, " %d %s", c+1, card)
	}
	fmt.Fprintf(b, "%s  Solo deck %d · Badges left %d · columns%s\n", s.paint(colourOpp, "Opposition"), g.Solo.N, g.BadgesLeft(opp), cols.String())
	if last < 0 {
		return
	}
	sc := r.Solo[st.Columns[last].Card]
	d, a := SoloConnection(r, &sc, int8(last))
	line := fmt.Sprintf("  revealed %s: %s|%s · %s|%s · column %d connects %s, %s", sc.ID,
		r.Districts[sc.LeftDistrict], r.Districts[sc.RightDistrict], sc.LeftAction, sc.RightAction, last+1, r.Districts[d], a)
	if visible(line) > Width {
		line = fmt.Sprintf("  revealed %s: %s|%s · %s|%s · column %d connects %s, %s", sc.ID,
			r.Districts[sc.LeftDistrict], r.Districts[sc.RightDistrict], actionShort[sc.LeftAction], actionShort[sc.RightAction],
			last+1, r.Districts[d], actionShort[a])
	}
	b.WriteString(clip(line, Width) + "\n")
}

// boardOthers shows, at a table, each other seat's public state: its
// policy and Politician, Initiative, the cards in its columns, its hand's
// size (not the cards), Badges and Direct Appeal.
func (s *Session) boardOthers(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	for seat := range g.NSeats {
		if seat == s.me {
			continue
		}
		st := &g.Seats[seat]
		j := int(seat)
		if seat > s.me {
			j--
		}
		var cols []string
		for _, col := range st.Columns {
			c := "--"
			if col.Card >= 0 {
				c = r.Cards[col.Card].ID
			}
			cols = append(cols, c)
		}
		da := ""
		if st.DirectAppealTaken {
			da = " · DA taken"
		}
		line := fmt.Sprintf("%s %s/%s · Init %d · hand %d · Badges %d%s · cols %s", engine.TableSeatName(seat),
			s.cfg.Lineup[j].Label, politicianID(r, st.Politician), g.Initiative(seat), st.NHand, g.BadgesLeft(seat), da, strings.Join(cols, " "))
		// A long policy spec or four cards played take a second line.
		b.WriteString(Wrap(line, Width, "         ") + "\n")
	}
}

// politicianID is the id of a Politician index, "?" outside the rules.
func politicianID(r *engine.Rules, p int8) string {
	if p >= 0 && int(p) < len(r.Politicians) {
		return r.Politicians[p].ID
	}
	return "?"
}

// SoloConnection is what the middle row of a column connects on a Solo
// card: a District (top slots) and an action (bottom slots) (C-11).
func SoloConnection(r *engine.Rules, sc *engine.SoloCard, col int8) (int8, engine.Action) {
	d, a := int8(sc.LeftDistrict), sc.LeftAction
	for _, sl := range r.Columns[col][1].Slots {
		switch sl {
		case engine.SlotTR:
			d = int8(sc.RightDistrict)
		case engine.SlotBR:
			a = sc.RightAction
		}
	}
	return d, a
}

// boardYou shows your columns, hand and the turn in progress.
func (s *Session) boardYou(b *strings.Builder) {
	g := s.g
	r := g.Rules()
	st := &g.Seats[s.me]
	pol := politicianID(r, st.Politician)
	da := "not yet"
	if st.DirectAppealTaken {
		da = "taken"
	}
	if s.others != nil {
		pol = engine.TableSeatName(s.me) + ", " + pol
	}
	fmt.Fprintf(b, "%s (%s)  Badges left %d · Direct Appeal %s\n", s.paint(colourYou, "You"), pol, g.BadgesLeft(s.me), da)
	var cols []string
	for c := range int8(engine.NumColumns) {
		col := st.Columns[c]
		var t string
		if col.Card >= 0 {
			t = fmt.Sprintf("%d %s %s %s", c+1, r.Cards[col.Card].ID, engine.RowName(int(col.Row)), placementText(r, int(col.Card), c, col.Row))
			if col.Favors != 0 {
				t += " +Favor"
			}
		} else {
			var rows []string
			for row := range int8(engine.NumRows) {
				rows = append(rows, placementText(r, -1, c, row))
			}
			t = fmt.Sprintf("%d %s", c+1, strings.Join(rows, " | "))
		}
		cols = append(cols, t)
	}
	for i := 0; i < len(cols); i += 2 {
		label := "Columns"
		if i > 0 {
			label = " t|m|b" // open columns list their rows' slots: top | middle | bottom
		}
		fmt.Fprintf(b, "%-8s %-34s  %s\n", label, clip(cols[i], 34), clip(cols[i+1], 34))
	}
	if st.NHand == 0 {
		b.WriteString("Hand     empty\n")
	}
	for i := range st.NHand {
		label := "Hand"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(b, "%-8s %s\n", label, clip(cardLine(r, int(st.Hand[i])), Width-9))
	}
	if s.turn.card >= 0 {
		b.WriteString(clip(s.turnLine(), Width) + "\n")
	}
}

// turnLine describes the turn in progress: the card, where it lies, which
// icons are connected and spent, and where the Assistant stands.
func (s *Session) turnLine() string {
	g := s.g
	r := g.Rules()
	c := &r.Cards[s.turn.card]
	line := "This turn " + c.ID
	if s.turn.col < 0 {
		return line + ": choose a column"
	}
	col := g.Seats[s.me].Columns[s.turn.col]
	if col.Card < 0 {
		return line + fmt.Sprintf(" in column %d: choose a row", s.turn.col+1)
	}
	line += fmt.Sprintf(" col %d %s:", s.turn.col+1, engine.RowName(int(col.Row)))
	conn := r.ConnectedSlots(s.turn.col, col.Row) | col.Favors
	for sl := range engine.NumSlots {
		if conn&(1<<sl) == 0 || !c.Slots[sl].IsAction {
			continue
		}
		line += " " + iconShort(c.Slots[sl])
		if s.turn.used&(1<<sl) != 0 {
			line += "(used)"
		}
	}
	region := g.AssistantRegion(s.me, s.turn.col)
	if region != engine.Home {
		line += " · Assistant in " + r.RegionName(region)
	}
	return line
}

// clip shortens plain text to n runes.
func clip(t string, n int) string {
	if visible(t) <= n {
		return t
	}
	rs := []rune(t)
	if len(rs) <= n {
		return t
	}
	return string(rs[:n-1]) + "…"
}

// visible counts the runes of t outside ANSI escape sequences: its width
// on a terminal for the text this package writes.
func visible(t string) int {
	n, esc := 0, false
	for _, c := range t {
		switch {
		case esc:
			if c == 'm' {
				esc = false
			}
		case c == '\x1b':
			esc = true
		default:
			n++
		}
	}
	return n
}

// initial is the first letter of a name, as cube colours are written.
func initial(name string) string {
	for _, c := range name {
		return string(c)
	}
	return "?"
}
