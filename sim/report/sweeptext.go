package report

import (
	"bytes"
	"fmt"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

// sweepText writes a sweep: per cell, a table of the base rules and every
// point against it, and where the win rate crosses the target.
func sweepText(b *bytes.Buffer, r *sim.SweepResult) error {
	fmt.Fprintf(b, "base rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, " with %s", strings.Join(r.Overrides, ", "))
	}
	fmt.Fprintf(b, ", seed %d, %d games per cell and point (the same seeds at every point)", r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	header := append(append([]string{}, r.Params...), "W / D / L", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]",
		"SCORE vs BASE [95% CI]", "MARGIN vs BASE [95% CI]")
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s, %s, politician %s:\n", capitalize(c.Mode), c.Policy, c.Politician)
		var rows [][]string
		row := func(values []string, cell *sim.Cell, rest ...string) {
			rows = append(rows, append(append(append([]string{}, values...),
				fmt.Sprintf("%d / %d / %d", cell.Wins, cell.Draws, cell.Losses),
				fmt.Sprintf("%s [%s, %s]", pct(cell.WinRate), pct(cell.WinCI95[0]), pct(cell.WinCI95[1])),
				fmt.Sprintf("%s [%s, %s]", signedText(cell.MeanMargin), signedText(cell.MarginCI95[0]), signedText(cell.MarginCI95[1]))),
				rest...))
		}
		row(baseValues(r), &c.Base, "", "")
		for j := range c.Points {
			p := &c.Points[j]
			row(p.Values, &p.Result,
				fmt.Sprintf("%s [%s, %s] pts", pointsText(p.ScoreDiff), pointsText(p.ScoreDiffCI95[0]), pointsText(p.ScoreDiffCI95[1])),
				fmt.Sprintf("%s [%s, %s]", signedText(p.MarginDiff), signedText(p.MarginDiffCI95[0]), signedText(p.MarginDiffCI95[1])))
		}
		if err := writeTable(b, header, len(r.Params), rows); err != nil {
			return err
		}
		if c.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d games failed at the base or a point and are not counted at any (see the errors).\n", c.Errors)
		}
		if c.Crossing != nil {
			fmt.Fprintf(b, "  %s\n", crossingWords(c.Crossing, r.Target, r.Params[0]))
		}
	}
	b.WriteString("\nSCORE vs BASE: the paired score difference (win 1, draw ½) against the base rules on the same seeds, in points;\n" +
		"MARGIN vs BASE: the paired margin difference in votes.\n")
	if r.Target != 0 {
		b.WriteString("Crossing: " + sim.CrossingMethod + ".\n")
	}
	return nil
}

// baseValues are the base rules' values in a sweep's rows: "base" for
// every swept parameter.
func baseValues(r *sim.SweepResult) []string {
	v := make([]string, len(r.Params))
	for k := range v {
		v[k] = "base"
	}
	return v
}
