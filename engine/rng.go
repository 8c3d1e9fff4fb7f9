package engine

import (
	"math/bits"
	"math/rand/v2"
)

// IntN returns a uniform integer in [0, n) from p (Lemire's method), without
// the allocation of a rand.Rand wrapper. Policies and the harness draw from
// their own PCG streams with it too.
func IntN(p *rand.PCG, n int) int {
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

// shuffle is a Fisher–Yates shuffle driven by p.
func shuffle[T any](p *rand.PCG, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		j := IntN(p, i+1)
		s[i], s[j] = s[j], s[i]
	}
}
