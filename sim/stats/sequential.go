package stats

import (
	"fmt"
	"math"
)

// Sequential is a sequential probability ratio test of a mean (Wald 1945)
// in one of two forms:
//
//   - Delta > 0: three outcomes with an indifference zone (Sobel & Wald
//     1949): one test of 0 against +Delta and one of 0 against −Delta, each
//     Wald's SPRT with error rates Alpha (deciding for ±Delta when the mean
//     is 0) and Beta (deciding for 0 when it is ±Delta). It stops with Up
//     when the first decides for +Delta, Down when the second decides for
//     −Delta, and Within once both have decided for 0.
//   - Delta = 0: one test of P0 against P1, stopping with ForP0 or ForP1.
//
// The test does not fix the likelihood: each Update asks the caller for the
// log-likelihood ratio of the data so far (NormalLLR, Pentanomial.LLR).
// Wald's bounds make Alpha and Beta approximate: the ratio overshoots the
// bounds by a whole step, which with few informative steps is large.
type Sequential struct {
	Delta       float64
	P0, P1      float64
	Alpha, Beta float64
}

// Bounds returns Wald's log-likelihood-ratio bounds of each one-sided
// test: at or below lower, log(β/(1−α)), it decides for its null value,
// at or above upper, log((1−β)/α), for its alternative.
func (s Sequential) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// sides is the number of one-sided tests: 2 for the three-outcome test,
// 1 for P0 against P1.
func (s Sequential) sides() int {
	if s.Delta > 0 {
		return 2
	}
	return 1
}

// ForFamily returns the test each of m tests of a family runs so that,
// with every mean 0, the chance that any of them decides for an
// alternative is at most about s.Alpha: Alpha split evenly (Bonferroni)
// over the m tests and each test's one-sided tests, each of which wrongly
// decides for its alternative with a chance of about its Alpha (Wald's
// approximation).
func (s Sequential) ForFamily(m int) Sequential {
	s.Alpha = BonferroniLevel(s.Alpha, s.sides()*m)
	return s
}

// Param names a parameter of a sequential test.
type Param int8

const (
	// ParamAlpha is Alpha, the chance of deciding for an alternative when
	// the null value holds.
	ParamAlpha Param = iota
	// ParamBeta is Beta, the chance of deciding for the null value when
	// the alternative holds.
	ParamBeta
	// ParamDelta is Delta, the three-outcome test's zone.
	ParamDelta
	// ParamP0P1 is the pair P0, P1 of the two-outcome test.
	ParamP0P1
)

// String is the parameter's name as an error writes it.
func (p Param) String() string {
	switch p {
	case ParamAlpha:
		return "alpha"
	case ParamBeta:
		return "beta"
	case ParamDelta:
		return "delta"
	}
	return "P0, P1"
}

// ParamError is a parameter of a sequential test out of its range.
type ParamError struct {
	Param Param
	// Value is the parameter's value (P0 for ParamP0P1).
	Value float64
	// P1 is P1, for ParamP0P1.
	P1 float64
	// Want is the range the value must lie in, for alpha, beta and delta:
	// "between 0 and 0.5".
	Want string
}

// Error says which parameter is wrong and why: "alpha 0.7 is not between
// 0 and 0.5".
func (e *ParamError) Error() string {
	if e.Param == ParamP0P1 {
		return fmt.Sprintf("P0 %g, P1 %g are not two different finite differences", e.Value, e.P1)
	}
	return fmt.Sprintf("%s %g is not %s", e.Param, e.Value, e.Want)
}

// Validate checks the test's parameters, means lying in (−limit, limit):
// Alpha and Beta in (0, 0.5); Delta, if not 0, in (0, limit); otherwise
// P0 and P1 two different finite values in (−limit, limit). The error is
// a *ParamError naming the first bad parameter.
func (s Sequential) Validate(limit float64) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(s.Alpha) || s.Alpha <= 0 || s.Alpha >= 0.5 {
		return &ParamError{Param: ParamAlpha, Value: s.Alpha, Want: "between 0 and 0.5"}
	}
	if !finite(s.Beta) || s.Beta <= 0 || s.Beta >= 0.5 {
		return &ParamError{Param: ParamBeta, Value: s.Beta, Want: "between 0 and 0.5"}
	}
	if s.Delta != 0 {
		if !finite(s.Delta) || s.Delta <= 0 || s.Delta >= limit {
			return &ParamError{Param: ParamDelta, Value: s.Delta, Want: fmt.Sprintf("above 0 and below %g", limit)}
		}
		return nil
	}
	if !finite(s.P0) || !finite(s.P1) || s.P0 == s.P1 || math.Abs(s.P0) >= limit || math.Abs(s.P1) >= limit {
		return &ParamError{Param: ParamP0P1, Value: s.P0, P1: s.P1}
	}
	return nil
}

// Decision is what a sequential test has decided.
type Decision int8

const (
	// Undecided: the test goes on.
	Undecided Decision = iota
	// Up: the three-outcome test decided for +Delta over 0.
	Up
	// Down: the three-outcome test decided for −Delta over 0.
	Down
	// Within: the three-outcome test decided for 0 over both +Delta and
	// −Delta: the mean lies within about ±Delta.
	Within
	// ForP0: the two-outcome test decided for P0 over P1.
	ForP0
	// ForP1: the two-outcome test decided for P1 over P0.
	ForP1
)

// String names the decision in messages.
func (d Decision) String() string {
	switch d {
	case Up:
		return "up"
	case Down:
		return "down"
	case Within:
		return "within"
	case ForP0:
		return "P0"
	case ForP1:
		return "P1"
	}
	return "undecided"
}

// oneSided is the state of one Wald test of mu0 against mu1.
type oneSided struct {
	mu0, mu1 float64
	decided  int8 // 0 undecided, −1 for mu0, +1 for mu1
	llr      float64
}

// SequentialState follows a Sequential test step by step.
type SequentialState struct {
	test  Sequential
	sides []oneSided
}

// Start returns the state of the test before any data.
func (s Sequential) Start() *SequentialState {
	st := &SequentialState{test: s}
	if s.Delta > 0 {
		st.sides = []oneSided{{mu0: 0, mu1: s.Delta}, {mu0: 0, mu1: -s.Delta}}
	} else {
		st.sides = []oneSided{{mu0: s.P0, mu1: s.P1}}
	}
	return st
}

// Update takes the data so far, as llr: the log-likelihood ratio of mean
// mu1 against mean mu0 over every observation. It returns the decision. A
// one-sided test that has decided keeps its decision (Sobel & Wald), and
// is not asked again. The ratio is kept finite (it is stored, and JSON has
// no infinities; past the bounds its size means nothing more).
func (st *SequentialState) Update(llr func(mu0, mu1 float64) float64) Decision {
	lo, hi := st.test.Bounds()
	for i := range st.sides {
		sd := &st.sides[i]
		if sd.decided != 0 {
			continue
		}
		sd.llr = max(-1e300, min(1e300, llr(sd.mu0, sd.mu1)))
		switch {
		case sd.llr >= hi:
			sd.decided = 1
		case sd.llr <= lo:
			sd.decided = -1
		}
	}
	return st.Decision()
}

// Decision is the decision so far.
func (st *SequentialState) Decision() Decision {
	if len(st.sides) == 1 {
		switch st.sides[0].decided {
		case 1:
			return ForP1
		case -1:
			return ForP0
		}
		return Undecided
	}
	up, down := st.sides[0].decided, st.sides[1].decided
	switch {
	case up == 1:
		return Up
	case down == 1:
		return Down
	case up == -1 && down == -1:
		return Within
	}
	return Undecided
}

// LLRs returns the current log-likelihood ratio of each one-sided test:
// +Delta's then −Delta's, or P1's against P0.
func (st *SequentialState) LLRs() []float64 {
	out := make([]float64, len(st.sides))
	for i, sd := range st.sides {
		out[i] = sd.llr
	}
	return out
}

// NormalLLR is the log-likelihood ratio of mean mu1 against mu0 of the
// values of m under a normal model with their variance (the Brownian
// approximation fishtest uses; the variance is the maximum-likelihood
// one, over n). With every value the same, the nearer mean wins outright
// (±Inf; 0 when both are as near); with no values it is 0.
func NormalLLR(m Moments, mu0, mu1 float64) float64 {
	if m.N <= 0 {
		return 0
	}
	nf := float64(m.N)
	mean := float64(m.Sum) / nf
	variance := float64(m.SumSq)/nf - mean*mean
	if variance <= 0 {
		switch d0, d1 := math.Abs(mean-mu0), math.Abs(mean-mu1); {
		case d1 < d0:
			return math.Inf(1)
		case d0 < d1:
			return math.Inf(-1)
		}
		return 0
	}
	return (mu1 - mu0) * (float64(m.Sum) - nf*(mu0+mu1)/2) / variance
}

// Pentanomial counts paired differences on {−1, −½, 0, ½, 1}: n[k] pairs
// differ by (k−2)/2, as two games scored 1, ½ or 0 each on the same seed
// do (the pentanomial model of paired chess games).
type Pentanomial [5]int64

// Moments are the moments of the differences in halves (−2 … 2), integers
// like every other sum: the mean of the differences is Mean()/2.
func (n Pentanomial) Moments() Moments {
	var m Moments
	for k, c := range n {
		h := int64(k - 2)
		m.N += c
		m.Sum += h * c
		m.SumSq += h * h * c
	}
	return m
}

// LLR is the generalized log-likelihood ratio of mean mu1 against mu0
// (GSPRT): LogLik(mu1) − LogLik(mu0).
func (n Pentanomial) LLR(mu0, mu1 float64) float64 { return n.LogLik(mu1) - n.LogLik(mu0) }

// LogLik is the maximum log-likelihood of the differences over the
// distributions on {−1, −½, 0, ½, 1} with mean mu (−1 < mu < 1): that of
// the distribution fit finds. With no pairs it is 0.
func (n Pentanomial) LogLik(mu float64) float64 {
	p, ok := n.fit(mu)
	if !ok {
		return 0
	}
	ll := 0.0
	for k, c := range n {
		if c > 0 {
			ll += float64(c) * math.Log(p[k])
		}
	}
	return ll
}

// fit returns the distribution on {−1, −½, 0, ½, 1} of mean mu (−1 < mu
// < 1) under which the observed differences are most likely, false with
// no pairs. By Lagrange the optimum gives an observed value x the
// probability w/(1 + λ(x − mu)), w its observed frequency, with λ the
// root of Σ w(x − mu)/(1 + λ(x − mu)) = 0, which decreases in λ. λ must
// keep 1 + λ(x − mu) ≥ 0 at ±1 even when they were not observed
// (Karush–Kuhn–Tucker); when the root lies beyond that range, λ stops at
// its end and the missing probability goes to the unobserved extreme
// value, which adds nothing to the likelihood. With only ties observed
// and mu = δ this gives the ties 1 − δ and +1 the rest, δ.
func (n Pentanomial) fit(mu float64) (p [5]float64, ok bool) {
	var total int64
	for _, c := range n {
		total += c
	}
	if total == 0 {
		return p, false
	}
	var w, x [5]float64
	for k, c := range n {
		w[k] = float64(c) / float64(total)
		x[k] = float64(k-2)/2 - mu
	}
	f := func(l float64) float64 {
		s := 0.0
		for k := range w {
			if w[k] > 0 {
				s += w[k] * x[k] / (1 + l*x[k])
			}
		}
		return s
	}
	lo, hi := -1/(1-mu), 1/(1+mu)
	var l float64
	switch {
	case f(lo) <= 0:
		l = lo
	case f(hi) >= 0:
		l = hi
	default:
		for range 200 {
			m := (lo + hi) / 2
			if m == lo || m == hi {
				break
			}
			if f(m) > 0 {
				lo = m
			} else {
				hi = m
			}
		}
		l = (lo + hi) / 2
	}
	sum := 0.0
	for k := range w {
		if w[k] > 0 {
			p[k] = w[k] / (1 + l*x[k])
			sum += p[k]
		}
	}
	// What the observed values leave goes to the extreme λ stopped at:
	// +1 at the lower end of its range, −1 at the upper.
	if rest := 1 - sum; rest > 0 {
		if l < 0 {
			p[4] += rest
		} else {
			p[0] += rest
		}
	}
	return p, true
}
