package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"tallywood/sim"
	"tallywood/sim/policy"
)

// TextOptions choose what Text writes.
type TextOptions struct {
	// Wide writes every column of a sim result's first table and of a
	// study of several players' and a sweep's tables, and a comparison's
	// lines unwrapped, wider than 100 characters; the other kinds have no
	// narrow form.
	Wide bool
	// All writes every row of a cards study's families, not only the
	// first ten of each.
	All bool
}

// Text writes src's result as text, the --format table of the command
// that made it: ASCII tables and, under them, what they mean in words.
func Text(w io.Writer, src Source, opt TextOptions) error {
	v, err := viewOf(src.Name, src.Study)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := v.text(&b, src.Study, opt); err != nil {
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

// bandCI writes an interval of a rate read against edges (a target and
// target ± tolerance) as "[lo, hi]" in pct's digits, and with more, up to
// four decimals, where a bound that is not an edge would print as one:
// "[15.4%, 18.02%]" for an upper bound of 18.018% against an edge of 18%,
// not "18.0%", which could not show why the interval does not lie within
// (issue 42).
func bandCI(ci [2]float64, edges ...float64) string {
	bound := func(x float64) string {
		s := pct(x)
		for d := 2; d <= 4; d++ {
			clash := false
			for _, e := range edges {
				if e != x && fmt.Sprintf("%.*f%%", d-1, 100*e) == s {
					clash = true
				}
			}
			if !clash {
				break
			}
			s = fmt.Sprintf("%.*f%%", d, 100*x)
		}
		return s
	}
	return "[" + bound(ci[0]) + ", " + bound(ci[1]) + "]"
}

// signedText writes a margin in votes, signed, to two decimals.
func signedText(x float64) string { return fmt.Sprintf("%+.2f", x) }

// pointsText writes a score or win-rate difference in percentage points.
func pointsText(x float64) string { return fmt.Sprintf("%+.1f", 100*x) }

// weightsNotes writes, for each distinct policy of policies that scores
// by the learned value, which weights it played and the rules they were
// trained for (policy.WeightsNote), a line each, after label ("arm A ").
func weightsNotes(w io.Writer, label string, policies []string, rules sim.RulesID) {
	seen := map[string]bool{}
	for _, p := range policies {
		if seen[p] {
			continue
		}
		seen[p] = true
		if note := policy.WeightsNote(p, rules.Played()); note != "" {
			fmt.Fprintln(w, label+note)
		}
	}
}

// textWidth is the most characters a line of text output takes by
// default: a terminal's width.
const textWidth = 100

// wrapText breaks a sentence into lines of at most textWidth characters
// at spaces, each ending with a newline (a word longer than a line stays
// whole).
func wrapText(s string) string { return wrapLines(s, "") }

// wrapTo writes s to b in lines of at most textWidth characters, each
// after indent.
func wrapTo(b *bytes.Buffer, s, indent string) { b.WriteString(wrapLines(s, indent)) }

// wrapLines is s in lines of at most textWidth characters, each after
// indent, broken at spaces.
func wrapLines(s, indent string) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(s) {
		if line != indent && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > textWidth {
			b.WriteString(line + "\n")
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}

// wrap breaks s, a line of figures (a comparison's), into lines of at
// most width runes, each continued line indented four spaces more than s:
// unlike wrapLines, which breaks a sentence at any space, it keeps a
// figure with its interval. It breaks after a comma, semicolon or
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
