package engine

// What lookahead players need beyond the game's public fields: the turn in
// progress, and applying an option already known to be legal without
// checking it again.

// TurnView is what the player sees of its own turn in progress: the card
// it chose, the column, the slots connected so far and the Strategy icons
// already spent. Policies read it to value the actions still to come.
type TurnView struct {
	Card        int16 // -1 before the card is chosen
	Column      int8
	Connected   uint8 // slot mask
	Used        uint8 // slot mask of spent Strategy icons
	AbilityUsed bool
}

// CurrentTurn returns the turn in progress of the seat whose decision is
// pending in the Strategy Phase (meaningless in other phases).
func (g *Game) CurrentTurn() TurnView {
	t := g.turn
	return TurnView{Card: t.Card, Column: t.Column, Connected: t.Connected, Used: t.Used, AbilityUsed: t.AbilityUsed}
}

// ApplyLegal is Apply for an option the caller has just taken from
// g.Legal, as a search does on its copies thousands of times a decision:
// it skips the legality check. An option not from Legal corrupts the game;
// anything a player returns goes through Apply.
func (g *Game) ApplyLegal(o Option) {
	g.apply(o)
	g.advance()
}
