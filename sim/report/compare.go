package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindCompare, kindView[*sim.CompareResult]{text: compareText, wide: true, csv: compareCSV, section: compareSection})
}

// armFact describes one arm of a comparison.
func armFact(a *sim.ArmInfo) string {
	s := fmt.Sprintf("%s: rules %s (%s)", a.Name, a.RulesVersion, engine.ShortHash(a.RulesHash))
	if len(a.Overrides) > 0 {
		s += ", set " + strings.Join(a.Overrides, " ")
	}
	if a.Automaton != nil {
		s += fmt.Sprintf(", the automaton %s (%s)", a.Automaton.Name, engine.ShortHash(a.Automaton.Hash))
	}
	return s
}

// compareSection reports a compare result.
func compareSection(idx int, src Source, r *sim.CompareResult) (section, error) {
	command := compareCommand(r)
	s := newSection(idx, "compare", src)
	if len(r.Cells) > 0 {
		a, b, _ := armNames(r, &r.Cells[0].A, &r.Cells[0].B)
		s.Heading = fmt.Sprintf("compare: %s against %s (%s)", b, a, filepath.Base(src.Name))
	}
	s.ChangedTitle, s.Changed = "B differs from A in:", differenceLines(r)
	for i := range r.Cells {
		s.Answers = append(s.Answers, answerLine(r, &r.Cells[i]))
	}
	s.Answers = append(s.Answers, skipLines(r)...)
	s.Read = howToRead(r)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Arm A", Value: armFact(&r.A)},
		{Name: "Arm B", Value: armFact(&r.B)},
		{Name: "Rules hashes", Value: "A " + r.A.RulesHash + ", B " + r.B.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Cells", Value: fmt.Sprintf("%d (%d tested)", len(r.Cells), r.CellsTested)},
		{Name: "Tolerance", Value: toleranceText(r.Tolerance) + " of score"},
	}
	if len(r.Skipped) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Cells not played", Value: fmt.Sprintf("%d (their game reads none of the changes)", len(r.Skipped))})
	}
	if l := playersLegend(compareLabels(r)); l != "" {
		s.Facts = append(s.Facts, fact{Name: "Players", Value: strings.TrimPrefix(l, "players: ")})
	}
	if r.Shard != "" {
		s.Facts = append(s.Facts, fact{Name: "Shard", Value: r.Shard + " of the run"})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	conf := percentText(r.Confidence)
	s.Notes = append(s.Notes, fmt.Sprintf("Both arms play the same seeds (common random numbers); every difference is B − A. "+
		"The score counts a win 1 and a draw ½; its difference is in percentage points. Each difference has a 95%% paired t "+
		"interval on its own, and the verdict's: the %s interval, simultaneous over every test (the score's a score interval, "+
		"Wilson's for paired differences, which holds with few pairs that differ; the margin's Student's t), with the p-value "+
		"adjusted alike (Bonferroni). The figures draw the verdict's.", conf),
		sentence(ruleWords(r)))
	var stopped []string
	for i := range r.Cells {
		c := &r.Cells[i]
		if testStopped(c.Sequential) {
			stopped = append(stopped, CellTitle(&c.A, &c.B))
		}
	}
	if len(stopped) > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("The sequential test stopped %d of the %d cells (%s): their estimates are %s.",
			len(stopped), len(r.Cells), strings.Join(stopped, "; "), stoppedWords))
	}

	var test *sim.SequentialResult
	for i := range r.Cells {
		if r.Cells[i].Sequential != nil {
			test = r.Cells[i].Sequential
			break
		}
	}
	// The band each verdict reads, shaded on the scale it reads (issue
	// 42): the tolerance on the score; a cell with a sequential test
	// takes its verdict from the test instead, whose zone is on the
	// score or the margin.
	scoreShade, marginShade := toleranceShade(r.Tolerance), (*shade)(nil)
	if test != nil {
		lo, hi := min(test.P0, test.P1), max(test.P0, test.P1)
		if test.Delta > 0 {
			lo, hi = -test.Delta, test.Delta
		}
		sh := &shade{lo: lo, hi: hi, legend: fmt.Sprintf("shaded: the sequential test's zone, %s to %s", seqUnit(test, lo), seqUnit(test, hi))}
		if test.Delta > 0 {
			sh.legend = "shaded: the sequential test's zone ±" + strings.TrimPrefix(seqUnit(test, hi), "+")
		}
		scoreShade = nil
		if test.On == sim.OnMargin {
			marginShade = sh
		} else {
			sh.lo, sh.hi = 100*lo, 100*hi
			scoreShade = sh
		}
		sh.note = fmt.Sprintf("The shaded band, %+.3g to %+.3g, is the sequential test's indifference zone.", sh.lo, sh.hi)
	}

	scoreRows := make([]forestRow, len(r.Cells))
	marginRows := make([]forestRow, len(r.Cells))
	scoreTable := table{Header: []string{"cell", "pairs", "A win rate", "B win rate", "win rate B − A", "score B − A",
		"95% low", "95% high", "p", conf + " low", conf + " high", "adjusted p", "verdict"}}
	marginTable := table{Header: []string{"cell", "A margin", "B margin", "B − A", "95% low", "95% high", "p", conf + " low", conf + " high", "adjusted p"}}
	for i := range r.Cells {
		c := &r.Cells[i]
		name := CellTitle(&c.A, &c.B)
		scoreRows[i] = forestRow{label: name, est: 100 * c.ScoreDiff, lo: 100 * c.ScoreDiffCI[0], hi: 100 * c.ScoreDiffCI[1]}
		marginRows[i] = forestRow{label: name, est: c.MarginDiff, lo: c.MarginDiffCI[0], hi: c.MarginDiffCI[1]}
		p := fmt.Sprintf("cells.%d.", i)
		scoreTable.Rows = append(scoreTable.Rows, []cell{
			text(name), count(c.Games, p+"games"),
			percent(c.A.WinRate, p+"a.win_rate"), percent(c.B.WinRate, p+"b.win_rate"), points(c.WinRateDiff, p+"win_rate_diff"),
			points(c.ScoreDiff, p+"score_diff"), points(c.ScoreDiffCI95[0], p+"score_diff_ci95.0"), points(c.ScoreDiffCI95[1], p+"score_diff_ci95.1"),
			num(c.ScoreDiffP, "%.2g", p+"score_diff_p"),
			points(c.ScoreDiffCI[0], p+"score_diff_ci.0"), points(c.ScoreDiffCI[1], p+"score_diff_ci.1"),
			num(c.ScoreDiffPAdj, "%.2g", p+"score_diff_p_adj"), text(verdictText(r, c)),
		})
		marginTable.Rows = append(marginTable.Rows, []cell{
			text(name), signed(c.A.MeanMargin, p+"a.mean_margin"), signed(c.B.MeanMargin, p+"b.mean_margin"),
			signed(c.MarginDiff, p+"margin_diff"), signed(c.MarginDiffCI95[0], p+"margin_diff_ci95.0"), signed(c.MarginDiffCI95[1], p+"margin_diff_ci95.1"),
			num(c.MarginDiffP, "%.2g", p+"margin_diff_p"),
			signed(c.MarginDiffCI[0], p+"margin_diff_ci.0"), signed(c.MarginDiffCI[1], p+"margin_diff_ci.1"),
			num(c.MarginDiffPAdj, "%.2g", p+"margin_diff_p_adj"),
		})
	}
	// The answers' plot leads; the statistics and the other figures
	// follow it (issue 42).
	f, err := forestFigure(s.ID+"-score-diff", "Score difference B − A per cell (win 1, draw ½), with the verdict's "+conf+" intervals",
		"score difference B − A (percentage points)", conf+" interval", scoreShade, scoreRows, scoreTable)
	if err != nil {
		return section{}, err
	}
	s.Lead = append(s.Lead, f)
	g := group{}
	f, err = armsWinRateFigure(s.ID, r)
	if err != nil {
		return section{}, err
	}
	g.Figures = append(g.Figures, f)
	f, err = forestFigure(s.ID+"-margin-diff", "Margin difference B − A per cell, with the verdict's "+conf+" intervals",
		"margin difference B − A (votes)", conf+" interval", marginShade, marginRows, marginTable)
	if err != nil {
		return section{}, err
	}
	g.Figures = append(g.Figures, f)
	if test != nil {
		f, err := sequentialFigure(s.ID+"-sequential", r)
		if err != nil {
			return section{}, err
		}
		g.Figures = append(g.Figures, f)
	}
	s.Groups = append(s.Groups, g)
	return s, nil
}

// armsWinRateFigure shows each cell's win rate in both arms.
func armsWinRateFigure(id string, r *sim.CompareResult) (figure, error) {
	const title = "Win rate per cell in arms A and B, with 95% intervals"
	p := newPlot(title, "win rate (% of games won)", "cell")
	n := len(r.Cells)
	names := make([]string, n)
	var a, b whiskers
	t := table{Header: []string{"cell", "arm", "games", "wins", "draws", "losses", "win rate", "95% low", "95% high"}}
	for i := range r.Cells {
		c := &r.Cells[i]
		names[i] = CellTitle(&c.A, &c.B)
		y := rowY(i, n)
		a = append(a, whisker{x: 100 * c.A.WinRate, lo: 100 * c.A.WinCI95[0], hi: 100 * c.A.WinCI95[1], y: y + 0.15})
		b = append(b, whisker{x: 100 * c.B.WinRate, lo: 100 * c.B.WinCI95[0], hi: 100 * c.B.WinCI95[1], y: y - 0.15})
		for _, arm := range []struct {
			name string
			c    *sim.Cell
			key  string
		}{{"A: " + r.A.Name, &c.A, "a"}, {"B: " + r.B.Name, &c.B, "b"}} {
			path := fmt.Sprintf("cells.%d.%s.", i, arm.key)
			t.Rows = append(t.Rows, []cell{
				text(names[i]), text(arm.name), count(arm.c.Games, path+"games"),
				count(arm.c.Wins, path+"wins"), count(arm.c.Draws, path+"draws"), count(arm.c.Losses, path+"losses"),
				percent(arm.c.WinRate, path+"win_rate"), percent(arm.c.WinCI95[0], path+"win_ci95.0"), percent(arm.c.WinCI95[1], path+"win_ci95.1"),
			})
		}
	}
	categoriesY(p, names)
	da, err := addWhiskers(p, a, 0)
	if err != nil {
		return figure{}, err
	}
	db, err := addWhiskers(p, b, 1)
	if err != nil {
		return figure{}, err
	}
	p.X.Min = 0
	padX(p)
	legend := []legendItem{{"A: " + r.A.Name, da}, {"B: " + r.B.Name, db}}
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(n), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-winrate", Title: title, SVG: svg, Table: t,
		Note: "Each row is a cell: difficulty, policy and politician (left out when drawn per game), A → B where the arms differ."}, nil
}

// sequentialFigure shows where each cell's sequential test ended: its
// log-likelihood ratios between the bounds. The result records only the
// final ratios, not their path game by game.
func sequentialFigure(id string, r *sim.CompareResult) (figure, error) {
	const title = "Sequential test per cell: log-likelihood ratios and bounds"
	p := newPlot(title, "log-likelihood ratio (where the test stopped)", "cell")
	var cells []int
	for i := range r.Cells {
		if r.Cells[i].Sequential != nil {
			cells = append(cells, i)
		}
	}
	n := len(cells)
	names := make([]string, n)
	var up, down whiskers
	lo, hi := 0.0, 0.0
	t := table{Header: []string{"cell", "on", "δ", "P0", "P1", "α", "α each", "β", "pairs", "LLR (+δ or P1)", "LLR (−δ)", "lower bound", "upper bound", "decision"}}
	for k, i := range cells {
		c := &r.Cells[i]
		q := c.Sequential
		names[k] = CellTitle(&c.A, &c.B)
		lo, hi = min(lo, q.Lower), max(hi, q.Upper)
		path := fmt.Sprintf("cells.%d.sequential.", i)
		llr := []cell{text(""), text("")}
		for j, v := range q.LLR[:min(len(q.LLR), 2)] {
			w := whisker{x: v, lo: v, hi: v, y: rowY(k, n)}
			lo, hi = min(lo, v), max(hi, v)
			if j == 0 {
				w.y += 0.12
				up = append(up, w)
			} else {
				w.y -= 0.12
				down = append(down, w)
			}
			llr[j] = num(v, "%.3f", fmt.Sprintf("%sllr.%d", path, j))
		}
		t.Rows = append(t.Rows, []cell{
			text(names[k]), text(statisticWords[q.On]), num(q.Delta, "%g", path+"delta"), num(q.P0, "%g", path+"p0"), num(q.P1, "%g", path+"p1"),
			num(q.Alpha, "%g", path+"alpha"), num(q.AlphaEach, "%g", path+"alpha_each"), num(q.Beta, "%g", path+"beta"), count(q.Games, path+"games"),
			llr[0], llr[1], num(q.Lower, "%.3f", path+"lower"), num(q.Upper, "%.3f", path+"upper"), text(decisionWords[q.Decision]),
		})
	}
	categoriesY(p, names)
	first := r.Cells[cells[0]].Sequential
	lower, err := vLine(p, first.Lower, p.Y.Min, p.Y.Max, draw.LineStyle{Color: okBlack, Width: vg.Points(1.5), Dashes: dashed()})
	if err != nil {
		return figure{}, err
	}
	upper, err := vLine(p, first.Upper, p.Y.Min, p.Y.Max, solid(okBlack, 1.5))
	if err != nil {
		return figure{}, err
	}
	legend := []legendItem{{"lower bound: decide for no difference", lower}, {"upper bound: decide for the difference", upper}}
	upName, downName := "LLR", ""
	if first.Delta > 0 {
		upName, downName = fmt.Sprintf("LLR of B − A = +%g against 0", first.Delta), fmt.Sprintf("LLR of B − A = −%g against 0", first.Delta)
	}
	for k, s := range []struct {
		pts  whiskers
		name string
	}{{up, upName}, {down, downName}} {
		if len(s.pts) == 0 {
			continue
		}
		dots, err := plotter.NewScatter(s.pts)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: seriesColour(k), Radius: vg.Points(4), Shape: seriesShape(k)}
		p.Add(dots)
		legend = append(legend, legendItem{s.name, dots})
	}
	pad := 0.08 * max(hi-lo, 1e-9)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(n), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Table: t,
		Note: "A test stops when a ratio crosses a bound. The result records where each ratio ended, not its path game by game."}, nil
}

// compareText writes a comparison: a block per cell, each arm's row and
// the paired differences, then one line per cell in words. Unless wide,
// a line longer than textWidth is wrapped.
func compareText(b *bytes.Buffer, r *sim.CompareResult, opt TextOptions) error {
	wide := opt.Wide
	line := func(format string, a ...any) {
		s := fmt.Sprintf(format, a...)
		if !wide {
			s = wrap(s, textWidth)
		}
		b.WriteString(s + "\n")
	}
	if sameRules(r) {
		// Arms of one rule set differ in what the next lines say, not in
		// a name: "B = reference vs A = reference" named nothing.
		fmt.Fprintf(b, "A and B both play %s (rules %s); seed %d", r.A.Name, engine.ShortHash(r.A.RulesHash), r.Seed)
	} else {
		fmt.Fprintf(b, "B = %s (rules %s) vs A = %s (rules %s); seed %d", r.B.Name, engine.ShortHash(r.B.RulesHash), r.A.Name, engine.ShortHash(r.A.RulesHash), r.Seed)
	}
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	b.WriteString("B differs from A in:\n")
	for _, d := range differenceLines(r) {
		line("  %s", d)
	}
	for _, sk := range skipLines(r) {
		line("%s", sk)
	}
	if l := playersLegend(compareLabels(r)); l != "" {
		line("%s", l)
	}
	var polA, polB []string
	for _, c := range r.Cells {
		polA, polB = append(polA, c.A.Policy), append(polB, c.B.Policy)
	}
	weightsNotes(b, "arm A ", polA, r.A.RulesID)
	weightsNotes(b, "arm B ", polB, r.B.RulesID)
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
		line("  %s", answerLine(r, &r.Cells[i]))
	}
	return nil
}

// sameRules reports whether both arms play one rule set under one name.
func sameRules(r *sim.CompareResult) bool {
	return r.A.RulesHash == r.B.RulesHash && len(r.Changes) == 0 && r.A.Name == r.B.Name
}

// compareLabels are the players of every cell of both arms.
func compareLabels(r *sim.CompareResult) []string {
	var out []string
	for _, c := range r.Cells {
		out = append(out, c.A.Policy, c.B.Policy)
	}
	for _, sk := range r.Skipped {
		out = append(out, sk.Policy)
	}
	return out
}

// compareCommand reconstructs the compare command line of r.
func compareCommand(r *sim.CompareResult) string {
	args := []string{"compare"}
	var games []int64
	var dims [3][2][]string // mode, policy, politician; arm A, arm B
	var test *sim.SequentialResult
	// The grid's cells in order, the ones not played too.
	skipped := map[int]*sim.CompareSkip{}
	for i := range r.Skipped {
		skipped[r.Skipped[i].Cell] = &r.Skipped[i]
	}
	next := 0
	for i := range len(r.Cells) + len(r.Skipped) {
		var a, b *sim.Cell
		var max int64
		if sk := skipped[i]; sk != nil {
			c := &sim.Cell{}
			c.Mode, c.Policy, c.Politician = sk.Mode, sk.Policy, sk.Politician
			a, b, max = c, c, sk.Games
		} else {
			c := &r.Cells[next]
			next++
			a, b, max = &c.A, &c.B, c.MaxGames
			if test == nil {
				test = c.Sequential
			}
		}
		if !slices.Contains(games, max) {
			games = append(games, max)
		}
		for k, cell := range []*sim.Cell{a, b} {
			dims[0][k] = uniq(dims[0][k], cell.Mode)
			dims[1][k] = uniq(dims[1][k], cell.Policy)
			dims[2][k] = uniq(dims[2][k], cell.Politician)
		}
	}
	// One --games for all cells; cells of different sizes had the
	// per-policy defaults.
	if len(games) == 1 {
		args = append(args, "--games", fmt.Sprint(games[0]))
	}
	args = append(args, "--seed", fmt.Sprint(r.Seed))
	for d, flag := range []string{"mode", "policy", "politician"} {
		a, b := dims[d][0], dims[d][1]
		if slices.Equal(a, b) {
			args = append(args, "--"+flag, strings.Join(a, ","))
			continue
		}
		args = append(args, "--a-"+flag, strings.Join(a, ","), "--b-"+flag, strings.Join(b, ","))
	}
	for _, arm := range []struct {
		key string
		a   *sim.ArmInfo
	}{{"a", &r.A}, {"b", &r.B}} {
		args = append(args, rulesArgs("--"+arm.key+"-rules", "--"+arm.key+"-set", arm.a.RulesID)...)
		def := "reference"
		if len(arm.a.Overrides) > 0 {
			def += " [" + strings.Join(arm.a.Overrides, " ") + "]"
		}
		if arm.a.Name != def {
			args = append(args, "--"+arm.key+"-name", arm.a.Name)
		}
	}
	if test != nil {
		if test.Delta > 0 {
			args = append(args, "--sprt-delta", fmt.Sprint(test.Delta))
		} else {
			args = append(args, "--sprt", fmt.Sprintf("%g,%g", test.P0, test.P1))
		}
		if test.On != sim.OnScore {
			args = append(args, "--sprt-on", test.On.String())
		}
		args = append(args, "--alpha", fmt.Sprint(test.Alpha), "--beta", fmt.Sprint(test.Beta))
	}
	if r.Tolerance != sim.DefaultTolerance {
		args = append(args, "--tolerance", fmt.Sprint(r.Tolerance))
	}
	return reproducing(args, r.Shard)
}

// ruleWords states the rule a comparison's verdicts follow, once, as the
// text's heading of its lines in words and the page's note say it.
func ruleWords(r *sim.CompareResult) string {
	level, tol := percentText(r.VerdictLevel), toleranceText(r.Tolerance)
	s := fmt.Sprintf("verdicts at the %s level over all %d tests, a score and a margin per cell, intervals simultaneous at %s: "+
		"with no difference anywhere, the chance that any cell is called easier, harder, or higher or lower in margin is at most %s; "+
		"within %s when the score's interval lies inside the tolerance (with a difference of %s or more, the chance of that is at most %s); "+
		"%s when neither, with about how many pairs would settle it",
		level, r.Tests, percentText(r.Confidence), level, tol, strings.TrimPrefix(tol, "±"), percentText(r.VerdictLevel/2), verdictWords[sim.NotEnoughGames])
	for i := range r.Cells {
		if q := r.Cells[i].Sequential; q != nil {
			s += fmt.Sprintf("; a cell with a sequential test takes its verdict from that test instead, "+
				"at α = %g over all the cells", q.Alpha)
			break
		}
	}
	return s
}

// verdictText is a cell's verdict in words: its word, with the tolerance
// of "within" and the games "not enough games" would take, and after a
// sequential test's verdict "(sequential test)", with the zone or the
// values a terse word stands for.
func verdictText(r *sim.CompareResult, c *sim.CompareCell) string {
	s := c.Sequential
	if s == nil {
		switch c.Verdict {
		case sim.InZone:
			return "within " + toleranceText(r.Tolerance)
		case sim.NotEnoughGames:
			return fmt.Sprintf("%s (%s would settle it)", verdictWords[c.Verdict], settleText(c.GamesToSettle, "pairs"))
		case sim.MarginHigher, sim.MarginLower:
			return fmt.Sprintf("%s (%s would settle the score)", verdictWords[c.Verdict], settleText(c.GamesToSettle, "pairs"))
		}
		return verdictWords[c.Verdict]
	}
	w := verdictWords[c.Verdict]
	switch c.Verdict {
	case sim.InZone:
		w = "within ±" + strings.TrimPrefix(seqUnit(s, s.Delta), "+")
	case sim.ForP0:
		w = fmt.Sprintf("p0: nearer %s than %s", seqUnit(s, s.P0), seqUnit(s, s.P1))
	case sim.ForP1:
		w = fmt.Sprintf("p1: nearer %s than %s", seqUnit(s, s.P1), seqUnit(s, s.P0))
	}
	return w + " (sequential test)"
}

// stoppedWords label every estimate of a cell whose sequential test
// stopped it: the test stops when the data happen to look decisive, so
// the estimates lean toward the decision and the 95 % intervals cover
// less than 95 %.
const stoppedWords = "biased by the stop: the estimates lean toward the decision and the intervals cover less than 95%; confirm with a fixed --games run on a fresh --seed"

// testStopped reports whether a cell's sequential test stopped it, which
// biases its estimates (stoppedWords).
func testStopped(s *sim.SequentialResult) bool { return s != nil && s.Decision != sim.Undecided }

// seqUnit writes a difference on the scale of sequential test s: votes
// or points.
func seqUnit(s *sim.SequentialResult, x float64) string {
	if s.On == sim.OnMargin && math.Abs(x) == 1 {
		return fmt.Sprintf("%+g vote", x)
	}
	if s.On == sim.OnMargin {
		return fmt.Sprintf("%+g votes", x)
	}
	return fmt.Sprintf("%+g points", 100*x)
}

// sequentialWords says in words what a sequential test decided.
func sequentialWords(s *sim.SequentialResult) string {
	unit := func(x float64) string { return seqUnit(s, x) }
	zone := strings.TrimPrefix(unit(s.Delta), "+")
	alpha := fmt.Sprintf("α = %g", s.Alpha)
	if s.AlphaEach != s.Alpha {
		alpha += fmt.Sprintf(" (%g a one-sided test)", s.AlphaEach)
	}
	// On the margin the answer names the margin, as its verdict does
	// (higher or lower margin only): a higher margin is not "easier".
	up, down := "B is easier", "B is harder"
	if s.On == sim.OnMargin {
		up, down = "B's margin is higher", "B's margin is lower"
	}
	var what string
	if s.Delta > 0 {
		switch s.Decision {
		case sim.Easier:
			what = fmt.Sprintf("%s: a difference of %s fits the games better than none", up, unit(s.Delta))
		case sim.Harder:
			what = fmt.Sprintf("%s: a difference of %s fits the games better than none", down, unit(-s.Delta))
		case sim.Within:
			what = fmt.Sprintf("B is within ±%s of A: no difference fits the games better than ±%s", zone, zone)
		default:
			what = "undecided: the games ran out first"
		}
		return fmt.Sprintf("sequential test on the %s, zone ±%s, %s, β = %g: %s (after %d pairs)", statisticWords[s.On], zone, alpha, s.Beta, what, s.Games)
	}
	switch s.Decision {
	case sim.NearerP1:
		what = fmt.Sprintf("decided for %s over %s", unit(s.P1), unit(s.P0))
	case sim.NearerP0:
		what = fmt.Sprintf("decided for %s over %s (only that: not that nothing changed)", unit(s.P0), unit(s.P1))
	default:
		what = "undecided: the games ran out first"
	}
	return fmt.Sprintf("sequential test on the %s of %s against %s, %s, β = %g: %s (after %d pairs)", statisticWords[s.On], unit(s.P0), unit(s.P1), alpha, s.Beta, what, s.Games)
}

// decisionWords are a sequential test's decisions as the page's table
// says them.
var decisionWords = map[sim.Decision]string{
	sim.Undecided: "undecided",
	sim.Easier:    "easier",
	sim.Harder:    "harder",
	sim.Within:    "within",
	sim.NearerP0:  "p0",
	sim.NearerP1:  "p1",
}

// statisticWords name what a sequential test measures, in a sentence or
// a table.
var statisticWords = map[sim.Statistic]string{sim.OnScore: "score", sim.OnMargin: "margin"}

// compareCSVHeader lists the columns of a comparison: a row per cell,
// played or not.
var compareCSVHeader = []string{
	"a_mode", "a_policy", "a_politician", "b_mode", "b_policy", "b_politician", "pairs", "errors",
	"a_wins", "a_draws", "a_losses", "a_win_rate", "b_wins", "b_draws", "b_losses", "b_win_rate",
	"score_diff", "score_diff_ci95_lo", "score_diff_ci95_hi", "score_diff_p", "score_diff_ci_lo", "score_diff_ci_hi", "score_diff_p_adj",
	"margin_diff", "margin_diff_ci95_lo", "margin_diff_ci95_hi", "margin_diff_p", "margin_diff_ci_lo", "margin_diff_ci_hi", "margin_diff_p_adj",
	"verdict", "games_to_settle", "not_played",
}

// compareCSV writes a comparison a row per cell, in the grid's order; a
// cell not played has its labels and, last, the fields its game cannot
// read.
func compareCSV(w *csv.Writer, r *sim.CompareResult) {
	f, i := csvFloat, csvInt
	w.Write(compareCSVHeader)
	skipped := map[int]*sim.CompareSkip{}
	for k := range r.Skipped {
		skipped[r.Skipped[k].Cell] = &r.Skipped[k]
	}
	next := 0
	for k := range len(r.Cells) + len(r.Skipped) {
		if sk := skipped[k]; sk != nil {
			row := []string{sk.Mode, levelName(sk.Policy), sk.Politician, sk.Mode, levelName(sk.Policy), sk.Politician}
			for len(row) < len(compareCSVHeader)-1 {
				row = append(row, "")
			}
			w.Write(append(row, strings.Join(sk.Unread, " ")))
			continue
		}
		c := &r.Cells[next]
		next++
		w.Write([]string{c.A.Mode, levelName(c.A.Policy), c.A.Politician, c.B.Mode, levelName(c.B.Policy), c.B.Politician, i(c.Games), i(c.Errors),
			i(c.A.Wins), i(c.A.Draws), i(c.A.Losses), f(c.A.WinRate), i(c.B.Wins), i(c.B.Draws), i(c.B.Losses), f(c.B.WinRate),
			f(c.ScoreDiff), f(c.ScoreDiffCI95[0]), f(c.ScoreDiffCI95[1]), f(c.ScoreDiffP), f(c.ScoreDiffCI[0]), f(c.ScoreDiffCI[1]), f(c.ScoreDiffPAdj),
			f(c.MarginDiff), f(c.MarginDiffCI95[0]), f(c.MarginDiffCI95[1]), f(c.MarginDiffP), f(c.MarginDiffCI[0]), f(c.MarginDiffCI[1]), f(c.MarginDiffPAdj),
			c.Verdict.String(), i(c.GamesToSettle), ""}) // the JSON's name: programs read the CSV
	}
}
