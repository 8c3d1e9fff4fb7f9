package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TwoWay are the mergeable sums of a complete table of integer values,
// one per row and column without replication (a deal played by several
// players: rows the deals, columns the players): the rows, the sum and
// sum of squares of every value, the sum over rows of each row's sum
// squared, and each column's sum.
type TwoWay struct {
	Rows   int64   `json:"rows"`
	Sum    int64   `json:"sum"`
	SumSq  int64   `json:"sum_sq"`
	RowSq  int64   `json:"row_sum_sq"`
	ColSum []int64 `json:"column_sums"`
}

// AddRow records one row of values, one per column.
func (t *TwoWay) AddRow(xs []int64) {
	if t.ColSum == nil {
		t.ColSum = make([]int64, len(xs))
	}
	var s int64
	for i, x := range xs {
		s += x
		t.SumSq += x * x
		t.ColSum[i] += x
	}
	t.Rows++
	t.Sum += s
	t.RowSq += s * s
}

// Merge adds the rows of o (the same columns) to t.
func (t *TwoWay) Merge(o TwoWay) {
	if t.ColSum == nil {
		t.ColSum = make([]int64, len(o.ColSum))
	}
	t.Rows += o.Rows
	t.Sum += o.Sum
	t.SumSq += o.SumSq
	t.RowSq += o.RowSq
	for i, c := range o.ColSum {
		t.ColSum[i] += c
	}
}

// RowShare is the share of a value's variance, within a column, that its
// row explains: the intraclass correlation ICC(C,1) of the two-way
// layout without replication (McGraw and Wong 1996, case 3A),
// (MS_rows − MS_error) / (MS_rows + (k−1)·MS_error) with k columns, and
// its interval of confidence 1 − alpha from the F distribution of
// MS_rows / MS_error. It needs two rows and two columns; otherwise, or
// with no spread, it is 0 with the interval [0, 0]; when the rows explain
// every difference, 1 with [1, 1]. The estimate may be
// below 0 (rows alike beyond chance); the interval is not clipped.
func (t TwoWay) RowShare(alpha float64) (share float64, ci Interval) {
	n, k := float64(t.Rows), float64(len(t.ColSum))
	if t.Rows < 2 || len(t.ColSum) < 2 {
		return 0, Interval{}
	}
	total := float64(t.Sum)
	correction := total * total / (n * k)
	ssTotal := float64(t.SumSq) - correction
	ssRows := float64(t.RowSq)/k - correction
	var cs float64
	for _, c := range t.ColSum {
		cs += float64(c) * float64(c)
	}
	ssCols := cs/n - correction
	ssErr := ssTotal - ssRows - ssCols
	dfRows, dfErr := n-1, (n-1)*(k-1)
	msRows, msErr := ssRows/dfRows, ssErr/dfErr
	switch {
	case msErr <= 0 && msRows > 0:
		return 1, Interval{1, 1} // the rows explain every difference
	case msErr <= 0 || msRows+(k-1)*msErr <= 0:
		return 0, Interval{}
	}
	share = (msRows - msErr) / (msRows + (k-1)*msErr)
	f := msRows / msErr
	lo := f / distuv.F{D1: dfRows, D2: dfErr}.Quantile(1-alpha/2)
	hi := f * distuv.F{D1: dfErr, D2: dfRows}.Quantile(1-alpha/2)
	icc := func(x float64) float64 { return (x - 1) / (x + k - 1) }
	if math.IsInf(hi, 0) || math.IsNaN(hi) {
		hi = math.Inf(1)
	}
	return share, Interval{icc(lo), math.Min(1, icc(hi))}
}
