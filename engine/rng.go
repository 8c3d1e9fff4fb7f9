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
		hi = intNRetry(p, un, hi, lo)
	}
	return int(hi)
}

// intNRetry is IntN's rare rejection loop (lo < n), out of line.
func intNRetry(p *rand.PCG, un, hi, lo uint64) uint64 {
	thresh := -un % un
	for lo < thresh {
		hi, lo = bits.Mul64(p.Uint64(), un)
	}
	return hi
}

// shuffle is a Fisher–Yates shuffle driven by p. It draws j as IntN(p,
// i+1) does, written out: IntN is too big for the compiler to inline, and
// the call cost a third of each step (Determinize shuffles about a
// hundred items per call).
func shuffle[T any](p *rand.PCG, s []T) {
	for i := len(s) - 1; i > 0; i-- {
		un := uint64(i + 1)
		hi, lo := bits.Mul64(p.Uint64(), un)
		if lo < un {
			hi = intNRetry(p, un, hi, lo)
		}
		s[i], s[hi] = s[hi], s[i]
	}
}
