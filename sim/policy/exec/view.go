package exec

import (
	"slices"

	"tallywood/engine"
)

// View is what the deciding seat may see of a game at a decision: the
// board, every seat's board, its own hand, which cards of each Strategy
// deck it cannot see (not where they are or in what order), the discards,
// the face-up tiles and tokens, and the Solo cards seen played. It holds
// none of the hidden information engine.Game.Determinize resamples: the
// order of the decks and the bag's draws, other players' hands, the Solo
// cards boxed unseen, the faces of face-down tiles and Initial Support
// tokens. In solo, seat 0 is you and seat 1 the Opposition; a region is a
// District index, 4 for the Plaza or -1 for an Assistant at home.
// docs/protocol.md describes every field.
type View struct {
	Seat       int            `json:"seat"`   // the seat deciding: the program's
	Round      int            `json:"round"`  // 1-based
	Rounds     int            `json:"rounds"` // in the game
	Turn       int            `json:"turn"`   // 1-based, within the round
	Phase      string         `json:"phase"`
	Initiative []int          `json:"initiative"` // seats in turn order
	Current    *TurnView      `json:"current_turn"`
	Seats      []SeatView     `json:"seats"`
	Districts  []DistrictView `json:"districts"`
	Plaza      []int          `json:"plaza"` // cubes by colour (District index)
	Bag        []int          `json:"bag"`   // cubes by colour
	Tiles      []TileView     `json:"tiles"` // placed, in placement order
	Piles      PilesView      `json:"piles"`
	Decks      []DeckView     `json:"decks"`
	Solo       SoloView       `json:"solo"`
}

// TurnView is the player's Strategy Phase turn in progress (null outside
// the player's turn).
type TurnView struct {
	Card        *string `json:"card"`   // chosen card, null before
	Column      *int    `json:"column"` // column chosen, null before
	Connected   int     `json:"connected"`
	Used        int     `json:"used"`
	AbilityUsed bool    `json:"ability_used"`
}

// SeatView is one seat's board and supply.
type SeatView struct {
	Automaton          bool            `json:"automaton"`
	Politician         *string         `json:"politician"` // null for the Opposition
	Money              int             `json:"money"`
	Popularity         int             `json:"popularity"`
	Polling            []int           `json:"polling"`
	Hand               []string        `json:"hand"` // null for other seats
	HandSize           int             `json:"hand_size"`
	Columns            []ColumnView    `json:"columns"`
	Assistants         []AssistantView `json:"assistants"`
	PlazaBadge         bool            `json:"plaza_badge"`
	DirectAppealTaken  bool            `json:"direct_appeal_taken"`
	MajorityShares     []int           `json:"majority_shares"`
	DiscountMoney      []int           `json:"discount_money"`
	DiscountPopularity []int           `json:"discount_popularity"`
	ResearchBonus      int             `json:"research_bonus"`
}

// ColumnView is one Action Column: its card (a Strategy card, or a Solo
// card for the Opposition), its row and the slots connected by Favors.
type ColumnView struct {
	Card   *string `json:"card"` // null when open
	Row    int     `json:"row"`
	Favors int     `json:"favors"` // slot bit mask
}

// AssistantView is where one Assistant stands.
type AssistantView struct {
	Region int `json:"region"`
	Spot   int `json:"spot"` // -1: none
}

// DistrictView is one District of the Main board.
type DistrictView struct {
	Name           string `json:"name"`
	Cubes          []int  `json:"cubes"`
	InitialSupport *int   `json:"initial_support"` // null while face down
	Spots          []int  `json:"spots"`           // seat on each spot, -1 free
	Endorsements   []int  `json:"endorsements"`    // holder of each level, -1 unclaimed
	FavorUsed      []bool `json:"favor_used"`
	VoteShareToken int    `json:"vote_share_token"` // holder, -1 in the District
}

// TileView is a placed Celebrity or Public Works tile.
type TileView struct {
	Kind     string  `json:"kind"` // "celebrity" or "public_works"
	Tier     int     `json:"tier"`
	District int     `json:"district"`
	Face     *string `json:"face"` // null while face down
	Badge    int     `json:"badge"`
}

// PilesView counts the face-down tiles left in each pile, by tier.
type PilesView struct {
	Celebrity   []int `json:"celebrity"`
	PublicWorks []int `json:"public_works"`
}

// DeckView is one Strategy deck: its size, the cards of the deck the
// deciding seat cannot see (in the deck, in other players' hands,
// discarded face down by them) sorted by their place in the rules, and
// its discards, oldest first.
type DeckView struct {
	Name     string    `json:"name"`
	Size     int       `json:"size"`
	Unseen   []string  `json:"unseen"`
	Discards []*string `json:"discards"` // null: face down, another's
}

// SoloView is what the player knows of the Solo deck: its size, the size
// of the box and the boxed cards seen played (docs/protocol.md).
type SoloView struct {
	Deck    int      `json:"deck"`
	Box     int      `json:"box"`
	BoxSeen []string `json:"box_seen"`
}

var phaseNames = [...]string{
	engine.PhaseStrategy:       "strategy",
	engine.PhaseCleanupDiscard: "cleanup_discard",
	engine.PhaseCleanupDraw:    "cleanup_draw",
	engine.PhaseReveal:         "reveal",
	engine.PhaseOver:           "over",
}

var tileKindNames = [...]string{engine.TileCelebrity: "celebrity", engine.TilePublicWorks: "public_works"}

func ints[T ~int8 | ~int16 | ~uint8](s []T) []int {
	out := make([]int, len(s))
	for i, v := range s {
		out[i] = int(v)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// NewView builds the player's view of g.
func NewView(g *engine.Game) View {
	r := g.Rules()
	seat := g.Decision().Seat
	v := View{
		Seat:   int(seat),
		Round:  int(g.Round) + 1,
		Rounds: len(r.Rounds),
		Turn:   int(g.Turn) + 1,
		Phase:  phaseNames[g.Phase],
		Plaza:  ints(g.Plaza[:]),
		Bag:    ints(g.Bag[:]),
		Tiles:  []TileView{},
	}
	for _, s := range g.Order[:g.NSeats] {
		v.Initiative = append(v.Initiative, int(s))
	}
	if g.Phase == engine.PhaseStrategy && !g.Seats[seat].Automaton {
		t := g.CurrentTurn()
		tv := &TurnView{Connected: int(t.Connected), Used: int(t.Used), AbilityUsed: t.AbilityUsed}
		if t.Card >= 0 {
			tv.Card = ptr(r.Cards[t.Card].ID)
			// The column is chosen after the card (Strategy Phase 1-2).
			if g.Pending != engine.DecColumn {
				tv.Column = ptr(int(t.Column))
			}
		}
		v.Current = tv
	}
	for s := range g.NSeats {
		v.Seats = append(v.Seats, seatView(g, s, s == seat))
	}
	for d := range g.Districts {
		ds := &g.Districts[d]
		dv := DistrictView{
			Name:           r.Districts[d],
			Cubes:          ints(ds.Cubes[:]),
			Spots:          ints(ds.Spots[:]),
			Endorsements:   ints(ds.Endorsements[:]),
			FavorUsed:      slices.Clone(ds.FavorUsed[:]),
			VoteShareToken: int(ds.VoteShareToken),
		}
		if ds.SupportFaceUp {
			dv.InitialSupport = ptr(int(ds.InitialSupport))
		}
		v.Districts = append(v.Districts, dv)
	}
	for i := range g.NPlaced {
		t := &g.Placed[i]
		tv := TileView{Kind: tileKindNames[t.Kind], Tier: int(t.Tier), District: int(t.District), Badge: int(t.Badge)}
		if t.FaceUp {
			tv.Face = ptr(r.Tiles[t.Kind][t.Tier-1][t.Face].String())
		}
		v.Tiles = append(v.Tiles, tv)
	}
	for t := range engine.NumTiers {
		v.Piles.Celebrity = append(v.Piles.Celebrity, int(g.Piles[engine.TileCelebrity][t].N))
		v.Piles.PublicWorks = append(v.Piles.PublicWorks, int(g.Piles[engine.TilePublicWorks][t].N))
	}
	for d := range engine.NumDecks {
		// The deck and what others hold or discarded face down, pooled
		// and sorted as Determinize pools them; a hidden discard shows as
		// null.
		dis := &g.Discards[d]
		discards := make([]*string, dis.N)
		for i, c := range dis.Cards[:dis.N] {
			if !g.DiscardHidden(seat, d, i) {
				discards[i] = ptr(r.Cards[c].ID)
			}
		}
		v.Decks = append(v.Decks, DeckView{
			Name:     engine.Action(d).String(),
			Size:     int(g.Decks[d].N),
			Unseen:   cardIDs(r, g.Unseen(seat, d, nil)),
			Discards: discards,
		})
	}
	seen := g.SoloBoxSeen(nil)
	v.Solo = SoloView{Deck: int(g.Solo.N), Box: int(g.SoloBox.N), BoxSeen: make([]string, len(seen))}
	for i, c := range seen {
		v.Solo.BoxSeen[i] = r.Solo[c].ID
	}
	return v
}

func cardIDs(r *engine.Rules, cards []uint8) []string {
	ids := make([]string, len(cards))
	for i, c := range cards {
		ids[i] = r.Cards[c].ID
	}
	return ids
}

// seatView is seat s as the deciding seat sees it: the hand only when own.
func seatView(g *engine.Game, s int8, own bool) SeatView {
	r := g.Rules()
	st := &g.Seats[s]
	sv := SeatView{
		Automaton:          st.Automaton,
		Money:              int(st.Money),
		Popularity:         int(st.Popularity),
		Polling:            ints(st.Polling[:]),
		HandSize:           int(st.NHand),
		PlazaBadge:         st.PlazaBadge,
		DirectAppealTaken:  st.DirectAppealTaken,
		MajorityShares:     ints(st.MajorityShares[:]),
		DiscountMoney:      ints(st.DiscountMoney[:]),
		DiscountPopularity: ints(st.DiscountPopularity[:]),
		ResearchBonus:      int(st.ResearchBonus),
	}
	if own {
		sv.Hand = cardIDs(r, st.Hand[:st.NHand])
	}
	if !st.Automaton {
		sv.Politician = ptr(r.Politicians[st.Politician].ID)
	}
	for c := range st.Columns {
		col := &st.Columns[c]
		cv := ColumnView{Row: int(col.Row), Favors: int(col.Favors)}
		switch {
		case col.Card < 0:
		case st.Automaton:
			cv.Card = ptr(r.Solo[col.Card].ID)
		default:
			cv.Card = ptr(r.Cards[col.Card].ID)
		}
		sv.Columns = append(sv.Columns, cv)
		a := st.Assistants[c]
		sv.Assistants = append(sv.Assistants, AssistantView{Region: int(a.Region), Spot: int(a.Spot)})
	}
	return sv
}

// Options lists legal as the protocol sends them: id and label.
func Options(g *engine.Game, legal []engine.Option) []OptionMsg {
	out := make([]OptionMsg, len(legal))
	for i, o := range legal {
		out[i] = OptionMsg{ID: engine.OptionID(o), Label: g.Describe(o)}
	}
	return out
}
