package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

func init() {
	register(sim.KindCurve, kindView[*sim.CurveResult]{text: curveText, wide: true, csv: curveCSV, section: curveSection})
}

// curveBandWords says what a curve's bands are.
const curveBandWords = "bands are simultaneous 95% intervals over every skill and difficulty (Bonferroni): " +
	"the whole curve holds at once"

// skillName is a point's skill with the level it stands for, if any:
// "0.4 (casual)"; a level the dial only matches in strength is marked ≈.
func skillName(p *sim.CurvePoint) string {
	s := sim.SkillText(p.Skill)
	for _, lv := range policy.DialLevels {
		if lv.Name == p.Level {
			mark := ""
			if !lv.Exact {
				mark = "≈"
			}
			return s + " (" + mark + lv.Name + ")"
		}
	}
	return s
}

// curveText writes a curve: per skill, each difficulty's win rate in its
// band and the gap between them; then where each meets the target, and
// the gap at the named levels. Wide adds the margins.
func curveText(b *bytes.Buffer, r *sim.CurveResult, opt TextOptions) error {
	wrapTo(b, fmt.Sprintf("rules %s, hash %s", r.RulesVersion, engine.ShortHash(r.RulesHash)), "")
	weightsNotes(b, "", []string{"dial"}, r.RulesID)
	run := fmt.Sprintf("seed %d, %s, politician %s; the dial's players, the same seeds at every skill and on every difficulty",
		r.Seed, curveGamesWords(r), r.Politician)
	if r.Interrupted {
		run += ", INTERRUPTED (points hold fewer games)"
	}
	wrapTo(b, run, "")
	header := []string{"SKILL"}
	for _, m := range r.Modes {
		header = append(header, strings.ToUpper(m)+" WIN [BAND]")
		if opt.Wide {
			header = append(header, strings.ToUpper(m)+" MARGIN [BAND]")
		}
	}
	two := len(r.Modes) == 2
	if two {
		header = append(header, fmt.Sprintf("%s − %s [BAND]", strings.ToUpper(r.Modes[1]), strings.ToUpper(r.Modes[0])))
		if opt.Wide {
			header = append(header, "MARGIN GAP [BAND]")
		}
	}
	var rows [][]string
	for i := range r.Points {
		p := &r.Points[i]
		row := []string{skillName(p)}
		for _, c := range p.Cells {
			row = append(row, fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(c.WinBand[0]), pct(c.WinBand[1])))
			if opt.Wide {
				row = append(row, fmt.Sprintf("%s [%s, %s]", signedText(c.MeanMargin), signedText(c.MarginBand[0]), signedText(c.MarginBand[1])))
			}
		}
		if p.Gap != nil {
			g := p.Gap
			row = append(row, fmt.Sprintf("%s [%s, %s] pts", pointsText(g.Score), pointsText(g.ScoreBand[0]), pointsText(g.ScoreBand[1])))
			if opt.Wide {
				row = append(row, fmt.Sprintf("%s [%s, %s]", signedText(g.Margin), signedText(g.MarginBand[0]), signedText(g.MarginBand[1])))
			}
		}
		rows = append(rows, row)
	}
	if err := writeTable(b, header, 1, rows); err != nil {
		return err
	}
	for i := range r.Points {
		if p := &r.Points[i]; p.Errors > 0 {
			fmt.Fprintf(b, "FAILED: %d seeds at skill %s failed and are not counted (see the errors).\n", p.Errors, sim.SkillText(p.Skill))
		}
	}
	for j, x := range r.Crossings {
		wrapTo(b, sentence(curveCrossingWords(r, j, &x)), "")
	}
	if two {
		if w := curveGapWords(r); w != "" {
			wrapTo(b, sentence(w), "")
		}
	}
	b.WriteString("\n")
	wrapTo(b, "SKILL: the dial (dial:skill=S): 0 plays at random, 1 is the skilled level, 2 the expert level; "+
		"≈casual and ≈novice mark where the dial is as strong as those levels on Normal. "+capitalize(curveBandWords)+
		"; the gap is the paired score difference (win 1, draw ½) on the same seeds.", "")
	if !opt.Wide {
		wrapTo(b, "--wide also shows the mean margins and the margin gap.", "")
	}
	return nil
}

// curveGamesWords says how many games a point plays: "2000 games a point
// (200 above skill 1)".
func curveGamesWords(r *sim.CurveResult) string {
	var lower, upper int64
	for _, p := range r.Points {
		if p.Skill > 1 {
			upper = p.Games
		} else {
			lower = p.Games
		}
	}
	switch {
	case lower == 0:
		return fmt.Sprintf("%d games a point and difficulty", upper)
	case upper == 0 || upper == lower:
		return fmt.Sprintf("%d games a point and difficulty", lower)
	}
	return fmt.Sprintf("%d games a point and difficulty (%d above skill 1, where the dial searches)", lower, upper)
}

// curveCrossingWords says where difficulty j's win rate meets the target,
// in skills with their bands.
func curveCrossingWords(r *sim.CurveResult, j int, x *sim.Crossing) string {
	mode, target := capitalize(r.Modes[j]), pct(r.Target)
	at := func(v string) string {
		for i := range r.Points {
			p := &r.Points[i]
			if sim.SkillText(p.Skill) == v {
				c := &p.Cells[j]
				return fmt.Sprintf("%s (%s [%s, %s])", v, pct(c.WinRate), pct(c.WinBand[0]), pct(c.WinBand[1]))
			}
		}
		return v
	}
	if len(x.Regions) == 0 {
		return fmt.Sprintf("%s is %s %s at every skill measured", mode, x.Side, target)
	}
	var parts []string
	for _, g := range x.Regions {
		lo, hi := "the lowest skill measured", "the highest skill measured"
		if g.Below != nil {
			lo = at(*g.Below)
		}
		if g.Above != nil {
			hi = at(*g.Above)
		}
		if len(g.Values) == 0 {
			parts = append(parts, fmt.Sprintf("between skill %s and %s", lo, hi))
			continue
		}
		vs := make([]string, len(g.Values))
		for i, v := range g.Values {
			vs[i] = at(v)
		}
		parts = append(parts, fmt.Sprintf("at skill %s (its band holds %s), so between %s and %s", strings.Join(vs, ", "), target, lo, hi))
	}
	return fmt.Sprintf("%s reaches %s %s", mode, target, strings.Join(parts, "; and again "))
}

// curveGapWords says how far apart the two difficulties are at the named
// levels the curve measured.
func curveGapWords(r *sim.CurveResult) string {
	var parts []string
	for i := range r.Points {
		p := &r.Points[i]
		if p.Level == "" || p.Gap == nil {
			continue
		}
		g := p.Gap
		article := "a"
		if strings.ContainsRune("aeiou", rune(p.Level[0])) {
			article = "an" // an expert
		}
		parts = append(parts, fmt.Sprintf("for %s %s player (skill %s) %s points [%s, %s] (%s → %s)", article, p.Level, sim.SkillText(p.Skill),
			pointsText(g.Score), pointsText(g.ScoreBand[0]), pointsText(g.ScoreBand[1]), pct(p.Cells[0].WinRate), pct(p.Cells[1].WinRate)))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s against %s: %s", capitalize(r.Modes[1]), capitalize(r.Modes[0]), strings.Join(parts, "; "))
}

func curveCSV(w *csv.Writer, r *sim.CurveResult) {
	f, i := csvFloat, csvInt
	w.Write([]string{"skill", "level", "mode", "games", "wins", "draws", "losses", "win_rate", "win_band_lo", "win_band_hi",
		"mean_margin", "margin_band_lo", "margin_band_hi", "gap_score", "gap_score_band_lo", "gap_score_band_hi",
		"gap_margin", "gap_margin_band_lo", "gap_margin_band_hi"})
	for _, p := range r.Points {
		for j, c := range p.Cells {
			rec := []string{f(p.Skill), p.Level, c.Mode, i(c.Games), i(c.Wins), i(c.Draws), i(c.Losses),
				f(c.WinRate), f(c.WinBand[0]), f(c.WinBand[1]), f(c.MeanMargin), f(c.MarginBand[0]), f(c.MarginBand[1])}
			if g := p.Gap; g != nil && j == 1 {
				rec = append(rec, f(g.Score), f(g.ScoreBand[0]), f(g.ScoreBand[1]), f(g.Margin), f(g.MarginBand[0]), f(g.MarginBand[1]))
			} else {
				rec = append(rec, "", "", "", "", "", "")
			}
			w.Write(rec)
		}
	}
}

// curveSection reports a curve: the win rate and the margin against the
// skill, a line per difficulty in its band.
func curveSection(idx int, src Source, r *sim.CurveResult) (section, error) {
	s := newSection(idx, "curve", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games", Value: curveGamesWords(r)},
		{Name: "Politician", Value: r.Politician},
	}
	if r.Target > 0 {
		s.Facts = append(s.Facts, fact{Name: "Target win rate", Value: pct(r.Target)})
	}
	s.Facts = append(s.Facts, closingFacts(src, curveCommand(r))...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "The skill is the dial's (dial:skill=S): 0 plays at random, 1 is the skilled level, 2 the expert level. The "+curveBandWords+".")
	for j, x := range r.Crossings {
		s.List = append(s.List, sentence(curveCrossingWords(r, j, &x)))
	}
	if w := curveGapWords(r); w != "" {
		s.List = append(s.List, sentence(w))
	}
	var series []bandSeries
	var margins []bandSeries
	for j, m := range r.Modes {
		var win, mar bandSeries
		win.name, mar.name = capitalize(m), capitalize(m)
		for i := range r.Points {
			p := &r.Points[i]
			c := &p.Cells[j]
			win.add(p.Skill, 100*c.WinRate, 100*c.WinBand[0], 100*c.WinBand[1])
			mar.add(p.Skill, c.MeanMargin, c.MarginBand[0], c.MarginBand[1])
		}
		series, margins = append(series, win), append(margins, mar)
	}
	t := table{Header: []string{"skill", "difficulty", "games", "wins", "win rate", "band low", "band high", "mean margin", "band low", "band high"}}
	for i := range r.Points {
		p := &r.Points[i]
		for j := range p.Cells {
			c := &p.Cells[j]
			path := fmt.Sprintf("points.%d.cells.%d.", i, j)
			t.Rows = append(t.Rows, []cell{text(skillName(p)), text(c.Mode), count(c.Games, path+"games"), count(c.Wins, path+"wins"),
				percent(c.WinRate, path+"win_rate"), percent(c.WinBand[0], path+"win_band.0"), percent(c.WinBand[1], path+"win_band.1"),
				signed(c.MeanMargin, path+"mean_margin"), signed(c.MarginBand[0], path+"margin_band.0"), signed(c.MarginBand[1], path+"margin_band.1")})
		}
	}
	target := -1.0
	if r.Target > 0 {
		target = 100 * r.Target
	}
	win, err := bandFigure(s.ID+"-winrate", "Win rate by skill", "skill (the dial: 1 skilled, 2 expert)", "win rate (% of games won)", series, target, t)
	if err != nil {
		return section{}, err
	}
	mt := table{Header: []string{"skill", "difficulty", "gap: score", "band low", "band high", "gap: margin", "band low", "band high"}}
	for i := range r.Points {
		p := &r.Points[i]
		if g := p.Gap; g != nil {
			path := fmt.Sprintf("points.%d.gap.", i)
			mt.Rows = append(mt.Rows, []cell{text(skillName(p)), text(r.Modes[1] + " − " + r.Modes[0]),
				points(g.Score, path+"score"), points(g.ScoreBand[0], path+"score_band.0"), points(g.ScoreBand[1], path+"score_band.1"),
				signed(g.Margin, path+"margin"), signed(g.MarginBand[0], path+"margin_band.0"), signed(g.MarginBand[1], path+"margin_band.1")})
		}
	}
	mar, err := bandFigure(s.ID+"-margin", "Mean margin by skill", "skill (the dial: 1 skilled, 2 expert)", "mean margin (votes)", margins, -1, mt)
	if err != nil {
		return section{}, err
	}
	s.Groups = append(s.Groups, group{Figures: []figure{win, mar}})
	return s, nil
}

// bandSeries is one line of a band figure: points with their intervals.
// A dense series (a function read on a fine grid) is drawn as a line
// alone.
type bandSeries struct {
	name           string
	xs, ys, lo, hi []float64
	dense          bool
}

func (b *bandSeries) add(x, y, lo, hi float64) {
	b.xs, b.ys, b.lo, b.hi = append(b.xs, x), append(b.ys, y), append(b.lo, lo), append(b.hi, hi)
}

// seriesDashes tell dense series apart without colour.
var seriesDashes = [][]vg.Length{nil, dashed(), {vg.Points(1), vg.Points(2)}, {vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}}

// bandColours are the fills of the series' bands: each series' colour,
// light enough that the lines drawn over them stay clear.
var bandColours = []color.Color{bandColour, color.RGBA{0xf5, 0xdc, 0x9e, 0xff}, color.RGBA{0xa6, 0xdc, 0xc9, 0xff}}

// bandFigure draws each series as a line through its points over the band
// of their intervals, and a target line at target (< 0: none).
func bandFigure(id, title, xLabel, yLabel string, series []bandSeries, target float64, t table) (figure, error) {
	p := newPlot(title, xLabel, yLabel)
	var legend []legendItem
	var lines []plot.Plotter // drawn over every band
	xmin, xmax := 0.0, 1.0
	for k, s := range series {
		if len(s.xs) == 0 {
			continue
		}
		xmin, xmax = min(xmin, slices.Min(s.xs)), max(xmax, slices.Max(s.xs))
		var line, band plotter.XYs
		for i := range s.xs {
			line = append(line, plotter.XY{X: s.xs[i], Y: s.ys[i]})
			band = append(band, plotter.XY{X: s.xs[i], Y: s.lo[i]})
		}
		for i := len(s.xs) - 1; i >= 0; i-- {
			band = append(band, plotter.XY{X: s.xs[i], Y: s.hi[i]})
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		poly.Color = bandColours[k%len(bandColours)]
		poly.LineStyle.Width = 0
		l, dots, err := plotter.NewLinePoints(line)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		l.LineStyle = solid(seriesColour(k), 1.5)
		if s.dense {
			l.LineStyle.Dashes = seriesDashes[k%len(seriesDashes)]
			lines = append(lines, l)
			legend = append(legend, legendItem{s.name, l})
			continue
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: seriesColour(k), Radius: vg.Points(3), Shape: seriesShape(k)}
		p.Add(poly)
		lines = append(lines, l, dots)
		legend = append(legend, legendItem{s.name, dots})
	}
	p.Add(lines...)
	if target >= 0 {
		l, err := hLine(p, target, xmin, xmax, draw.LineStyle{Color: lostColour, Width: vg.Points(1.5), Dashes: dashed()})
		if err != nil {
			return figure{}, err
		}
		legend = append(legend, legendItem{fmt.Sprintf("target %g%%", target), l})
	}
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(280), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Table: t}, nil
}

// curveCommand reconstructs the curve command line of r.
func curveCommand(r *sim.CurveResult) string {
	var skills []string
	var games, search int64
	for _, p := range r.Points {
		skills = append(skills, sim.SkillText(p.Skill))
		if p.Skill > 1 {
			search = p.Games
		} else {
			games = p.Games
		}
	}
	args := []string{"curve", "--skills", strings.Join(skills, ","), "--mode", strings.Join(r.Modes, ","), "--seed", fmt.Sprint(r.Seed)}
	if games > 0 {
		args = append(args, "--games", fmt.Sprint(games))
	}
	if search > 0 {
		args = append(args, "--search-games", fmt.Sprint(search))
	}
	args = append(args, "--politician", r.Politician, "--target", fmt.Sprint(r.Target))
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}
