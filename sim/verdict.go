package sim

import (
	"fmt"
	"math"

	"tallywood/sim/stats"
)

// Verdict is a cell's answer, B against A for the player: the renderers
// switch on it. Its text (MarshalText, String) is its name in the JSON,
// which files keep whatever the outputs say; the words a person reads are
// sim/report's.
type Verdict int8

const (
	// NotEnoughGames: the games played cannot tell: the difference is
	// neither shown different from none nor shown within the tolerance
	// (the fixed-size rule, FixedVerdicts, found neither the score nor the
	// margin different and the score not within the tolerance). Files
	// before the tolerance named it "no clear difference", which still
	// reads as it.
	NotEnoughGames Verdict = iota
	// ScoreEasier: B's score (win 1, draw ½) is higher than A's: the
	// fixed-size rule rejected no score difference with a positive
	// estimate, or a sequential test on the score decided for a positive
	// difference against none (or against a smaller one).
	ScoreEasier
	// ScoreHarder is ScoreEasier the other way.
	ScoreHarder
	// MarginHigher: B's margin (votes minus the Opposition's) is higher,
	// and the score shows no clear difference (fixed-size rule), or the
	// sequential test measured the margin. It does not say B is easier: a
	// change can raise the mean margin and still lose more games (closer
	// losses, fewer narrow wins), so a margin finding is never called
	// "easier".
	MarginHigher
	// MarginLower is MarginHigher the other way.
	MarginLower
	// InZone: the difference lies within the tolerance: the
	// three-answer sequential test decided that the difference it measured
	// lies within its zone ±Delta, or the interval a fixed-size verdict
	// reads lies inside ±the tolerance (two one-sided tests, Schuirmann
	// 1987).
	InZone
	// ForP0: the two-answer sequential test decided for P0 over P1, and
	// that says nothing about the direction of B against A (for example
	// 0 over +2 points: not "+2 points", which is not "no difference").
	ForP0
	// ForP1 is ForP0 for P1 (for example 0 over −2 points decided by
	// --sprt -0.02,0).
	ForP1
	// NotDecided: the sequential test ran out of games first.
	NotDecided
)

// verdictNames are the verdicts' names in the JSON.
var verdictNames = [...]string{
	NotEnoughGames: "not enough games",
	ScoreEasier:    "easier",
	ScoreHarder:    "harder",
	MarginHigher:   "higher margin only",
	MarginLower:    "lower margin only",
	InZone:         "within",
	ForP0:          "p0",
	ForP1:          "p1",
	NotDecided:     "undecided",
}

// String is the verdict's name in the JSON.
func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return fmt.Sprintf("Verdict(%d)", int8(v))
	}
	return verdictNames[v]
}

// MarshalText writes the verdict by its name.
func (v Verdict) MarshalText() ([]byte, error) {
	if v < 0 || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("sim: no verdict %d", int8(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText reads a verdict's name, and "no clear difference", the
// name results before the tolerance gave NotEnoughGames (a verdict is
// derived: derive recomputes it).
func (v *Verdict) UnmarshalText(b []byte) error {
	if string(b) == "no clear difference" {
		*v = NotEnoughGames
		return nil
	}
	for i, w := range verdictNames {
		if w == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("sim: %q is not a verdict", b)
}

// DefaultTolerance is a designer's tolerance when none is given: 2 points
// of score (or of win rate), within which a difference is close enough.
const DefaultTolerance = 0.02

// maxTolerance bounds a tolerance: half the range of a score difference
// or a win rate.
const maxTolerance = 0.5

// validTolerance reports whether tol is a tolerance: above 0 and at most
// maxTolerance.
func validTolerance(tol float64) bool { return tol > 0 && tol <= maxTolerance }

// CheckTolerance refuses a tolerance that is not above 0 and at most
// half the range of a score difference or a win rate.
func CheckTolerance(tol float64) error {
	if !validTolerance(tol) {
		return fmt.Errorf("%g is not above 0 and at most %g", tol, maxTolerance)
	}
	return nil
}

// TargetAnswer is what a win rate's interval says of a target within a
// tolerance: tune's "reached", sweep's "meets". Its text is its name in
// the JSON; the words a person reads are sim/report's.
type TargetAnswer int8

const (
	// TargetUnsettled: the interval reaches across an edge of the target
	// ± the tolerance: not enough games to tell.
	TargetUnsettled TargetAnswer = iota
	// TargetWithin: the interval lies within the target ± the tolerance.
	TargetWithin
	// TargetOutside: the interval lies wholly beyond the target ± the
	// tolerance: the rate is off by more than the tolerance.
	TargetOutside
)

var targetNames = [...]string{TargetUnsettled: "not enough games", TargetWithin: "within", TargetOutside: "outside"}

// String is the answer's name in the JSON.
func (a TargetAnswer) String() string {
	if a < 0 || int(a) >= len(targetNames) {
		return fmt.Sprintf("TargetAnswer(%d)", int8(a))
	}
	return targetNames[a]
}

// MarshalText writes the answer by its name.
func (a TargetAnswer) MarshalText() ([]byte, error) {
	if a < 0 || int(a) >= len(targetNames) {
		return nil, fmt.Errorf("sim: no target answer %d", int8(a))
	}
	return []byte(targetNames[a]), nil
}

// UnmarshalText reads an answer's name.
func (a *TargetAnswer) UnmarshalText(b []byte) error {
	for i, w := range targetNames {
		if w == string(b) {
			*a = TargetAnswer(i)
			return nil
		}
	}
	return fmt.Errorf("sim: %q is not a target answer", b)
}

// targetAnswer is what the interval ci of a win rate of wins in games
// says of target ± tol, with about how many games would settle it when it
// cannot tell (with a chance of settlePower, if the rate stays as
// measured, for an interval at level alpha).
func targetAnswer(ci stats.Interval, wins, games int64, alpha, target, tol float64) (TargetAnswer, int64) {
	if games == 0 {
		return bandAnswer(ci, 0, 0, 0, alpha, target, tol)
	}
	// A rate of 0 or 1 measured has a spread all the same.
	p := min(max(ratio(wins, games), 0.5/float64(games)), 1-0.5/float64(games))
	return bandAnswer(ci, p, math.Sqrt(p*(1-p)), games, alpha, target, tol)
}

// changeAnswer is targetAnswer for a change of the win rate measured in
// pairs (a relative target): ci is the interval of the paired
// differences of wins, whose mean and spread say how many pairs would
// settle it.
func changeAnswer(ci stats.Interval, pairs *PairCounts, alpha, target, tol float64) (TargetAnswer, int64) {
	m := stats.Pentanomial(pairs.winPentanomial()).Moments()
	return bandAnswer(ci, m.Mean()/2, math.Sqrt(m.Variance())/2, m.N, alpha, target, tol)
}

// bandAnswer is what ci says of target ± tol, and, when it cannot tell,
// about how many observations of spread sd would settle it if the
// estimate est stays as measured (none when n, the observations made, is
// 0).
func bandAnswer(ci stats.Interval, est, sd float64, n int64, alpha, target, tol float64) (TargetAnswer, int64) {
	switch ci.Against(target-tol, target+tol) {
	case stats.Inside:
		return TargetWithin, 0
	case stats.Outside:
		return TargetOutside, 0
	}
	if n == 0 {
		return TargetUnsettled, 0
	}
	need := stats.SampleSize(sd, math.Abs(tol-math.Abs(est-target)), alpha, 1-settlePower)
	return TargetUnsettled, int64(min(need, MaxGames))
}

// VerdictLevel is the level of the fixed-size rule: with no difference in
// any cell, the chance that any cell is called easier, harder, or higher
// or lower in margin is at most 5 %.
const VerdictLevel = 0.05

// Verdicts are the verdicts of the fixed-size rule over a comparison's
// cells.
type Verdicts struct {
	Level      float64 // the family's level (VerdictLevel)
	Tests      int     // hypotheses tested: a score and a margin per cell
	Confidence float64 // of each interval: 1 − Level/Tests
	Tolerance  float64 // of the score: within ±Tolerance is within
	Cells      []CellVerdict
}

// CellVerdict is one cell's verdict and the two tests it rests on: the
// score difference B − A in points of win rate (as a fraction), the margin
// difference in votes.
type CellVerdict struct {
	Verdict       Verdict
	Score, Margin stats.MeanTest
}

// FixedVerdicts is the decision rule of a comparison of fixed size, one
// for every cell (pairs[i] are cell i's paired games), with a tolerance
// tol on the score. The family is everything it tests: no score
// difference and no margin difference in each cell, 2·cells hypotheses,
// each tested at level/(2·cells) (Bonferroni): the score by its score test
// (stats.Pentanomial.FamilyTest, Wilson's for paired differences, which
// keeps its coverage when few pairs differ), the margin by the paired
// t-test. So with no difference anywhere the chance of any verdict but
// within or not enough games is at most level, however the score and the
// margin move together and however the cells are related; each
// difference's printed interval is the matching simultaneous one
// (confidence 1 − level/(2·cells)), and every verdict is read from it.
// Holm's step-down would reject a little more, but without intervals to
// show for it.
//
// A cell is InZone when its score interval lies inside ±tol: two
// one-sided tests that the difference is tol or more, each at
// level/(4·cells), so that the chance that any cell whose difference is
// tol or more is called within is at most level/2, and it gets likelier
// with more games when the difference is inside. Else it is ScoreEasier
// or ScoreHarder when its score difference is rejected (the sign of the
// estimate says which), else MarginHigher or MarginLower when only its
// margin difference is, else NotEnoughGames.
func FixedVerdicts(pairs []PairCounts, level, tol float64) Verdicts {
	tests := 2 * len(pairs)
	v := Verdicts{Level: level, Tests: tests, Confidence: 1 - stats.BonferroniLevel(level, tests), Tolerance: tol, Cells: make([]CellVerdict, len(pairs))}
	for i := range pairs {
		c := &v.Cells[i]
		c.Score = stats.Pentanomial(pairs[i].Pentanomial()).FamilyTest(level, tests)
		c.Margin = pairs[i].margins().FamilyTest(level, tests)
		switch {
		case c.Score.CI.Against(-tol, tol) == stats.Inside:
			c.Verdict = InZone
		case c.Score.Rejected && c.Score.Mean > 0:
			c.Verdict = ScoreEasier
		case c.Score.Rejected:
			c.Verdict = ScoreHarder
		case c.Margin.Rejected && c.Margin.Mean > 0:
			c.Verdict = MarginHigher
		case c.Margin.Rejected:
			c.Verdict = MarginLower
		}
	}
	return v
}

// ForCells returns the test each of cells cells runs so that, with no
// difference in any cell, the chance that any cell's sequential verdict
// is directional (ScoreEasier, ScoreHarder, MarginHigher, MarginLower) is
// at most s.Alpha, as the fixed-size rule's is at most its level: s.Alpha
// is split evenly (Bonferroni) over the cells and, for the three-answer
// test, over its two one-sided tests, each of which wrongly decides for
// its alternative with a chance of about its Alpha (Wald's
// approximation: see TestSequentialVerdictsFamily for measured rates).
func (s *Sequential) ForCells(cells int) *Sequential {
	t := *s
	t.Alpha = s.test().ForFamily(cells).Alpha
	return &t
}

// SequentialVerdict is the verdict of a cell whose sequential test t (the
// test the cell ran) came to decision d. The three-answer test's Easier
// and Harder decide for +Delta and −Delta against no difference. The
// two-answer test decides for one of P0 and P1 against the other: that
// says B is easier only when it decides for the larger and the other is
// at least 0 (with no difference it then decides so with a chance of at
// most about Alpha), harder only when it decides for the smaller and the
// other is at most 0, and otherwise only which of the two fits better
// (ForP0, ForP1). So --sprt 0,-0.02 deciding for −2 points is "harder",
// and --sprt 0,0.02 deciding for 0 is "p0", not "no difference". On the
// margin the directional verdicts are MarginHigher and MarginLower.
func SequentialVerdict(t *Sequential, d Decision) Verdict {
	up, down := ScoreEasier, ScoreHarder
	if t.On == OnMargin {
		up, down = MarginHigher, MarginLower
	}
	if t.Delta > 0 {
		switch d {
		case Easier:
			return up
		case Harder:
			return down
		case Within:
			return InZone
		}
		return NotDecided
	}
	var chosen, other float64
	var named Verdict
	switch d {
	case NearerP1:
		chosen, other, named = t.P1, t.P0, ForP1
	case NearerP0:
		chosen, other, named = t.P0, t.P1, ForP0
	default:
		return NotDecided
	}
	switch {
	case chosen > other && other >= 0:
		return up
	case chosen < other && other <= 0:
		return down
	}
	return named
}

// settlePower is the chance with which "the games it would take" would
// settle an answer, if the difference and its spread stay as measured.
const settlePower = 0.8

// gamesToSettle is about how many games in all an answer at level alpha
// would take to settle, with a chance of settlePower if the difference
// mean and its spread sd (of one game) stay as measured: to exclude 0, or
// to lie within ±tol, whichever needs fewer (stats.SampleSize). At most
// MaxGames.
func gamesToSettle(mean, sd, alpha, tol float64) int64 {
	n := min(stats.SampleSize(sd, math.Abs(mean), alpha, 1-settlePower), stats.SampleSize(sd, tol-math.Abs(mean), alpha, 1-settlePower))
	return int64(min(n, MaxGames))
}

// pairsToSettle is gamesToSettle for the paired score differences p.
func pairsToSettle(p *PairCounts, alpha, tol float64) int64 {
	m := p.scoreHalves()
	return gamesToSettle(m.Mean()/2, math.Sqrt(m.Variance())/2, alpha, tol)
}
