package sim

import (
	"fmt"
	"math"

	"tallywood/sim/stats"
)

// Statistic is what a sequential test measures of each paired seed.
type Statistic int8

const (
	// OnScore tests the paired score difference B − A (win 1, draw ½,
	// loss 0) as a fraction: 0.02 is 2 points of win rate.
	OnScore Statistic = iota
	// OnMargin tests the paired margin difference B − A in votes.
	OnMargin
)

// String is the statistic's name in the JSON and on the command line.
func (s Statistic) String() string {
	if s == OnMargin {
		return "margin"
	}
	return "score"
}

// MarshalText writes the statistic by its name, so a result's "on" reads
// "score" or "margin".
func (s Statistic) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a statistic's name, refusing any other word.
func (s *Statistic) UnmarshalText(b []byte) error {
	for _, v := range []Statistic{OnScore, OnMargin} {
		if string(b) == v.String() {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("sequential test on %q: not score or margin", b)
}

// Decision is the outcome of a sequential test (stats.Decision), with its
// name in the JSON.
type Decision stats.Decision

const (
	Undecided = Decision(stats.Undecided)
	// Easier: the three-outcome test found B easier than A by about Delta
	// or more.
	Easier = Decision(stats.Up)
	// Harder: the three-outcome test found B harder than A by about Delta
	// or more.
	Harder = Decision(stats.Down)
	// Within: the three-outcome test found B within ±Delta of A.
	Within = Decision(stats.Within)
	// NearerP0: the two-outcome test preferred P0 to P1.
	NearerP0 = Decision(stats.ForP0)
	// NearerP1: the two-outcome test preferred P1 to P0, which says B is
	// easier only when P1 is the larger and P0 at least 0
	// (SequentialVerdict): --sprt 0,-0.02 deciding for −2 points is not
	// "easier".
	NearerP1 = Decision(stats.ForP1)
)

// String is the decision's name in the JSON.
func (d Decision) String() string {
	switch d {
	case Easier:
		return "easier"
	case Harder:
		return "harder"
	case Within:
		return "within"
	case NearerP0:
		return "p0"
	case NearerP1:
		return "p1"
	}
	return "undecided"
}

// MarshalText writes the decision by its name, so a result's "decision"
// reads "easier", "harder", "within", "p0", "p1" or "undecided".
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a decision's name, refusing any other word.
func (d *Decision) UnmarshalText(b []byte) error {
	for _, v := range []Decision{Undecided, Easier, Harder, Within, NearerP0, NearerP1} {
		if string(b) == v.String() {
			*d = v
			return nil
		}
	}
	return fmt.Errorf("sequential decision %q: not easier, harder, within, p0, p1 or undecided", b)
}

// minMarginPairs is how many pairs the margin test plays before it may
// decide. Its likelihood treats the sum of the margin differences as
// normal, with the variance measured so far; when a change moves a few
// games by many votes, the first pairs may show none of them, and the
// test, seeing little variance and no difference, decided "within" early:
// with 5 % of seeds moved by +20 votes (mean δ = 1 vote, β = 0.05) in 27 %
// of runs at a minimum of 30 pairs. Over 200 pairs a
// change carried by one seed in twenty shows about ten times before any
// decision; a rarer one can still hide (TestMarginSequentialErrorRates
// measures both).
const minMarginPairs = 200

// Sequential is a sequential probability ratio test on paired games
// (stats.Sequential: Wald 1945, in one of two forms):
//
//   - Delta > 0: three outcomes with an indifference zone (Sobel & Wald
//     1949): one test of 0 against +Delta and one of 0 against −Delta, each
//     Wald's SPRT with error rates Alpha (deciding for ±Delta when the
//     difference is 0) and Beta (deciding for 0 when it is ±Delta). It stops
//     with Easier when the first decides for +Delta, Harder when the second
//     decides for −Delta, and Within once both have decided for 0.
//   - Delta = 0: one test of P0 against P1, stopping with NearerP0 or
//     NearerP1.
//
// The likelihood of a mean is the generalized one (GSPRT): for the score
// the five-point distribution of paired differences fitted by maximum
// likelihood under the mean (stats.Pentanomial); for the margin a normal
// model with the sample variance (stats.NormalLLR). Wald's bounds make
// Alpha and Beta approximate: the ratio overshoots the bounds by a whole
// pair, which with few discordant pairs is large
// (TestSequentialErrorRates and TestMarginSequentialErrorRates measure
// the rates).
type Sequential struct {
	On          Statistic
	Delta       float64
	P0, P1      float64
	Alpha, Beta float64
}

// test is s without what it measures.
func (s *Sequential) test() stats.Sequential {
	return stats.Sequential{Delta: s.Delta, P0: s.P0, P1: s.P1, Alpha: s.Alpha, Beta: s.Beta}
}

// Bounds returns the log-likelihood-ratio bounds of each one-sided test:
// at or below lower it decides for its null value, at or above upper for
// its alternative.
func (s *Sequential) Bounds() (lower, upper float64) { return s.test().Bounds() }

// Validate checks the test's parameters; the error is a
// *stats.ParamError naming the bad one.
func (s *Sequential) Validate() error {
	limit := 1.0 // a score difference lies in (−1, 1)
	if s.On == OnMargin {
		limit = math.Inf(1)
	}
	return s.test().Validate(limit)
}

// SeqState follows a Sequential test pair by pair.
type SeqState struct {
	test  *Sequential
	state *stats.SequentialState
}

// Start returns the state of the test before any pair.
func (s *Sequential) Start() *SeqState {
	return &SeqState{test: s, state: s.test().Start()}
}

// Update takes the pairs so far and returns the decision. A one-sided
// test that has decided keeps its decision (Sobel & Wald).
func (st *SeqState) Update(p *PairCounts) Decision {
	return Decision(st.state.Update(func(mu0, mu1 float64) float64 { return st.test.llr(p, mu0, mu1) }))
}

// Decision is the decision so far.
func (st *SeqState) Decision() Decision { return Decision(st.state.Decision()) }

// LLRs returns the current log-likelihood ratio of each one-sided test.
func (st *SeqState) LLRs() []float64 { return st.state.LLRs() }

// llr is the generalized log-likelihood ratio of mean mu1 against mu0 of
// the statistic s measures: 0 for the margin before minMarginPairs pairs.
func (s *Sequential) llr(p *PairCounts, mu0, mu1 float64) float64 {
	if s.On == OnMargin {
		if p.Games < minMarginPairs {
			return 0
		}
		return stats.NormalLLR(p.margins(), mu0, mu1)
	}
	return stats.Pentanomial(p.Pentanomial()).LLR(mu0, mu1)
}
