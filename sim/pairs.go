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

// check verifies that pair counts read from a file add up.
func (p *PairCounts) check() error {
	var sum int64
	for a := range p.Cross {
		for b := range p.Cross[a] {
			if p.Cross[a][b] < 0 {
				return errors.New("paired cross-table has a negative count")
			}
			sum += p.Cross[a][b]
		}
	}
	if sum != p.Games {
		return fmt.Errorf("paired cross-table sums to %d, not to its %d games", sum, p.Games)
	}
	if p.MarginDiffSumSq < 0 {
		return errors.New("paired margin sum of squares is negative")
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

// ScoreDiff returns the mean paired score difference B − A (a draw scores
// ½), its 95 % t-interval and the p-value of a zero difference.
func (p *PairCounts) ScoreDiff() (mean float64, ci stats.Interval, pval float64) {
	m := p.scoreHalves()
	ci = m.MeanInterval(0.05)
	return m.Mean() / 2, stats.Interval{Lo: ci.Lo / 2, Hi: ci.Hi / 2}, m.TTest()
}

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
