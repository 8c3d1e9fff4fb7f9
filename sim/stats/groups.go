package stats

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// GroupEffects estimates k additive effects from groups of them measured
// together, as a group screening design measures them (Watson 1961): group
// g holds the items groups[g] (indexes below k, none twice) and was
// measured with the values ms[g], each of whose expectations is the sum of
// its items' effects. It returns each item's least-squares estimate,
// weighted by the groups' counts, and its standard error from the pooled
// spread of the values within the groups; an item in no group has a
// standard error of +Inf. The error says the groups do not tell the items
// apart (two that always go together).
//
// When effects are not additive (the groups' items interact), the
// estimate is of an item's effect among the others of its groups, not
// alone: a screen's estimate, to choose what to measure alone.
func GroupEffects(k int, groups [][]int, ms []Moments) (est, se []float64, err error) {
	xtx := mat.NewSymDense(max(k, 1), nil)
	xty := mat.NewVecDense(max(k, 1), nil)
	var within float64
	var n, df int64
	seen := make([]bool, k)
	for g, items := range groups {
		m := ms[g]
		if m.N == 0 {
			continue
		}
		for _, i := range items {
			seen[i] = true
			xty.SetVec(i, xty.AtVec(i)+float64(m.Sum))
			for _, j := range items {
				if j >= i {
					xtx.SetSym(i, j, xtx.At(i, j)+float64(m.N))
				}
			}
		}
		within += float64(m.SumSq) - float64(m.Sum)*float64(m.Sum)/float64(m.N)
		n += m.N
		df += m.N - 1
	}
	est, se = make([]float64, k), make([]float64, k)
	// An item in no group has no estimate: fix it at 0, apart from the
	// solve.
	for i, ok := range seen {
		if !ok {
			xtx.SetSym(i, i, 1)
			se[i] = math.Inf(1)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(xtx) {
		return nil, nil, errors.New("stats: the groups do not tell every item apart")
	}
	var b mat.VecDense
	if err := chol.SolveVecTo(&b, xty); err != nil {
		return nil, nil, err
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, nil, err
	}
	// The variance of one value about its group's mean, pooled.
	s2 := 0.0
	if df > 0 {
		s2 = math.Max(within, 0) / float64(df)
	}
	for i := range est {
		if !seen[i] {
			continue
		}
		est[i] = b.AtVec(i)
		se[i] = math.Sqrt(s2 * inv.At(i, i))
	}
	return est, se, nil
}
