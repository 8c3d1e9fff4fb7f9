package engine

import (
	"fmt"
	"strings"
)

// EventKind says what changed.
type EventKind uint8

const (
	EvSetup EventKind = iota
	EvRound
	EvTurn         // Seat starts a Strategy Phase turn
	EvPlayCard     // Item card, Action column, Tier row
	EvSoloCard     // Item Solo card, Action column
	EvTracker      // Action tracker (TrackerMoney, TrackerPopularity, TrackerPolling+d), From → To
	EvAssistant    // District region, Action column
	EvPublicWorks  // District, Tier, From cost Money, Item tile
	EvCelebrity    // District, Tier, From cost Money, To cost Popularity, Item tile
	EvFlip         // District, Item tile (-1: Initial Support), From cubes attracted
	EvCampaign     // District, From cost Popularity
	EvFundraise    // District (or Plaza)
	EvDirectAppeal // Item colour, District destination
	EvRally        // From Strength
	EvAbility      // Item card
	EvFavor        // District, Tier level, Item slot
	EvSpot         // District, Item spot (-1: none)
	EvEndorsement  // District, Tier level taken, From level returned
	EvToken        // District: Vote Share token taken
	EvCubeDraw     // Item colour (-1: bag empty)
	EvCubeMove     // Item colour, From region → To region
	EvBadge        // District (or Plaza): a Badge placed
	EvReward       // District (Plaza = 4), Item reward kind, To amount
	EvPlazaAdvance // the Opposition's Plaza rule (I-14), To amount
	EvCleanup      //
	EvDiscard      // Item card
	EvDraw         // Action deck, Item card
	EvReshuffle    // Action deck (I-19); -1: the Solo deck
	EvSoloBox      // Item Solo cards boxed
	EvReveal       // District, Item tile
	EvTally        // District, From votes, To votes per share
	EvSeatTally    // District (-1: endorsements, 4: bonus), From shares, To votes
	EvResult       // From your votes, To the Opposition's
	EvNote         // an Opposition decision: Note says why, Rule cites
	EvInitiative   // Seat now holds the "1" token, Item the seat that gave it (Clean Up 6)
)

// Tracker ids for EvTracker.
const (
	TrackerMoney      int8 = 0
	TrackerPopularity int8 = 1
	TrackerPolling    int8 = 2 // + District
)

// Event is one structured state change. Rule cites the rulebook section or
// reference-set id that made it, where one applies.
type Event struct {
	Round    int8
	Turn     int8
	Kind     EventKind
	Seat     int8
	District int8
	Action   int8
	Tier     int8
	Item     int16
	From, To int16
	Rule     string
	Note     string
}

// Recorder receives events. With no Recorder attached, the engine builds
// none.
type Recorder interface {
	Record(e Event)
}

// Log is a Recorder that keeps every event.
type Log struct{ Events []Event }

// Record appends e.
func (l *Log) Record(e Event) { l.Events = append(l.Events, e) }

// Recording reports whether a recorder is attached, so that callers build
// costly event notes only when someone reads them.
func (g *Game) Recording() bool { return g.rec != nil }

// Emit reports an event to the recorder, stamped with the round and turn.
func (g *Game) Emit(e Event) {
	if g.rec == nil {
		return
	}
	e.Round, e.Turn = g.Round, g.Turn
	g.rec.Record(e)
}

// emit is Emit for the engine's own events. Hot call sites guard it with
// g.rec != nil, so that without a recorder the Event is not even built.
func (g *Game) emit(e Event) { g.Emit(e) }

// Note emits an Opposition decision with the rule that made it.
func (g *Game) Note(seat int8, district int8, rule string, format string, args ...any) {
	if g.rec == nil {
		return
	}
	g.Emit(Event{Kind: EvNote, Seat: seat, District: district, Rule: rule, Note: fmt.Sprintf(format, args...)})
}

// SeatName names a seat in narration: solo seats are "You" and "Opposition".
func SeatName(s int8) string {
	switch s {
	case 0:
		return "You"
	case 1:
		return "Opposition"
	}
	return fmt.Sprintf("Player %d", s+1)
}

// RegionName names a District or the Plaza.
func (r *Rules) RegionName(d int8) string {
	switch {
	case d == Plaza:
		return "the Plaza"
	case d >= 0 && d < NumDistricts:
		return r.Districts[d]
	}
	return "home"
}

// TrackerName names a tracker of EvTracker.
func (r *Rules) TrackerName(t int8) string {
	switch t {
	case TrackerMoney:
		return "Money"
	case TrackerPopularity:
		return "Popularity"
	}
	return r.Districts[t-TrackerPolling] + " polling"
}

// TileName describes a placed tile, with its face when face up.
func (g *Game) TileName(i int) string {
	t := g.Placed[i]
	s := fmt.Sprintf("%s tier %d", t.Kind, t.Tier)
	if t.FaceUp {
		s += " [" + g.rules.Tiles[t.Kind][t.Tier-1][t.Face].String() + "]"
	}
	return s
}

// Text renders an event as a line of rulebook narration.
func (r *Rules) Text(e Event) string {
	who := SeatName(e.Seat)
	where := r.RegionName(e.District)
	var s string
	switch e.Kind {
	case EvSetup:
		s = "Setup: decks, tiles, Initial Support, 4 cubes to the Plaza (rulebook Setup, Solo Setup)"
	case EvRound:
		rd := r.Rounds[e.Round]
		s = fmt.Sprintf("Round %d: %d turns each, hand size %d", e.Round+1, rd.Turns, rd.HandSize)
	case EvTurn:
		s = fmt.Sprintf("Round %d, turn %d — %s", e.Round+1, e.Turn+1, who)
	case EvPlayCard:
		s = fmt.Sprintf("%s play %s in column %d, %s row", who, r.Cards[e.Item].ID, e.Action+1, rowNames[e.Tier])
	case EvSoloCard:
		c := r.Solo[e.Item]
		s = fmt.Sprintf("%s flips %s (%s | %s; %s | %s) into column %d, middle row", who, c.ID,
			r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict], c.LeftAction, c.RightAction, e.Action+1)
	case EvTracker:
		s = fmt.Sprintf("%s: %s %d→%d", who, r.TrackerName(e.Action), e.From, e.To)
	case EvAssistant:
		s = fmt.Sprintf("%s: Assistant of column %d → %s", who, e.Action+1, where)
	case EvPublicWorks:
		s = fmt.Sprintf("%s: Public Works tier %d in %s (%s), Badge on it", who, e.Tier, where, cost(e, e.From, 0))
	case EvCelebrity:
		s = fmt.Sprintf("%s: Celebrity tier %d in %s (%s)", who, e.Tier, where, cost(e, e.From, e.To))
	case EvFlip:
		if e.Seat == NoSeat {
			s = fmt.Sprintf("Final Tally: the %s Initial Support token is turned face up", where)
		} else {
			s = fmt.Sprintf("%s: Research in %s flips %s", who, where, tileRef(e))
		}
	case EvCampaign:
		s = fmt.Sprintf("%s: Campaign in %s (%s)", who, where, cost(e, 0, e.From))
	case EvFundraise:
		s = fmt.Sprintf("%s: Fundraise in %s", who, where)
	case EvDirectAppeal:
		s = fmt.Sprintf("%s: Direct Appeal: a %s cube from the Plaza to %s", who, r.Districts[e.Item], where)
	case EvRally:
		s = fmt.Sprintf("%s: Rally with %d Plaza Strength", who, e.From)
	case EvAbility:
		s = fmt.Sprintf("%s: use the ability of %s", who, r.Cards[e.Item].ID)
	case EvFavor:
		s = fmt.Sprintf("%s: Favor from the %s level %d Endorsement connects slot %s", who, where, e.Tier, slotNames[e.Item])
	case EvSpot:
		if e.Item < 0 {
			s = fmt.Sprintf("%s: Assistant stays in %s with no spot", who, where)
		} else {
			s = fmt.Sprintf("%s: Assistant takes the %s spot in %s", who, r.Spots[e.Item], where)
		}
	case EvEndorsement:
		s = fmt.Sprintf("%s: takes the %s level %d Endorsement", who, where, e.Tier)
		if e.From > 0 {
			s += fmt.Sprintf(", returning level %d", e.From)
		}
	case EvToken:
		s = fmt.Sprintf("%s: takes the %s Vote Share token", who, where)
	case EvCubeDraw:
		if e.Item < 0 {
			s = "the bag is empty: no cube drawn"
		} else {
			s = fmt.Sprintf("a %s cube drawn from the bag to the Plaza", r.Districts[e.Item])
		}
	case EvCubeMove:
		s = fmt.Sprintf("a %s cube moves from %s to %s", r.Districts[e.Item], r.RegionName(int8(e.From)), r.RegionName(int8(e.To)))
	case EvBadge:
		s = fmt.Sprintf("%s: a Badge placed in %s", who, where)
	case EvReward:
		s = fmt.Sprintf("%s: %s reward in %s: %d %s", who, e.Note, where, e.To, rewardNames[e.Item])
	case EvPlazaAdvance:
		s = fmt.Sprintf("%s: Plaza majority advances its lowest polling tracker(s) by %d", who, e.To)
	case EvCleanup:
		s = fmt.Sprintf("Clean Up after round %d", e.Round+1)
	case EvDiscard:
		s = fmt.Sprintf("%s: discard %s", who, r.Cards[e.Item].ID)
	case EvDraw:
		s = fmt.Sprintf("%s: draw %s from the %s deck", who, r.Cards[e.Item].ID, Action(e.Action))
	case EvReshuffle:
		if e.Action < 0 {
			s = "the Solo deck is empty: boxed Solo cards reshuffled"
		} else {
			s = fmt.Sprintf("the %s deck is reformed from its discards", Action(e.Action))
		}
	case EvSoloBox:
		s = fmt.Sprintf("%s: %d Solo cards returned to the box", who, e.Item)
	case EvReveal:
		s = fmt.Sprintf("%s: Final Tally reveal in %s: %s", who, where, tileRef(e))
	case EvTally:
		s = fmt.Sprintf("Final Tally %s: %d votes, %d a share", where, e.From, e.To)
	case EvSeatTally:
		switch e.District {
		case -1:
			s = fmt.Sprintf("%s: %d votes from Endorsements held", who, e.To)
		case Plaza:
			s = fmt.Sprintf("%s: %d votes of resource bonus", who, e.To)
		default:
			s = fmt.Sprintf("%s: %d shares in %s → %d votes", who, e.From, where, e.To)
		}
	case EvResult:
		s = fmt.Sprintf("Result: you %d, Opposition %d", e.From, e.To)
	case EvNote:
		s = fmt.Sprintf("%s: %s", who, e.Note)
	case EvInitiative:
		s = fmt.Sprintf("%s takes the Initiative 1 token from %s", who, SeatName(int8(e.Item)))
	default:
		s = fmt.Sprintf("event %d", e.Kind)
	}
	if e.Rule != "" && !strings.Contains(s, e.Rule) {
		s += " (" + e.Rule + ")"
	}
	return s
}

// cost words what an action cost; the Opposition pays nothing (Solo
// Gameplay 4).
func cost(e Event, money, pop int16) string {
	switch {
	case e.Seat == 1:
		return "pays nothing, Solo Gameplay 4"
	case money > 0 && pop > 0:
		return fmt.Sprintf("%d Money, %d Popularity", money, pop)
	case pop > 0:
		return fmt.Sprintf("%d Popularity", pop)
	}
	return fmt.Sprintf("%d Money", money)
}

var rowNames = [NumRows]string{"top", "middle", "bottom"}

var rewardNames = []string{"Money", "Popularity", "Polling", "Vote Share"}

func tileRef(e Event) string {
	if e.Item < 0 {
		return "the Initial Support token"
	}
	return e.Note
}

// Narrate writes events as indented narration, one line each, with turn
// and round headers unindented.
func (r *Rules) Narrate(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		switch e.Kind {
		case EvRound, EvTurn, EvCleanup, EvSetup, EvResult:
		default:
			b.WriteString("  ")
		}
		b.WriteString(r.Text(e))
		b.WriteByte('\n')
	}
	return b.String()
}
