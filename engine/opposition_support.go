package engine

import (
	"errors"
	"fmt"
)

// Entry points for scenario files (package scenario): they run one step of
// the game from a stated position with the engine's own code, so a
// scenario checks what a real game does. Unlike Apply they never run what
// follows automatically (the next seat's turn, Round Scoring): the
// scenario names every step.

// Chooser makes a player's decision for a scenario step that has one
// (Clean Up discards and draws, a Final Tally reveal). It is given the game
// and the legal options, and returns one of them.
type Chooser func(g *Game, legal []Option) Option

// OppositionTurn plays seat's Strategy Phase turn by the game's
// Opposition, as play does when the turn comes: a scenario names the step.
func (g *Game) OppositionTurn(s int8) { g.opp.Turn(g, s) }

// ScoreRound runs the current round's Round Scoring (C-13, I-14, I-17).
func (g *Game) ScoreRound() { g.scoreRound() }

// EndRound runs what ends the current round: Round Scoring, then the whole
// Clean Up into the next round (see CleanUp) or, after the last round, the
// V-2 Clean Up if switched on and the start of the Final Tally.
func (g *Game) EndRound(choose Chooser) error {
	if g.Phase != PhaseStrategy {
		return errors.New("engine: the rounds are over; the Final Tally has begun")
	}
	g.Pending = DecNone
	g.endRound()
	return g.finishCleanup(choose)
}

// CleanUp runs the whole Clean Up Phase of the current round: steps 1–3
// for every seat (the Opposition's Clean Up, the players' cards
// discarded, every Assistant home, I-22), the players' discards and draws
// made by choose, Favors ready, the initiative tokens swapped (I-20), and
// the next Round card in play. It is refused after the last round, which
// has no Clean Up.
func (g *Game) CleanUp(choose Chooser) error {
	if g.Phase != PhaseStrategy {
		return errors.New("engine: the rounds are over; the Final Tally has begun")
	}
	if int(g.Round) == g.rules.LastRound() {
		return fmt.Errorf("engine: round %d is the last round and has no Clean Up", g.Round+1)
	}
	g.Pending = DecNone
	g.startCleanup()
	return g.finishCleanup(choose)
}

// finishCleanup makes the players' Clean Up decisions until the next round
// starts.
func (g *Game) finishCleanup(choose Chooser) error {
	for g.cleanupNext() {
		o, err := g.ask(choose)
		if err != nil {
			return err
		}
		g.apply(o)
	}
	return nil
}

// ask has choose make the pending decision, refusing an option that is not
// among the legal ones.
func (g *Game) ask(choose Chooser) (Option, error) {
	var buf [MaxOptions]Option
	opts := g.Legal(buf[:0])
	o := choose(g, opts)
	if !contains(opts, o) {
		return o, fmt.Errorf("engine: %s is not a legal option for the %s decision", g.Describe(o), g.Pending)
	}
	return o, nil
}

// TurnError is why BeginTurn cannot start a turn.
type TurnError struct{ Why string }

func (e *TurnError) Error() string { return "engine: " + e.Why }

// BeginTurn starts seat's Strategy Phase turn in the current round: its
// decisions follow (Legal, ApplyOnly) until Pending is DecNone again. The
// error is a *TurnError.
func (g *Game) BeginTurn(s int8) error {
	if g.Phase != PhaseStrategy {
		return &TurnError{"the rounds are over; the Final Tally has begun"}
	}
	st := &g.Seats[s]
	if st.Automaton {
		return &TurnError{"the Opposition's turns are its own"}
	}
	if st.NHand == 0 {
		return &TurnError{"the hand is empty"}
	}
	open := false
	for c := range st.Columns {
		open = open || st.Columns[c].Card < 0
	}
	if !open {
		return &TurnError{"no Action Column is open"}
	}
	for i := range g.NSeats {
		if g.seatAt(i) == s {
			g.Step = i
		}
	}
	if g.rec != nil {
		g.emit(Event{Kind: EvTurn, Seat: s, District: -1})
	}
	g.turn = turnState{Card: -1}
	g.Pending = DecCard
	return nil
}

// ApplyOnly plays a legal option for the pending decision and stops there,
// without running what follows automatically.
func (g *Game) ApplyOnly(o Option) error {
	if g.Pending == DecNone {
		return errors.New("engine: no decision is pending")
	}
	if !g.IsLegal(o) {
		return fmt.Errorf("engine: %s is not a legal option for the %s decision", g.Describe(o), g.Pending)
	}
	g.apply(o)
	return nil
}

// RevealNext makes the next reveal of the Final Tally's alternation (I-16),
// starting the Final Tally first if it has not begun: the Opposition's by
// its rule, a player's by choose. It reports false when no face-down tile
// is left.
func (g *Game) RevealNext(choose Chooser) (bool, error) {
	if g.Phase == PhaseOver {
		return false, errors.New("engine: the game is over")
	}
	if g.Phase != PhaseReveal {
		g.Pending = DecNone
		g.startFinalTally()
	}
	if !g.anyFaceDown() {
		return false, nil
	}
	g.Step = g.reveals % g.NSeats
	s := g.Order[g.Step]
	if g.Seats[s].Automaton {
		i := g.opp.Reveal(g, s)
		g.RevealTile(s, i)
		g.reveals++
		return true, nil
	}
	g.Pending = DecReveal
	o, err := g.ask(choose)
	if err != nil {
		return false, err
	}
	g.apply(o)
	g.Pending = DecNone
	return true, nil
}

// FinalTally runs the rest of the Final Tally, continuing the alternation
// of any reveals already made (RevealNext), with a player's reveals made
// by choose; then the votes (I-18).
func (g *Game) FinalTally(choose Chooser) error {
	for {
		more, err := g.RevealNext(choose)
		if err != nil {
			return err
		}
		if !more {
			break
		}
	}
	g.tally()
	g.Phase = PhaseOver
	return nil
}
