// Package deal is how a game is dealt: its seed, its Politicians, the
// seeds of its seats' and policies' own generators, and the version of the
// tool that dealt it. It sits below the harness (package sim) and imports
// only the engine, so that what plays the engine's games outside sim (the
// policies, `tallywood play`, `tallywood trace`) deals them exactly as sim
// does:
//
//	gs := deal.GameSeed(seed, i) // game i of master seed seed
//	d := deal.Solo{Mode: m, Politician: deal.RandomPoliticianIndex, Opposition: opp}
//	err := d.Deal(g, r, gs) // the Politician drawn by RandomPolitician(gs, ...)
//	p.Reset(gs) // the solo player's policy: its own stream of the game seed
//
// policy.PlaySolo does the last two and plays the game: trace and every
// solo study play a game through it, and play deals one with Solo.
//
// At a table without the Opposition the seats take SeatsPoliticians(gs,
// ...) and lineup entry j's policy is reset with PolicySeed(gs, j).
// streams.go lists every stream id outside the engine; Version is what
// every result records as tallywood_version.
package deal
