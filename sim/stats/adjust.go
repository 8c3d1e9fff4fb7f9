package stats

import (
	"math"
	"sort"
)

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

// Bonferroni returns Bonferroni's adjustment of the p-values ps: each
// multiplied by their number m, capped at 1. Rejecting every hypothesis
// whose adjusted p-value is below α keeps the chance of any false
// rejection among the m at most α, however the tests are related.
func Bonferroni(ps []float64) []float64 {
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = math.Min(1, float64(len(ps))*p)
	}
	return out
}

// BonferroniLevel is the level of each of m tests (or the error rate of
// each of m intervals) that keeps the chance of any error among them at
// most alpha: alpha/m. Intervals at this level hold all at once with a
// chance of at least 1 − alpha.
func BonferroniLevel(alpha float64, m int) float64 { return alpha / float64(m) }
