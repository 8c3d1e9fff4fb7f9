package sim

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

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
// says of target ± tol, with about how many games a fresh run would take
// to settle it when it cannot tell (bandAnswer).
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
	return bandAnswer(ci, m.Mean()/2, spreadOf(math.Sqrt(m.Variance())/2, m.N), m.N, alpha, target, tol)
}

// bandAnswer is what ci says of target ± tol, and, when it cannot tell,
// about how many observations of spread sd a fresh run would take to
// settle it (its interval at level alpha inside the band or wholly beyond
// it) with a chance of settlePower, predicted from the estimate est of
// the n made (none when n is 0): the fresh estimate is spread about est
// by both runs, se² + sd²/games (the predictive spread; settleSize).
// Not gamesToSettle's sizing over an interval: a truth at an edge never
// settles, and the interval of an unsettled answer holds an edge. So
// near an edge the promise is weaker: 1 point beyond it, after 300
// games, fresh runs settled in 73–83 % of chances (the plug-in's, as if
// est were the truth: 52–62 %); 1.5 points beyond it or inside the band,
// in at least 83 % (TestSettleCalibration).
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
	se, z := sd/math.Sqrt(float64(n)), distuv.UnitNormal.Quantile(1-alpha/2)
	return TargetUnsettled, settleSize(func(games float64) float64 {
		h := z * sd / math.Sqrt(games)
		return chanceAbsBetween(est-target, math.Sqrt(se*se+sd*sd/games), tol-h, tol+h)
	})
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
// settle an answer: the chance, predicted from the run made, that a fresh
// run of that many games settles it.
const settlePower = 0.8

// settleSize is the fewest games n (observations: games or pairs) with
// which a fresh run settles an answer with a chance of at least
// settlePower, where unsettled(n) is the chance that a fresh run of n
// leaves it unsettled, as predicted from the run made: MaxGames when none
// up to it does. The chance is not quite monotone in n (the interval
// narrows as the fresh estimate's spread shrinks), so the search doubles
// n until it settles, then halves the last step: n settles, n − 1 may
// not.
func settleSize(unsettled func(n float64) float64) int64 {
	fails := func(n float64) bool { return unsettled(n) > 1-settlePower }
	if fails(MaxGames) {
		return MaxGames
	}
	lo, hi := 0.0, 1.0 // a run of lo games fails, one of hi settles
	for fails(hi) {
		lo, hi = hi, min(2*hi, MaxGames)
	}
	for hi-lo > 1 {
		mid := math.Floor((lo + hi) / 2)
		if fails(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int64(hi)
}

// chanceAbsBetween is the chance that |Y| lies within [a, b], Y normal
// with mean mu and spread s > 0: 0 when the range is empty.
func chanceAbsBetween(mu, s, a, b float64) float64 {
	a = max(a, 0)
	if b <= a {
		return 0
	}
	cdf := distuv.UnitNormal.CDF
	return cdf((b-mu)/s) - cdf((a-mu)/s) + cdf((b+mu)/s) - cdf((a+mu)/s)
}

// spreadOf is the spread sd of one of n observations, but never 0: a
// spread of 0 measured (every pair alike) is taken as that of half a pair
// in n differing by a whole point, which the next pairs may well show.
func spreadOf(sd float64, n int64) float64 {
	return max(sd, math.Sqrt(0.5/float64(max(n, 1))))
}

// settleInterval is the level of the interval of a first run's
// difference over which gamesToSettle sizes a fresh run: every difference
// in its 80 % interval. Chosen on TestSettleCalibration's cases (PCG
// stream 14013): over an 80 % interval fresh runs settled in at least
// 92.6 % of chances after 300 pairs, over a 50 % interval in as few as
// 78 %, over a 95 % one in at least 98 % (more games than it takes); on
// stream 14014, which no choice used, in at least 93.5 %.
const settleInterval = 0.2

// gamesToSettle is about how many games a fresh run would take to settle
// an answer at level alpha on a difference, to exclude 0 or to lie within
// ±tol, with a chance of at least settlePower: predicted from the run
// made, whose estimate mean has the standard error se, and whose games'
// differences have the spread sd. Sized as if mean were the truth (the
// plug-in, raceSettle), the promise failed after small first runs, which
// overstate a difference as often as they understate it (issue 42:
// 53–66 % after 300 pairs); sized under the predictive spread of a fresh
// estimate, se² + sd²/n, it failed where the truth lies within the
// tolerance (48 % at 0 on the normalhard table), since that spread counts
// on whichever way of settling its mass reaches, while the truth allows
// one. So it is the plug-in size at the difference hardest to settle
// among those in the first run's interval at settleInterval: the one
// nearest ±tol/2, where both ways need the most (half the tolerance
// each), at most SampleSize(sd, tol/2), whatever the first run. At most
// MaxGames.
func gamesToSettle(mean, se, sd, alpha, tol float64) int64 {
	z := distuv.UnitNormal.Quantile(1 - settleInterval/2)
	lo, hi := mean-z*se, mean+z*se
	// near, far: the least and the greatest |difference| in the interval.
	near, far := min(math.Abs(lo), math.Abs(hi)), max(math.Abs(lo), math.Abs(hi))
	if lo <= 0 && hi >= 0 {
		near = 0
	}
	gap := tol / 2
	switch {
	case far < tol/2: // within: the largest is hardest
		gap = tol - far
	case near > tol/2: // excludes 0: the smallest is hardest
		gap = near
	}
	return int64(min(stats.SampleSize(sd, gap, alpha, 1-settlePower), MaxGames))
}

// pairsToSettle is gamesToSettle for the paired score differences p: the
// pairs a fresh run would take.
func pairsToSettle(p *PairCounts, alpha, tol float64) int64 {
	m := p.scoreHalves()
	sd := spreadOf(math.Sqrt(m.Variance())/2, m.N)
	return gamesToSettle(m.Mean()/2, sd/math.Sqrt(float64(max(m.N, 1))), sd, alpha, tol)
}

// raceSettle is the race's guess at the pairs that would settle a change
// with the pairs p, for its stopping rule (hopeless): the plug-in size,
// with a chance of settlePower if the difference and its spread were as
// measured, to exclude 0 or to lie within ±tol, whichever needs fewer
// (stats.SampleSize); at most MaxGames. It is a heuristic whose decisions
// were measured (TestNegligibleCalibration, TestScanOnRealSizes), not the
// promise a report makes (pairsToSettle): after small runs it
// understates the games it takes.
func raceSettle(p *PairCounts, alpha, tol float64) int64 {
	m := p.scoreHalves()
	mean, sd := m.Mean()/2, math.Sqrt(m.Variance())/2
	n := min(stats.SampleSize(sd, math.Abs(mean), alpha, 1-settlePower), stats.SampleSize(sd, tol-math.Abs(mean), alpha, 1-settlePower))
	return int64(min(n, MaxGames))
}
