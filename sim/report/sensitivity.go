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

// sensitivityHead is the first lines of a scan's text: what was played,
// how, and what its words mean.
func sensitivityHead(b *bytes.Buffer, r *sim.SensitivityResult) {
	fmt.Fprintf(b, "sensitivity of rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, " with %s", strings.Join(r.Overrides, ", "))
	}
	games := fmt.Sprintf("%d games per change", r.GamesPerChange)
	if r.Design == sim.DesignRace {
		games = fmt.Sprintf("a budget of %d games per change", r.GamesPerChange)
	}
	b.WriteString("\n")
	run := fmt.Sprintf("seed %d, %s, step %s, tolerance %s", r.Seed, games, r.Step, toleranceText(r.Tolerance))
	if len(r.Fields) > 0 {
		run += ", fields " + strings.Join(r.Fields, " ")
	}
	if r.Shard != "" {
		run += ", shard " + r.Shard
	}
	if r.Interrupted {
		run += ", INTERRUPTED"
	}
	wrapTo(b, run, "")
	wrapTo(b, designText(r), "")
	wrapTo(b, familyText(r), "")
}

// designText says how a scan played its changes.
func designText(r *sim.SensitivityResult) string {
	if r.Design != sim.DesignRace {
		return "fixed: every change on every seed, paired against the base"
	}
	if r.FlagLevel == 0 { // a tallywood-sensitivity/2 race
		return fmt.Sprintf("race: a screen of every change of a cell of %d or more, in groups played together; then each change the screen "+
			"finds likely to matter alone, paired against the base on seeds the screen did not play, in looks of %d, %d, %d … seeds, "+
			"until it is negligible or likely an effect; then each likely effect on fresh seeds (--confirm-seed %d)",
			sim.ScreenMinChanges, r.FirstLook, 2*r.FirstLook, 4*r.FirstLook, r.ConfirmSeed)
	}
	return fmt.Sprintf("race: a screen of every change of a cell of %d or more, in groups played together; then changes alone, paired "+
		"against the base on seeds the screen did not play, in looks of %d, %d, %d … seeds, first those the screen finds may reach %s, "+
		"then the others with the games left, each until it is negligible, likely an effect (its interval at %s excludes 0) or "+
		"probably small; then each likely effect on fresh seeds (--confirm-seed %d)",
		sim.ScreenMinChanges, r.FirstLook, 2*r.FirstLook, 4*r.FirstLook, toleranceText(r.Tolerance), confidenceText(1-r.FlagLevel), r.ConfirmSeed)
}

// familyText states what the verdicts mean and the families of
// intervals they rest on, with their confidence.
func familyText(r *sim.SensitivityResult) string {
	tol := toleranceText(r.Tolerance)
	if r.Design != sim.DesignRace {
		return fmt.Sprintf("verdicts at %s over %d changes, from each change's interval (simultaneous, %s): negligible when it lies within %s, "+
			"easier or harder when it excludes 0 (and is not within), - when neither: not enough games",
			percentText(r.Level), r.Tests, confidenceText(r.Confidence), tol)
	}
	confirm := "no change reached the confirmation"
	if r.ConfirmTests > 0 {
		confirm = fmt.Sprintf("easier or harder when the confirmation's interval (simultaneous over the %d changes it played, %s) excludes 0",
			r.ConfirmTests, confidenceText(r.ConfirmConfidence))
	}
	return fmt.Sprintf("verdicts at %s: %s; negligible when an interval lies within %s (the race's, simultaneous over its %d changes × %d looks, %s, "+
		"or the confirmation's); - when neither: not enough games (not raced, stopped, or not confirmed)",
		percentText(r.Level), confirm, tol, r.Tests/max(1, r.MaxLooks), r.MaxLooks, confidenceText(r.Confidence))
}

// familyWords says what a scan's words promise, for the page.
func familyWords(r *sim.SensitivityResult) string {
	level := percentText(r.Level)
	return fmt.Sprintf("with every change within %s, the chance that any is called easier or harder is at most %s; "+
		"with any at %s or beyond, the chance that it is called negligible is at most %s. A - promises nothing: "+
		"it is not evidence of a small effect, only of too few games to tell",
		toleranceText(r.Tolerance), level, toleranceText(r.Tolerance), level)
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

// changeVerdict is a change's verdict in the table: easier, harder,
// negligible, or "-" and about how many games would settle it (none
// at the cap).
func changeVerdict(ch *sim.SensitivityChange) string {
	switch ch.Verdict {
	case sim.InZone:
		return "negligible"
	case sim.NotEnoughGames:
		if ch.GamesToSettle > 0 && ch.GamesToSettle < sim.MaxGames {
			return "- ~" + gamesShort(ch.GamesToSettle)
		}
		return "-"
	}
	return verdictWords[ch.Verdict]
}

// gamesShort writes a count of games in two or three digits: 800, 12k,
// 1.2M.
func gamesShort(n int64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%dM", (n+500_000)/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return strconv.FormatInt(n, 10)
}

// changeScore is a change's score difference in the table: its estimate
// and the interval its verdict reads, or a screen's estimate and
// standard error for a change the race did not play.
func changeScore(ch *sim.SensitivityChange) string {
	if len(ch.Looks) == 0 {
		if ch.Screen == nil {
			return ""
		}
		return fmt.Sprintf("%s ±%.1f screen", pointsText(ch.Screen.Diff), 100*ch.Screen.SE)
	}
	return scoreCI(ch.ScoreDiff, ch.ScoreDiffCI)
}

// changeGames says how many paired games a change played: its looks', and
// "+N" its confirmation's; "screen" for one the race did not play.
func changeGames(ch *sim.SensitivityChange) string {
	if len(ch.Looks) == 0 {
		return "screen"
	}
	s := strconv.FormatInt(ch.Looks[len(ch.Looks)-1].Games, 10)
	if ch.Confirm != nil {
		s += "+" + strconv.FormatInt(ch.Confirm.Games, 10)
	}
	return s
}

// sensitivityText writes a scan: per cell, its fields ranked by the
// larger effect of their two changes (wide: every change, with the margin
// and the screen's estimate), then what was skipped.
func sensitivityText(b *bytes.Buffer, r *sim.SensitivityResult, opt TextOptions) error {
	wide := opt.Wide
	sensitivityHead(b, r)
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s: base %s won [%s, %s], %d seeds; %d changes of %d fields, %d not played\n",
			CellTitle(&c.Base, &c.Base), pct(c.Base.WinRate), pct(c.Base.WinCI95[0]), pct(c.Base.WinCI95[1]),
			c.Base.Games, len(c.Changes), len(c.Ranking), len(c.Skipped))
		if c.Screen != nil {
			wrapTo(b, fmt.Sprintf("screen: %d groups in %d partitions, %d seeds each; %d changes raced alone",
				len(c.Screen.Groups), c.Screen.Partitions, c.Screen.SeedsPerPartition, raced(c)), "  ")
		}
		byPath := map[string][]*sim.SensitivityChange{}
		for j := range c.Changes {
			ch := &c.Changes[j]
			byPath[ch.Path] = append(byPath[ch.Path], ch)
		}
		var rows [][]string
		if wide {
			for k, f := range c.Ranking {
				for _, ch := range byPath[f.Path] {
					margin, screen := "", ""
					if len(ch.Looks) > 0 {
						margin = fmt.Sprintf("%s [%s, %s]", signedText(ch.MarginDiff), signedText(ch.MarginDiffCI[0]), signedText(ch.MarginDiffCI[1]))
					}
					if ch.Screen != nil {
						screen = fmt.Sprintf("%s ±%.1f", pointsText(ch.Screen.Diff), 100*ch.Screen.SE)
					}
					rows = append(rows, []string{strconv.Itoa(k + 1), ch.Path, changeText(ch), changeGames(ch),
						changeScore(ch), margin, screen, changeVerdict(ch)})
				}
			}
			if err := writeTable(b, []string{"#", "FIELD", "CHANGE", "GAMES", "SCORE vs BASE pts [CI]", "MARGIN vs BASE [CI]", "SCREEN pts", "VERDICT"}, 2, rows); err != nil {
				return err
			}
		} else {
			for _, f := range c.Ranking {
				for _, ch := range byPath[f.Path] {
					if ch.To == f.To && ch.ToChoice == f.ToChoice {
						rows = append(rows, []string{f.Path, changeText(ch), changeGames(ch), changeScore(ch), changeVerdict(ch)})
					}
				}
			}
			if err := writeTable(b, []string{"FIELD", "STEP", "GAMES", "SCORE pts [CI]", "VERDICT"}, 1, rows); err != nil {
				return err
			}
		}
		if c.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d seeds failed at the base or a change and are not counted at any (see the errors).\n", c.Errors)
		}
		skippedText(b, c.Skipped, wide)
	}
	b.WriteString("\n")
	shown := "the one shown; --wide shows both, with the margin and the screen's estimate"
	if wide {
		shown = "every change is shown"
	}
	wrapTo(b, fmt.Sprintf("Each field is ranked by the larger |score difference| of its two steps (%s). "+
		"SCORE: the step's paired score difference (win 1, draw ½) against the base rules on the same seeds, in points, "+
		"with the interval its verdict reads: the confirmation's for a change confirmed (GAMES: the race's + the confirmation's), "+
		"else its last look's; for a change not raced, the screen's estimate among others ± its standard error, which claims nothing. "+
		"VERDICT: easier, harder, negligible (within %s), or - with about how many paired games would settle it: "+
		"a - says there were too few games to tell, not that the change does nothing.", shown, toleranceText(r.Tolerance)), "")
	return nil
}

// raced is how many of a cell's changes its race played alone.
func raced(c *sim.SensitivityCell) int {
	n := 0
	for _, ch := range c.Changes {
		if len(ch.Looks) > 0 {
			n++
		}
	}
	return n
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
	"mode", "policy", "politician", "rank", "path", "from", "to", "games", "looks", "confirm_games",
	"screen_diff", "screen_se", "scan", "score_diff", "score_diff_ci_lo", "score_diff_ci_hi",
	"margin_diff", "margin_diff_ci_lo", "margin_diff_ci_hi", "verdict", "games_to_settle", "skipped",
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
			confirm, sd, se := "", "", ""
			if ch.Confirm != nil {
				confirm = i(ch.Confirm.Games)
			}
			if ch.Screen != nil {
				sd, se = f(ch.Screen.Diff), f(ch.Screen.SE)
			}
			from, to := strconv.Itoa(ch.From), strconv.Itoa(ch.To)
			if ch.ToChoice != "" {
				from, to = ch.FromChoice, ch.ToChoice
			}
			w.Write([]string{c.Mode, levelName(c.Policy), c.Politician, strconv.Itoa(rank[ch.Path]), ch.Path,
				from, to, i(ch.Games), strconv.Itoa(len(ch.Looks)), confirm,
				sd, se, ch.Scan.String(), f(ch.ScoreDiff), f(ch.ScoreDiffCI[0]), f(ch.ScoreDiffCI[1]),
				f(ch.MarginDiff), f(ch.MarginDiffCI[0]), f(ch.MarginDiffCI[1]),
				ch.Verdict.String(), i(ch.GamesToSettle), ""}) // the JSON's names: programs read the CSV
		}
		for _, s := range c.Skipped {
			to := ""
			if s.To != nil {
				to = strconv.Itoa(*s.To)
			}
			row := []string{c.Mode, levelName(c.Policy), c.Politician, "", s.Path, "", to}
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
		{Name: "Tolerance", Value: toleranceText(r.Tolerance)},
		{Name: "Design", Value: designText(r)},
		{Name: "Verdicts", Value: familyText(r)},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Base rules changed by", Value: strings.Join(r.Overrides, " ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "Every change plays the same seeds as the base rules. What the words promise: "+familyWords(r)+".")
	g := group{}
	for i := range r.Cells {
		c := &r.Cells[i]
		s.List = append(s.List, fmt.Sprintf("%s: %d fields, %d changes (%d raced alone), %d not played (the cell's game does not read the field, or the value leaves its bounds or the rules refuse it).",
			CellTitle(&c.Base, &c.Base), len(c.Ranking), len(c.Changes), raced(c), len(c.Skipped)))
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
		names[k], row[f.Path] = pathWords(f.Path), k
	}
	categoriesY(p, names)
	// The tolerance, which "negligible" reads, shaded behind the bars
	// (issue 42).
	tol := toleranceShade(r.Tolerance)
	z, err := addShade(p, tol)
	if err != nil {
		return figure{}, err
	}
	legend := []legendItem{z}
	// A number's step down, its step up, a choice's alternatives.
	var series [3]whiskers
	seen := map[string]int{} // a choice's alternatives drawn so far
	verdicts := make([][]string, len(top))
	for _, ch := range c.Changes {
		k, ok := row[ch.Path]
		if !ok {
			continue
		}
		verdicts[k] = append(verdicts[k], tornadoVerdict(&ch))
		if len(ch.Looks) == 0 {
			continue // a change not raced has no interval to draw
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
	lo, hi := tol.lo, tol.hi
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
	// Each row says its changes' verdicts in words, right of the bars
	// (issue 42).
	side := make([]sideLabel, len(top))
	for k := range top {
		side[k] = sideLabel{y: rowY(k, len(top)), text: strings.Join(verdicts[k], " · ")}
	}
	// The page's full width (issue 42): room for the paths on the Y axis
	// and bars long enough to read.
	width := vg.Points(2*plotWidth + 160)
	svg, err := renderSVGSide(p, legend, side, width, categoryHeight(len(top)), title)
	if err != nil {
		return figure{}, err
	}
	t := table{Header: []string{"Field", "Change", "Games", "Score vs base (pts)", "Low", "High", "Margin vs base", "Verdict"}}
	changes := map[string][]int{}
	for j, ch := range c.Changes {
		changes[ch.Path] = append(changes[ch.Path], j)
	}
	for _, f := range c.Ranking {
		for _, j := range changes[f.Path] {
			ch := &c.Changes[j]
			p := fmt.Sprintf("cells.%d.changes.%d.", ci, j)
			if len(ch.Looks) == 0 {
				t.Rows = append(t.Rows, []cell{text(ch.Path), text(changeText(ch)), text(changeGames(ch)),
					text(changeScore(ch)), text(""), text(""), text(""), text(changeVerdict(ch))})
				continue
			}
			t.Rows = append(t.Rows, []cell{text(ch.Path), text(changeText(ch)), count(ch.Games, p+"games"),
				points(ch.ScoreDiff, p+"score_diff"), points(ch.ScoreDiffCI[0], p+"score_diff_ci.0"), points(ch.ScoreDiffCI[1], p+"score_diff_ci.1"),
				signed(ch.MarginDiff, p+"margin_diff"), text(changeVerdict(ch))})
		}
	}
	note := fmt.Sprintf("The %d fields with the largest effect of %d; the table lists every change played. Bars: the paired score difference of one step down and one step up, played alone; whiskers: the intervals their verdicts read (the race's at %s, a confirmation's at %s). A change the race did not play has none. Right of the bars, each change's verdict. %s",
		len(top), len(c.Ranking), confidenceText(r.Confidence), confidenceText(r.ConfirmConfidence), strings.Replace(tol.note, "within it", "negligible", 1))
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t, Wide: true}, nil
}

// tornadoVerdict is a change's verdict on the tornado, after which way it
// changes the field ("down", "up", or the choice it makes): the table's
// words, "not enough games" for its "-" (and "not raced" for a change
// the race left to its screen, which drew no bar).
func tornadoVerdict(ch *sim.SensitivityChange) string {
	way := "up"
	switch {
	case ch.ToChoice != "":
		way = ch.ToChoice
	case ch.To < ch.From:
		way = "down"
	}
	v := verdictWords[ch.Verdict]
	switch {
	case ch.Verdict == sim.InZone:
		v = "negligible"
	case len(ch.Looks) == 0:
		v += " (not raced)"
	}
	return way + ": " + v
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
	if r.Tolerance != sim.DefaultTolerance {
		args = append(args, "--tolerance", fmt.Sprint(r.Tolerance))
	}
	switch {
	case r.Design != sim.DesignRace:
		args = append(args, "--fixed")
	case r.ConfirmSeed != r.Seed+1:
		args = append(args, "--confirm-seed", fmt.Sprint(r.ConfirmSeed))
	}
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}

// pathWords names a rules field for a reader of a plot (issue 42): the
// --set path's names in words, its sections as "a: b" (difficulties.hard.
// bonus_divisor reads "Hard: bonus divisor", solo_cards[S-13].left_action
// "Solo card S-13: left action"). The table beside the plot keeps the path
// itself, to paste into --set.
func pathWords(path string) string {
	var parts []string
	for _, step := range strings.Split(path, ".") {
		name, index, _ := strings.Cut(step, "[")
		index = strings.ReplaceAll(strings.TrimSuffix(index, "]"), "][", ", ")
		switch name {
		case "difficulties", "variants", "actions":
			continue // the step under it says which
		case "solo_cards":
			name = "Solo card"
		case "strategy_cards":
			name = "Strategy card"
		case "politicians":
			name = "politician"
		case "rounds":
			// rounds[0] is round 1, as the rulebook counts them.
			if n, err := strconv.Atoi(index); err == nil {
				index = strconv.Itoa(n + 1)
			}
			name = "round"
		case "normal", "hard":
			name = strings.ToUpper(name[:1]) + name[1:]
		}
		w := strings.ReplaceAll(name, "_", " ")
		if index != "" {
			w += " " + index
		}
		parts = append(parts, w)
	}
	if len(parts) == 0 {
		return path
	}
	return strings.Join(parts, ": ")
}
