package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// TileKind tells the tiles apart. Celebrity and Public Works index
// Rules.Tiles; Initial Support tokens live on the District, not in Placed.
type TileKind uint8

const (
	TileCelebrity TileKind = iota
	TilePublicWorks
	TileInitialSupport
)

func (k TileKind) String() string {
	switch k {
	case TileCelebrity:
		return "Celebrity"
	case TilePublicWorks:
		return "Public Works"
	}
	return "Initial Support"
}

// Regions of the Main board (C-1). A District is 0..3; an Assistant on its
// Action Column is Home.
const (
	Plaza  int8 = NumDistricts
	Home   int8 = -1
	NoSeat int8 = -1
	NoSpot int8 = -1
)

// PlacedTile is a Celebrity or Public Works tile on the board. Placed tiles
// are kept in placement order, so "the one placed earliest" (I-21) is the
// lowest index.
type PlacedTile struct {
	Kind     TileKind
	Tier     int8 // 1..3
	Face     uint8
	District int8
	FaceUp   bool
	Badge    int8 // seat whose Badge is on it, or NoSeat
}

// Pile is a face-down pile of tiles of one kind and tier; the top is the
// last entry.
type Pile struct {
	Faces [MaxPile]uint8
	N     uint8
}

// Deck is a pile of Strategy or Solo cards by index into Rules; the top is
// the last entry.
type Deck struct {
	Cards [MaxSoloCards]uint8
	N     uint8
}

func (d *Deck) push(c uint8) { d.Cards[d.N] = c; d.N++ }
func (d *Deck) pop() uint8   { d.N--; return d.Cards[d.N] }

// DistrictState is one District of the Main board.
type DistrictState struct {
	Cubes          [NumDistricts]int8 // voter cubes by colour
	InitialSupport int8               // the token's value
	SupportFaceUp  bool
	Spots          [NumActions]int8 // seat whose Assistant holds each spot, left to right (C-2)
	Endorsements   [NumLevels]int8  // holder of each level, NoSeat while unclaimed
	FavorUsed      [NumLevels]bool  // the token was flipped as a Favor this round (I-5)
	VoteShareToken int8             // holder, NoSeat while in the District (C-10)
}

// AssistantState is where one Assistant stands.
type AssistantState struct {
	Region int8 // District, Plaza or Home
	Spot   int8 // spot index in the District, or NoSpot
}

// Column is one Action Column of a player board: the card in it (Strategy
// card index, or Solo card index for the Opposition), its row and the slots
// connected by Favors.
type Column struct {
	Card   int16 // -1 when open
	Row    int8
	Favors uint8 // bit mask of slots connected by Favors
}

// Seat is one player's board and supply. In solo, seat 0 is you and seat 1
// the Opposition.
type Seat struct {
	Automaton  bool
	Politician int8
	Money      int8
	Popularity int8
	Polling    [NumDistricts]int8
	Hand       [MaxHand]uint8
	NHand      int8
	Columns    [NumColumns]Column
	Assistants [NumColumns]AssistantState
	PlazaBadge bool
	// DirectAppealTaken records the first Direct Appeal (rulebook Plaza A.3).
	DirectAppealTaken bool
	// MajorityShares are Vote Shares won by a round reward (C-13, Round 4).
	MajorityShares [NumDistricts]int8
	// Passives in effect until Clean Up (C-15): cost reductions by Action
	// and extra Polling per Research.
	DiscountMoney      [NumActions]int8
	DiscountPopularity [NumActions]int8
	ResearchBonus      int8
	// ActedDistricts is the bit mask of the Districts the seat took an
	// action in this round (I-6 with endorsement_check_every_district).
	ActedDistricts uint8
	// Fallbacks count the Opposition's I-10 fallbacks: unable in the
	// connected District (moved to the other), and unable in both.
	FallbackOther, FallbackBoth int16
	// Votes are votes gained during play, counted at the Final Tally: a
	// scripted Opposition's (GainVotes); the printed rules give none.
	Votes int16
}

// Phase is where the game is in the round.
type Phase uint8

const (
	PhaseStrategy Phase = iota
	PhaseCleanupDiscard
	PhaseCleanupDraw
	PhaseReveal
	PhaseOver
)

// turnState is the current player's turn in the Strategy Phase.
type turnState struct {
	Card        int16
	Column      int8
	Connected   uint8 // slots connected by the placement or a Favor
	Used        uint8 // Strategy icons already spent
	AbilityUsed bool
	Acted       bool // took an action in its District (I-6)
}

// Game is the whole state of one game: a plain value. Copying it clones the
// game, generators included; the Rules, the Opposition and the Recorder are
// shared.
type Game struct {
	rules *Rules
	opp   Opposition
	rec   Recorder

	Mode    Mode
	Seed    uint64
	NSeats  int8
	Seats   [MaxSeats]Seat
	Order   [MaxSeats]int8 // initiative order: Order[0] holds the "1" token
	Round   int8
	Turn    int8
	Step    int8 // index into Order within the turn
	Phase   Phase
	Pending DecisionKind
	turn    turnState
	reveals int8 // Final Tally reveals made (I-16 alternation)

	Districts [NumDistricts]DistrictState
	Plaza     [NumDistricts]int8 // cubes by colour
	Bag       [NumDistricts]int8
	Placed    [MaxTiles]PlacedTile
	NPlaced   uint8
	Piles     [2][NumTiers]Pile
	Decks     [NumDecks]Deck
	Discards  [NumDecks]Deck
	Solo      Deck // Opposition deck, top last
	SoloBox   Deck // Solo cards returned to the box (I-19)

	// flips counts the tiles and Initial Support tokens play has turned
	// face up (see Flips).
	flips uint16

	// faceDown marks, per deck and seat, the discards that seat put face
	// down from its hand (Clean Up 4): hidden from the other players of a
	// game without the Opposition (bit i: Discards[deck].Cards[i]).
	faceDown [NumDecks][MaxSeats]uint64

	deckRng [NumDecks]rand.PCG
	soloRng rand.PCG
	autoRng rand.PCG // a scripted Opposition's chance (AutomatonIntN)
	bagRng  rand.PCG

	Result Result
}

// Opposition is the automated solo opponent. The engine asks it for every
// choice the Solo rules make; the opposition package implements it.
// Implementations must be stateless: all state lives in the Game.
type Opposition interface {
	// Turn plays the Opposition's whole Strategy Phase turn for seat.
	Turn(g *Game, seat int8)
	// PlazaMajority applies the solo Round Scoring rule for rounds marked
	// opposition_plaza_advance when seat has the most Plaza Strength.
	PlazaMajority(g *Game, seat int8, amount int8)
	// CleanUp performs the Opposition's Clean Up steps 1–5 (except
	// returning Assistants, which the engine does for all seats, I-22).
	CleanUp(g *Game, seat int8)
	// Reveal picks the face-down Celebrity or Public Works tile (index into
	// Placed) that seat flips in the Final Tally (I-16).
	Reveal(g *Game, seat int8) int
}

// OppositionError is an Opposition that cannot play on: a script's error
// (its syntax, one of its bounds, or a step the engine refused). A turn
// cannot be half taken, so the Opposition raises it as a panic from inside
// the engine call that asked it (Reset, Apply, a search's ApplyLegal); the
// game's driver turns it back into the game's error with CatchOpposition
// and plays that game no further.
type OppositionError struct{ Err error }

func (e *OppositionError) Error() string { return e.Err.Error() }
func (e *OppositionError) Unwrap() error { return e.Err }

// CatchOpposition, deferred by whatever drives a game, turns an
// OppositionError panic into *err; any other panic goes on.
func CatchOpposition(err *error) {
	if v := recover(); v != nil {
		oe, ok := v.(*OppositionError)
		if !ok {
			panic(v)
		}
		*err = oe
	}
}

// Config chooses what the rules leave to the players.
type Config struct {
	Mode       Mode
	Politician int // index into Rules.Politicians
	Opposition Opposition
	Recorder   Recorder // optional
}

// New sets up a solo game (rulebook Setup and Solo Setup).
func New(r *Rules, seed uint64, cfg Config) (*Game, error) {
	g := new(Game)
	if err := g.Reset(r, seed, cfg); err != nil {
		return nil, err
	}
	return g, nil
}

// Reset sets g up as a new solo game without allocating.
func (g *Game) Reset(r *Rules, seed uint64, cfg Config) error {
	if r == nil {
		return errors.New("engine: no rules")
	}
	if cfg.Opposition == nil {
		return errors.New("engine: solo game needs an Opposition")
	}
	if cfg.Politician < 0 || cfg.Politician >= len(r.Politicians) {
		return fmt.Errorf("engine: politician %d: there are %d", cfg.Politician, len(r.Politicians))
	}
	if cfg.Mode > Hard {
		return fmt.Errorf("engine: mode %d is not normal or hard", cfg.Mode)
	}
	*g = Game{rules: r, opp: cfg.Opposition, rec: cfg.Recorder, Mode: cfg.Mode, Seed: seed, NSeats: 2}
	g.setupBoard()
	g.setupSeat(0, int8(cfg.Politician), false)
	g.setupSeat(1, -1, true)
	g.setupSolo()
	if g.rec != nil {
		g.emit(Event{Kind: EvSetup, Seat: NoSeat, District: -1})
	}
	g.startRound()
	g.advance()
	return nil
}

// Rules returns the game's rules.
func (g *Game) Rules() *Rules { return g.rules }

// SetRecorder attaches or (with nil) detaches the event recorder. Copies
// made for lookahead should detach it.
func (g *Game) SetRecorder(rec Recorder) { g.rec = rec }

// Difficulty returns the parameters of the game's mode.
func (g *Game) Difficulty() Difficulty { return g.rules.Difficulties[g.Mode] }

// Opponent returns the seat of the Opposition.
func (g *Game) Opponent() int8 {
	for s := range g.NSeats {
		if g.Seats[s].Automaton {
			return s
		}
	}
	return NoSeat
}

// Main Board Setup, steps 2–10.
func (g *Game) setupBoard() {
	r := g.rules
	for d := range NumDecks {
		g.deckRng[d].Seed(g.Seed, streamStrategy+uint64(d))
		dk := &g.Decks[d]
		for _, c := range r.DeckCards[d] {
			dk.push(c)
		}
		shuffle(&g.deckRng[d], dk.Cards[:dk.N])
	}
	for k := range 2 {
		for t := range NumTiers {
			var rng rand.PCG
			rng.Seed(g.Seed, streamTiles+uint64(k*NumTiers+t))
			p := &g.Piles[k][t]
			for i := range r.Tiles[k][t] {
				p.Faces[p.N] = uint8(i)
				p.N++
			}
			shuffle(&rng, p.Faces[:p.N])
		}
	}
	support := r.InitialSupport
	var rng rand.PCG
	rng.Seed(g.Seed, streamSupport)
	shuffle(&rng, support[:])
	for d := range g.Districts {
		ds := &g.Districts[d]
		ds.InitialSupport = support[d]
		ds.Spots = [NumActions]int8{NoSeat, NoSeat, NoSeat, NoSeat}
		ds.Endorsements = [NumLevels]int8{NoSeat, NoSeat, NoSeat}
		ds.VoteShareToken = NoSeat
		g.Bag[d] = r.CubesPerDistrict
	}
	g.bagRng.Seed(g.Seed, streamBag)
	for range r.PlazaCubes {
		g.drawCube()
	}
}

// Player Board Setup (and Solo Setup 2–6 for the Opposition).
func (g *Game) setupSeat(s int8, politician int8, automaton bool) {
	st := &g.Seats[s]
	st.Automaton = automaton
	st.Politician = politician
	for c := range st.Columns {
		st.Columns[c] = Column{Card: -1}
		st.Assistants[c] = AssistantState{Region: Home, Spot: NoSpot}
	}
	if automaton {
		// Solo Setup 2 and 6: trackers at 0, a Badge in the Plaza.
		st.PlazaBadge = true
		return
	}
	p := g.rules.Politicians[politician]
	st.Money, st.Popularity, st.Polling = p.Money, p.Popularity, p.Polling
	for d := range NumDecks {
		g.drawStrategy(s, d)
	}
}

// Solo Setup 3 and 5.
func (g *Game) setupSolo() {
	g.soloRng.Seed(g.Seed, streamSolo)
	g.autoRng.Seed(g.Seed, streamAutomaton)
	for i := range g.rules.Solo {
		g.Solo.push(uint8(i))
	}
	shuffle(&g.soloRng, g.Solo.Cards[:g.Solo.N])
	if g.Difficulty().PlayerInitiative == 1 {
		g.Order = [MaxSeats]int8{0, 1, NoSeat, NoSeat}
	} else {
		g.Order = [MaxSeats]int8{1, 0, NoSeat, NoSeat}
	}
}

// drawStrategy draws the top card of deck d into seat's hand, reforming the
// deck from its discards when it is empty (Clean Up 7, I-19). It reports
// false when the deck and its discards are both empty.
//
// OPEN: Clean Up 7 says "If a deck runs out, reform it by shuffling all
// the used/discarded cards from that deck", not when. The engine reforms
// an empty deck when a player next draws from it, with every card
// discarded to it by then: step 7 is the only time anyone draws, so a
// deck is found to have run out by the player who wants its next card,
// and "all the used/discarded cards" are all of them at that moment,
// including those Clean Up 2 and 4 put there after it ran out. The other
// reading, the deck reformed the moment its last card is drawn and the
// later discards kept for the next reform, is reform_deck_at_once
// (cleanupDraw).
func (g *Game) drawStrategy(s int8, d int) bool {
	dk := &g.Decks[d]
	if dk.N == 0 && !g.reformDeck(d) {
		return false
	}
	st := &g.Seats[s]
	st.Hand[st.NHand] = dk.pop()
	st.NHand++
	return true
}

// reformDeck shuffles the discards of deck d into a new deck (I-19); it
// reports false when there are none.
func (g *Game) reformDeck(d int) bool {
	dk, dis := &g.Decks[d], &g.Discards[d]
	if dis.N == 0 {
		return false
	}
	*dk, *dis = *dis, Deck{}
	g.faceDown[d] = [MaxSeats]uint64{}
	shuffle(&g.deckRng[d], dk.Cards[:dk.N])
	if g.rec != nil {
		g.emit(Event{Kind: EvReshuffle, Seat: NoSeat, District: -1, Action: int8(d), Rule: "I-19"})
	}
	return true
}

// drawCube draws a random cube from the bag into the Plaza; an empty bag
// gives nothing (I-19). It returns the colour, or -1.
func (g *Game) drawCube() int8 {
	total := 0
	for _, n := range g.Bag {
		total += int(n)
	}
	if total == 0 {
		return -1
	}
	x := IntN(&g.bagRng, total)
	for c, n := range g.Bag {
		if x < int(n) {
			g.Bag[c]--
			g.Plaza[c]++
			return int8(c)
		}
		x -= int(n)
	}
	panic("engine: bag count")
}

func (g *Game) startRound() {
	g.Turn, g.Step, g.Phase = 0, 0, PhaseStrategy
	if g.rec != nil {
		g.emit(Event{Kind: EvRound, Seat: NoSeat, District: -1})
	}
}

// RoundCard returns the current Round card.
func (g *Game) RoundCard() Round { return g.rules.Rounds[g.Round] }
