package report

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// The sentences that the text and the page both say of a result, each
// written once so that they say it in the same words.

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
	title := part(capitalize(a.Mode), capitalize(b.Mode)) + ", " + part(playerName(a.Policy), playerName(b.Policy))
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

// verdictWords are the verdicts as the text and the page say them. They
// are not the verdicts' names in the JSON (sim.Verdict's MarshalText),
// though most are the same word: a file keeps its names whatever the
// outputs say.
var verdictWords = map[sim.Verdict]string{
	sim.NotEnoughGames: "not enough games",
	sim.ScoreEasier:    "easier",
	sim.ScoreHarder:    "harder",
	sim.MarginHigher:   "higher margin only",
	sim.MarginLower:    "lower margin only",
	sim.InZone:         "within",
	sim.ForP0:          "p0",
	sim.ForP1:          "p1",
	sim.NotDecided:     "undecided",
}

// toleranceText writes a designer's tolerance (a fraction of score or
// of win rate) as the outputs state it: "±2 points".
func toleranceText(tol float64) string {
	return "±" + strconv.FormatFloat(100*tol, 'g', 4, 64) + " points"
}

// settleText says about how many games would settle an answer: "about
// 12000 games", or, at the cap (sim.MaxGames: no fresh run up to it
// would settle it with the promised chance), more than the cap. The
// sizing counts the first run's uncertainty, so an estimate on a
// tolerance's edge gets a number too.
func settleText(n int64, unit string) string {
	if n >= sim.MaxGames {
		return fmt.Sprintf("more than %d %s", sim.MaxGames, unit)
	}
	return fmt.Sprintf("about %d %s", n, unit)
}

// percentText writes a level or a confidence in percent, to four
// significant digits: 5%, 97.5%, 99.38%.
func percentText(x float64) string { return strconv.FormatFloat(100*x, 'g', 4, 64) + "%" }

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

// heldWords says how many games (or deals: unit) per cell (per: "per
// cell", "" for a study counted whole) a result holds of the study's
// total, naming the shards it holds: "10000 games per cell" for a whole
// run, "200 of 800 games per cell (shards 3+5/8)" for a merge of some
// shards, not "800 games per cell" of cells of 200. Every kind's header
// can say it so.
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
		return c.A.Mode + "/" + playerName(c.A.Policy) + "/" + c.A.Politician
	}
	return CellTitle(c.A, c.B)
}

// maxPlayerName is the most characters a player's name takes in a table
// or a title: a longer one (an exec command line) is cut, and the
// players' legend gives it whole.
const maxPlayerName = 24

// playerName is the one name a player has in every table and title: a
// skill level's name when its policy is a level's, however it was given
// ("greedy" is casual), else its spec, cut in the middle to
// maxPlayerName characters with "…", keeping its end, where two exec
// commands tend to differ (playersLegend says what each name is).
func playerName(label string) string {
	label = levelName(label)
	if r := []rune(label); len(r) > maxPlayerName {
		head := (maxPlayerName - 1) / 2
		return string(r[:head]) + "…" + string(r[len(r)-(maxPlayerName-1-head):])
	}
	return label
}

// levelName is a player's name in a CSV column, whole: a skill level's
// name when its policy is a level's ("greedy" is casual), else its spec,
// so that every output names a level one way (issue 42).
func levelName(label string) string {
	for _, lv := range policy.Levels {
		if label == lv.Name || label == lv.Spec {
			return lv.Name
		}
	}
	return label
}

// playerSpec is the spec a player's name stands for where it differs
// from the name: a level's policy ("greedy" for casual), or the whole
// spec of a name cut short; "" otherwise.
func playerSpec(label string) string {
	name := playerName(label)
	for _, lv := range policy.Levels {
		if name == lv.Name {
			return lv.Spec
		}
	}
	if name != label {
		return label
	}
	return ""
}

// playersLegend names each player of labels with the spec its name
// stands for, "casual (greedy), skilled (learned)", or "" when every name
// is its spec.
func playersLegend(labels []string) string {
	var parts []string
	seen := map[string]bool{}
	for _, l := range labels {
		name := playerName(l)
		if seen[name] {
			continue
		}
		seen[name] = true
		if spec := playerSpec(l); spec != "" {
			parts = append(parts, name+" ("+spec+")")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "players: " + strings.Join(parts, ", ")
}

// politicianName is a cell's politician in a table: "drawn" for one drawn
// at random per game (so that a "random" politician is not read as the
// random player's), else its id.
func politicianName(p string) string {
	if p == "random" {
		return "drawn"
	}
	return p
}

// rulesDifferences say what arm b's rules differ in from a's, a line a
// field (changes: engine.Diff, as the result records it).
func rulesDifferences(changes []engine.Difference, a, b *sim.ArmInfo) []string {
	var out []string
	for _, d := range changes {
		out = append(out, fmt.Sprintf("%s: %s → %s", d.Path, jsonWords(d.A), jsonWords(d.B)))
	}
	if changes == nil && a.RulesHash != b.RulesHash {
		out = append(out, fmt.Sprintf("rules %s → %s (a result of an older tallywood: it does not list the fields)",
			engine.ShortHash(a.RulesHash), engine.ShortHash(b.RulesHash)))
	}
	return out
}

// jsonWords writes a value of a rules file for a person: a string without
// its quotes, "(none)" for an element one side lacks, else its JSON.
func jsonWords(v string) string {
	var s string
	switch {
	case v == "":
		return "(none)"
	case json.Unmarshal([]byte(v), &s) == nil:
		return s
	}
	return v
}
