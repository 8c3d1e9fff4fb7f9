package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// The game for two to four players, without the Opposition: Main Board
// Setup 6 and Player Board Setup 7–8 (Initiative tokens), Clean Up 6 (the
// Initiative exchange) and the Final Tally's shared victory. Everything else is the game every seat already
// plays; the solo game is a table of two with an automaton in seat 1.

// TableConfig chooses what the rules leave to the players of a game
// without the Opposition.
type TableConfig struct {
	// Politicians holds one Politician per seat, seat 0 first (rulebook
	// Player Board Setup 5). Its length is the number of players.
	Politicians []int
	Recorder    Recorder // optional
}

// NewTable sets up a game for two to four players (rulebook Setup).
func NewTable(r *Rules, seed uint64, cfg TableConfig) (*Game, error) {
	g := new(Game)
	if err := g.ResetTable(r, seed, cfg); err != nil {
		return nil, err
	}
	return g, nil
}

// ResetTable sets g up as a new game for two to four players without
// allocating.
func (g *Game) ResetTable(r *Rules, seed uint64, cfg TableConfig) error {
	if r == nil {
		return errors.New("engine: no rules")
	}
	n := len(cfg.Politicians)
	if n < 2 || n > MaxSeats {
		return fmt.Errorf("engine: a game without the Opposition has 2 to %d players, not %d", MaxSeats, n)
	}
	for s, p := range cfg.Politicians {
		if p < 0 || p >= len(r.Politicians) {
			return fmt.Errorf("engine: seat %d: politician %d: there are %d", s+1, p, len(r.Politicians))
		}
		for t := range s {
			// Player Board Setup 5: each player takes a Politician card of
			// their own.
			if cfg.Politicians[t] == p {
				return fmt.Errorf("engine: seats %d and %d both have the politician %s", t+1, s+1, r.Politicians[p].ID)
			}
		}
	}
	*g = Game{rules: r, rec: cfg.Recorder, Seed: seed, NSeats: int8(n)}
	g.setupBoard()
	// OPEN: Player Board Setup 3 gives no order for the players' draws;
	// the decks are shuffled, so seat order is taken, which also deals
	// seat 0 the hand it would get in the solo game on this seed.
	for s := range int8(n) {
		g.setupSeat(s, int8(cfg.Politicians[s]), false)
	}
	g.Order = TableInitiative(seed, n)
	if g.rec != nil {
		g.emit(Event{Kind: EvSetup, Seat: NoSeat, District: -1})
	}
	g.startRound()
	g.advance()
	return nil
}

// TableInitiative is Main Board Setup 6 and Player Board Setup 7–8 for n players on seed: the tokens 1..n dealt
// at random, as the initiative order (the seat holding each token, the "1"
// first; NoSeat past n).
func TableInitiative(seed uint64, n int) [MaxSeats]int8 {
	var rng rand.PCG
	rng.Seed(seed, streamInitiative)
	seats := [MaxSeats]int8{0, 1, 2, 3}
	shuffle(&rng, seats[:n])
	order := [MaxSeats]int8{NoSeat, NoSeat, NoSeat, NoSeat}
	copy(order[:n], seats[:n])
	return order
}

// IsSolo reports whether the game is the solo game against the Opposition.
func (g *Game) IsSolo() bool { return g.opp != nil }

// Initiative returns the number of seat's Initiative token (1 goes first).
func (g *Game) Initiative(s int8) int8 {
	for i, o := range g.Order[:g.NSeats] {
		if o == s {
			return int8(i + 1)
		}
	}
	return 0
}

// seatAt returns the seat that acts at step i of the current phase.
//
// OPEN: the rulebook gives the Strategy Phase two orders. Its Flow of Play
// Overview says players "take turns in the Initiative token order"; its
// Strategy Phase ends "play proceeds to the next player clockwise". The
// tokens are dealt at random (Player Board Setup 7), so with three or four
// players the two differ. The engine takes the Initiative token order: the
// overview states it for the phase itself, Clean Up 7 and Final Tally 1.a
// name the same order, and Clean Up 6 has the other two players of four
// exchange their tokens, which would barely matter if turns went
// clockwise. "Next player clockwise" then reads as a table seated in token
// order. turns_clockwise switches to the other reading: the "1" holder
// first, then clockwise, taking seat numbers to run clockwise round the
// table (the engine has no other seating). Clean Up and the Final Tally
// keep the token order, which their steps name.
func (g *Game) seatAt(i int8) int8 {
	if g.Phase == PhaseStrategy && g.rules.Variants.TurnsClockwise {
		return (g.Order[0] + i) % g.NSeats
	}
	return g.Order[i]
}

// TurnPosition returns seat s's place in the order of the Strategy
// Phase's turns, 1 first: its Initiative token, or with turns_clockwise its
// place clockwise from the holder of the "1".
func (g *Game) TurnPosition(s int8) int8 {
	if !g.rules.Variants.TurnsClockwise {
		return g.Initiative(s)
	}
	return (s-g.Order[0]+g.NSeats)%g.NSeats + 1
}

// exchangeInitiative is Clean Up 6 with three or four players: the holder
// of the "1" exchanges it with seat b's token; with four players the other
// two exchange theirs with each other.
func (g *Game) exchangeInitiative(b int8) {
	j := g.Initiative(b) - 1
	g.Order[0], g.Order[j] = g.Order[j], g.Order[0]
	if g.NSeats == 4 {
		var rest [2]int8
		n := 0
		for i := int8(1); i < 4; i++ {
			if i != j {
				rest[n] = i
				n++
			}
		}
		g.Order[rest[0]], g.Order[rest[1]] = g.Order[rest[1]], g.Order[rest[0]]
	}
	if g.rec != nil {
		var others int16
		if g.NSeats == 4 {
			others = 1
		}
		g.emit(Event{Kind: EvInitiative, Seat: g.Order[0], District: -1, Item: int16(g.Order[j]), From: int16(j + 1), To: others, Rule: "Clean Up 6"})
	}
}

// placeAll ranks the seats by total votes: 1 for the most, seats with equal
// votes share a place, and every seat at place 1 shares the victory
// (rulebook Final Tally: "the tied players share the victory"; I-18).
func (r *Result) placeAll(n int8) {
	for s := range n {
		r.Place[s] = 1
		for o := range n {
			if r.Total[o] > r.Total[s] {
				r.Place[s]++
			}
		}
	}
}

// Lead is seat s's votes minus the most votes of any other seat: positive
// for a sole winner, 0 for a shared victory, negative otherwise. In solo it
// is the margin.
func (r *Result) Lead(s, n int8) int {
	best := int16(-1 << 15)
	for o := range n {
		if o != s {
			best = max(best, r.Total[o])
		}
	}
	return int(r.Total[s]) - int(best)
}
