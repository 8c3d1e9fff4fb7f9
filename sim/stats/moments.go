package stats

import "math"

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
