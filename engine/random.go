package engine

import "math/rand/v2"

// RandomPlayer picks uniformly among the legal options with its own
// generator, so its choices never move the game's cards and tiles.
type RandomPlayer struct {
	rng rand.PCG
	buf [MaxOptions]Option
}

// NewRandomPlayer returns a random player seeded from seed.
func NewRandomPlayer(seed uint64) *RandomPlayer {
	p := &RandomPlayer{}
	p.Reset(seed)
	return p
}

// Reset reseeds the player.
func (p *RandomPlayer) Reset(seed uint64) { p.rng.Seed(seed, streamRandomPlayer) }

// Choose returns a legal option of the pending decision.
func (p *RandomPlayer) Choose(g *Game) Option {
	opts := g.Legal(p.buf[:0])
	return opts[IntN(&p.rng, len(opts))]
}

// Play runs the game to its end with p making every player decision.
func (p *RandomPlayer) Play(g *Game) error {
	for !g.Over() {
		if err := g.Apply(p.Choose(g)); err != nil {
			return err
		}
	}
	return nil
}
