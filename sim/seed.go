package sim

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"tallywood/engine"
)

const golden = 0x9e3779b97f4a7c15

// mix64 is SplitMix64's output function (Steele, Lea & Flood 2014).
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// GameSeed returns the seed of game i of a run with master seed seed: the
// (i+1)-th output of a SplitMix64 generator whose state starts at
// mix64(seed). It depends on (seed, i) alone, never on workers, shards or
// the order in which games are played; every cell of a run plays game i on
// the same seed, and so do both arms of a comparison.
func GameSeed(seed, i uint64) uint64 {
	return mix64(mix64(seed) + (i+1)*golden)
}

// streamPolitician is the stream of the game seed that picks the
// politician with --politician random; distinct from the engine's and the
// policies' streams.
const streamPolitician = 0x504f4c49

// RandomPolitician returns the politician (index below n) that game seed
// gameSeed plays with --politician random.
func RandomPolitician(gameSeed uint64, n int) int {
	var p rand.PCG
	p.Seed(gameSeed, streamPolitician)
	return engine.IntN(&p, n)
}

// Shard is shard K of N: the games i with i mod N = K−1. The zero value
// and 1/1 both mean every game.
type Shard struct{ K, N int }

// ParseShard reads "K/N" with 1 ≤ K ≤ N.
func ParseShard(s string) (Shard, error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("%q is not K/N with 1 ≤ K ≤ N", s)
	}
	return Shard{K: k, N: n}, nil
}

func (s Shard) norm() Shard {
	if s.N == 0 {
		return Shard{1, 1}
	}
	return s
}

// String is "K/N".
func (s Shard) String() string {
	s = s.norm()
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Whole reports whether the shard is every game.
func (s Shard) Whole() bool { return s.norm().N == 1 }

// Len returns how many of the games 0..games−1 belong to the shard.
func (s Shard) Len(games int64) int64 {
	s = s.norm()
	first := int64(s.K - 1)
	if games <= first {
		return 0
	}
	return (games-first-1)/int64(s.N) + 1
}

// Game returns the index of the shard's j-th game.
func (s Shard) Game(j int64) int64 {
	s = s.norm()
	return j*int64(s.N) + int64(s.K-1)
}
