package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Band is what an interval says of a value against a band (lo, hi) about
// it, a tolerance: the three answers of an equivalence test (Schuirmann's
// two one-sided tests, 1987, read from one interval).
type Band int8

const (
	// Straddles: the interval reaches across an edge of the band, so the
	// data cannot tell whether the value lies inside it: not enough of
	// them.
	Straddles Band = iota
	// Inside: the interval lies strictly within the band. With an interval
	// of confidence 1 − alpha, each of the two one-sided tests that the
	// value lies beyond an edge is rejected at alpha/2, so the value lies
	// within the band unless a chance of at most alpha/2 misled.
	Inside
	// Outside: the interval lies wholly beyond an edge of the band.
	Outside
)

// String names the answer: "straddles", "inside" or "outside".
func (b Band) String() string {
	switch b {
	case Inside:
		return "inside"
	case Outside:
		return "outside"
	}
	return "straddles"
}

// Against says where ci lies against the band (lo, hi).
func (ci Interval) Against(lo, hi float64) Band {
	switch {
	case lo < ci.Lo && ci.Hi < hi:
		return Inside
	case ci.Hi <= lo || ci.Lo >= hi:
		return Outside
	}
	return Straddles
}

// Excludes reports whether ci lies wholly on one side of x: a test of the
// value x at the interval's level rejects it.
func (ci Interval) Excludes(x float64) bool { return ci.Hi < x || ci.Lo > x }

// SampleSize is about how many observations of standard deviation sd an
// estimate needs for its two-sided interval of confidence 1 − alpha (a
// normal one) to clear a gap, the distance from the estimate to what it
// must exclude, with a chance of 1 − beta if the estimate and sd stay as
// they are: ((z(1 − alpha/2) + z(1 − beta))·sd/gap)², rounded up (Cohen
// 1988). It is +Inf for a gap of 0 or less, 0 with no spread.
func SampleSize(sd, gap, alpha, beta float64) float64 {
	if gap <= 0 {
		return math.Inf(1)
	}
	z := distuv.UnitNormal.Quantile(1-alpha/2) + distuv.UnitNormal.Quantile(1-beta)
	return math.Ceil(z * z * sd * sd / (gap * gap))
}

// ScoreInterval returns the score interval of confidence 1 − alpha for the
// mean of the differences n counts: the means mu whose score test does not
// reject them, |mean − mu| ≤ z·√(v(mu)/N), with v(mu) the variance of the
// distribution of mean mu under which the differences are most likely
// (fit). It is Wilson's interval for differences on {−1, −½, 0, ½, 1}:
// with two values observed it is Wilson's. Unlike Student's t-interval it
// keeps its coverage with few differences that are not 0, and it is never
// a point: with none observed in N pairs it is about ±z²/N, since a mean of
// mu needs about |mu|·N of them. With no pairs it is [−1, 1].
func (n Pentanomial) ScoreInterval(alpha float64) Interval {
	m := n.Moments()
	if m.N == 0 {
		return Interval{-1, 1}
	}
	mean := m.Mean() / 2
	z := distuv.UnitNormal.Quantile(1 - alpha/2)
	// rejects: the score test of mu rejects it. It holds at ±1 (all the
	// mass at one end, where no other observed value could be) unless
	// every difference is that end, and fails at the mean itself.
	rejects := func(mu float64) bool {
		d := mean - mu
		return d*d > z*z*n.fitVariance(mu)/float64(m.N)
	}
	// edge finds the boundary between out (rejected) and the mean, by
	// bisection: the score statistic grows away from the mean.
	edge := func(out float64) float64 {
		in := mean
		for range 100 {
			mid := (in + out) / 2
			if mid == in || mid == out {
				break
			}
			if rejects(mid) {
				out = mid
			} else {
				in = mid
			}
		}
		return in
	}
	const end = 1 - 1e-12 // fit needs −1 < mu < 1
	ci := Interval{Lo: -1, Hi: 1}
	if mean > -end && rejects(-end) {
		ci.Lo = edge(-end)
	}
	if mean < end && rejects(end) {
		ci.Hi = edge(end)
	}
	return ci
}

// ScoreTest returns the two-sided p-value of the score test that the mean
// of the differences n counts is mu (−1 < mu < 1): the test ScoreInterval
// inverts, so that the p-value is below alpha exactly when mu lies outside
// ScoreInterval(alpha). With no pairs it is 1; with no spread under mu (mu
// is every difference) it is 1.
func (n Pentanomial) ScoreTest(mu float64) float64 {
	m := n.Moments()
	v := n.fitVariance(mu)
	if m.N == 0 || v <= 0 {
		return 1
	}
	z := (m.Mean()/2 - mu) / math.Sqrt(v/float64(m.N))
	return math.Min(1, 2*distuv.UnitNormal.Survival(math.Abs(z)))
}

// fitVariance is the variance of the distribution of mean mu under which
// the differences are most likely (fit), 0 with no pairs.
func (n Pentanomial) fitVariance(mu float64) float64 {
	p, ok := n.fit(mu)
	if !ok {
		return 0
	}
	v := -mu * mu
	for k, pk := range p {
		x := float64(k-2) / 2
		v += pk * x * x
	}
	return math.Max(v, 0)
}

// FamilyTest is the score test of a zero mean of the differences n counts
// as one of a family of tests tests at family-wise level alpha
// (Bonferroni), with its score interval at the same level: the test
// rejects exactly when the interval excludes 0. Its mean and interval are
// of the differences themselves (−1 … 1).
func (n Pentanomial) FamilyTest(alpha float64, tests int) MeanTest {
	a := BonferroniLevel(alpha, tests)
	t := MeanTest{Mean: n.Moments().Mean() / 2, P: n.ScoreTest(0), CI: n.ScoreInterval(a)}
	t.Rejected = t.CI.Excludes(0)
	t.PAdj = math.Min(1, float64(tests)*t.P)
	return t
}
