// Package engine is the rules engine of Tallywood Rally in its solo mode:
// the rules as validated data, the game state as a plain value, the
// pending decision with its legal options, and every automatic step
// (Round Scoring, Clean Up, Final Tally). The Opposition's own choices are
// asked of an Opposition implementation (package opposition).
//
// A game is a pure function of the rules, the seed and the choices:
//
//	g, err := engine.New(engine.Reference(), seed, engine.Config{Mode: engine.Normal, Opposition: opp})
//	p := engine.NewRandomPlayer(seed)
//	for !g.Over() {
//		err = g.Apply(p.Choose(g))
//	}
//	fmt.Println(g.Result.Outcome)
//
// Rule ids in comments and events (C-n, I-n, V-n, E-n) refer to the
// reference set and section names to the rulebook; docs/rules.md defines
// every one.
package engine
