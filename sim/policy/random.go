package policy

import (
	"math/rand/v2"

	"tallywood/engine"
	"tallywood/sim/deal"
)

func init() {
	add(entry{
		name:    "random",
		summary: "uniform over the legal options",
		build:   func(map[string]string) (func() Policy, error) { return func() Policy { return &Random{} }, nil },
	})
}

// Random picks uniformly among the legal options.
type Random struct{ rng rand.PCG }

// Reset seeds the policy's own stream from the game seed.
func (p *Random) Reset(gameSeed uint64) { p.rng.Seed(gameSeed, deal.StreamRandom) }

// Choose picks one option uniformly.
func (p *Random) Choose(_ *engine.Game, legal []engine.Option) engine.Option {
	return legal[engine.IntN(&p.rng, len(legal))]
}
