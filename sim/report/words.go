package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tallywood/sim"
)

// The sentences a result's text says about it.

// cellTitle names a cell of a comparison for a designer: the difficulty,
// policy and politician, "A → B" where the arms differ.
func cellTitle(c *sim.CompareCell) string {
	part := func(a, b string) string {
		if a == b {
			return a
		}
		return a + " → " + b
	}
	title := part(modeTitle(c.A.Mode), modeTitle(c.B.Mode)) + ", " + part(c.A.Policy, c.B.Policy)
	if c.A.Politician != "random" || c.B.Politician != "random" {
		title += ", " + part(c.A.Politician, c.B.Politician)
	}
	return title
}

// modeTitle is a difficulty capitalized, as a title starts.
func modeTitle(m string) string {
	if m == "" {
		return m
	}
	return strings.ToUpper(m[:1]) + m[1:]
}

// plainLine is a cell's answer in one sentence.
func plainLine(r *sim.CompareResult, c *sim.CompareCell) string {
	return fmt.Sprintf("%s vs %s: %s: %s, win rate %s → %s, score %s points [%s, %s], margin %+.1f votes [%+.1f, %+.1f]",
		r.B.Name, r.A.Name, cellTitle(c), c.Verdict, pct(c.A.WinRate), pct(c.B.WinRate),
		pointsText(c.ScoreDiff), pointsText(c.ScoreDiffCI95[0]), pointsText(c.ScoreDiffCI95[1]),
		c.MarginDiff, c.MarginDiffCI95[0], c.MarginDiffCI95[1])
}

// sequentialWords says in words what a sequential test decided.
func sequentialWords(s *sim.SequentialResult) string {
	unit := func(x float64) string {
		if s.On == sim.OnMargin && math.Abs(x) == 1 {
			return fmt.Sprintf("%+g vote", x)
		}
		if s.On == sim.OnMargin {
			return fmt.Sprintf("%+g votes", x)
		}
		return fmt.Sprintf("%+g points", 100*x)
	}
	zone := strings.TrimPrefix(unit(s.Delta), "+")
	var what string
	if s.Delta > 0 {
		switch s.Decision {
		case sim.Easier:
			what = fmt.Sprintf("B is easier: a difference of %s fits the games better than none", unit(s.Delta))
		case sim.Harder:
			what = fmt.Sprintf("B is harder: a difference of %s fits the games better than none", unit(-s.Delta))
		case sim.Within:
			what = fmt.Sprintf("B is within ±%s of A: no difference fits the games better than ±%s", zone, zone)
		default:
			what = "undecided: the games ran out first"
		}
		return fmt.Sprintf("sequential test on the %s, zone ±%s, α = %g, β = %g: %s (after %d pairs)", s.On, zone, s.Alpha, s.Beta, what, s.Games)
	}
	switch s.Decision {
	case sim.Easier:
		what = fmt.Sprintf("decided for %s over %s", unit(s.P1), unit(s.P0))
	case sim.NearerP0:
		what = fmt.Sprintf("decided for %s over %s (only that: not that nothing changed)", unit(s.P0), unit(s.P1))
	default:
		what = "undecided: the games ran out first"
	}
	return fmt.Sprintf("sequential test on the %s of %s against %s, α = %g, β = %g: %s (after %d pairs)", s.On, unit(s.P0), unit(s.P1), s.Alpha, s.Beta, what, s.Games)
}

// crossingWords says where a sweep cell's win rate crosses the target.
func crossingWords(c *sim.Crossing, target float64, param string) string {
	end := func(x *float64, beyond string) string {
		if x == nil {
			return beyond
		}
		return strconv.FormatFloat(*x, 'f', 2, 64)
	}
	if c.Value == nil {
		return fmt.Sprintf("the win rate does not cross %s within the swept values of %s (interval %s to %s)",
			pct(target), param, end(c.Lo, "below them"), end(c.Hi, "above them"))
	}
	s := fmt.Sprintf("the win rate crosses %s at %s = %.2f [%s, %s]", pct(target), param, *c.Value,
		end(c.Lo, "below the swept values"), end(c.Hi, "above the swept values"))
	if c.Multiple {
		s += " (first of several crossings)"
	}
	return s
}
