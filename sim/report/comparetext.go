package report

import (
	"bytes"
	"fmt"

	"tallywood/engine"
	"tallywood/sim"
)

// compareText writes a comparison: a block per cell, each arm's row and
// the paired differences, then one line per cell in words.
func compareText(b *bytes.Buffer, r *sim.CompareResult) error {
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
	weightsNotes(b, polA, r.A.RulesHash)
	weightsNotes(b, polB, r.B.RulesHash)
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
		fmt.Fprintf(b, "  pairs (A's result → B's): W→W %d, W→D %d, W→L %d, D→W %d, D→D %d, D→L %d, L→W %d, L→D %d, L→L %d\n",
			x[0][0], x[0][1], x[0][2], x[1][0], x[1][1], x[1][2], x[2][0], x[2][1], x[2][2])
		fmt.Fprintf(b, "  score B − A   %s points [%s, %s] (win 1, draw ½; 95%%, paired t), p = %.2g, Holm p = %.2g\n",
			pointsText(c.ScoreDiff), pointsText(c.ScoreDiffCI95[0]), pointsText(c.ScoreDiffCI95[1]), c.ScoreDiffP, c.ScoreDiffPAdj)
		fmt.Fprintf(b, "  margin B − A  %+.2f votes [%+.2f, %+.2f] (95%%, paired t), p = %.2g, Holm p = %.2g\n",
			c.MarginDiff, c.MarginDiffCI95[0], c.MarginDiffCI95[1], c.MarginDiffP, c.MarginDiffPAdj)
		if c.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d paired games failed and are not counted above (see the errors).\n", c.Errors)
		}
		if s := c.Sequential; s != nil {
			fmt.Fprintf(b, "  %s\n", sequentialWords(s))
			if s.Estimates != "" {
				fmt.Fprintf(b, "  estimates above: %s\n", s.Estimates)
			}
		}
	}
	tested := fmt.Sprintf("%d cells tested, p-values Holm-adjusted over them", r.CellsTested)
	if r.CellsTested == 1 {
		tested = "1 cell tested"
	}
	fmt.Fprintf(b, "\nIn words (B against A for the player; %s; 5%% level):\n", tested)
	for i := range r.Cells {
		fmt.Fprintf(b, "  %s\n", plainLine(r, &r.Cells[i]))
	}
	return nil
}
