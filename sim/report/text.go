package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"tallywood/sim/policy"
)

// TextOptions choose what Text writes.
type TextOptions struct {
	// Wide writes every column of a sim result's first table, wider than
	// 100 characters; the other kinds have no narrow form.
	Wide bool
}

// Text writes src's result as text, the --format table of the command
// that made it: ASCII tables and, under them, what they mean in words.
func Text(w io.Writer, src Source, opt TextOptions) error {
	var b bytes.Buffer
	var err error
	switch {
	case src.Sim != nil:
		err = simText(&b, src.Sim, opt.Wide)
	case src.Compare != nil:
		err = compareText(&b, src.Compare)
	case src.Sweep != nil:
		err = sweepText(&b, src.Sweep)
	case src.Seats != nil:
		err = seatsText(&b, src.Seats)
	case src.SeatsCompare != nil:
		err = seatsCompareText(&b, src.SeatsCompare)
	case src.Sensitivity != nil:
		err = sensitivityText(&b, src.Sensitivity, opt.Wide)
	default:
		err = fmt.Errorf("report: %s: no result in the source", src.Name)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(b.Bytes())
	return err
}

// writeTable writes rows under header as an ASCII table (the same bytes
// on every terminal) whose first textCols columns are left aligned and the
// others right aligned.
func writeTable(w io.Writer, header []string, textCols int, rows [][]string) error {
	align := make([]tw.Align, len(header))
	for i := range align {
		align[i] = tw.AlignRight
		if i < textCols {
			align[i] = tw.AlignLeft
		}
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
	t.Header(header)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return fmt.Errorf("report: table %v: %v", header, err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("report: table %v: %v", header, err)
	}
	return nil
}

// pct writes a rate in percent: one decimal, or two below 1 % so that the
// upper bound of a rare event's interval does not print as 0.0 %, and
// "<0.01%" below that.
func pct(x float64) string {
	if x < 1e-12 {
		x = 0 // rounding residue of a bound that is 0
	}
	if x > 0 && x < 0.0001 {
		return "<0.01%"
	}
	if x > 0 && x < 0.01 {
		return fmt.Sprintf("%.2f%%", 100*x)
	}
	return fmt.Sprintf("%.1f%%", 100*x)
}

// signedText writes a margin in votes, signed, to two decimals.
func signedText(x float64) string { return fmt.Sprintf("%+.2f", x) }

// pointsText writes a score or win-rate difference in percentage points.
func pointsText(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }

// weightsNotes writes, for each distinct policy of policies that scores
// by the learned value, which weights it played and the rules they were
// trained for (policy.WeightsNote), a line each.
func weightsNotes(w io.Writer, policies []string, rulesHash string) {
	seen := map[string]bool{}
	for _, p := range policies {
		if seen[p] {
			continue
		}
		seen[p] = true
		if note := policy.WeightsNote(p, rulesHash); note != "" {
			fmt.Fprintln(w, note)
		}
	}
}
