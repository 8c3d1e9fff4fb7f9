package engine

// Entry points for scenario files (package scenario): they run one phase of
// the round from a stated position with the engine's own code, so a
// scenario checks what a real game does.

// ScoreRound runs the current round's Round Scoring (C-13, I-14, I-17).
func (g *Game) ScoreRound() { g.scoreRound() }

// EndRound runs Round Scoring, then Clean Up steps 1–3 (the Opposition's
// whole Clean Up, I-22) or, after the last round, the V-2 Clean Up if
// switched on and the start of the Final Tally.
func (g *Game) EndRound() { g.endRound() }

// StartFinalTally turns the Initial Support tokens face up and readies the
// reveals (Final Tally 1, I-16); Advance then runs them.
func (g *Game) StartFinalTally() { g.startFinalTally() }

// Advance runs everything automatic from the current phase until a
// player's decision is pending or the game is over.
func (g *Game) Advance() { g.advance() }

// StartCleanup runs Clean Up steps 1–3 for every seat: the Opposition's
// Clean Up, the players' cards discarded, every Assistant home (I-22).
func (g *Game) StartCleanup() { g.startCleanup() }
