package engine

import (
	"fmt"
	"strings"

	"tallywood/engine/kit"
)

// EventKind says what changed.
type EventKind uint8

const (
	EvSetup EventKind = iota
	EvRound
	EvTurn         // Seat starts a Strategy Phase turn
	EvPlayCard     // Item card, Action column, Tier row
	EvSoloCard     // Item Solo card, Action column
	EvTracker      // Action tracker (TrackerMoney, TrackerPopularity, TrackerPolling+d), From → To, Item the change asked for (0: not stated)
	EvAssistant    // District region, Action column
	EvPublicWorks  // District, Tier, From cost Money, Item tile
	EvCelebrity    // District, Tier, From cost Money, To cost Popularity, Item tile
	EvFlip         // District, Item tile (-1: Initial Support, To its value), From cubes attracted
	EvCampaign     // District, From cost Popularity
	EvFundraise    // District (or Plaza)
	EvDirectAppeal // Item colour, District destination
	EvRally        // From Strength
	EvAbility      // Item card
	EvFavor        // District, Tier level, Item slot, From the card
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
	EvSeatTally    // District (-1: endorsements, 4: bonus, PlayVotes: votes gained in play), From shares, To votes
	EvResult       // solo: From your votes, To the Opposition's; table: per seat, From its votes, To its place, Item the seats at that place
	EvNote         // an Opposition decision: Note says why, Rule cites
	EvScoring      // Round Scoring of the round begins
	EvFinalTally   // the Final Tally begins
	EvInitiative   // Seat now holds the "1" token, Item the seat that gave it and From the token it took; To 1: the other two exchanged theirs (Clean Up 6)
	EvSoloReveal   // a scripted Opposition turns up Item, the Solo card Action places from the top of its deck
	EvSoloBottom   // a scripted Opposition puts the Solo card Item at the bottom of its deck
	EvVotes        // Seat gains Item votes in play, From → To, counted at the Final Tally
)

// PlayVotes is the District of an EvSeatTally that counts the votes a seat
// gained during play.
const PlayVotes int8 = -2

// NoTurn is the Turn of an event outside the turns of the Strategy Phase:
// setup, round headers, Round Scoring, Clean Up and the Final Tally.
const NoTurn int8 = -1

var eventKindNames = [...]string{
	EvSetup: "setup", EvRound: "round", EvTurn: "turn", EvPlayCard: "play_card",
	EvSoloCard: "solo_card", EvTracker: "tracker", EvAssistant: "assistant",
	EvPublicWorks: "public_works", EvCelebrity: "celebrity", EvFlip: "flip",
	EvCampaign: "campaign", EvFundraise: "fundraise", EvDirectAppeal: "direct_appeal",
	EvRally: "rally", EvAbility: "ability", EvFavor: "favor", EvSpot: "spot",
	EvEndorsement: "endorsement", EvToken: "token", EvCubeDraw: "cube_draw",
	EvCubeMove: "cube_move", EvBadge: "badge", EvReward: "reward",
	EvPlazaAdvance: "plaza_advance", EvCleanup: "cleanup", EvDiscard: "discard",
	EvDraw: "draw", EvReshuffle: "reshuffle", EvSoloBox: "solo_box",
	EvReveal: "reveal", EvTally: "tally", EvSeatTally: "seat_tally",
	EvResult: "result", EvNote: "note", EvScoring: "scoring", EvFinalTally: "final_tally",
	EvInitiative: "initiative", EvSoloReveal: "solo_reveal", EvSoloBottom: "solo_bottom", EvVotes: "votes",
}

// String names the kind as `tallywood trace --format jsonl` writes it.
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("event_%d", k)
}

// Header reports whether events of the kind open a part of the game
// (setup, a round, a turn, Round Scoring, Clean Up, the Final Tally, the
// result): narration writes them flush left.
func (k EventKind) Header() bool {
	switch k {
	case EvSetup, EvRound, EvTurn, EvScoring, EvCleanup, EvFinalTally, EvResult:
		return true
	}
	return false
}

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
	// Table is set on every event of a game without the Opposition, so
	// that narration names the seats "Seat 1".."Seat 4" and has every seat
	// pay its costs. (Placed here it takes padding: an Event stays 48
	// bytes.)
	Table    bool
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

// Emit reports an event to the recorder, stamped with the round and, inside
// a turn of the Strategy Phase, the turn; outside one the turn is NoTurn.
func (g *Game) Emit(e Event) {
	if g.rec == nil {
		return
	}
	e.Round, e.Turn, e.Table = g.Round, NoTurn, g.opp == nil
	if g.Phase == PhaseStrategy && g.Turn < g.RoundCard().Turns && e.Kind != EvRound && e.Kind != EvSetup {
		e.Turn = g.Turn
	}
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

// SeatName names a seat of the solo game in narration: "You" and
// "Opposition".
func SeatName(s int8) string {
	switch s {
	case 0:
		return "You"
	case 1:
		return "Opposition"
	}
	return TableSeatName(s)
}

// TableSeatName names a seat of a game without the Opposition: "Seat 1"
// for seat 0.
func TableSeatName(s int8) string { return fmt.Sprintf("Seat %d", s+1) }

// eventSeatName names the seat of an event, as the game it comes from
// names its seats.
func eventSeatName(e Event, s int8) string {
	if e.Table {
		return TableSeatName(s)
	}
	return SeatName(s)
}

// Ordinal words a place: "1st", "2nd", "3rd", "4th".
func Ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
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
	who := eventSeatName(e, e.Seat)
	where := r.RegionName(e.District)
	var s string
	switch e.Kind {
	case EvSetup:
		if e.Table {
			s = "Setup: decks, tiles, Initial Support, Initiative tokens dealt at random (rulebook Setup)"
		} else {
			s = "Setup: decks, tiles, Initial Support, 4 cubes to the Plaza (rulebook Setup, Solo Setup)"
		}
	case EvRound:
		rd := r.Rounds[e.Round]
		s = fmt.Sprintf("Round %d: %d turns each, hand size %d", e.Round+1, rd.Turns, rd.HandSize)
	case EvTurn:
		s = fmt.Sprintf("Round %d, turn %d — %s", e.Round+1, e.Turn+1, who)
	case EvPlayCard:
		verb := "play"
		if e.Table {
			verb = "plays"
		}
		s = fmt.Sprintf("%s %s %s in column %d, %s row", who, verb, r.Cards[e.Item].ID, e.Action+1, rowNames[e.Tier])
	case EvSoloCard:
		c := r.Solo[e.Item]
		s = fmt.Sprintf("%s flips %s (%s | %s; %s | %s) into column %d, middle row", who, c.ID,
			r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict], c.LeftAction, c.RightAction, e.Action+1)
	case EvTracker:
		s = trackerText(who, r.TrackerName(e.Action), e.From, e.To, e.Item)
	case EvAssistant:
		s = fmt.Sprintf("%s: Assistant of column %d → %s", who, e.Action+1, where)
	case EvPublicWorks:
		s = fmt.Sprintf("%s: Public Works tier %d in %s (%s), Badge on it", who, e.Tier, where, cost(e, e.From, 0))
	case EvCelebrity:
		s = fmt.Sprintf("%s: Celebrity tier %d in %s (%s)", who, e.Tier, where, cost(e, e.From, e.To))
	case EvFlip:
		if e.Seat == NoSeat {
			s = fmt.Sprintf("the %s Initial Support token is turned face up: %d", where, e.To)
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
		c := &r.Cards[e.Item]
		s = fmt.Sprintf("%s: use the ability of %s: %s", who, c.ID, c.Ability)
	case EvFavor:
		s = fmt.Sprintf("%s: Favor from the %s level %d Endorsement connects %s of %s", who, where, e.Tier,
			r.Cards[e.From].Slots[e.Item], r.Cards[e.From].ID)
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
		s = fmt.Sprintf("%s: %s reward in %s: %s", who, e.Note, where, kit.Count(int(e.To), rewardNames[e.Item]))
	case EvPlazaAdvance:
		s = fmt.Sprintf("%s: Plaza majority advances its lowest polling tracker(s) by %d", who, e.To)
	case EvCleanup:
		s = fmt.Sprintf("Clean Up after round %d", e.Round+1)
	case EvScoring:
		s = fmt.Sprintf("Round Scoring, round %d", e.Round+1)
	case EvFinalTally:
		s = "Final Tally"
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
		s = fmt.Sprintf("%s: %s returned to the box", who, kit.Count(int(e.Item), "Solo card"))
	case EvReveal:
		s = fmt.Sprintf("%s: Final Tally reveal in %s: %s", who, where, tileRef(e))
	case EvTally:
		s = fmt.Sprintf("Final Tally %s: %d votes, %d a share", where, e.From, e.To)
	case EvSoloReveal:
		c := r.Solo[e.Item]
		s = fmt.Sprintf("%s turns up %s (%s | %s; %s | %s), %s from the top of its Solo deck", who, c.ID,
			r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict], c.LeftAction, c.RightAction, Ordinal(int(e.Action)+1))
	case EvSoloBottom:
		s = fmt.Sprintf("%s puts %s at the bottom of its Solo deck", who, r.Solo[e.Item].ID)
	case EvVotes:
		s = fmt.Sprintf("%s gains %s, counted at the Final Tally (%d → %d)", who, kit.Count(int(e.Item), "vote"), e.From, e.To)
	case EvSeatTally:
		switch e.District {
		case PlayVotes:
			s = fmt.Sprintf("%s: %s gained during play", who, kit.Count(int(e.To), "vote"))
		case -1:
			s = fmt.Sprintf("%s: %s from Endorsements held", who, kit.Count(int(e.To), "vote"))
		case Plaza:
			s = fmt.Sprintf("%s: %s of resource bonus", who, kit.Count(int(e.To), "vote"))
		default:
			s = fmt.Sprintf("%s: %s in %s → %s", who, kit.Count(int(e.From), "Vote Share"), where, kit.Count(int(e.To), "vote"))
		}
	case EvResult:
		if e.Table {
			s = fmt.Sprintf("Result: %s, %s, %s place", who, kit.Count(int(e.From), "vote"), Ordinal(int(e.To)))
			if e.Item > 1 {
				s += fmt.Sprintf(" shared by %d", e.Item)
			}
		} else {
			s = fmt.Sprintf("Result: you %d, Opposition %d", e.From, e.To)
		}
	case EvNote:
		s = fmt.Sprintf("%s: %s", who, e.Note)
	case EvInitiative:
		if e.Table {
			s = fmt.Sprintf("%s exchanges the Initiative 1 token for %s's %d: %s goes first", eventSeatName(e, int8(e.Item)), who, e.From, who)
			if e.To == 1 {
				s += "; the other two exchange theirs"
			}
		} else {
			s = fmt.Sprintf("%s takes the Initiative 1 token from %s", who, SeatName(int8(e.Item)))
		}
	default:
		s = fmt.Sprintf("event %d", e.Kind)
	}
	if e.Rule != "" && !strings.Contains(s, e.Rule) {
		s += " (" + e.Rule + ")"
	}
	return s
}

// cost words what an action cost; the Opposition pays nothing (Solo
// Gameplay 4), every player of a table game pays.
func cost(e Event, money, pop int16) string {
	switch {
	case e.Seat == 1 && !e.Table:
		return "pays nothing, Solo Gameplay 4"
	case money > 0 && pop > 0:
		return fmt.Sprintf("%d Money, %d Popularity", money, pop)
	case pop > 0:
		return fmt.Sprintf("%d Popularity", pop)
	}
	return fmt.Sprintf("%d Money", money)
}

var rowNames = [NumRows]string{"top", "middle", "bottom"}

// RowName is row r's name in words: top, middle or bottom.
func RowName(r int) string { return rowNames[r] }

var rewardNames = []string{"Money", "Popularity", "Polling", "Vote Share"}

// trackerText words a tracker move; a gain cut short by the end of the
// track says what was lost (C-7).
func trackerText(who, tracker string, from, to, asked int16) string {
	switch {
	case asked <= 0 || to-from == asked:
		return fmt.Sprintf("%s: %s %d→%d", who, tracker, from, to)
	case to == from:
		return fmt.Sprintf("%s: %s %d: the %+d is lost at %d", who, tracker, from, asked, to)
	}
	return fmt.Sprintf("%s: %s %d→%d: %d of the %+d is lost at %d", who, tracker, from, to, asked-(to-from), asked, to)
}

// String words an ability as the card's banner reads (C-15).
func (a Ability) String() string {
	switch a.Kind {
	case AbilityPollingHere:
		return fmt.Sprintf("+%d Polling in this District", a.Polling)
	case AbilityPollingAny:
		return fmt.Sprintf("+%d Polling in a District of your choice", a.Polling)
	case AbilityGain:
		return resourceText(a.Money, a.Popularity, "+")
	case AbilityDrawCube:
		return "draw a Voter cube"
	case AbilityAttractCube:
		return "attract a Voter to any District"
	case AbilityDrawAttract:
		return "draw a Voter cube, then attract a Voter to any District"
	case AbilityDiscount:
		return fmt.Sprintf("%s costs %s less (passive)", a.Action, resourceText(a.Money, a.Popularity, ""))
	case AbilityResearchBonus:
		return fmt.Sprintf("each Research gains %s extra (passive)", kit.Count(int(a.Polling), "Polling"))
	}
	return fmt.Sprintf("ability %d", a.Kind)
}

// String words what a card slot shows: "the Campaign icon", "1 Money".
func (ic Icon) String() string {
	if ic.IsAction {
		return "the " + ic.Action.String() + " icon"
	}
	return resourceText(ic.Money, ic.Popularity, "")
}

// resourceText words an amount of Money and Popularity, each with sign
// before it ("+" for a gain).
func resourceText(money, pop int8, sign string) string {
	switch {
	case money > 0 && pop > 0:
		return fmt.Sprintf("%s%d Money and %s%d Popularity", sign, money, sign, pop)
	case pop > 0:
		return fmt.Sprintf("%s%d Popularity", sign, pop)
	}
	return fmt.Sprintf("%s%d Money", sign, money)
}

func tileRef(e Event) string {
	if e.Item < 0 {
		return fmt.Sprintf("the Initial Support token: %d", e.To)
	}
	return e.Note
}

// Narrate writes events as indented narration, one line each, with the
// headers (EventKind.Header) unindented.
func (r *Rules) Narrate(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		if !e.Kind.Header() {
			b.WriteString("  ")
		}
		b.WriteString(r.Text(e))
		b.WriteByte('\n')
	}
	return b.String()
}
