package report

import (
	"bytes"
	"fmt"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

// sweepText writes a sweep: per cell, a table of the base rules and every
// point against it, and where the win rate meets the target. Without
// wide the table keeps the columns that fit textWidth: the win rate and
// the paired differences (the margin's only for one swept parameter).
func sweepText(b *bytes.Buffer, r *sim.SweepResult, wide bool) error {
	head := fmt.Sprintf("base rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		head += " with " + strings.Join(r.Overrides, ", ")
	}
	wrapTo(b, head, "")
	run := fmt.Sprintf("seed %d, %d games per cell and point (the same seeds at every point)", r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		run += ", shard " + r.Shard
	}
	if r.Interrupted {
		run += ", INTERRUPTED"
	}
	wrapTo(b, run, "")
	wrapTo(b, "swept: "+strings.Join(r.Params, ", "), "")
	// The table names each parameter by its last part: the line above
	// has the whole path.
	var header []string
	for _, p := range r.Params {
		header = append(header, p[strings.LastIndex(p, ".")+1:])
	}
	margins := wide || len(r.Params) == 1
	if wide {
		header = append(header, "W / D / L", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]")
		if r.Target != 0 {
			header = append(header, "SIMULTANEOUS 95% CI")
		}
	} else {
		header = append(header, "WIN RATE [95% CI]")
	}
	header = append(header, "SCORE vs BASE [95% CI]")
	if margins {
		header = append(header, "MARGIN vs BASE [95% CI]")
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s, %s, politician %s:\n", capitalize(c.Mode), c.Policy, c.Politician)
		var rows [][]string
		row := func(values []string, cell *sim.Cell, p *sim.SweepPointResult) {
			rec := append([]string{}, values...)
			rate := fmt.Sprintf("%s [%s, %s]", pct(cell.WinRate), pct(cell.WinCI95[0]), pct(cell.WinCI95[1]))
			if wide {
				rec = append(rec, fmt.Sprintf("%d / %d / %d", cell.Wins, cell.Draws, cell.Losses), rate,
					fmt.Sprintf("%s [%s, %s]", signedText(cell.MeanMargin), signedText(cell.MarginCI95[0]), signedText(cell.MarginCI95[1])))
				if r.Target != 0 {
					rec = append(rec, simultaneousText(p))
				}
			} else {
				rec = append(rec, rate)
			}
			score, margin := "", ""
			if p != nil && !p.IsBase {
				score = fmt.Sprintf("%s [%s, %s] pts", pointsText(p.ScoreDiff), pointsText(p.ScoreDiffCI95[0]), pointsText(p.ScoreDiffCI95[1]))
				margin = fmt.Sprintf("%s [%s, %s]", signedText(p.MarginDiff), signedText(p.MarginDiffCI95[0]), signedText(p.MarginDiffCI95[1]))
			}
			rec = append(rec, score)
			if margins {
				rec = append(rec, margin)
			}
			rows = append(rows, rec)
		}
		// The base rules have a row of their own only when no point is
		// them (issue 23: a swept value equal to the base showed twice).
		if baseAmong(c) < 0 {
			row(baseValues(r), &c.Base, nil)
		}
		for j := range c.Points {
			p := &c.Points[j]
			values := p.Values
			if p.IsBase {
				values = append([]string{}, values...)
				values[len(values)-1] += " (base)" // of the whole point, not of one parameter
			}
			row(values, &p.Result, p)
		}
		if err := writeTable(b, header, len(r.Params), rows); err != nil {
			return err
		}
		if c.Errors > 0 {
			wrapTo(b, fmt.Sprintf("FAILED: %d games failed at the base or a point and are not counted at any (see the errors).", c.Errors), "  ")
		}
		if c.Crossing != nil {
			wrapTo(b, crossingWords(r, c), "  ")
		}
	}
	b.WriteString("\n")
	wrapTo(b, "SCORE vs BASE: the paired score difference (win 1, draw ½) against the base rules on the same seeds, in points"+
		"; MARGIN vs BASE: the paired margin difference in votes.", "")
	if !wide {
		more := "W / D / L and the mean margin"
		switch {
		case !margins:
			more = "W / D / L, the mean margin and MARGIN vs BASE"
		case r.Target != 0:
			more = "W / D / L, the mean margin and each value's simultaneous interval"
		}
		wrapTo(b, "--wide also shows "+more+".", "")
	}
	if r.Target != 0 {
		wrapTo(b, "Crossing: "+crossingMethod+".", "")
	}
	return nil
}

// baseAmong is the index of the point of c that is the base rules, or −1.
func baseAmong(c *sim.SweepCell) int {
	for j := range c.Points {
		if c.Points[j].IsBase {
			return j
		}
	}
	return -1
}

// simultaneousText is a point's simultaneous interval, "" where it has none.
func simultaneousText(p *sim.SweepPointResult) string {
	if p == nil || p.WinCISimultaneous == nil {
		return ""
	}
	return fmt.Sprintf("[%s, %s]", pct(p.WinCISimultaneous[0]), pct(p.WinCISimultaneous[1]))
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
