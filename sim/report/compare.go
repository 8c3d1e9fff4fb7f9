package report

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/sim"
)

// armName describes one arm of a comparison.
func armName(a *sim.ArmResult) string {
	return fmt.Sprintf("%s · %s · %s, rules %s (%s)", a.Mode, a.Policy, a.Politician, a.RulesVersion, shortHash(a.RulesHash))
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// compareSection reports a compare result.
func compareSection(idx int, src Source, command string) (section, error) {
	r := src.Compare
	s := section{
		ID:      fmt.Sprintf("s%d", idx+1),
		Src:     idx,
		Heading: "compare: " + filepath.Base(src.Name),
	}
	played := fmt.Sprintf("%d of at most %d", r.Games, r.MaxGames)
	if r.SPRT != nil && r.SPRT.Decision != "undecided" {
		played += " (the sequential test stopped the run)"
	}
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Arm A", Value: armName(&r.A)},
		{Name: "Arm B", Value: armName(&r.B)},
		{Name: "Rules hashes", Value: "A " + r.A.RulesHash + ", B " + r.B.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Paired games", Value: played},
		{Name: "Command", Value: command, Code: true},
	}
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "Both arms play the same seeds (common random numbers); every difference is B − A. "+
		"Win rate differences carry Newcombe's 95% interval for paired proportions, margin differences the paired t interval.")
	label := r.B.Mode + " · " + r.B.Policy + " · " + r.B.Politician
	if r.A.Mode != r.B.Mode || r.A.Policy != r.B.Policy || r.A.Politician != r.B.Politician {
		label = fmt.Sprintf("%s · %s · %s → %s", r.A.Mode, r.A.Policy, r.A.Politician, label)
	}
	var zone *[2]float64
	if r.SPRT != nil {
		zone = &[2]float64{100 * min(r.SPRT.P0, r.SPRT.P1), 100 * max(r.SPRT.P0, r.SPRT.P1)}
	}
	win, err := forestFigure(s.ID+"-winrate-diff", "Win rate difference B − A, with 95% interval",
		"win rate difference (percentage points)", zone,
		[]forestRow{{label: label, est: 100 * r.WinRateDiff, lo: 100 * r.WinRateDiffCI95[0], hi: 100 * r.WinRateDiffCI95[1]}},
		table{
			Header: []string{"cell", "A wins", "B wins", "difference", "95% low", "95% high", "McNemar p"},
			Rows: [][]cell{{
				text(label), percent(r.A.WinRate, "a.win_rate"), percent(r.B.WinRate, "b.win_rate"),
				points(r.WinRateDiff, "win_rate_diff"), points(r.WinRateDiffCI95[0], "win_rate_diff_ci95.0"), points(r.WinRateDiffCI95[1], "win_rate_diff_ci95.1"),
				num(r.McNemarP, "%.4g", "mcnemar_p"),
			}},
		})
	if err != nil {
		return section{}, err
	}
	margin, err := forestFigure(s.ID+"-margin-diff", "Mean margin difference B − A, with 95% interval",
		"margin difference (votes)", nil,
		[]forestRow{{label: label, est: r.MeanMarginDiff, lo: r.MarginDiffCI95[0], hi: r.MarginDiffCI95[1]}},
		table{
			Header: []string{"cell", "A margin", "B margin", "difference", "95% low", "95% high"},
			Rows: [][]cell{{
				text(label), signed(r.A.MeanMargin, "a.mean_margin"), signed(r.B.MeanMargin, "b.mean_margin"),
				signed(r.MeanMarginDiff, "mean_margin_diff"), signed(r.MarginDiffCI95[0], "margin_diff_ci95.0"), signed(r.MarginDiffCI95[1], "margin_diff_ci95.1"),
			}},
		})
	if err != nil {
		return section{}, err
	}
	g := group{Figures: []figure{win, margin}}
	if r.SPRT != nil {
		f, err := sprtFigure(s.ID+"-sprt", r.SPRT)
		if err != nil {
			return section{}, err
		}
		g.Figures = append(g.Figures, f)
	}
	s.Groups = append(s.Groups, g)
	return s, nil
}

// forestRow is one cell of a forest plot.
type forestRow struct {
	label       string
	est, lo, hi float64
}

// forestFigure draws each row's estimate and interval against the line
// of no difference, with the indifference zone (if any) shaded.
func forestFigure(id, title, xLabel string, zone *[2]float64, rows []forestRow, t table) (figure, error) {
	p := newPlot(title, xLabel, "")
	names := make([]string, len(rows))
	pts := make(whiskers, len(rows))
	lo, hi := 0.0, 0.0
	for i, r := range rows {
		names[i] = r.label
		pts[i] = whisker{x: r.est, lo: r.lo, hi: r.hi, y: rowY(i, len(rows))}
		lo, hi = min(lo, r.lo), max(hi, r.hi)
	}
	categoriesY(p, names)
	var legend []legendItem
	note := "The dashed line is no difference."
	if zone != nil {
		z, err := rect(p, zone[0], zone[1], p.Y.Min, p.Y.Max, zoneGrey)
		if err != nil {
			return figure{}, err
		}
		legend = append(legend, legendItem{"indifference zone", z})
		lo, hi = min(lo, zone[0]), max(hi, zone[1])
		note += fmt.Sprintf(" The shaded band, %+.3g to %+.3g, is the sequential test's indifference zone.", zone[0], zone[1])
	}
	zero, err := vLine(p, 0, p.Y.Min, p.Y.Max, draw.LineStyle{Color: okBlack, Width: vg.Points(1), Dashes: dashed()})
	if err != nil {
		return figure{}, err
	}
	dots, err := addWhiskers(p, pts, 0)
	if err != nil {
		return figure{}, err
	}
	legend = append(legend, legendItem{"B − A, 95% interval", dots}, legendItem{"no difference", zero})
	pad := 0.08 * max(hi-lo, 1e-9)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(len(rows), 0), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t}, nil
}

// sprtFigure shows where the sequential test's log-likelihood ratio
// ended between its bounds.
func sprtFigure(id string, s *sim.SPRTResult) (figure, error) {
	title := "Sequential test: log-likelihood ratio and its bounds"
	p := newPlot(title, "paired games", "log-likelihood ratio")
	end := float64(max(s.Games, 1))
	upper, err := hLine(p, s.Upper, 0, end, solid(wonColour, 1.5))
	if err != nil {
		return figure{}, err
	}
	lower, err := hLine(p, s.Lower, 0, end, solid(lostColour, 1.5))
	if err != nil {
		return figure{}, err
	}
	dot, err := plotter.NewScatter(plotter.XYs{{X: float64(s.Games), Y: s.LLR}})
	if err != nil {
		return figure{}, fmt.Errorf("report: %v", err)
	}
	dot.GlyphStyle = draw.GlyphStyle{Color: okBlack, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	p.Add(dot)
	legend := []legendItem{
		{fmt.Sprintf("accept H1 (B − A = %+.3g)", s.P1), upper},
		{fmt.Sprintf("accept H0 (B − A = %+.3g)", s.P0), lower},
		{"LLR when the run ended", dot},
	}
	span := s.Upper - s.Lower
	p.Y.Min = min(s.Lower, s.LLR) - 0.1*span
	p.Y.Max = max(s.Upper, s.LLR) + 0.1*span
	p.X.Min, p.X.Max = 0, end*1.04
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(260), title)
	if err != nil {
		return figure{}, err
	}
	t := table{
		Header: []string{"H0", "H1", "α", "β", "games", "LLR", "lower bound", "upper bound", "decision"},
		Rows: [][]cell{{
			points(s.P0, "sprt.p0"), points(s.P1, "sprt.p1"), num(s.Alpha, "%.3g", "sprt.alpha"), num(s.Beta, "%.3g", "sprt.beta"),
			count(s.Games, "sprt.games"), num(s.LLR, "%.3f", "sprt.llr"), num(s.Lower, "%.3f", "sprt.lower"), num(s.Upper, "%.3f", "sprt.upper"),
			text(s.Decision),
		}},
	}
	return figure{ID: id, Title: title, SVG: svg, Table: t,
		Note: "The result records only where the ratio ended, not its path."}, nil
}
