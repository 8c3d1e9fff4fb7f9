package sim

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// The search tune plays: successive halving over candidate points of a
// grid of integers (one value per field searched), each round playing
// every remaining candidate on the same blocks of seeds and keeping the
// better half by the objective. It knows nothing of rules: an evaluator
// plays a candidate (tune.go makes it rules and plays them).

// maxTuneCandidates bounds the candidates successive halving starts with:
// each is played at least one block, and past this the budget is better
// spent on the survivors (measured: docs/balance.md, 128 against 64 and
// 256 at a budget of 200,000 games).
const maxTuneCandidates = 128

// minTuneBlock is the fewest games per target a block may hold: below it
// the first round's win rates are too noisy to halve on (a standard error
// of 0.07 at 50 games).
const minTuneBlock = 50

// tuneEvaluator plays candidate rules for the target cells on seed blocks
// [from, to) and returns the games and wins of each target.
type tuneEvaluator func(x []int, from, to int) (games, wins []int64, err error)

// candidate is one point of the search with its sums so far, and the
// base's on the same blocks when a target is relative.
type candidate struct {
	x                   []int
	blocks              int
	games, wins         []int64
	baseGames, baseWins []int64
	round               int
}

// tuneGoal is what a search aims at: a win rate per target or, where
// relative, a change of the base's win rate.
type tuneGoal struct {
	rates    []float64
	relative []bool // nil: every target a win rate
}

func (g tuneGoal) isRelative(t int) bool { return g.relative != nil && g.relative[t] }

// valid reports whether target t's rate is one: a win rate above 0 and
// below 1, or a change of one above −1 and below 1, not 0. Every
// objective is then a number: a NaN would sort before every candidate.
func (g tuneGoal) valid(t int) bool {
	r := g.rates[t]
	if g.isRelative(t) {
		return r > -1 && r < 1 && r != 0
	}
	return r > 0 && r < 1
}

func (g tuneGoal) anyRelative() bool { return slices.Contains(g.relative, true) }

// objective is the sum over targets of (win rate − target)², the win
// rate less the base's on the same blocks for a relative target; a
// target with no games (values the engine refuses together) counts 1,
// more than any played one.
func (c *candidate) objective(g tuneGoal) float64 {
	var s float64
	for t, r := range g.rates {
		if c.games[t] == 0 {
			s++
			continue
		}
		d := ratio(c.wins[t], c.games[t]) - r
		if g.isRelative(t) {
			d -= ratio(c.baseWins[t], c.baseGames[t])
		}
		s += d * d
	}
	return s
}

// halvingPlan is how many candidates successive halving starts with and
// how many games per target a block holds, for a budget of games over
// targets targets and a grid of size candidates (0: more than any plan
// takes): as many candidates as a block of minTuneBlock games each
// allows, at most maxTuneCandidates, and the largest block that fits.
func halvingPlan(budget int64, targets int, grid int64) (n int, block int64, err error) {
	cost := func(n int) int64 { return halvingBlocks(n) * int64(targets) }
	n = startCandidates(grid)
	for n > 2 && cost(n)*minTuneBlock > budget {
		n /= 2
	}
	if cost(n)*minTuneBlock > budget {
		return 0, 0, fmt.Errorf("a budget of %d games is too small: at least %d for %d candidates", budget, cost(n)*minTuneBlock, n)
	}
	return n, budget / cost(n), nil
}

// startCandidates is the most candidates successive halving starts with
// on a grid of size grid (0: more than any plan takes).
func startCandidates(grid int64) int {
	if grid > 0 && grid < maxTuneCandidates {
		return int(grid)
	}
	return maxTuneCandidates
}

// halvingBlocks is how many blocks successive halving plays over n
// candidates: every one a block, then each round the better half (rounded
// up) doubles its blocks.
func halvingBlocks(n int) int64 {
	total, blocks := int64(n), int64(1)
	for n > 1 {
		n = (n + 1) / 2
		total += int64(n) * blocks
		blocks *= 2
	}
	return total
}

// halving runs successive halving over the candidates xs, with blocks of
// block games, and returns every candidate in the order first played and
// the index of the best. base, when a target is relative, plays the base
// rules on the blocks each candidate plays.
func halving(xs [][]int, goal tuneGoal, eval, base tuneEvaluator) ([]*candidate, int, error) {
	n := len(goal.rates)
	cands := make([]*candidate, len(xs))
	for i, x := range xs {
		cands[i] = &candidate{x: x, games: make([]int64, n), wins: make([]int64, n)}
		if base != nil {
			cands[i].baseGames, cands[i].baseWins = make([]int64, n), make([]int64, n)
		}
	}
	alive := slices.Clone(cands)
	round := 0
	for blocks := 1; ; blocks *= 2 {
		round++
		for _, c := range alive {
			g, w, err := eval(c.x, c.blocks, blocks)
			if err != nil {
				return nil, 0, err
			}
			var bg, bw []int64
			if base != nil {
				if bg, bw, err = base(nil, c.blocks, blocks); err != nil {
					return nil, 0, err
				}
			}
			for t := range n {
				c.games[t] += g[t]
				c.wins[t] += w[t]
				if base != nil {
					c.baseGames[t] += bg[t]
					c.baseWins[t] += bw[t]
				}
			}
			c.blocks, c.round = blocks, round
		}
		// The better half by the objective; ties keep the earlier one.
		slices.SortStableFunc(alive, func(a, b *candidate) int { return cmp.Compare(a.objective(goal), b.objective(goal)) })
		if len(alive) == 1 {
			break
		}
		alive = alive[:(len(alive)+1)/2]
	}
	return cands, slices.Index(cands, alive[0]), nil
}

// sampleCandidates is every point of space when it holds at most n, in
// order (the first field slowest), else base and n−1 other points drawn
// at random without repeats.
func sampleCandidates(space [][]int, base []int, n int, rng *rand.Rand) [][]int {
	grid := gridSize(space)
	var xs [][]int
	if grid > 0 && grid <= int64(n) {
		for i := range grid {
			x := make([]int, len(space))
			rest := i
			for k := len(space) - 1; k >= 0; k-- {
				x[k] = space[k][rest%int64(len(space[k]))]
				rest /= int64(len(space[k]))
			}
			xs = append(xs, x)
		}
	} else {
		seen := map[string]bool{fmt.Sprint(base): true}
		xs = append(xs, slices.Clone(base))
		for len(xs) < n {
			x := make([]int, len(space))
			for k, vs := range space {
				x[k] = vs[rng.IntN(len(vs))]
			}
			if key := fmt.Sprint(x); !seen[key] {
				seen[key] = true
				xs = append(xs, x)
			}
		}
	}
	return xs
}

// singleChanges is the base and every point of space that differs from it
// in one field, field by field in order.
func singleChanges(space [][]int, base []int) [][]int {
	xs := [][]int{slices.Clone(base)}
	for k, vs := range space {
		for _, v := range vs {
			if v != base[k] {
				x := slices.Clone(base)
				x[k] = v
				xs = append(xs, x)
			}
		}
	}
	return xs
}

// maxSingleChanges bounds the candidates of a search of single changes,
// each of which plays a block at least.
const maxSingleChanges = 1024

// gridSize is the number of points of space, 0 when it is more than an
// int64 holds.
func gridSize(space [][]int) int64 {
	g := int64(1)
	for _, vs := range space {
		if g > math.MaxInt64/int64(len(vs)) {
			return 0
		}
		g *= int64(len(vs))
	}
	return g
}

// halvingPlanAll is the block of a search that plays all n candidates
// (every single change), the base's blocks too when a target is
// relative: the largest block the budget allows, at least minTuneBlock.
func halvingPlanAll(budget int64, goal tuneGoal, n int) (int, int64, error) {
	blocks := halvingBlocks(n)
	if goal.anyRelative() {
		blocks += int64(1) << bits.Len(uint(n-1)) // the base's: up to the last round's blocks
	}
	cost := blocks * int64(len(goal.rates))
	if cost*minTuneBlock > budget {
		return 0, 0, fmt.Errorf("a budget of %d games is too small: at least %d for %d candidates", budget, cost*minTuneBlock, n)
	}
	return n, budget / cost, nil
}

// halvingRounds is the rounds successive halving plays over n candidates:
// one, then one more each time the better half (rounded up) is kept,
// until one is left.
func halvingRounds(n int) int {
	rounds := 1
	for ; n > 1; n = (n + 1) / 2 {
		rounds++
	}
	return rounds
}
