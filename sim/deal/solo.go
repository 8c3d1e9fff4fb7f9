package deal

import (
	"tallywood/engine"
	"tallywood/opposition/script"
)

// RandomPoliticianIndex, as a Solo's Politician, draws the player's
// Politician from the game seed (RandomPolitician): --politician random.
const RandomPoliticianIndex = -1

// Solo is the deal of a solo game but for its seed: the difficulty, the
// player's Politician and the Opposition (nil: the rules' own, the built-in
// one or the script they name); Recorder, when set, records the
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
	p := SoloPolitician(s.Politician, gameSeed, len(r.Politicians))
	opp := s.Opposition
	if opp == nil {
		var err error
		if opp, err = script.For(r); err != nil {
			return err
		}
	}
	return g.Reset(r, gameSeed, engine.Config{Mode: s.Mode, Politician: p, Opposition: opp, Recorder: s.Recorder})
}

// SoloPolitician is the Politician a solo game of game seed gameSeed deals
// the player among n: p, or with RandomPoliticianIndex the seed's own
// (RandomPolitician). sim, trace, play, scenario setup and the playtest
// server all deal through it, so a seed and game are one game everywhere.
func SoloPolitician(p int, gameSeed uint64, n int) int {
	if p == RandomPoliticianIndex {
		return RandomPolitician(gameSeed, n)
	}
	return p
}
