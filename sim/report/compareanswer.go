package report

import (
	"fmt"
	"math"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// The words that make a comparison read on its own: what B changes from
// A, the cells not played and why, each cell's answer in one sentence and
// how to read the intervals.

// differenceLines say what B differs from A in: the rules field by field
// (cards by id), then the difficulty, player and politician where the
// arms play them differently; "nothing that affects play" when nothing.
func differenceLines(r *sim.CompareResult) []string {
	out := rulesDifferences(r.Changes, &r.A, &r.B)
	if len(r.Cells) > 0 {
		a, b := &r.Cells[0].A, &r.Cells[0].B
		if a.Mode != b.Mode {
			out = append(out, fmt.Sprintf("difficulty: %s → %s", capitalize(a.Mode), capitalize(b.Mode)))
		}
		if playerName(a.Policy) != playerName(b.Policy) {
			out = append(out, fmt.Sprintf("player: %s → %s", playerName(a.Policy), playerName(b.Policy)))
		}
		if a.Politician != b.Politician {
			out = append(out, fmt.Sprintf("politician: %s → %s", politicianName(a.Politician), politicianName(b.Politician)))
		}
	}
	if len(out) == 0 {
		out = append(out, "nothing that affects play")
	}
	return out
}

// skipLines say which cells were not played and why, a line for the
// cells that cannot read the same fields.
func skipLines(r *sim.CompareResult) []string {
	var order []string
	cells := map[string][]string{}
	for _, sk := range r.Skipped {
		c := sim.Cell{}
		c.Mode, c.Policy, c.Politician = sk.Mode, sk.Policy, sk.Politician
		var why []string
		for _, p := range sk.Unread {
			if s, err := engine.ReadBy(p); err == nil {
				why = append(why, fmt.Sprintf("%s is read by %s", p, s.Who()))
			} else {
				why = append(why, p)
			}
		}
		key := strings.Join(why, "; ")
		if cells[key] == nil {
			order = append(order, key)
		}
		cells[key] = append(cells[key], CellTitle(&c, &c))
	}
	var out []string
	for _, why := range order {
		its, it := "its game reads", "it"
		if len(cells[why]) > 1 {
			its, it = "their games read", "them"
		}
		out = append(out, fmt.Sprintf("Not played: %s: %s none of the changes (%s), so every difference would be 0; "+
			"--play-unread plays %s", strings.Join(cells[why], "; "), its, why, it))
	}
	return out
}

// answerLine is a cell's answer in one sentence, in plain words, then its
// figures: "Hard is 6.1 points harder than Normal for a skilled player
// (win rate 50.2% → 45.3%, score -6.1 points [-7.9, -4.3], ...)". The
// sentence names the cell; the intervals are the verdict's (howToRead
// says what they are).
func answerLine(r *sim.CompareResult, c *sim.CompareCell) string {
	return fmt.Sprintf("%s (win rate %s → %s, score %s points [%s, %s], margin %+.1f votes [%+.1f, %+.1f])",
		answer(r, c), pct(c.A.WinRate), pct(c.B.WinRate),
		pointsText(c.ScoreDiff), pointsText(c.ScoreDiffCI[0]), pointsText(c.ScoreDiffCI[1]),
		c.MarginDiff, c.MarginDiffCI[0], c.MarginDiffCI[1])
}

// answer is the sentence of answerLine: the arms named by what they
// differ in, the cell by what they share, the verdict as a comparison.
func answer(r *sim.CompareResult, c *sim.CompareCell) string {
	A, B, where := armNames(r, &c.A, &c.B)
	at := ""
	if len(where) > 0 {
		at = " " + strings.Join(where, " ")
	}
	players := playerName(c.A.Policy) != playerName(c.B.Policy)
	pts := fmt.Sprintf("%.1f points", 100*math.Abs(c.ScoreDiff))
	votes := fmt.Sprintf("%.1f votes", math.Abs(c.MarginDiff))
	// Only the players differ: B's player scores more or less, which is
	// not the game being easier.
	onlyPlayers := players && A == playerName(c.A.Policy)
	if c.Sequential != nil {
		return fmt.Sprintf("%s against %s%s: %s", B, A, at, verdictText(r, c))
	}
	switch c.Verdict {
	case sim.ScoreEasier:
		if onlyPlayers {
			return fmt.Sprintf("%s scores %s more than %s%s", B, pts, A, at)
		}
		return fmt.Sprintf("%s is %s easier than %s%s", B, pts, A, at)
	case sim.ScoreHarder:
		if onlyPlayers {
			return fmt.Sprintf("%s scores %s less than %s%s", B, pts, A, at)
		}
		return fmt.Sprintf("%s is %s harder than %s%s", B, pts, A, at)
	case sim.InZone:
		return fmt.Sprintf("%s plays like %s%s: %s", B, A, at, verdictText(r, c))
	case sim.NotEnoughGames:
		return fmt.Sprintf("%s against %s%s: not enough games to tell; %s would settle it", B, A, at, settleText(c.GamesToSettle, "pairs"))
	case sim.MarginHigher:
		return fmt.Sprintf("%s against %s%s: the player's margin is %s higher, the score not clearly different (%s would settle it)", B, A, at, votes, settleText(c.GamesToSettle, "pairs"))
	case sim.MarginLower:
		return fmt.Sprintf("%s against %s%s: the player's margin is %s lower, the score not clearly different (%s would settle it)", B, A, at, votes, settleText(c.GamesToSettle, "pairs"))
	}
	return fmt.Sprintf("%s against %s%s: %s", B, A, at, verdictText(r, c))
}

// armWord names an arm in a sentence: its name, or its letter when the
// name is too long to read in one (a default name lists its overrides,
// which the differences above the answers list already).
func armWord(name, letter string) string {
	if len([]rune(name)) > maxPlayerName {
		return letter
	}
	return name
}

// armNames names a cell's arms by what they differ in (their rules by
// the arms' names, the difficulty, the player, the politician) and says
// where the cell plays by what they share ("at Hard", "for a casual
// player").
func armNames(r *sim.CompareResult, a, b *sim.Cell) (A, B string, where []string) {
	var nameA, nameB []string
	// The arms' names stand for their rules: when the rules play alike,
	// what else differs names them.
	if r.A.RulesHash != r.B.RulesHash || len(r.Changes) > 0 {
		nameA, nameB = append(nameA, armWord(r.A.Name, "A")), append(nameB, armWord(r.B.Name, "B"))
	}
	if a.Mode != b.Mode {
		nameA, nameB = append(nameA, capitalize(a.Mode)), append(nameB, capitalize(b.Mode))
	} else {
		where = append(where, "at "+capitalize(a.Mode))
	}
	if playerName(a.Policy) != playerName(b.Policy) {
		nameA, nameB = append(nameA, playerName(a.Policy)), append(nameB, playerName(b.Policy))
	} else {
		where = append(where, "for "+playerWords(a.Policy))
	}
	if a.Politician != b.Politician {
		nameA, nameB = append(nameA, "with "+politicianName(a.Politician)), append(nameB, "with "+politicianName(b.Politician))
	} else if a.Politician != "random" {
		where = append(where, "with "+a.Politician)
	}
	if len(nameA) == 0 {
		return "A", "B", where
	}
	return strings.Join(nameA, " "), strings.Join(nameB, " "), where
}

// playerWords names a player in a sentence: "a casual player", "an
// expert player" for a skill level, else "the player greedy".
func playerWords(label string) string {
	name := playerName(label)
	for _, lv := range policy.Levels {
		if name == lv.Name {
			if strings.ContainsRune("aeiou", rune(name[0])) {
				return "an " + name + " player"
			}
			return "a " + name + " player"
		}
	}
	return "the player " + name
}

// howToRead says how to read a comparison's figures, for a reader who
// does not know what a paired simultaneous interval is.
func howToRead(r *sim.CompareResult) string {
	conf := percentText(r.Confidence)
	return fmt.Sprintf("How to read this: both arms play the same games (the same seeds, cards and tiles wherever their rules allow), "+
		"so each difference is B − A game by game. The score counts a win 1 and a draw ½; +2.0 points means the player "+
		"scores 2 more per 100 games in B. The bracket after a difference, [low, high], is where the true difference lies "+
		"with %s confidence, for every cell at once: when it lies wholly above or below 0, B is easier or harder; "+
		"when it lies inside the tolerance, %s, the arms play alike within it (\"within\"); when neither, the games cannot "+
		"tell yet (\"not enough games\", with about how many pairs would settle it). Over all the cells, "+
		"the chance that some answer names a difference that is not there is at most %s.", conf, toleranceText(r.Tolerance),
		percentText(r.VerdictLevel))
}
