// Package opposition is the automated solo opponent of Tallywood Rally,
// exactly as the rulebook's Solo Mode describes it, for Normal and Hard.
// Solo implements engine.Opposition; the difficulty comes from the game.
//
// Each file holds one rule area, as an ordered list of the rulebook's
// preferences (the first that applies wins), citing the rulebook line or
// the reference-set id (both defined in docs/rules.md):
//
//	turn.go         Solo Gameplay 1–5, the I-10 fallbacks, the block
//	unable.go       Unable to Take an Action, I-9, V-1
//	publicworks.go  Public Works (Opposition), I-11
//	celebrity.go    Celebrity (Opposition), I-12
//	research.go     Research (Opposition), I-13, I-21
//	campaign.go     Campaign (Opposition)
//	scoring.go      Round Scoring in rounds 3–4, I-14
//	cleanup.go      Clean Up (Opposition) 1–5, I-15, V-2
//	finaltally.go   Solo Final Tally reveal, I-16
//
// Every decision emits an engine.EvNote naming its rule, built only while
// a recorder is attached, so a game without one allocates nothing:
//
//	g, err := engine.New(engine.Reference(), seed, engine.Config{
//		Mode:       engine.Hard,
//		Opposition: opposition.Solo{},
//		Recorder:   log, // optional
//	})
package opposition
