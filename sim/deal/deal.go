package deal

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"

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

// RandomPolitician returns the politician (index below n) that game seed
// gameSeed plays with --politician random.
func RandomPolitician(gameSeed uint64, n int) int {
	var p rand.PCG
	p.Seed(gameSeed, StreamPolitician)
	return engine.IntN(&p, n)
}

// SeatsPoliticians deals distinct Politicians to the seats of a deal from
// a stream of the game seed (Player Board Setup 5: each player takes a card
// of their own).
func SeatsPoliticians(gameSeed uint64, players, politicians int) []int {
	idx := make([]int, politicians)
	for i := range idx {
		idx[i] = i
	}
	z := mix64(gameSeed ^ StreamPolitician)
	for i := range players {
		j := i + int(z%uint64(politicians-i))
		z = mix64(z)
		idx[i], idx[j] = idx[j], idx[i]
	}
	return idx[:players]
}

// PolicySeed is the seed lineup entry j's policy is reset with at a table
// dealt on gameSeed: a player's own stream follows it round the table, the
// same in every rotation of the deal, and no two entries share one.
func PolicySeed(gameSeed uint64, j int) uint64 {
	return GameSeed(gameSeed, uint64(j)+1)
}

// RolloutSeed is the seed mcts resets its rollout policy with, from the
// seed mcts itself was reset with: the rollouts draw apart from the
// search's own stream.
func RolloutSeed(seed uint64) uint64 { return seed ^ keyRollout }

// HintSeed is the seed of the determinized copy on which `tallywood play`
// estimates a hint's margin, from the game seed: not the game's own hidden
// future, and the same hint whenever it is asked again.
func HintSeed(gameSeed uint64) uint64 { return gameSeed ^ keyHint }

// ProgramSeed is the seed an outside program (an exec: policy) gets for
// its own generator, the protocol's player_seed (docs/protocol.md), in a
// game whose policy was reset with seed: a hash of
// it, which says nothing of the game seed, from which every shuffle could
// be recomputed, so a program could know the deck. The same game gives
// the same program seed, so it stays reproducible.
func ProgramSeed(seed uint64) uint64 {
	h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte(programSeedDomain), seed))
	return binary.BigEndian.Uint64(h[:8])
}
