package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/sim"
)

// compareText writes a comparison: a block per cell, each arm's row and
// the paired differences, then one line per cell in words. Unless wide,
// a line longer than textWidth is wrapped (issue 23: 153 columns).
func compareText(b *bytes.Buffer, r *sim.CompareResult, wide bool) error {
	line := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		if !wide {
			s = wrap(s, textWidth)
		}
		b.WriteString(s + "\n")
	}
	fmt.Fprintf(b, "B = %s (rules %s) vs A = %s (rules %s); seed %d", r.B.Name, engine.ShortHash(r.B.RulesHash), r.A.Name, engine.ShortHash(r.A.RulesHash), r.Seed)
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	var polA, polB []string
	for _, c := range r.Cells {
		polA, polB = append(polA, c.A.Policy), append(polB, c.B.Policy)
	}
	weightsNotes(b, "arm A ", polA, r.A.RulesHash)
	weightsNotes(b, "arm B ", polB, r.B.RulesHash)
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s: %d paired games (same seeds in both arms)\n", CellTitle(&c.A, &c.B), c.Games)
		var rows [][]string
		for _, a := range []struct {
			arm, name string
			c         *sim.Cell
		}{{"A", r.A.Name, &c.A}, {"B", r.B.Name, &c.B}} {
			rows = append(rows, []string{a.arm, a.name,
				fmt.Sprintf("%d / %d / %d", a.c.Wins, a.c.Draws, a.c.Losses),
				fmt.Sprintf("%s [%s, %s]", pct(a.c.WinRate), pct(a.c.WinCI95[0]), pct(a.c.WinCI95[1])),
				fmt.Sprintf("%s [%s, %s]", signedText(a.c.MeanMargin), signedText(a.c.MarginCI95[0]), signedText(a.c.MarginCI95[1])),
			})
		}
		if err := writeTable(b, []string{"ARM", "NAME", "W / D / L", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]"}, 2, rows); err != nil {
			return err
		}
		x := c.Pairs.Cross
		line("  pairs (A's result → B's): W→W %d, W→D %d, W→L %d, D→W %d, D→D %d, D→L %d, L→W %d, L→D %d, L→L %d",
			x[0][0], x[0][1], x[0][2], x[1][0], x[1][1], x[1][2], x[2][0], x[2][1], x[2][2])
		// Each difference's 95 % interval on its own, then the verdict's:
		// simultaneous over every test, with the p-value adjusted alike.
		line("  score B − A   %s points (win 1, draw ½; paired t), 95%% [%s, %s], p = %.2g",
			pointsText(c.ScoreDiff), pointsText(c.ScoreDiffCI95[0]), pointsText(c.ScoreDiffCI95[1]), c.ScoreDiffP)
		line("                simultaneous %s [%s, %s] (the verdict's), adjusted p = %.2g",
			percentText(r.Confidence), pointsText(c.ScoreDiffCI[0]), pointsText(c.ScoreDiffCI[1]), c.ScoreDiffPAdj)
		line("  margin B − A  %+.2f votes (paired t), 95%% [%+.2f, %+.2f], p = %.2g",
			c.MarginDiff, c.MarginDiffCI95[0], c.MarginDiffCI95[1], c.MarginDiffP)
		line("                simultaneous %s [%+.2f, %+.2f] (the verdict's), adjusted p = %.2g",
			percentText(r.Confidence), c.MarginDiffCI[0], c.MarginDiffCI[1], c.MarginDiffPAdj)
		if c.Errors > 0 {
			line("  FAILED: %d paired games failed and are not counted above (see the errors).", c.Errors)
		}
		if s := c.Sequential; s != nil {
			line("  %s", sequentialWords(s))
			if testStopped(s) {
				line("  estimates above: %s", stoppedWords)
			}
		}
	}
	b.WriteString("\n")
	line("In words (B against A for the player): %s:", ruleWords(r))
	for i := range r.Cells {
		line("  %s", plainLine(r, &r.Cells[i]))
	}
	return nil
}

// wrap breaks s into lines of at most width runes, each continued line
// indented four spaces more than s. It breaks after a comma, semicolon or
// colon where one falls in the line's last quarter, else at the last
// space, and outside brackets where it can (so that "[+0.6, +4.6]" stays
// whole); a word longer than the line stays whole.
func wrap(s string, width int) string {
	indent := s[:len(s)-len(strings.TrimLeft(s, " "))]
	more := indent + "    "
	var out []string
	for utf8.RuneCountInString(s) > width {
		punct, space, inside, n, depth := -1, -1, -1, 0, 0
		for i, r := range s {
			if n > width {
				break
			}
			switch {
			case r == '[' || r == '(':
				depth++
			case r == ']' || r == ')':
				depth = max(0, depth-1)
			case r == ' ' && n > len(more) && depth > 0:
				inside = i
			case r == ' ' && n > len(more):
				space = i
				if n > width*3/4 && strings.ContainsRune(",;:", rune(s[i-1])) {
					punct = i
				}
			}
			n++
		}
		cut := punct
		if cut < 0 {
			cut = space
		}
		if cut < 0 {
			cut = inside
		}
		if cut < 0 {
			break
		}
		out = append(out, s[:cut])
		s = more + strings.TrimLeft(s[cut:], " ")
	}
	return strings.Join(append(out, s), "\n")
}
