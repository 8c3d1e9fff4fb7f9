package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindSensitivity, kindView[*sim.SensitivityResult]{text: sensitivityText, wide: true, csv: sensitivityCSV, section: sensitivitySection})
}

// tornadoFields is how many of a cell's fields its tornado plot shows:
// the largest effects; the table under it has them all.
const tornadoFields = 15

// sensitivityHead is the first lines of a scan's text: what was played
// and the family of tests.
func sensitivityHead(b *bytes.Buffer, r *sim.SensitivityResult) {
	fmt.Fprintf(b, "sensitivity of rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, " with %s", strings.Join(r.Overrides, ", "))
	}
	fmt.Fprintf(b, "\nseed %d, %d games per change, step %s", r.Seed, r.GamesPerChange, r.Step)
	if len(r.Fields) > 0 {
		fmt.Fprintf(b, ", fields %s", strings.Join(r.Fields, " "))
	}
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	b.WriteString(familyText(r) + "\n")
}

// familyText states the family of tests and its adjustment in one line.
func familyText(r *sim.SensitivityResult) string {
	return fmt.Sprintf("%d tests (a score and a margin per change, every cell), Bonferroni at %g%%: each interval at %s",
		r.Tests, 100*r.Level, confidenceText(r.Confidence))
}

// familyWords says how a scan's tests are adjusted, from its level: the
// rule of compare's verdicts (FixedVerdicts) over every change.
func familyWords(r *sim.SensitivityResult) string {
	level := percentText(r.Level)
	return fmt.Sprintf("the family is the score and the margin difference of every change of every cell; "+
		"each is tested by a paired t-test at level %s/tests (Bonferroni), so with no effect anywhere the chance "+
		"of any verdict but %q is at most %s, and the intervals shown are the simultaneous ones",
		level, verdictWords[sim.NoClearDifference], level)
}

// confidenceText writes a confidence such as 99.99% with the digits that
// tell it from 100%.
func confidenceText(c float64) string {
	for d := 0; d < 8; d++ {
		s := strconv.FormatFloat(100*c, 'f', d, 64)
		if s != "100" && !strings.HasPrefix(s, "100.") {
			return s + "%"
		}
	}
	return strconv.FormatFloat(100*c, 'g', -1, 64) + "%"
}

// changeText names a change: "2→3", or a choice's "Research→Celebrity".
func changeText(ch *sim.SensitivityChange) string {
	if ch.ToChoice != "" {
		return ch.FromChoice + "→" + ch.ToChoice
	}
	return fmt.Sprintf("%d→%d", ch.From, ch.To)
}

// changeKey names a change of a cell, as the ranking names its field's
// largest: the path and the new value.
func changeKey(path string, to int, toChoice string) string {
	if toChoice != "" {
		return path + "=" + toChoice
	}
	return path + "=" + strconv.Itoa(to)
}

// scoreCI writes a score difference and its interval in points.
func scoreCI(x float64, ci [2]float64) string {
	return fmt.Sprintf("%s [%s, %s]", pointsText(x), pointsText(ci[0]), pointsText(ci[1]))
}

// changeVerdict is a change's verdict, "-" for none (the table stays
// narrow; the words under it say what "-" is).
func changeVerdict(v sim.Verdict) string {
	if v == sim.NoClearDifference {
		return "-"
	}
	return verdictWords[v]
}

// sensitivityText writes a scan: per cell, its fields ranked by the
// larger effect of their two changes (wide: every change, and the margin
// with its interval), then what was skipped.
func sensitivityText(b *bytes.Buffer, r *sim.SensitivityResult, opt TextOptions) error {
	wide := opt.Wide
	sensitivityHead(b, r)
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s: base %s won [%s, %s], %d seeds; %d changes of %d fields, %d not played\n",
			CellTitle(&c.Base, &c.Base), pct(c.Base.WinRate), pct(c.Base.WinCI95[0]), pct(c.Base.WinCI95[1]),
			c.Base.Games, len(c.Changes), len(c.Ranking), len(c.Skipped))
		var rows [][]string
		if wide {
			byPath := map[string][]*sim.SensitivityChange{}
			for j := range c.Changes {
				ch := &c.Changes[j]
				byPath[ch.Path] = append(byPath[ch.Path], ch)
			}
			for k, f := range c.Ranking {
				for _, ch := range byPath[f.Path] {
					rows = append(rows, []string{strconv.Itoa(k + 1), ch.Path, changeText(ch),
						scoreCI(ch.ScoreDiff, ch.ScoreDiffCI),
						fmt.Sprintf("%s [%s, %s]", signedText(ch.MarginDiff), signedText(ch.MarginDiffCI[0]), signedText(ch.MarginDiffCI[1])),
						fmt.Sprintf("%.2g", ch.ScoreDiffPAdj), changeVerdict(ch.Verdict)})
				}
			}
			if err := writeTable(b, []string{"#", "FIELD", "CHANGE", "SCORE vs BASE pts [CI]", "MARGIN vs BASE [CI]", "P ADJ", "VERDICT"}, 2, rows); err != nil {
				return err
			}
		} else {
			changes := map[string]*sim.SensitivityChange{}
			for j := range c.Changes {
				ch := &c.Changes[j]
				changes[changeKey(ch.Path, ch.To, ch.ToChoice)] = ch
			}
			for _, f := range c.Ranking {
				ch := changes[changeKey(f.Path, f.To, f.ToChoice)]
				// The t-interval is symmetric: its half-width says it all.
				half := (ch.ScoreDiffCI[1] - ch.ScoreDiffCI[0]) / 2
				rows = append(rows, []string{f.Path, changeText(ch),
					fmt.Sprintf("%s ± %.1f", pointsText(ch.ScoreDiff), 100*half), changeVerdict(ch.Verdict)})
			}
			if err := writeTable(b, []string{"FIELD", "STEP", "SCORE pts", "VERDICT"}, 1, rows); err != nil {
				return err
			}
		}
		if c.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d seeds failed at the base or a change and are not counted at any (see the errors).\n", c.Errors)
		}
		skippedText(b, c.Skipped, wide)
	}
	b.WriteString("\nEach field is ranked by the larger |score difference| of its two steps (the one shown; --wide\n" +
		"shows both). SCORE: the step's paired score difference (win 1, draw ½) against the base rules on\n" +
		"the same seeds, in points, ± its simultaneous interval. VERDICT: easier, harder, higher margin\n" +
		"only or lower margin only where the family's test rejects no difference; - where it does not.\n")
	return nil
}

// skippedText says what a cell did not play: every change with wide, else
// how many for each reason.
func skippedText(b *bytes.Buffer, skips []sim.SensitivitySkip, wide bool) {
	if len(skips) == 0 {
		return
	}
	if wide {
		b.WriteString("  not played:\n")
		for _, s := range skips {
			to := ""
			if s.To != nil {
				to = "=" + strconv.Itoa(*s.To)
			}
			fmt.Fprintf(b, "    %s%s: %s\n", s.Path, to, s.Why)
		}
		return
	}
	var unread, bounds, refused []string
	for _, s := range skips {
		switch {
		case s.To == nil:
			unread = append(unread, s.Path)
		case strings.Contains(s.Why, "leaves its bounds"):
			bounds = append(bounds, s.Path)
		default:
			refused = append(refused, s.Path)
		}
	}
	for _, g := range []struct {
		what  string
		paths []string
	}{{"field(s) this cell's game does not read", unread}, {"change(s) out of bounds", bounds}, {"change(s) the rules refuse", refused}} {
		if len(g.paths) > 0 {
			fmt.Fprintf(b, "  not played: %d %s (--wide lists them and why)\n", len(g.paths), g.what)
		}
	}
}

// sensitivityCSVHeader lists the columns of a scan: a row per change
// played or skipped.
var sensitivityCSVHeader = []string{
	"mode", "policy", "politician", "rank", "path", "from", "to", "games",
	"score_diff", "score_diff_ci_lo", "score_diff_ci_hi", "score_diff_p", "score_diff_p_adj",
	"margin_diff", "margin_diff_ci_lo", "margin_diff_ci_hi", "margin_diff_p", "margin_diff_p_adj",
	"verdict", "skipped",
}

func sensitivityCSV(w *csv.Writer, r *sim.SensitivityResult) {
	f, i := csvFloat, csvInt
	w.Write(sensitivityCSVHeader)
	for _, c := range r.Cells {
		rank := map[string]int{}
		for k, e := range c.Ranking {
			rank[e.Path] = k + 1
		}
		for _, ch := range c.Changes {
			from, to := strconv.Itoa(ch.From), strconv.Itoa(ch.To)
			if ch.ToChoice != "" {
				from, to = ch.FromChoice, ch.ToChoice
			}
			w.Write([]string{c.Mode, c.Policy, c.Politician, strconv.Itoa(rank[ch.Path]), ch.Path, from, to, i(ch.Pairs.Games),
				f(ch.ScoreDiff), f(ch.ScoreDiffCI[0]), f(ch.ScoreDiffCI[1]), f(ch.ScoreDiffP), f(ch.ScoreDiffPAdj),
				f(ch.MarginDiff), f(ch.MarginDiffCI[0]), f(ch.MarginDiffCI[1]), f(ch.MarginDiffP), f(ch.MarginDiffPAdj),
				ch.Verdict.String(), ""}) // the JSON's name: programs read the CSV
		}
		for _, s := range c.Skipped {
			to := ""
			if s.To != nil {
				to = strconv.Itoa(*s.To)
			}
			row := []string{c.Mode, c.Policy, c.Politician, "", s.Path, "", to}
			for len(row) < len(sensitivityCSVHeader)-1 {
				row = append(row, "")
			}
			w.Write(append(row, s.Why))
		}
	}
}

// sensitivitySection reports a scan: per cell a tornado plot of its
// largest effects, and the table of every field.
func sensitivitySection(idx int, src Source, r *sim.SensitivityResult) (section, error) {
	command := sensitivityCommand(r)
	s := newSection(idx, "sensitivity", src)
	fields := "every numeric field"
	if len(r.Fields) > 0 {
		fields = strings.Join(r.Fields, " ")
	}
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Base rules", Value: r.RulesVersion},
		{Name: "Base rules hash", Value: r.RulesHash},
		{Name: "Fields", Value: fields},
		{Name: "Step", Value: r.Step.String()},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games per change", Value: gamesOfShard(r.GamesPerChange, r.Shard)},
		{Name: "Family", Value: familyText(r)},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Base rules changed by", Value: strings.Join(r.Overrides, " ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "Every change plays the same seeds as the base rules. How the tests are adjusted: "+familyWords(r)+".")
	g := group{}
	for i := range r.Cells {
		c := &r.Cells[i]
		s.List = append(s.List, fmt.Sprintf("%s: %d fields, %d changes played, %d not played (the cell's game does not read the field, or the value leaves its bounds or the rules refuse it).",
			CellTitle(&c.Base, &c.Base), len(c.Ranking), len(c.Changes), len(c.Skipped)))
		f, err := tornadoFigure(fmt.Sprintf("%s-cell%d-tornado", s.ID, i+1), r, i)
		if err != nil {
			return section{}, err
		}
		g.Figures = append(g.Figures, f)
	}
	s.Groups = append(s.Groups, g)
	return s, nil
}

// tornadoFigure draws a cell's largest effects: for each field a bar from
// 0 to the score difference of its step down and one of its step up, with
// their simultaneous intervals; the table lists every change.
func tornadoFigure(id string, r *sim.SensitivityResult, ci int) (figure, error) {
	c := &r.Cells[ci]
	title := CellTitle(&c.Base, &c.Base) + ": score vs base by field"
	top := c.Ranking[:min(len(c.Ranking), tornadoFields)]
	p := newPlot(title, "score difference vs base (points)", "")
	names := make([]string, len(top))
	row := map[string]int{}
	for k, f := range top {
		names[k], row[f.Path] = f.Path, k
	}
	categoriesY(p, names)
	// A number's step down, its step up, a choice's alternatives.
	var series [3]whiskers
	var legend []legendItem
	seen := map[string]int{} // a choice's alternatives drawn so far
	for _, ch := range c.Changes {
		k, ok := row[ch.Path]
		if !ok {
			continue
		}
		y := rowY(k, len(top))
		w := whisker{x: 100 * ch.ScoreDiff, lo: 100 * ch.ScoreDiffCI[0], hi: 100 * ch.ScoreDiffCI[1]}
		// Down above up, in the colours of their whiskers; a choice's
		// alternatives one under the other.
		kind, off, half := 1, -0.18, 0.15
		switch {
		case ch.ToChoice != "":
			kind, off, half = 2, 0.24-0.16*float64(seen[ch.Path]), 0.07
			seen[ch.Path]++
		case ch.To < ch.From:
			kind, off = 0, 0.18
		}
		w.y = y + off
		if _, err := rect(p, 0, w.x, y+off-half, y+off+half, seriesColour(kind)); err != nil {
			return figure{}, err
		}
		series[kind] = append(series[kind], w)
	}
	for i, ws := range series {
		if len(ws) == 0 {
			continue
		}
		dots, err := addWhiskers(p, ws, i)
		if err != nil {
			return figure{}, err
		}
		legend = append(legend, legendItem{[]string{"one step down", "one step up", "another choice"}[i], dots})
	}
	lo, hi := 0.0, 0.0
	for _, ws := range series {
		for _, w := range ws {
			lo, hi = math.Min(lo, w.lo), math.Max(hi, w.hi)
		}
	}
	if lo == hi {
		hi = 1
	}
	p.X.Min, p.X.Max = lo, hi
	padX(p)
	if _, err := vLine(p, 0, p.Y.Min, p.Y.Max, solid(okBlack, 1)); err != nil {
		return figure{}, err
	}
	width := vg.Points(plotWidth + 160) // room for the paths on the Y axis
	svg, err := renderSVG(p, legend, width, categoryHeight(len(top)), title)
	if err != nil {
		return figure{}, err
	}
	t := table{Header: []string{"Field", "Change", "Score vs base (pts)", "Low", "High", "Margin vs base", "Verdict"}}
	changes := map[string][]int{}
	for j, ch := range c.Changes {
		changes[ch.Path] = append(changes[ch.Path], j)
	}
	for _, f := range c.Ranking {
		for _, j := range changes[f.Path] {
			ch := &c.Changes[j]
			p := fmt.Sprintf("cells.%d.changes.%d.", ci, j)
			t.Rows = append(t.Rows, []cell{text(ch.Path), text(changeText(ch)),
				points(ch.ScoreDiff, p+"score_diff"), points(ch.ScoreDiffCI[0], p+"score_diff_ci.0"), points(ch.ScoreDiffCI[1], p+"score_diff_ci.1"),
				signed(ch.MarginDiff, p+"margin_diff"), text(verdictWords[ch.Verdict])})
		}
	}
	note := fmt.Sprintf("The %d fields with the largest effect of %d; the table lists every change played. Bars: the paired score difference of one step down and one step up; whiskers: their simultaneous intervals (%s).",
		len(top), len(c.Ranking), confidenceText(r.Confidence))
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t}, nil
}

// sensitivityCommand reconstructs the sensitivity command line of r.
func sensitivityCommand(r *sim.SensitivityResult) string {
	args := []string{"sensitivity"}
	for _, f := range r.Fields {
		args = append(args, "--fields", f)
	}
	var modes, policies, politicians []string
	for _, c := range r.Cells {
		modes, policies, politicians = uniq(modes, c.Base.Mode), uniq(policies, c.Base.Policy), uniq(politicians, c.Base.Politician)
	}
	args = append(args, "--step", r.Step.String(), "--games", fmt.Sprint(r.GamesPerChange), "--seed", fmt.Sprint(r.Seed),
		"--mode", strings.Join(modes, ","), "--policy", strings.Join(policies, ","), "--politician", strings.Join(politicians, ","))
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	if r.Shard != "" {
		args = append(args, "--shard", r.Shard)
	}
	return commandLine(append(args, "--format", "json"))
}
