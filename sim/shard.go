package sim

import (
	"fmt"
	"strconv"
	"strings"
)

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
