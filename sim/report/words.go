package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tallywood/sim"
)

// The sentences that the text and the page both say of a result, each
// written once so that they say it in the same words (issue 21: a cell's
// title and answer were written twice, differently).

// CellTitle names a cell for a designer, as every output titles it: its
// difficulty, policy and politician (left out when drawn per game, the
// default), "A → B" for each that arms a and b of a comparison play
// differently. A cell of one arm is its own b.
func CellTitle(a, b *sim.Cell) string {
	part := func(a, b string) string {
		if a == b {
			return a
		}
		return a + " → " + b
	}
	title := part(capitalize(a.Mode), capitalize(b.Mode)) + ", " + part(a.Policy, b.Policy)
	if a.Politician != "random" || b.Politician != "random" {
		title += ", " + part(a.Politician, b.Politician)
	}
	return title
}

// capitalize is s with its first letter in upper case, as a title or a
// sentence starts.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence is a clause of the text (which lists them, one a line) as the
// page writes it: capitalized, with a full stop.
func sentence(s string) string { return capitalize(s) + "." }

// plainLine is a comparison cell's answer in one sentence: the text's
// line in words and the page's list item.
func plainLine(r *sim.CompareResult, c *sim.CompareCell) string {
	return fmt.Sprintf("%s vs %s: %s: %s, win rate %s → %s, score %s points [%s, %s], margin %+.1f votes [%+.1f, %+.1f]",
		r.B.Name, r.A.Name, CellTitle(&c.A, &c.B), c.Verdict, pct(c.A.WinRate), pct(c.B.WinRate),
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

// firstSeatWords says a study's first-seat advantage.
func firstSeatWords(r *sim.SeatsResult) string {
	return fmt.Sprintf("First-seat advantage: %s points [%s, %s] (the score of the player holding Initiative 1 at the start, minus the fair %s).",
		pointsText(r.FirstSeatAdvantage), pointsText(r.FirstSeatAdvantageCI95[0]), pointsText(r.FirstSeatAdvantageCI95[1]), pct(1/float64(r.Players)))
}

// firstSeatDiffWords says the first-seat advantage under each arm of a
// comparison at a table, and B − A.
func firstSeatDiffWords(r *sim.SeatsCompareResult) string {
	return fmt.Sprintf("First-seat advantage: A %s, B %s points; B − A %s [%s, %s].",
		pointsText(r.FirstSeatAdvantage[0]), pointsText(r.FirstSeatAdvantage[1]),
		pointsText(r.FirstSeatAdvantageDiff), pointsText(r.FirstSeatDiffCI95[0]), pointsText(r.FirstSeatDiffCI95[1]))
}

// heldWords says how many games (or deals: unit) per cell (per: "per
// cell", "" for a study counted whole) a result holds of the study's
// total, naming the shards it holds: "10000 games per cell" for a whole
// run, "200 of 800 games per cell (shards 3+5/8)" for a merge of some
// shards (issue 23: such a merge said "800 games per cell" of cells of
// 200). Every kind's header can say it so.
func heldWords(held, total int64, unit, per, shard string) string {
	if per != "" {
		unit += " " + per
	}
	if shard == "" {
		return fmt.Sprintf("%d %s", total, unit)
	}
	shards := "shard"
	if strings.Contains(shard, "+") {
		shards = "shards"
	}
	return fmt.Sprintf("%d of %d %s (%s %s)", held, total, unit, shards, shard)
}
