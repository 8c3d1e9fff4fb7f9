package serve

import (
	"fmt"
	"strings"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
)

// The board as the page draws it, in SVG and words: every position is
// computed here, the templates only place it. Names, not shorthand: the
// terminal's PW, ShY, E1 are the legend's only.

type boardView struct {
	Track      trackView
	Districts  []districtView
	Plaza      plazaView
	Opposition oppView
	You        youView
	Round      string // the round card's rewards
}

// districtColours fill the cubes and the Districts' headers, in the
// rules' order of Districts (Red, Blue, Green, Yellow in the reference
// set); text on them is dark or light by colour.
var districtColours = [engine.NumDistricts]struct{ Fill, Ink string }{
	{"#c0392b", "#fff"}, {"#2e6fd8", "#fff"}, {"#2e9b4f", "#fff"}, {"#e6c229", "#222"},
}

// Colours of the two sides.
const (
	youColour = "#0b7fa6"
	oppColour = "#a0308f"
)

// trackView is the score track: every tracker of both sides, and the
// marks above its spaces (C-7 to C-10).
type trackView struct {
	Width, Height int
	Spaces        []trackSpace
	Rows          []trackRow
}

type trackSpace struct {
	X     int
	N     int
	Left  int    // the cell's left edge
	Marks string // "VS", "E1", "T", the legend's shorthand
	Title string // the marks in words
}

type trackRow struct {
	Y           int
	Label       string
	Fill, Ink   string // the District's colours, or none
	You, Opp    int
	YouX, OppX  int
	ValuesX     int
	Description string
}

const (
	trackLabelW = 96
	trackCell   = 30
	trackRowH   = 28
	trackTop    = 40
)

func newTrack(g *engine.Game) trackView {
	r := g.Rules()
	opp := g.Opponent()
	n := int(r.TrackMax) + 1
	t := trackView{Width: trackLabelW + n*trackCell + 120}
	for p := range n {
		sp := trackSpace{X: trackLabelW + p*trackCell + trackCell/2, Left: trackLabelW + p*trackCell, N: p}
		var words, marks []string
		for _, icon := range r.ShareIcons {
			if int(icon) == p {
				marks = append(marks, "VS")
				words = append(words, "a Vote Share icon")
			}
		}
		for i, e := range r.EndorseAt {
			if int(e) == p {
				marks = append(marks, fmt.Sprintf("E%d", i+1))
				words = append(words, fmt.Sprintf("Endorsement level %d", i+1))
			}
		}
		if int(r.TokenSpace) == p {
			marks = append(marks, "T")
			words = append(words, "the Vote Share token space")
		}
		sp.Marks = strings.Join(marks, " ")
		sp.Title = fmt.Sprintf("space %d", p)
		if len(words) > 0 {
			sp.Title += ": " + strings.Join(words, ", ")
		}
		t.Spaces = append(t.Spaces, sp)
	}
	add := func(label string, d int, you, o int8) {
		y := trackTop + len(t.Rows)*trackRowH
		row := trackRow{Y: y, Label: label, You: int(you), Opp: int(o),
			YouX: trackLabelW + int(you)*trackCell + trackCell/2, OppX: trackLabelW + int(o)*trackCell + trackCell/2,
			ValuesX: trackLabelW + n*trackCell + 8, Fill: "#ece8df", Ink: "#222"}
		if you == o {
			// Both on one space: side by side.
			row.YouX, row.OppX = row.YouX-6, row.OppX+6
		}
		if d >= 0 {
			row.Fill, row.Ink = districtColours[d].Fill, districtColours[d].Ink
			row.Description = fmt.Sprintf("%s polling: you %d, the Opposition %d", label, you, o)
		} else {
			row.Description = fmt.Sprintf("%s: you %d, the Opposition %d", label, you, o)
		}
		t.Rows = append(t.Rows, row)
	}
	add("Money", -1, g.Seats[0].Money, g.Seats[opp].Money)
	add("Popularity", -1, g.Seats[0].Popularity, g.Seats[opp].Popularity)
	for d := range engine.NumDistricts {
		add(r.Districts[d], d, g.Seats[0].Polling[d], g.Seats[opp].Polling[d])
	}
	t.Height = trackTop + len(t.Rows)*trackRowH + 8
	return t
}

// districtView is one District drawn as a card.
type districtView struct {
	Name           string
	Fill, Ink      string
	InitialSupport string
	Cubes          []cubeView
	Spots          []spotView
	Endorsements   []endorseView
	Lines          []svgLine
	Height         int
}

type cubeView struct {
	X         int
	Fill, Ink string
	N         int
	Name      string
}

type spotView struct {
	X         int
	Action    string
	Holder    string // "free", "you", "Opposition"
	Fill, Ink string
}

type endorseView struct {
	X         int
	Level     int
	Votes     int
	Holder    string
	Fill, Ink string
	Favor     bool
}

type svgLine struct {
	Y    int
	Text string
}

func holderName(g *engine.Game, seat int8) string {
	switch {
	case seat == engine.NoSeat:
		return "free"
	case g.Seats[seat].Automaton:
		return "Opposition"
	}
	return "you"
}

func holderColours(g *engine.Game, seat int8) (fill, ink string) {
	switch {
	case seat == engine.NoSeat:
		return "#f4f1ea", "#555"
	case g.Seats[seat].Automaton:
		return oppColour, "#fff"
	}
	return youColour, "#fff"
}

func newDistrict(sess *play.Session, d int8) districtView {
	g := sess.Game()
	r := g.Rules()
	ds := &g.Districts[d]
	opp := g.Opponent()
	v := districtView{Name: r.Districts[d], Fill: districtColours[d].Fill, Ink: districtColours[d].Ink, InitialSupport: "face down"}
	if ds.SupportFaceUp {
		v.InitialSupport = fmt.Sprint(ds.InitialSupport)
	}
	for c, n := range ds.Cubes {
		v.Cubes = append(v.Cubes, cubeView{X: 10 + c*82, Fill: districtColours[c].Fill, Ink: districtColours[c].Ink, N: int(n), Name: r.Districts[c]})
	}
	for sp, h := range ds.Spots {
		fill, ink := holderColours(g, h)
		v.Spots = append(v.Spots, spotView{X: 6 + sp*83, Action: r.Spots[sp].String(), Holder: holderName(g, h), Fill: fill, Ink: ink})
	}
	for l, h := range ds.Endorsements {
		fill, ink := holderColours(g, h)
		v.Endorsements = append(v.Endorsements, endorseView{X: 30 + l*112, Level: l + 1, Votes: int(r.Endorsements[l].Votes),
			Holder: holderName(g, h), Fill: fill, Ink: ink, Favor: ds.FavorUsed[l]})
	}
	y := 212
	line := func(format string, args ...any) {
		v.Lines = append(v.Lines, svgLine{Y: y, Text: fmt.Sprintf(format, args...)})
		y += 18
	}
	line("Vote Shares: you %d, Opposition %d", g.VoteShares(0, d), g.VoteShares(opp, d))
	line("Strength: you %d, Opposition %d", g.Strength(0, d), g.Strength(opp, d))
	switch ds.VoteShareToken {
	case engine.NoSeat:
		line("Vote Share token: still here")
	default:
		line("Vote Share token: taken by %s", holderName(g, ds.VoteShareToken))
	}
	for i := range int(g.NPlaced) {
		t := g.Placed[i]
		if t.District != d {
			continue
		}
		face := "face down"
		if t.FaceUp {
			face = faceWords(r, r.Tiles[t.Kind][t.Tier-1][t.Face])
		}
		line("%s tier %d: %s", play.TileName(t.Kind), t.Tier, face)
		if t.Badge != engine.NoSeat {
			line("    with %s Badge on it", map[bool]string{true: "the Opposition's", false: "your"}[g.Seats[t.Badge].Automaton])
		}
	}
	for seat := range g.NSeats {
		for c, a := range g.Seats[seat].Assistants {
			if a.Region == d && a.Spot == engine.NoSpot {
				who := "Your"
				if g.Seats[seat].Automaton {
					who = "The Opposition's"
				}
				line("%s Assistant (column %d) stands here, on no spot yet", who, c+1)
			}
		}
	}
	v.Height = y
	return v
}

// faceWords says what a revealed tile shows: the Voter cubes it attracts.
func faceWords(r *engine.Rules, f engine.Face) string {
	var parts []string
	for c, n := range f.Cubes {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, r.Districts[c]))
		}
	}
	if f.Multi > 0 {
		parts = append(parts, fmt.Sprintf("%d of the District's colour", f.Multi))
	}
	if len(parts) == 0 {
		return "shows no cube"
	}
	return "shows " + strings.Join(parts, ", ")
}

// plazaView is the Plaza and the bag.
type plazaView struct {
	Cubes []cubeView
	Lines []svgLine
}

func newPlaza(g *engine.Game) plazaView {
	r := g.Rules()
	opp := g.Opponent()
	var v plazaView
	for c, n := range g.Plaza {
		v.Cubes = append(v.Cubes, cubeView{X: 10 + c*82, Fill: districtColours[c].Fill, Ink: districtColours[c].Ink, N: int(n), Name: r.Districts[c]})
	}
	var badges []string
	if g.Seats[0].PlazaBadge {
		badges = append(badges, "yours")
	}
	if g.Seats[opp].PlazaBadge {
		badges = append(badges, "the Opposition's")
	}
	if len(badges) == 0 {
		badges = []string{"none"}
	}
	for i, text := range []string{
		"Badges: " + strings.Join(badges, " and "),
		fmt.Sprintf("Plaza Strength: you %d, Opposition %d", g.Strength(0, engine.Plaza), g.Strength(opp, engine.Plaza)),
		fmt.Sprintf("Voter cubes left in the bag: %d", g.BagCount()),
	} {
		v.Lines = append(v.Lines, svgLine{Y: 100 + 18*i, Text: text})
	}
	return v
}

// oppView is the Opposition's board: what a player sees of it.
type oppView struct {
	SoloDeck, BadgesLeft int
	Columns              []string
	Revealed             string
}

func newOpposition(g *engine.Game) oppView {
	r := g.Rules()
	opp := g.Opponent()
	st := &g.Seats[opp]
	v := oppView{SoloDeck: int(g.Solo.N), BadgesLeft: int(g.BadgesLeft(opp))}
	last := -1
	for c, col := range st.Columns {
		if col.Card < 0 {
			v.Columns = append(v.Columns, fmt.Sprintf("Column %d: empty", c+1))
			continue
		}
		sc := r.Solo[col.Card]
		v.Columns = append(v.Columns, fmt.Sprintf("Column %d: %s (%s or %s; %s or %s)", c+1, sc.ID,
			r.Districts[sc.LeftDistrict], r.Districts[sc.RightDistrict], sc.LeftAction, sc.RightAction))
		last = c
	}
	if last >= 0 {
		sc := r.Solo[st.Columns[last].Card]
		d, a := play.SoloConnection(r, &sc, int8(last))
		v.Revealed = fmt.Sprintf("Its latest card, %s, in column %d connects %s and %s.", sc.ID, last+1, r.Districts[d], a)
	}
	return v
}

// youView is the tester's board and hand.
type youView struct {
	Politician        string
	Money, Popularity int
	BadgesLeft        int
	DirectAppeal      string
	Columns           []string
	Hand              []cardView
}

// cardView is a Strategy card in words: its four slots and its ability.
type cardView struct {
	ID                    string
	TopLeft, BottomLeft   string
	TopRight, BottomRight string
	Ability               string
	ThisTurn              bool
}

func newCard(r *engine.Rules, card int) cardView {
	c := &r.Cards[card]
	return cardView{ID: c.ID, TopLeft: iconWords(c.Slots[engine.SlotTL]), BottomLeft: iconWords(c.Slots[engine.SlotBL]),
		TopRight: iconWords(c.Slots[engine.SlotTR]), BottomRight: iconWords(c.Slots[engine.SlotBR]), Ability: c.Ability.String()}
}

// iconWords names a card slot's icon.
func iconWords(ic engine.Icon) string {
	if ic.IsAction {
		return ic.Action.String()
	}
	var parts []string
	if ic.Money > 0 {
		parts = append(parts, fmt.Sprintf("%d Money", ic.Money))
	}
	if ic.Popularity > 0 {
		parts = append(parts, fmt.Sprintf("%d Popularity", ic.Popularity))
	}
	if len(parts) == 0 {
		return "blank"
	}
	return strings.Join(parts, " and ")
}

func newYou(sess *play.Session) youView {
	g := sess.Game()
	r := g.Rules()
	st := &g.Seats[0]
	v := youView{Politician: r.Politicians[st.Politician].ID, Money: int(st.Money), Popularity: int(st.Popularity),
		BadgesLeft: int(g.BadgesLeft(0)), DirectAppeal: "not yet taken"}
	if st.DirectAppealTaken {
		v.DirectAppeal = "taken"
	}
	for c, col := range st.Columns {
		if col.Card < 0 {
			v.Columns = append(v.Columns, fmt.Sprintf("Column %d: open", c+1))
			continue
		}
		text := fmt.Sprintf("Column %d: %s in the %s row", c+1, r.Cards[col.Card].ID, engine.RowName(int(col.Row)))
		if col.Favors != 0 {
			text += ", a Favor connected another slot"
		}
		v.Columns = append(v.Columns, text)
	}
	turn := sess.TurnCard()
	if turn >= 0 {
		c := newCard(r, turn)
		c.ThisTurn = true
		v.Hand = append(v.Hand, c)
	}
	for i := range st.NHand {
		v.Hand = append(v.Hand, newCard(r, int(st.Hand[i])))
	}
	return v
}

func newBoard(sess *play.Session) boardView {
	g := sess.Game()
	b := boardView{Track: newTrack(g), Plaza: newPlaza(g), Opposition: newOpposition(g), You: newYou(sess)}
	for d := range int8(engine.NumDistricts) {
		b.Districts = append(b.Districts, newDistrict(sess, d))
	}
	rd := g.RoundCard()
	b.Round = fmt.Sprintf("This round's rewards at Round Scoring: %s for presence in a District, %s for its majority, %s for the Plaza's majority; hands are %d cards.",
		rewardWords(rd.Presence), rewardWords(rd.DistrictMajority), rewardWords(rd.PlazaMajority), rd.HandSize)
	return b
}

var rewardNames = []string{"Money", "Popularity", "polling", "Vote Share"}

func rewardWords(w engine.Reward) string {
	if int(w.Kind) >= len(rewardNames) {
		return "?"
	}
	return fmt.Sprintf("%d %s", w.Amount, rewardNames[w.Kind])
}
