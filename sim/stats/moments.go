package stats

import (
	"math"
	"math/bits"
)

// Moments are the mergeable sums of integer values: how many (N), their
// sum and their sum of squares. Adding values in any order, or merging the
// Moments of disjoint sets, gives the same sums, and integer sums keep the
// variance exact up to its last division.
type Moments struct {
	N, Sum, SumSq int64
}

// Add records one value.
func (m *Moments) Add(x int64) {
	m.N++
	m.Sum += x
	m.SumSq += x * x
}

// Merge adds the values of o (a disjoint set) to m.
func (m *Moments) Merge(o Moments) {
	m.N += o.N
	m.Sum += o.Sum
	m.SumSq += o.SumSq
}

// Possible reports whether m can be the moments of N whole numbers, each
// at most most in absolute value. It checks what every such set meets:
// N ≥ 0; |Sum| ≤ N·most and SumSq ≤ N·most²; Sum² ≤ N·SumSq (Cauchy–
// Schwarz: the variance is not negative, and N = 0 has no sums); |Sum| ≤
// SumSq (x² ≥ |x| for a whole number); Sum and SumSq of one parity (x²
// and x are). Sums that fail it (read from a file, say) would give a
// negative variance, an interval of no width or a mean no value reaches.
// The products are exact (128 bits), so no sum overflows the check.
func (m Moments) Possible(most int64) bool {
	if m.N < 0 || m.SumSq < 0 || most < 0 {
		return false
	}
	n, sum, sq, top := uint64(m.N), uabs(m.Sum), uint64(m.SumSq), uint64(most)
	nTop := product(n, top)
	return !nTop.less(sum) && !mul128(nTop, top).less(sq) && sum <= sq && (m.Sum^m.SumSq)&1 == 0 &&
		!product(n, sq).less2(product(sum, sum))
}

// Bounded reports whether |x| ≤ per·n, for per and n not negative: that
// a sum read from a file is one n values of at most per each can reach.
// The product is exact (128 bits), so it does not overflow.
func Bounded(x, per, n int64) bool {
	return per >= 0 && n >= 0 && !product(uint64(per), uint64(n)).less(uabs(x))
}

// uabs is |x| as an unsigned number (exact for math.MinInt64).
func uabs(x int64) uint64 {
	if x < 0 {
		return uint64(-(x + 1)) + 1
	}
	return uint64(x)
}

// u128 is an unsigned number of 128 bits, the exact product of two of 64,
// or the largest when a product of three overflows it.
type u128 struct{ hi, lo uint64 }

func product(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// mul128 is x·b, saturated at the largest u128.
func mul128(x u128, b uint64) u128 {
	hh, hl := bits.Mul64(x.hi, b)
	lh, ll := bits.Mul64(x.lo, b)
	hi, carry := bits.Add64(hl, lh, 0)
	if hh != 0 || carry != 0 {
		return u128{math.MaxUint64, math.MaxUint64}
	}
	return u128{hi, ll}
}

// less reports whether x < c.
func (x u128) less(c uint64) bool { return x.hi == 0 && x.lo < c }

// less2 reports whether x < y.
func (x u128) less2(y u128) bool { return x.hi < y.hi || x.hi == y.hi && x.lo < y.lo }

// Mean is the mean of the values, 0 with none.
func (m Moments) Mean() float64 {
	if m.N <= 0 {
		return 0
	}
	return float64(m.Sum) / float64(m.N)
}

// Variance is the sample variance of the values (n−1 in the
// denominator), 0 with fewer than two.
func (m Moments) Variance() float64 {
	if m.N < 2 {
		return 0
	}
	return m.meanVar() * float64(m.N)
}

// meanVar is the squared standard error of the mean: the sample variance
// (n−1 in the denominator) over n. n·Σx² − (Σx)² is computed in float64
// from exact integers. It needs two values or more.
func (m Moments) meanVar() float64 {
	nf := float64(m.N)
	ss := nf*float64(m.SumSq) - float64(m.Sum)*float64(m.Sum)
	return math.Max(0, ss/(nf*(nf-1))) / nf
}

// MeanInterval returns Student's t-interval of confidence 1 − alpha for
// the mean (n−1 degrees of freedom). With fewer than two values it is the
// mean itself, [0, 0] with none.
func (m Moments) MeanInterval(alpha float64) Interval {
	mean := m.Mean()
	if m.N < 2 {
		return Interval{mean, mean}
	}
	se := math.Sqrt(m.meanVar())
	t := tQuantile(1-alpha/2, float64(m.N)-1)
	return Interval{mean - t*se, mean + t*se}
}

// TTest returns the two-sided p-value of Student's one-sample t-test of a
// zero mean (paired values: the paired t-test). With fewer than two
// values it is 1; with no spread (every value the same) it is 1 for a
// zero mean and 0 for any other.
func (m Moments) TTest() float64 {
	if m.N < 2 {
		return 1
	}
	mean := m.Mean()
	se := math.Sqrt(m.meanVar())
	if se == 0 {
		if mean == 0 {
			return 1
		}
		return 0
	}
	return tTwoSided(mean/se, float64(m.N)-1)
}

// TOST returns the p-value of Schuirmann's two one-sided tests (1987) that
// the mean lies strictly between lo and hi: the larger of the p-values of
// the one-sided t-tests of mean ≤ lo and of mean ≥ hi. Equivalence within
// (lo, hi) is shown at level alpha when it is below alpha, which is when
// the interval MeanInterval(2·alpha) lies inside (lo, hi). With fewer than
// two values it is 1; with no spread it is 0 for a mean inside and 1 for
// one outside.
func (m Moments) TOST(lo, hi float64) float64 {
	if m.N < 2 {
		return 1
	}
	mean := m.Mean()
	se := math.Sqrt(m.meanVar())
	if se == 0 {
		if lo < mean && mean < hi {
			return 0
		}
		return 1
	}
	nu := float64(m.N) - 1
	above := tSurvival((mean-lo)/se, nu) // mean ≤ lo
	below := tSurvival((hi-mean)/se, nu) // mean ≥ hi
	return math.Max(above, below)
}

// Welch returns the difference of the means of a and b (a − b), its
// interval of confidence 1 − alpha and the two-sided p-value of no
// difference, by Welch's t-test for unequal variances (Welch 1947), with
// the Welch–Satterthwaite degrees of freedom (at least 1). Each side needs
// two values or more. With no spread on both sides the interval is the
// difference itself and the p-value 1 for no difference, 0 for any other.
func Welch(a, b Moments, alpha float64) (diff float64, ci Interval, p float64) {
	ma, va := a.Mean(), a.meanVar()
	mb, vb := b.Mean(), b.meanVar()
	diff = ma - mb
	se := math.Sqrt(va + vb)
	if se == 0 {
		p = 0
		if diff == 0 {
			p = 1
		}
		return diff, Interval{diff, diff}, p
	}
	df := (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	df = math.Max(1, df)
	half := tQuantile(1-alpha/2, df) * se
	return diff, Interval{diff - half, diff + half}, tTwoSided(diff/se, df)
}

// MeanTest is one t-test of a zero mean in a family tested by MeanTests.
type MeanTest struct {
	Mean float64
	// CI is the interval at the level of each test of the family: all the
	// family's intervals cover their true means at once with a chance of
	// at least 1 − alpha, and a test rejects exactly when its interval
	// excludes 0.
	CI Interval
	P  float64 // two-sided t-test of a zero mean (TTest), unadjusted
	// PAdj is P adjusted over the family (Bonferroni): the test rejects
	// when it is below alpha.
	PAdj     float64
	Rejected bool
}

// MeanTests tests a zero mean for each of ms, a family of len(ms) tests at
// family-wise level alpha by Bonferroni's adjustment: each test at
// BonferroniLevel(alpha, len(ms)), with its interval of the same level, so
// that with every mean zero the chance of any rejection is at most alpha
// however the values of the tests are related, and every interval shown
// is a simultaneous one. Holm's step-down rejects a little more, but has
// no intervals to show for it.
func MeanTests(ms []Moments, alpha float64) []MeanTest {
	out := make([]MeanTest, len(ms))
	for i, m := range ms {
		out[i] = m.FamilyTest(alpha, len(ms))
	}
	return out
}

// FamilyTest is the t-test of a zero mean as one of a family of tests
// tests at family-wise level alpha (Bonferroni: MeanTests).
func (m Moments) FamilyTest(alpha float64, tests int) MeanTest {
	a := BonferroniLevel(alpha, tests)
	t := MeanTest{Mean: m.Mean(), P: m.TTest(), CI: m.MeanInterval(a)}
	// The p-value decides (with fewer than two values it is 1, and the
	// interval a point); otherwise p < a exactly when the interval of the
	// same t quantile excludes 0.
	t.Rejected = t.P < a
	t.PAdj = math.Min(1, float64(tests)*t.P)
	return t
}
