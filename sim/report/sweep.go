package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindSweep, kindView[*sim.SweepResult]{text: sweepText, wide: true, csv: sweepCSV, section: sweepSection})
}

// pointLabel names a point by its values, one per swept parameter.
func pointLabel(params, values []string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = v
		if len(params) > 1 && i < len(params) {
			parts[i] = params[i] + "=" + v
		}
	}
	return strings.Join(parts, ", ")
}

// sweepX returns the X position of each point: the swept value itself
// when one parameter is swept over numbers, else the point's index (the
// axis then names each point).
func sweepX(r *sim.SweepResult, c *sim.SweepCell) (xs []float64, numeric bool) {
	xs = make([]float64, len(c.Points))
	numeric = len(r.Params) == 1
	for i, p := range c.Points {
		v, err := strconv.ParseFloat(p.Values[0], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			numeric = false
		}
		xs[i] = v
	}
	if !numeric {
		for i := range xs {
			xs[i] = float64(i)
		}
	}
	return xs, numeric
}

// sweepSection reports a sweep result.
func sweepSection(idx int, src Source, r *sim.SweepResult) (section, error) {
	command := sweepCommand(r)
	s := newSection(idx, "sweep", src)
	games := gamesOfShard(r.GamesPerCell, r.Shard)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Base rules", Value: r.RulesVersion},
		{Name: "Base rules hash", Value: r.RulesHash},
		{Name: "Swept", Value: strings.Join(r.Params, ", ")},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games per cell and point", Value: games},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Base rules changed by", Value: strings.Join(r.Overrides, " ")})
	}
	if r.Target > 0 {
		s.Facts = append(s.Facts, fact{Name: "Target win rate", Value: fmt.Sprintf("%g%% %s (a draw is not a win)", 100*r.Target, toleranceText(r.Tolerance))})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	band := "the Wilson 95% interval of each point's win rate"
	if r.Target > 0 {
		band = "each value's simultaneous interval (see how the crossing is found)"
	}
	s.Notes = append(s.Notes, "Every point plays the same seeds as the base rules; the band is "+band+".")
	if r.Target != 0 {
		s.Notes = append(s.Notes, "How the target is answered: "+crossingMethod(r)+".")
	}
	// Each cell's answer and its plot lead; the statistics follow them
	// (issue 42).
	for i := range r.Cells {
		s.Answers = append(s.Answers, sweepAnswer(r, &r.Cells[i]))
		f, err := sweepFigure(fmt.Sprintf("%s-cell%d-winrate", s.ID, i+1), r, i)
		if err != nil {
			return section{}, err
		}
		s.Lead = append(s.Lead, f)
	}
	return s, nil
}

// sweepAnswer is a cell's answer in words: where its win rate meets the
// target (crossingWords), or without a target how far the win rate runs
// over the swept values, from the lowest to the highest with their 95%
// intervals, against the base rules'.
func sweepAnswer(r *sim.SweepResult, c *sim.SweepCell) string {
	name := CellTitle(&c.Base, &c.Base)
	if r.Target > 0 && (c.Crossing != nil || c.NotRead) {
		return name + ": " + crossingWords(r, c)
	}
	if len(c.Points) == 0 {
		return name + ": no point was played"
	}
	lo, hi := &c.Points[0], &c.Points[0]
	for j := range c.Points {
		p := &c.Points[j]
		if p.Result.WinRate < lo.Result.WinRate {
			lo = p
		}
		if p.Result.WinRate > hi.Result.WinRate {
			hi = p
		}
	}
	at := func(p *sim.SweepPointResult) string {
		w := &p.Result
		where := pointLabel(r.Params, p.Values)
		if len(r.Params) == 1 {
			where = r.Params[0] + " " + where // a bare value does not say of what
		}
		return fmt.Sprintf("%s [%s, %s] at %s", pct(w.WinRate), pct(w.WinCI95[0]), pct(w.WinCI95[1]), where)
	}
	return fmt.Sprintf("%s: the win rate runs from %s to %s (95%% intervals); the base rules win %s", name, at(lo), at(hi), pct(c.Base.WinRate))
}

// sweepFigure draws one cell's win rate against the swept value, with
// its interval band, the base rules' win rate, and the target and where
// the win rate meets it when the sweep had a target.
func sweepFigure(id string, r *sim.SweepResult, ci int) (figure, error) {
	c := &r.Cells[ci]
	name := CellTitle(&c.Base, &c.Base)
	short := make([]string, len(r.Params))
	for i, p := range r.Params {
		short[i] = p[strings.LastIndex(p, ".")+1:]
	}
	title := "Win rate by " + strings.Join(short, " × ") + ": " + name
	xs, numeric := sweepX(r, c)
	xLabel := r.Params[0] + " (its value in the rules file)"
	if !numeric {
		xLabel = "point: " + strings.Join(short, ", ")
	}
	p := newPlot(title, xLabel, "win rate (% of games won)")
	t := table{Header: []string{strings.Join(r.Params, ", "), "games", "wins", "win rate", "95% low", "95% high", "score vs base", "95% low", "95% high", "margin vs base (votes)"}}
	if r.Target > 0 {
		t.Header = append(t.Header, "simultaneous low", "simultaneous high")
	}
	// The base rules have a row of their own only when no point is them.
	if baseAmong(c) < 0 {
		t.Rows = append(t.Rows, []cell{
			text("base rules"), count(c.Base.Games, fmt.Sprintf("cells.%d.base.games", ci)), count(c.Base.Wins, fmt.Sprintf("cells.%d.base.wins", ci)),
			percent(c.Base.WinRate, fmt.Sprintf("cells.%d.base.win_rate", ci)),
			percent(c.Base.WinCI95[0], fmt.Sprintf("cells.%d.base.win_ci95.0", ci)), percent(c.Base.WinCI95[1], fmt.Sprintf("cells.%d.base.win_ci95.1", ci)),
			text(""), text(""), text(""), text(""),
		})
		if r.Target > 0 {
			t.Rows[0] = append(t.Rows[0], text(""), text(""))
		}
	}
	// Points in the order of their X, so the line and band run left to right.
	order := make([]int, len(c.Points))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(xs[a], xs[b]) })
	var line, lower, upper plotter.XYs
	var labels []string
	for _, i := range order {
		pt := &c.Points[i]
		w := &pt.Result
		line = append(line, plotter.XY{X: xs[i], Y: 100 * w.WinRate})
		band := w.WinCI95
		if pt.WinCISimultaneous != nil {
			band = *pt.WinCISimultaneous
		}
		lower = append(lower, plotter.XY{X: xs[i], Y: 100 * band[0]})
		upper = append(upper, plotter.XY{X: xs[i], Y: 100 * band[1]})
		labels = append(labels, strings.Join(pt.Values, ", "))
		path := fmt.Sprintf("cells.%d.points.%d.", ci, i)
		label := pointLabel(r.Params, pt.Values)
		if pt.IsBase {
			label += " (base rules)"
		}
		t.Rows = append(t.Rows, []cell{
			text(label), count(w.Games, path+"result.games"), count(w.Wins, path+"result.wins"),
			percent(w.WinRate, path+"result.win_rate"), percent(w.WinCI95[0], path+"result.win_ci95.0"), percent(w.WinCI95[1], path+"result.win_ci95.1"),
			points(pt.ScoreDiff, path+"score_diff"), points(pt.ScoreDiffCI95[0], path+"score_diff_ci95.0"), points(pt.ScoreDiffCI95[1], path+"score_diff_ci95.1"),
			signed(pt.MarginDiff, path+"margin_diff"),
		})
		if r.Target > 0 {
			row := &t.Rows[len(t.Rows)-1]
			if pt.WinCISimultaneous != nil {
				*row = append(*row, percent(band[0], path+"win_ci_simultaneous.0"), percent(band[1], path+"win_ci_simultaneous.1"))
			} else {
				*row = append(*row, text(""), text(""))
			}
		}
	}
	if !numeric {
		p.X.Tick.Marker = pointTicks(labels)
	}
	// The axes' ranges: every point, its interval, the base and the
	// target, so that the crossing's zone can be drawn first, under the
	// data, across the whole height.
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := 100*c.Base.WinRate, 100*c.Base.WinRate
	for i := range line {
		xmin, xmax = min(xmin, line[i].X), max(xmax, line[i].X)
		ymin, ymax = min(ymin, lower[i].Y), max(ymax, upper[i].Y)
	}
	if r.Target > 0 {
		ymin, ymax = min(ymin, 100*(r.Target-r.Tolerance)), max(ymax, 100*(r.Target+r.Tolerance))
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax = 0, 1
	}
	pad := 0.06 * max(ymax-ymin, 1)
	ymin, ymax = max(0, ymin-pad), min(100, ymax+pad)
	xpad := 0.04 * max(xmax-xmin, 1e-9)
	var legend []legendItem
	x := c.Crossing
	if r.Target > 0 && x != nil && numeric {
		// Each place where the win rate may meet the target, from the
		// nearest value below it to the nearest above (the axis' end
		// where none was swept).
		end := func(v *string, beyond float64) float64 {
			if v == nil {
				return beyond
			}
			f, _ := strconv.ParseFloat(*v, 64)
			return f
		}
		for k, g := range x.Regions {
			z, err := rect(p, end(g.Below, xmin), end(g.Above, xmax), ymin, ymax, regionTint)
			if err != nil {
				return figure{}, err
			}
			if k == 0 {
				legend = append(legend, legendItem{"where it may meet the target", z})
			}
		}
	}
	if len(line) > 0 {
		band := slices.Clone(lower)
		for i := len(upper) - 1; i >= 0; i-- {
			band = append(band, upper[i])
		}
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		poly.Color = bandColour
		poly.LineStyle.Width = 0
		l, dots, err := plotter.NewLinePoints(line)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		l.LineStyle = solid(wonColour, 1.5)
		dots.GlyphStyle = draw.GlyphStyle{Color: wonColour, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		p.Add(poly)
		bandName := "95% band"
		if r.Target > 0 {
			bandName = "simultaneous 95% band"
		}
		legend = append(legend, legendItem{"win rate", dots}, legendItem{bandName, poly})
		if r.Target > 0 {
			// The band a value's verdict reads (issue 42): it meets the
			// target when its interval lies inside, over the interval band
			// and under the line.
			z, err := rect(p, xmin-xpad, xmax+xpad, 100*(r.Target-r.Tolerance), 100*(r.Target+r.Tolerance), shadeGrey)
			if err != nil {
				return figure{}, err
			}
			legend = append(legend, legendItem{"shaded: the target " + sweepTargetText(r), z})
		}
		p.Add(l, dots)
	}
	base, err := hLine(p, 100*c.Base.WinRate, xmin, xmax, draw.LineStyle{Color: grey, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}})
	if err != nil {
		return figure{}, err
	}
	legend = append(legend, legendItem{"base rules", base})
	note := ""
	if r.Target > 0 {
		target, err := hLine(p, 100*r.Target, xmin, xmax, draw.LineStyle{Color: lostColour, Width: vg.Points(1.5), Dashes: dashed()})
		if err != nil {
			return figure{}, err
		}
		legend = append(legend, legendItem{fmt.Sprintf("target %g%%", 100*r.Target), target})
		note = "The shaded band is the target " + sweepTargetText(r) + ": a value meets it when its simultaneous interval lies inside."
		if x != nil && len(x.Regions) > 0 && numeric {
			note += " The tinted columns are where the win rate may meet the target."
		}
	}
	p.X.Min, p.X.Max = xmin-xpad, xmax+xpad
	p.Y.Min, p.Y.Max = ymin, ymax
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(280), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t}, nil
}

// pointTicks labels the X axis of a sweep over several parameters (or
// values that are not numbers) with each point's values: every point has
// a tick, and at most about eight of them a label, so labels never run
// into each other.
type pointTicks []string

// Ticks implements plot.Ticker.
func (pt pointTicks) Ticks(lo, hi float64) []plot.Tick {
	every := (len(pt) + 7) / 8
	var ts []plot.Tick
	for i, l := range pt {
		if i%every != 0 {
			l = ""
		}
		ts = append(ts, plot.Tick{Value: float64(i), Label: l})
	}
	return ts
}

// sweepText writes a sweep: per cell, a table of the base rules and every
// point against it, and where the win rate meets the target. Without
// wide the table keeps the columns that fit textWidth: the win rate and
// the paired differences (the margin's only for one swept parameter).
func sweepText(b *bytes.Buffer, r *sim.SweepResult, opt TextOptions) error {
	wide := opt.Wide
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
		fmt.Fprintf(b, "\n%s, %s, politician %s:\n", capitalize(c.Mode), playerName(c.Policy), politicianName(c.Politician))
		var rows [][]string
		row := func(values []string, cell *sim.Cell, p *sim.SweepPointResult) {
			rec := append([]string{}, values...)
			rate := fmt.Sprintf("%s [%s, %s]", pct(cell.WinRate), pct(cell.WinCI95[0]), pct(cell.WinCI95[1]))
			if wide {
				rec = append(rec, fmt.Sprintf("%d / %d / %d", cell.Wins, cell.Draws, cell.Losses), rate,
					fmt.Sprintf("%s [%s, %s]", signedText(cell.MeanMargin), signedText(cell.MarginCI95[0]), signedText(cell.MarginCI95[1])))
				if r.Target != 0 {
					rec = append(rec, simultaneousText(r, p))
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
		// them, so that a swept value equal to the base shows once.
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
		if c.Crossing != nil || c.NotRead && r.Target != 0 {
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
		wrapTo(b, "Target: "+crossingMethod(r)+".", "")
	}
	return nil
}

// sweepTargetText is a sweep's target with its tolerance: "15% ±2 points".
func sweepTargetText(r *sim.SweepResult) string {
	return fmt.Sprintf("%g%% %s", 100*r.Target, toleranceText(r.Tolerance))
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

// simultaneousText is a point's simultaneous interval, "" where it has
// none, in the digits that tell it from r's target and its edges.
func simultaneousText(r *sim.SweepResult, p *sim.SweepPointResult) string {
	if p == nil || p.WinCISimultaneous == nil {
		return ""
	}
	return bandCI(*p.WinCISimultaneous, targetEdges(r)...)
}

// targetEdges are the rates a sweep's target is read against: the target
// and its edges, target ± tolerance (none without a target).
func targetEdges(r *sim.SweepResult) []float64 {
	if r.Target == 0 {
		return nil
	}
	return []float64{r.Target, r.Target - r.Tolerance, r.Target + r.Tolerance}
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

func sweepCSV(w *csv.Writer, r *sim.SweepResult) {
	f, i := csvFloat, csvInt
	header := append([]string{"mode", "policy", "politician"}, r.Params...)
	header = append(header, "is_base", "games", "wins", "draws", "losses", "win_rate", "win_ci95_lo", "win_ci95_hi",
		"win_ci_simultaneous_lo", "win_ci_simultaneous_hi", "mean_margin", "margin_ci95_lo", "margin_ci95_hi",
		"score_diff_vs_base", "score_diff_ci95_lo", "score_diff_ci95_hi",
		"margin_diff_vs_base", "margin_diff_ci95_lo", "margin_diff_ci95_hi", "target_answer", "games_to_settle")
	w.Write(header)
	row := func(c *sim.SweepCell, values []string, isBase bool, cell *sim.Cell, simultaneous *[2]float64, diffs []string) {
		rec := append([]string{c.Mode, levelName(c.Policy), c.Politician}, values...)
		rec = append(rec, strconv.FormatBool(isBase), i(cell.Games), i(cell.Wins), i(cell.Draws), i(cell.Losses),
			f(cell.WinRate), f(cell.WinCI95[0]), f(cell.WinCI95[1]))
		if simultaneous != nil {
			rec = append(rec, f(simultaneous[0]), f(simultaneous[1]))
		} else {
			rec = append(rec, "", "")
		}
		rec = append(rec, f(cell.MeanMargin), f(cell.MarginCI95[0]), f(cell.MarginCI95[1]))
		w.Write(append(rec, diffs...))
	}
	for k := range r.Cells {
		c := &r.Cells[k]
		// The base rules' own row only when no point is them (is_base
		// marks the point that is).
		if baseAmong(c) < 0 {
			row(c, baseValues(r), true, &c.Base, nil, []string{"0", "0", "0", "0", "0", "0", "", ""})
		}
		for j := range c.Points {
			p := &c.Points[j]
			answer := ""
			if p.Target != nil {
				answer = p.Target.String() // the JSON's name: programs read the CSV
			}
			row(c, p.Values, p.IsBase, &p.Result, p.WinCISimultaneous, []string{f(p.ScoreDiff), f(p.ScoreDiffCI95[0]), f(p.ScoreDiffCI95[1]),
				f(p.MarginDiff), f(p.MarginDiffCI95[0]), f(p.MarginDiffCI95[1]), answer, i(p.GamesToSettle)})
		}
	}
}

// sweepCommand reconstructs the sweep command line of r.
func sweepCommand(r *sim.SweepResult) string {
	args := []string{"sweep"}
	values := make([][]string, len(r.Params))
	var modes, policies, politicians []string
	for i := range r.Cells {
		c := &r.Cells[i]
		modes, policies, politicians = uniq(modes, c.Base.Mode), uniq(policies, c.Base.Policy), uniq(politicians, c.Base.Politician)
		for _, p := range c.Points {
			for k := range min(len(p.Values), len(values)) {
				values[k] = uniq(values[k], p.Values[k])
			}
		}
	}
	for k, param := range r.Params {
		args = append(args, "--set", param+"="+strings.Join(values[k], ","))
	}
	args = append(args, "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed),
		"--mode", strings.Join(modes, ","), "--policy", strings.Join(policies, ","), "--politician", strings.Join(politicians, ","))
	if r.Target > 0 {
		args = append(args, "--target", fmt.Sprint(r.Target))
		if r.Tolerance != sim.DefaultTolerance {
			args = append(args, "--tolerance", fmt.Sprint(r.Tolerance))
		}
	}
	// The base rules' own overrides come with the rules file.
	if len(r.Overrides) > 0 || r.RulesHash != engine.Reference().Hash {
		args = append(args, "--rules", rulesFile(r.RulesID))
	}
	return reproducing(args, r.Shard)
}

// crossingMethod says how a sweep answers a target (sim's simultaneous,
// crossing and targetAnswer), printed with every target.
func crossingMethod(r *sim.SweepResult) string {
	return "each swept value's win rate (a draw is not a win, as in the target; SCORE counts it ½) has an exact (Clopper–Pearson) interval " +
		"of confidence 1 − 0.05/k, k the number of swept values (Bonferroni), so that all k hold at once with 95% confidence: " +
		"a designer reads every value, so each must be right together. A value meets the target when its interval lies within " +
		"the target " + toleranceText(r.Tolerance) + ", misses it when it lies beyond, and else has not enough games (about how many " +
		"would settle it is said). The target may lie at the values whose interval contains it, and between two adjacent values " +
		"whose intervals lie on either side of it; if the win rate is monotone in the parameter, the setting that gives the target " +
		"lies between the nearest values below and above (95%); nothing is assumed between swept values, and only values a rules " +
		"file can hold are named. Which way to sweep, when every value lies on one side, is the paired test of the last value " +
		"against the first on the same seeds (95%)"
}

// crossingWords says where a sweep cell's win rate meets the target, in
// swept values with their simultaneous intervals, which values meet it
// within the tolerance, or which way to sweep when it meets it nowhere.
func crossingWords(r *sim.SweepResult, c *sim.SweepCell) string {
	param, target := r.Params[0], pct(r.Target)
	if c.NotRead {
		return fmt.Sprintf("%s's game reads none of %s: every value plays the base's games, and says nothing of the target",
			CellTitle(&c.Base, &c.Base), param)
	}
	x := c.Crossing
	at := map[string]*sim.SweepPointResult{}
	for j := range c.Points {
		at[c.Points[j].Values[0]] = &c.Points[j]
	}
	value := func(v string) string {
		p := at[v]
		base := ""
		if p.IsBase {
			base = "the base: "
		}
		ci := p.WinCISimultaneous
		return fmt.Sprintf("%s (%s%s %s)", v, base, pct(p.Result.WinRate), bandCI(*ci, targetEdges(r)...))
	}
	nearest := func(v *string, way string) string {
		if v == nil {
			return "none (sweep " + way + ")"
		}
		return value(*v)
	}
	meets := meetsWords(r, c)
	if len(x.Regions) == 0 {
		way := fmt.Sprintf("no direction at this precision (the last value against the first: %s)", endsText(x))
		if x.Sweep != "" {
			way = fmt.Sprintf("sweep %s %s (the last value against the first: %s)", param, x.Sweep, endsText(x))
		}
		return fmt.Sprintf("the win rate is %s the target %s at every swept value of %s (by its simultaneous 95%% interval): %s; %s",
			x.Side, target, param, way, meets)
	}
	parts := make([]string, len(x.Regions))
	for k, g := range x.Regions {
		if len(g.Values) == 0 {
			parts[k] = fmt.Sprintf("it passes %s between %s and %s, %s", target, value(*g.Below), value(*g.Above), between(*g.Below, *g.Above))
			continue
		}
		vs := make([]string, len(g.Values))
		for i, v := range g.Values {
			vs[i] = value(v)
		}
		parts[k] = fmt.Sprintf("values whose simultaneous 95%% interval contains %s: %s; nearest below: %s, nearest above: %s",
			target, strings.Join(vs, ", "), nearest(g.Below, "lower"), nearest(g.Above, "higher"))
	}
	if !x.Multiple && len(x.Regions[0].Values) == 0 {
		return "the win rate at " + param + " " + strings.TrimPrefix(parts[0], "it ") + "; " + meets
	}
	if !x.Multiple {
		return "the win rate may meet " + target + " at " + param + ": " + parts[0] + "; " + meets
	}
	for k := range parts {
		parts[k] = fmt.Sprintf("(%d) %s", k+1, parts[k])
	}
	return fmt.Sprintf("the win rate may meet %s at %s in %d places: %s; %s", target, param, len(parts), strings.Join(parts, "; "), meets)
}

// endsText is the paired difference of the last swept value's win rate
// against the first's and its 95% interval, or why there is none.
func endsText(x *sim.Crossing) string {
	if x.EndsDiffCI == nil {
		return "not played"
	}
	return fmt.Sprintf("%s points [%s, %s], paired", pointsText(x.EndsDiff), pointsText(x.EndsDiffCI[0]), pointsText(x.EndsDiffCI[1]))
}

// meetsWords says which swept values meet the target within the
// tolerance, and which have not enough games, with about how many would
// settle them.
func meetsWords(r *sim.SweepResult, c *sim.SweepCell) string {
	var meet, unsettled []string
	for j := range c.Points {
		p := &c.Points[j]
		if p.Target == nil {
			continue
		}
		switch *p.Target {
		case sim.TargetWithin:
			meet = append(meet, p.Values[0])
		case sim.TargetUnsettled:
			unsettled = append(unsettled, fmt.Sprintf("%s (%s)", p.Values[0], settleText(p.GamesToSettle, "games")))
		}
	}
	s := fmt.Sprintf("meets %s %s at ", pct(r.Target), toleranceText(r.Tolerance))
	if len(meet) == 0 {
		s += "no swept value"
	} else {
		s += strings.Join(meet, ", ")
	}
	if len(unsettled) > 0 {
		s += "; not enough games to tell at " + strings.Join(unsettled, ", ")
	}
	return s
}
