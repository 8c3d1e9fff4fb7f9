package deal

import "tallywood/engine"

// RandomPoliticianIndex, as a Solo's Politician, draws the player's
// Politician from the game seed (RandomPolitician): --politician random.
const RandomPoliticianIndex = -1

// Solo is the deal of a solo game but for its seed: the difficulty, the
// player's Politician and the Opposition; Recorder, when set, records the
// game's events.
type Solo struct {
	Mode       engine.Mode
	Politician int // index into the rules' Politicians, or RandomPoliticianIndex
	Opposition engine.Opposition
	Recorder   engine.Recorder
}

// Deal sets g up as the solo game of game seed gameSeed on rules r, as
// every command deals it: game i of master seed s is on GameSeed(s, i),
// and a random Politician is RandomPolitician's of the game seed.
func (s Solo) Deal(g *engine.Game, r *engine.Rules, gameSeed uint64) error {
	p := s.Politician
	if p == RandomPoliticianIndex {
		p = RandomPolitician(gameSeed, len(r.Politicians))
	}
	return g.Reset(r, gameSeed, engine.Config{Mode: s.Mode, Politician: p, Opposition: s.Opposition, Recorder: s.Recorder})
}
