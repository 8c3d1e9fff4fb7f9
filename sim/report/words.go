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
// line in words and the page's list item. Its intervals are the
// simultaneous ones the fixed-size rule decides by (ruleWords says so),
// never the 95 % ones, which can exclude 0 next to "no clear difference".
func plainLine(r *sim.CompareResult, c *sim.CompareCell) string {
	return fmt.Sprintf("%s vs %s: %s: %s, win rate %s → %s, score %s points [%s, %s], margin %+.1f votes [%+.1f, %+.1f]",
		r.B.Name, r.A.Name, CellTitle(&c.A, &c.B), verdictText(c), pct(c.A.WinRate), pct(c.B.WinRate),
		pointsText(c.ScoreDiff), pointsText(c.ScoreDiffCI[0]), pointsText(c.ScoreDiffCI[1]),
		c.MarginDiff, c.MarginDiffCI[0], c.MarginDiffCI[1])
}

// verdictWords are the verdicts as the text and the page say them. They
// are not the verdicts' names in the JSON (sim.Verdict's MarshalText),
// though most are the same word: a file keeps its names whatever the
// outputs say.
var verdictWords = map[sim.Verdict]string{
	sim.NoClearDifference: "no clear difference",
	sim.ScoreEasier:       "easier",
	sim.ScoreHarder:       "harder",
	sim.MarginHigher:      "higher margin only",
	sim.MarginLower:       "lower margin only",
	sim.InZone:            "within",
	sim.ForP0:             "p0",
	sim.ForP1:             "p1",
	sim.NotDecided:        "undecided",
}

// decisionWords are a sequential test's decisions as the page's table
// says them.
var decisionWords = map[sim.Decision]string{
	sim.Undecided: "undecided",
	sim.Easier:    "easier",
	sim.Harder:    "harder",
	sim.Within:    "within",
	sim.NearerP0:  "p0",
	sim.NearerP1:  "p1",
}

// statisticWords name what a sequential test measures, in a sentence or
// a table.
var statisticWords = map[sim.Statistic]string{sim.OnScore: "score", sim.OnMargin: "margin"}

// verdictText is a cell's verdict in words: its word, and after a
// sequential test's verdict "(sequential test)", with the zone or the
// values a terse word stands for.
func verdictText(c *sim.CompareCell) string {
	s := c.Sequential
	if s == nil {
		return verdictWords[c.Verdict]
	}
	w := verdictWords[c.Verdict]
	switch c.Verdict {
	case sim.InZone:
		w = "within ±" + strings.TrimPrefix(seqUnit(s, s.Delta), "+")
	case sim.ForP0:
		w = fmt.Sprintf("p0: nearer %s than %s", seqUnit(s, s.P0), seqUnit(s, s.P1))
	case sim.ForP1:
		w = fmt.Sprintf("p1: nearer %s than %s", seqUnit(s, s.P1), seqUnit(s, s.P0))
	}
	return w + " (sequential test)"
}

// stoppedWords label every estimate of a cell whose sequential test
// stopped it: the test stops when the data happen to look decisive, so
// the estimates lean toward the decision and the 95 % intervals cover
// less than 95 %.
const stoppedWords = "biased by the stop: the estimates lean toward the decision and the intervals cover less than 95%; confirm with a fixed --games run on a fresh --seed"

// testStopped reports whether a cell's sequential test stopped it, which
// biases its estimates (stoppedWords).
func testStopped(s *sim.SequentialResult) bool { return s != nil && s.Decision != sim.Undecided }

// ruleWords states the rule a comparison's verdicts follow, once, as the
// text's heading of its lines in words and the page's note say it.
func ruleWords(r *sim.CompareResult) string {
	level := percentText(r.VerdictLevel)
	s := fmt.Sprintf("verdicts at the %s level over all %d tests, a score and a margin per cell: "+
		"with no difference anywhere, the chance that any cell's verdict is not %q is at most %s; intervals simultaneous at %s",
		level, r.Tests, verdictWords[sim.NoClearDifference], level, percentText(r.Confidence))
	for i := range r.Cells {
		if q := r.Cells[i].Sequential; q != nil {
			s += fmt.Sprintf("; a cell with a sequential test takes its verdict from that test instead, "+
				"at α = %g over all the cells", q.Alpha)
			break
		}
	}
	return s
}

// percentText writes a level or a confidence in percent, to four
// significant digits: 5%, 97.5%, 99.38%.
func percentText(x float64) string { return strconv.FormatFloat(100*x, 'g', 4, 64) + "%" }

// seqUnit writes a difference on the scale of sequential test s: votes
// or points.
func seqUnit(s *sim.SequentialResult, x float64) string {
	if s.On == sim.OnMargin && math.Abs(x) == 1 {
		return fmt.Sprintf("%+g vote", x)
	}
	if s.On == sim.OnMargin {
		return fmt.Sprintf("%+g votes", x)
	}
	return fmt.Sprintf("%+g points", 100*x)
}

// sequentialWords says in words what a sequential test decided.
func sequentialWords(s *sim.SequentialResult) string {
	unit := func(x float64) string { return seqUnit(s, x) }
	zone := strings.TrimPrefix(unit(s.Delta), "+")
	alpha := fmt.Sprintf("α = %g", s.Alpha)
	if s.AlphaEach != s.Alpha {
		alpha += fmt.Sprintf(" (%g a one-sided test)", s.AlphaEach)
	}
	// On the margin the answer names the margin, as its verdict does
	// (higher or lower margin only): a higher margin is not "easier".
	up, down := "B is easier", "B is harder"
	if s.On == sim.OnMargin {
		up, down = "B's margin is higher", "B's margin is lower"
	}
	var what string
	if s.Delta > 0 {
		switch s.Decision {
		case sim.Easier:
			what = fmt.Sprintf("%s: a difference of %s fits the games better than none", up, unit(s.Delta))
		case sim.Harder:
			what = fmt.Sprintf("%s: a difference of %s fits the games better than none", down, unit(-s.Delta))
		case sim.Within:
			what = fmt.Sprintf("B is within ±%s of A: no difference fits the games better than ±%s", zone, zone)
		default:
			what = "undecided: the games ran out first"
		}
		return fmt.Sprintf("sequential test on the %s, zone ±%s, %s, β = %g: %s (after %d pairs)", statisticWords[s.On], zone, alpha, s.Beta, what, s.Games)
	}
	switch s.Decision {
	case sim.NearerP1:
		what = fmt.Sprintf("decided for %s over %s", unit(s.P1), unit(s.P0))
	case sim.NearerP0:
		what = fmt.Sprintf("decided for %s over %s (only that: not that nothing changed)", unit(s.P0), unit(s.P1))
	default:
		what = "undecided: the games ran out first"
	}
	return fmt.Sprintf("sequential test on the %s of %s against %s, %s, β = %g: %s (after %d pairs)", statisticWords[s.On], unit(s.P0), unit(s.P1), alpha, s.Beta, what, s.Games)
}

// crossingMethod says how a sweep finds a crossing (sim's simultaneous
// and crossing), printed with every crossing.
const crossingMethod = "each swept value's win rate has a Wilson interval of confidence 1 − 0.05/k, " +
	"k the number of swept values (Bonferroni), so that all k hold at once with 95% confidence: " +
	"a designer reads every value, so each must be right together. " +
	"The target is met at the values whose interval contains it, and between two adjacent values " +
	"whose intervals lie on either side of it. If the win rate is monotone in the parameter, " +
	"the setting that gives the target lies between the nearest values below and above (95%); " +
	"nothing is assumed between swept values, and only values a rules file can hold are named"

// crossingWords says where a sweep cell's win rate meets the target, in
// swept values with their simultaneous intervals, or which way to sweep
// when it meets it nowhere.
func crossingWords(r *sim.SweepResult, c *sim.SweepCell) string {
	x, param, target := c.Crossing, r.Params[0], pct(r.Target)
	at := map[string]*sim.SweepPointResult{}
	for j := range c.Points {
		at[c.Points[j].Values[0]] = &c.Points[j]
	}
	value := func(v string) string {
		p := at[v]
		base := ""
		if p.IsBase {
			base = "the base: "
		}
		ci := p.WinCISimultaneous
		return fmt.Sprintf("%s (%s%s [%s, %s])", v, base, pct(p.Result.WinRate), pct(ci[0]), pct(ci[1]))
	}
	nearest := func(v *string, way string) string {
		if v == nil {
			return "none (sweep " + way + ")"
		}
		return value(*v)
	}
	if len(x.Regions) == 0 {
		sweep := "sweep " + param + " " + x.Sweep
		if x.Sweep == "" {
			sweep = "it does not change from the first value to the last: sweep " + param + " wider"
		}
		return fmt.Sprintf("the win rate is %s the target %s at every swept value of %s (by its simultaneous 95%% interval): %s",
			x.Side, target, param, sweep)
	}
	parts := make([]string, len(x.Regions))
	for k, g := range x.Regions {
		if len(g.Values) == 0 {
			parts[k] = fmt.Sprintf("it passes %s between %s and %s, %s", target, value(*g.Below), value(*g.Above), between(*g.Below, *g.Above))
			continue
		}
		vs := make([]string, len(g.Values))
		for i, v := range g.Values {
			vs[i] = value(v)
		}
		parts[k] = fmt.Sprintf("values whose simultaneous 95%% interval contains %s: %s; nearest below: %s, nearest above: %s",
			target, strings.Join(vs, ", "), nearest(g.Below, "lower"), nearest(g.Above, "higher"))
	}
	if !x.Multiple && len(x.Regions[0].Values) == 0 {
		return "the win rate at " + param + " " + strings.TrimPrefix(parts[0], "it ")
	}
	if !x.Multiple {
		return "the win rate meets " + target + " at " + param + ": " + parts[0]
	}
	for k := range parts {
		parts[k] = fmt.Sprintf("(%d) %s", k+1, parts[k])
	}
	return fmt.Sprintf("the win rate may meet %s at %s in %d places: %s", target, param, len(parts), strings.Join(parts, "; "))
}

// between says what lies between two adjacent swept values: nothing a
// rules file can hold when they are consecutive whole numbers (every
// numeric rules parameter is one), else values not swept.
func between(lo, hi string) string {
	a, errA := strconv.Atoi(lo)
	b, errB := strconv.Atoi(hi)
	if errA == nil && errB == nil && (b-a == 1 || a-b == 1) {
		return "and no whole number lies between: no setting of this parameter alone gives it"
	}
	return "with no swept value between: sweep between them"
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

// Failures says, a line each, which items of s failed (played, never
// scored) and how many more did than s lists: what a command prints on
// stderr after its run.
func Failures(s sim.Study) []string {
	var lines []string
	for _, c := range s.FailedItems() {
		for _, f := range c.Failures {
			lines = append(lines, fmt.Sprintf("%s %d failed, not scored: %s", c.Unit, f.Game, f.Error))
		}
		if n := c.Errors - int64(len(c.Failures)); n > 0 {
			lines = append(lines, fmt.Sprintf("and %d more failed %ss of %s", n, c.Unit, failedCell(c)))
		}
	}
	return lines
}

// failedCell names the cell of failed items: mode/policy/politician, a
// comparison's title, or the whole study.
func failedCell(c sim.FailedItems) string {
	switch {
	case c.A == nil:
		return "the study"
	case c.B == nil:
		return c.A.Mode + "/" + c.A.Policy + "/" + c.A.Politician
	}
	return CellTitle(c.A, c.B)
}
