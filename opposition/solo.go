package opposition

import "tallywood/engine"

// Solo is the Opposition. It is stateless: everything it needs is in the
// game, so one value serves every game and goroutine.
type Solo struct{}

var _ engine.Opposition = Solo{}

// Turn plays the Opposition's Strategy Phase turn (Solo Gameplay 1–5).
func (Solo) Turn(g *engine.Game, seat int8) { playTurn(g, seat) }

// PlazaMajority applies the solo Round Scoring Plaza rule (I-14).
func (Solo) PlazaMajority(g *engine.Game, seat int8, amount int8) {
	plazaMajority(g, seat, amount)
}

// CleanUp performs the Opposition's Clean Up (Solo Clean Up 1–5, I-15).
func (Solo) CleanUp(g *engine.Game, seat int8) { cleanUp(g, seat) }

// Reveal picks the tile the Opposition flips in the Final Tally (I-16).
func (Solo) Reveal(g *engine.Game, seat int8) int { return reveal(g, seat) }
