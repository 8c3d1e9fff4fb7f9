package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"tallywood/engine"
	"tallywood/sim/stats"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a two-sided confidence interval [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// z975 is the 97.5 % quantile of the standard normal distribution, the z
// of every 95 % interval here.
var z975 = distuv.UnitNormal.Quantile(0.975)

// Wilson returns the Wilson score 95 % interval for k successes in n
// trials (Wilson 1927; Newcombe 1998, method 3). With n = 0 it is [0, 1].
func Wilson(k, n int64) Interval { return wilsonZ(k, n, z975) }

// wilsonZ is the Wilson score interval of normal quantile z: Wilson's
// with another confidence, as a sweep's simultaneous intervals need.
func wilsonZ(k, n int64, z float64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z*z/nf
	center := (p + z*z/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return Interval{math.Max(0, center-half), math.Min(1, center+half)}
}

// MeanInterval returns the mean of n values from their sum and sum of
// squares, and its 95 % t-interval (Student's t with n−1 degrees of
// freedom). With fewer than two values the interval is the mean itself.
func MeanInterval(n, sum, sumSq int64) (mean float64, ci Interval) {
	q := 0.975
	if n <= 0 {
		return 0, Interval{}
	}
	nf := float64(n)
	mean = float64(sum) / nf
	if n < 2 {
		return mean, Interval{mean, mean}
	}
	// Integer sums keep the variance exact up to the last division:
	// n·Σx² − (Σx)² is computed in float64 from exact integers.
	ss := nf*float64(sumSq) - float64(sum)*float64(sum)
	variance := math.Max(0, ss/(nf*(nf-1)))
	se := math.Sqrt(variance / nf)
	t := tQuantile(q, nf-1)
	return mean, Interval{mean - t*se, mean + t*se}
}

// tQuantile is the q quantile of Student's t with nu degrees of freedom.
// Beyond 10⁸ degrees of freedom it is the normal quantile (they differ by
// less than 10⁻⁸ there, and gonum's t quantile loses accuracy).
func tQuantile(q, nu float64) float64 {
	if nu > 1e8 {
		return distuv.UnitNormal.Quantile(q)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(q)
}

// MeanTest returns the mean of n values from their sum and sum of squares,
// its 95 % t-interval and the two-sided p-value of Student's t-test of a
// zero mean. With no spread (every value the same) the p-value is 1 for a
// zero mean and 0 otherwise.
func MeanTest(n, sum, sumSq int64) (mean float64, ci Interval, p float64) {
	mean, ci = MeanInterval(n, sum, sumSq)
	if n < 2 {
		return mean, ci, 1
	}
	nf := float64(n)
	ss := nf*float64(sumSq) - float64(sum)*float64(sum)
	se := math.Sqrt(math.Max(0, ss/(nf*(nf-1))) / nf)
	if se == 0 {
		if mean == 0 {
			return mean, ci, 1
		}
		return mean, ci, 0
	}
	t := math.Abs(mean) / se
	if nf-1 > 1e8 {
		return mean, ci, 2 * distuv.UnitNormal.Survival(t)
	}
	return mean, ci, math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nf - 1}.Survival(t))
}

// Holm returns Holm's step-down adjustment of the p-values ps (Holm 1979):
// the i-th smallest of m is multiplied by m−i+1, and the adjusted values
// are made monotone in the order of the raw ones, capped at 1. Rejecting
// every hypothesis whose adjusted p-value is below α keeps the chance of
// any false rejection among the m at most α.
func Holm(ps []float64) []float64 {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ps[order[a]] < ps[order[b]] })
	out := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, float64(m-rank)*ps[i]))
		out[i] = running
	}
	return out
}

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
func (p *PairCounts) ScoreDiff() (mean float64, ci Interval, pval float64) {
	m := p.scoreHalves()
	h := m.MeanInterval(0.05)
	return m.Mean() / 2, Interval{h.Lo / 2, h.Hi / 2}, m.TTest()
}

// scoreHalves are the moments of the paired score differences B − A in
// halves (−2 … 2), integers like every other sum.
func (p *PairCounts) scoreHalves() stats.Moments {
	return stats.Pentanomial(p.Pentanomial()).Moments()
}

// margins are the moments of the paired margin differences B − A.
func (p *PairCounts) margins() stats.Moments {
	return stats.Moments{N: p.Games, Sum: p.MarginDiffSum, SumSq: p.MarginDiffSumSq}
}

// MarginDiff returns the mean paired margin difference B − A in votes, its
// 95 % t-interval and the p-value of a zero difference.
func (p *PairCounts) MarginDiff() (mean float64, ci Interval, pval float64) {
	m := p.margins()
	return m.Mean(), Interval(m.MeanInterval(0.05)), m.TTest()
}
