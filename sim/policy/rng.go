package policy

import (
	"math/bits"
	"math/rand/v2"
)

// Stream ids of the policies' generators, distinct from the engine's.
const (
	streamRandom = 0x706f6c72 + iota
	streamGreedy
	streamPollster
	streamBuilder
	streamMCTS
)

// intN returns a uniform integer in [0, n) (Lemire's method).
func intN(p *rand.PCG, n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(p.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), un)
		}
	}
	return int(hi)
}
