package sim

import (
	"fmt"

	"tallywood/sim/stats"
)

// Verdict is a cell's answer, B against A for the player: the renderers
// switch on it. Its text (MarshalText, String) is its name in the JSON,
// which files keep whatever the outputs say; the words a person reads are
// sim/report's.
type Verdict int8

const (
	// NoClearDifference: the fixed-size rule (FixedVerdicts) found
	// neither the score nor the margin different at its level.
	NoClearDifference Verdict = iota
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
	// InZone: the three-answer sequential test decided that the difference
	// it measured lies within its zone ±Delta.
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
	NoClearDifference: "no clear difference",
	ScoreEasier:       "easier",
	ScoreHarder:       "harder",
	MarginHigher:      "higher margin only",
	MarginLower:       "lower margin only",
	InZone:            "within",
	ForP0:             "p0",
	ForP1:             "p1",
	NotDecided:        "undecided",
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

// UnmarshalText reads a verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, w := range verdictNames {
		if w == string(b) {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("sim: %q is not a verdict", b)
}

// VerdictLevel is the level of the fixed-size rule: with no difference in
// any cell, the chance that any cell's verdict is anything but "no clear
// difference" is at most 5 %.
const VerdictLevel = 0.05

// Verdicts are the verdicts of the fixed-size rule over a comparison's
// cells.
type Verdicts struct {
	Level      float64 // the family's level (VerdictLevel)
	Tests      int     // hypotheses tested: a score and a margin per cell
	Confidence float64 // of each interval: 1 − Level/Tests
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
// for every cell (pairs[i] are cell i's paired games). The family is
// everything it tests: no score difference and no margin difference in
// each cell, 2·cells hypotheses. Each is tested by the paired t-test at
// level/(2·cells) (Bonferroni), so with no difference anywhere the chance
// of any verdict but "no clear difference" is at most level, however the
// score and the margin move together and however the cells are related;
// each difference's printed interval is the matching simultaneous one
// (confidence 1 − level/(2·cells)), and a verdict rests on an interval
// that excludes 0. Holm's step-down would reject a little more, but
// without intervals to show for it: the interval next to a verdict would
// then include 0 when Holm rejects and Bonferroni does not.
//
// A cell is ScoreEasier or ScoreHarder when its score difference is
// rejected (the sign of the estimate says which), else MarginHigher or
// MarginLower when only its margin difference is, else
// NoClearDifference.
func FixedVerdicts(pairs []PairCounts, level float64) Verdicts {
	tests := 2 * len(pairs)
	v := Verdicts{Level: level, Tests: tests, Confidence: 1 - stats.BonferroniLevel(level, tests), Cells: make([]CellVerdict, len(pairs))}
	family := make([]stats.Moments, 0, tests)
	for i := range pairs {
		family = append(family, pairs[i].scoreHalves(), pairs[i].margins())
	}
	t := stats.MeanTests(family, level)
	for i := range pairs {
		c := &v.Cells[i]
		c.Score, c.Margin = t[2*i], t[2*i+1]
		// In halves of a point: halve back to the score's unit.
		c.Score.Mean /= 2
		c.Score.CI = stats.Interval{Lo: c.Score.CI.Lo / 2, Hi: c.Score.CI.Hi / 2}
		switch {
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
