package sim

import (
	"errors"
	"fmt"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// Outcome indexes of a cross-table: a win, a draw, a loss.
const (
	outWin = iota
	outDraw
	outLoss
)

func outcomeIndex(o engine.Outcome) int {
	switch o {
	case engine.Win:
		return outWin
	case engine.Draw:
		return outDraw
	}
	return outLoss
}

// PairCounts are the mergeable statistics of games played in two arms on
// the same seeds. A game scores 1 for a win, ½ for a draw and 0 for a loss;
// the paired score difference B − A of a seed is one of −1, −½, 0, ½, 1.
// Like Counts they are sums, so adding pairs in any order, or merging the
// PairCounts of disjoint seeds, gives the same value.
type PairCounts struct {
	Games int64 `json:"games"`
	// Cross[a][b] counts the seeds on which arm A's outcome was a and arm
	// B's was b, each in the order win, draw, loss.
	Cross           [3][3]int64 `json:"cross_wdl"`
	MarginDiffSum   int64       `json:"margin_diff_sum"`    // Σ (B's margin − A's margin)
	MarginDiffSumSq int64       `json:"margin_diff_sum_sq"` // Σ (B's margin − A's margin)²
}

// Add records the results of one seed in arm A and arm B.
func (p *PairCounts) Add(a, b *engine.Result) {
	p.Games++
	p.Cross[outcomeIndex(a.Outcome)][outcomeIndex(b.Outcome)]++
	d := int64(b.Margin() - a.Margin())
	p.MarginDiffSum += d
	p.MarginDiffSumSq += d * d
}

// Merge adds the pairs of o (disjoint seeds) to p.
func (p *PairCounts) Merge(o *PairCounts) {
	p.Games += o.Games
	for a := range p.Cross {
		for b := range p.Cross[a] {
			p.Cross[a][b] += o.Cross[a][b]
		}
	}
	p.MarginDiffSum += o.MarginDiffSum
	p.MarginDiffSumSq += o.MarginDiffSumSq
}

// within reports whether p's pairs could be some of o's: no count of p
// above o's (a race's looks are cumulative).
func (p *PairCounts) within(o *PairCounts) bool {
	for a := range p.Cross {
		for b := range p.Cross[a] {
			if p.Cross[a][b] > o.Cross[a][b] {
				return false
			}
		}
	}
	return p.Games <= o.Games && p.MarginDiffSumSq <= o.MarginDiffSumSq
}

// check verifies that pair counts read from a file add up, and agree with
// the counts of the arms they pair: arm A's a and arm B's b (b nil when
// the result keeps no counts of B's games, as a sensitivity change): the
// cross-table's rows are A's outcomes and its columns B's, the paired
// margin sum is B's margin sum minus A's, and the sum of squares fits the
// sum (stats.Moments.Possible) and both arms' squares. A forged pair
// count would otherwise make the paired test's verdict.
func (p *PairCounts) check(a, b *Counts) error {
	var sum int64
	var rows, cols [3]int64
	for i := range p.Cross {
		for j := range p.Cross[i] {
			n := p.Cross[i][j]
			if n < 0 || n > MaxGames {
				return errors.New("paired cross-table has a count outside 0..games")
			}
			sum += n
			rows[i] += n
			cols[j] += n
		}
	}
	if sum != p.Games {
		return fmt.Errorf("paired cross-table sums to %d, not to its %d games", sum, p.Games)
	}
	for _, arm := range []struct {
		name string
		c    *Counts
		out  [3]int64
	}{{"A", a, rows}, {"B", b, cols}} {
		if c := arm.c; c != nil && arm.out != [3]int64{c.Wins, c.Draws, c.Losses} {
			return fmt.Errorf("cross_wdl: arm %s's outcomes are %d wins, %d draws and %d losses, its counts %d, %d and %d",
				arm.name, arm.out[0], arm.out[1], arm.out[2], c.Wins, c.Draws, c.Losses)
		}
	}
	// A margin is a difference of two vote totals, each an int16: a paired
	// difference of margins is within twice that.
	if !p.margins().Possible(2 * maxPerGame) {
		return fmt.Errorf("margin_diff_sum %d and margin_diff_sum_sq %d are not the sums of %d differences of margins",
			p.MarginDiffSum, p.MarginDiffSumSq, p.Games)
	}
	if a == nil || b == nil {
		return nil
	}
	if want := b.MarginSum - a.MarginSum; p.MarginDiffSum != want {
		return fmt.Errorf("margin_diff_sum %d is not arm B's margin_sum − arm A's (%d)", p.MarginDiffSum, want)
	}
	// (y − x)² ≤ 2x² + 2y²: half the squares, rounded up, are at most the
	// arms' (whose sum fits in a uint64).
	half := uint64(p.MarginDiffSumSq/2 + p.MarginDiffSumSq%2)
	if most := uint64(a.MarginSumSq) + uint64(b.MarginSumSq); half > most {
		return fmt.Errorf("margin_diff_sum_sq %d is more than twice the arms' margin_sum_sq (%d and %d)",
			p.MarginDiffSumSq, a.MarginSumSq, b.MarginSumSq)
	}
	return nil
}

// Pentanomial returns the number of seeds with each paired score
// difference B − A: n[k] seeds differ by (k−2)/2.
func (p *PairCounts) Pentanomial() [5]int64 {
	var n [5]int64
	for a := range p.Cross {
		for b := range p.Cross[a] {
			// In halves a game scores 2 − index, so B − A is a − b halves.
			n[a-b+2] += p.Cross[a][b]
		}
	}
	return n
}

// winPentanomial counts the paired differences of wins B − A (a draw is
// not a win, as a target win rate counts it) on the pentanomial's scale:
// n[4] seeds B won and A did not, n[0] the other way, n[2] the rest.
func (p *PairCounts) winPentanomial() [5]int64 {
	var n [5]int64
	for a := range p.Cross {
		for b := range p.Cross[a] {
			k := 2
			switch {
			case a != outWin && b == outWin:
				k = 4
			case a == outWin && b != outWin:
				k = 0
			}
			n[k] += p.Cross[a][b]
		}
	}
	return n
}

// ScoreDiff returns the mean paired score difference B − A (a draw scores
// ½), its 95 % t-interval and the p-value of a zero difference.
func (p *PairCounts) ScoreDiff() (mean float64, ci stats.Interval, pval float64) {
	m := p.scoreHalves()
	ci = m.MeanInterval(0.05)
	return m.Mean() / 2, stats.Interval{Lo: ci.Lo / 2, Hi: ci.Hi / 2}, m.TTest()
}

// scoreMean is the mean paired score difference B − A (a draw scores ½).
func (p *PairCounts) scoreMean() float64 { return p.scoreHalves().Mean() / 2 }

// scoreHalves are the moments of the paired score differences B − A in
// halves (−2 … 2), integers like every other sum.
func (p *PairCounts) scoreHalves() stats.Moments {
	return stats.Pentanomial(p.Pentanomial()).Moments()
}

// WinRateDiff returns the mean paired difference of wins B − A (a seed
// B wins and A does not counts +1, the other way −1), its 95 % t-interval
// and the p-value of a zero difference: the change of the win rate,
// measured on the same seeds.
func (p *PairCounts) WinRateDiff() (mean float64, ci stats.Interval, pval float64) {
	var up, down int64
	for a := range p.Cross {
		if a != outWin {
			up += p.Cross[a][outWin]
			down += p.Cross[outWin][a]
		}
	}
	m := stats.Moments{N: p.Games, Sum: up - down, SumSq: up + down}
	return m.Mean(), m.MeanInterval(0.05), m.TTest()
}

// margins are the moments of the paired margin differences B − A.
func (p *PairCounts) margins() stats.Moments {
	return stats.Moments{N: p.Games, Sum: p.MarginDiffSum, SumSq: p.MarginDiffSumSq}
}

// MarginDiff returns the mean paired margin difference B − A in votes, its
// 95 % t-interval and the p-value of a zero difference.
func (p *PairCounts) MarginDiff() (mean float64, ci stats.Interval, pval float64) {
	m := p.margins()
	return m.Mean(), m.MeanInterval(0.05), m.TTest()
}
