package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/stats"
)

func init() {
	register(sim.KindTune, kindView[*sim.TuneResult]{text: tuneText, csv: tuneCSV, section: tuneSection})
}

// tuneTopRows is how many of the search's best candidates the text and
// the page list.
const tuneTopRows = 8

// TuneVerdict says in words whether a tune's target was reached: its
// confirmation's interval (simultaneous over the targets, r's
// confidence) within the target ± the tolerance, beyond it, or across
// its edge (not enough games, and about how many would settle it); and
// when no candidate the search played came near it, that the search saw
// none, of the candidates it played.
func TuneVerdict(r *sim.TuneResult, t *sim.TuneTargetResult) string {
	c := &t.Confirm
	best := fmt.Sprintf("%s %s", pct(c.WinRate), bandCI(t.WinCI, t.Rate-r.Tolerance, t.Rate+r.Tolerance))
	band := pct(t.Rate) + " " + toleranceText(r.Tolerance)
	seen := pct
	if t.Relative {
		seen = pointsWord
		band = pointsText(t.Rate) + " " + toleranceText(r.Tolerance)
		best = "no confirmation against the base"
		if ch := t.Change; ch != nil && t.ConfirmBase != nil {
			best = fmt.Sprintf("%s [%s, %s] (win rate %s → %s)", pointsWord(ch.Diff), pointsText(t.WinCI[0]), pointsText(t.WinCI[1]),
				pct(t.ConfirmBase.WinRate), pct(c.WinRate))
		}
	}
	var s string
	switch t.Answer {
	case sim.TargetWithin:
		return fmt.Sprintf("reached: %s, within %s", best, band)
	case sim.TargetOutside:
		s = fmt.Sprintf("not reached: %s, beyond %s", best, band)
	default:
		s = fmt.Sprintf("not enough games: %s reaches across the edge of %s; %s would settle it", best, band, settleText(t.GamesToSettle, "confirmation games"))
	}
	if !t.Reachable {
		s += fmt.Sprintf("; no candidate the search played came near it (it saw %s to %s, %s)", seen(t.SearchMin), seen(t.SearchMax), playedText(r))
	}
	return s
}

// playedText says how much of the ranges the search played: "128 of the
// 480 combinations in the ranges (27%)".
func playedText(r *sim.TuneResult) string {
	if r.Combinations <= 0 {
		return fmt.Sprintf("%d candidates of more combinations than can be counted", r.Candidates)
	}
	return fmt.Sprintf("%d of the %d combinations in the ranges (%s)", r.Candidates, r.Combinations,
		pct(float64(r.Candidates)/float64(r.Combinations)))
}

// tuneRule says what "reached" means, in the text and on the page.
func tuneRule(r *sim.TuneResult) string {
	s := fmt.Sprintf("A target is reached when the confirmation's exact (Clopper–Pearson) interval, simultaneous over the %d targets (%s) on seeds "+
		"the search never played, lies within the target %s; not reached when it lies beyond; not enough games when it reaches "+
		"across an edge (more confirmation games settle it). The search played %s: what it did not play it did not judge.",
		len(r.Targets), percentText(r.Confidence), toleranceText(r.Tolerance), playedText(r))
	for _, t := range r.Targets {
		if t.Relative {
			return s + " A target with a sign is a change of the base rules' win rate: the search compares each candidate " +
				"with the base on the same seeds, and the confirmation plays both on the same fresh seeds; its interval is " +
				"then the paired score interval of the change, read against the target and the tolerance alike."
		}
	}
	return s
}

// confirmText is a target's confirmation in the text's table: the win
// rate and the interval its answer reads, or for a relative target the
// win rate and the change with its interval.
func confirmText(t *sim.TuneTargetResult) string {
	c := &t.Confirm
	if t.Relative && t.Change != nil {
		return fmt.Sprintf("%s, change %s [%s, %s]", pct(c.WinRate), pointsText(t.Change.Diff), pointsText(t.WinCI[0]), pointsText(t.WinCI[1]))
	}
	return fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(t.WinCI[0]), pct(t.WinCI[1]))
}

// targetText is a tune target as asked: a win rate, or a change of the
// base's in points.
func targetText(t *sim.TuneTargetResult) string {
	if t.Relative {
		return pointsWord(t.Rate)
	}
	return pct(t.Rate)
}

// pointsWord is a change of a rate in points, with its unit.
func pointsWord(x float64) string { return pointsText(x) + " points" }

// tuneRange shows the values a field was searched over.
func tuneRange(f sim.TuneField) string {
	if f.Choices != nil {
		return strings.Join(f.Choices, ", ")
	}
	lo, hi := f.Values[0], f.Values[len(f.Values)-1]
	s := fmt.Sprintf("%d..%d", lo, hi)
	if len(f.Values) != hi-lo+1 {
		s += fmt.Sprintf(" (%d values)", len(f.Values))
	}
	return s
}

// tuneTop is the indexes of the search's best candidates by objective,
// the most played first among equals.
func tuneTop(r *sim.TuneResult, n int) []int {
	order := make([]int, len(r.Trace))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ea, eb := &r.Trace[a], &r.Trace[b]
		if ea.Round != eb.Round {
			return eb.Round - ea.Round
		}
		return cmp.Compare(ea.Objective, eb.Objective)
	})
	return order[:min(n, len(order))]
}

func tuneText(b *bytes.Buffer, r *sim.TuneResult, _ TextOptions) error {
	fmt.Fprintf(b, "base rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, " with %s", strings.Join(r.Overrides, ", "))
	}
	b.WriteString("\n")
	wrapTo(b, fmt.Sprintf("search seed %d, budget %d games (%d played): %s, %d rounds of successive halving, "+
		"blocks of %d games per target; tolerance %s", r.Seed, r.BudgetGames, r.SearchGames, playedText(r), r.Rounds, r.BlockGames,
		toleranceText(r.Tolerance)), "")
	b.WriteString("\n")
	var rows [][]string
	if r.OneChange {
		fmt.Fprintf(b, "one change at a time: the base rules and the %d single changes of %d fields (%s)\n",
			len(r.Trace)-1, len(r.Fields), tuneFieldGlobs(r))
	} else {
		for _, f := range r.Fields {
			rows = append(rows, []string{f.Path, f.Text(f.Base), tuneRange(f), f.Text(f.Best)})
		}
		if err := writeTable(b, []string{"FIELD", "BASE", "SEARCHED", "BEST"}, 1, rows); err != nil {
			return err
		}
	}
	fmt.Fprintf(b, "\nconfirmation: the best values on --confirm-seed %d, %d games per target", r.ConfirmSeed, r.ConfirmGames)
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	rows = nil
	for i := range r.Targets {
		t := &r.Targets[i]
		c := &t.Confirm
		rows = append(rows, []string{c.Mode, playerName(c.Policy), targetText(t), confirmText(t), strconv.FormatInt(c.Games, 10)})
	}
	if err := writeTable(b, []string{"MODE", "POLICY", "TARGET", fmt.Sprintf("WIN RATE [%s CI]", percentText(r.Confidence)), "GAMES"}, 2, rows); err != nil {
		return err
	}
	for i := range r.Targets {
		t := &r.Targets[i]
		fmt.Fprintf(b, "  %s, %s, target %s:\n", capitalize(t.Confirm.Mode), playerName(t.Confirm.Policy), targetText(t))
		wrapTo(b, TuneVerdict(r, t), "    ")
		if t.Confirm.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d confirmation games failed and are not counted.\n", t.Confirm.Errors)
		}
	}
	b.WriteString("\nthe search's best candidates (the most played first):\n")
	header := []string{"#", "ROUND", "VALUES"}
	for _, t := range r.Targets {
		header = append(header, strings.ToUpper(t.Confirm.Mode+" "+playerName(t.Confirm.Policy)))
	}
	header = append(header, "OBJECTIVE")
	rows = nil
	for _, i := range tuneTop(r, tuneTopRows) {
		e := &r.Trace[i]
		row := []string{strconv.Itoa(i + 1), strconv.Itoa(e.Round), candidateText(r, e)}
		for t := range e.WinRates {
			row = append(row, fmt.Sprintf("%s of %d", candidateRate(r, e, t), e.Games[t]))
		}
		rows = append(rows, append(row, fmt.Sprintf("%.5f", e.Objective)))
	}
	if err := writeTable(b, header, 3, rows); err != nil {
		return err
	}
	fmt.Fprintf(b, "\nrules diff, tuned (%s) against the base:\n", engine.ShortHash(r.TunedHash))
	if len(r.Changes) == 0 {
		b.WriteString("  no differences in play: the base values are the best found\n")
	} else {
		rows = nil
		for _, d := range r.Changes {
			rows = append(rows, []string{d.Path, d.A, d.B})
		}
		if err := writeTable(b, []string{"FIELD", "BASE", "TUNED"}, 1, rows); err != nil {
			return err
		}
	}
	b.WriteString("\n" + wrapText("Search: "+sim.TuneMethod+". "+tuneRule(r)))
	return nil
}

// candidateText is a candidate's values: the change from the base in a
// search of single changes ("base" for none), else every value.
func candidateText(r *sim.TuneResult, e *sim.TuneEval) string {
	vs := make([]string, len(e.Values))
	for k, v := range e.Values {
		vs[k] = r.Fields[k].Text(v)
		if r.OneChange && v != r.Fields[k].Base {
			return r.Fields[k].Path + "=" + vs[k]
		}
	}
	if r.OneChange {
		return "base"
	}
	return strings.Join(vs, " ")
}

// candidateRate is a candidate's win rate for target t in the search,
// or its change from the base on the same seeds for a relative target.
func candidateRate(r *sim.TuneResult, e *sim.TuneEval, t int) string {
	if r.Targets[t].Relative && t < len(e.BaseGames) {
		return pointsWord(e.WinRates[t] - float64(e.BaseWins[t])/float64(max(1, e.BaseGames[t])))
	}
	return pct(e.WinRates[t])
}

// tuneFieldGlobs names a search's fields in brief: their paths, or how
// many when they are many.
func tuneFieldGlobs(r *sim.TuneResult) string {
	if len(r.Fields) <= 4 {
		paths := make([]string, len(r.Fields))
		for i, f := range r.Fields {
			paths[i] = f.Path
		}
		return strings.Join(paths, ", ")
	}
	return r.Fields[0].Path + " … " + r.Fields[len(r.Fields)-1].Path
}

// tuneCSV writes a row per target of the confirmation, then a row per
// candidate of the search and target.
func tuneCSV(w *csv.Writer, r *sim.TuneResult) {
	f, i := csvFloat, csvInt
	header := []string{"row", "candidate", "round", "mode", "policy", "target"}
	for _, fd := range r.Fields {
		header = append(header, fd.Path)
	}
	w.Write(append(header, "games", "wins", "win_rate", "win_ci_lo", "win_ci_hi", "objective", "reached", "answer", "games_to_settle"))
	best := r.Trace[r.Best]
	for t := range r.Targets {
		tr := &r.Targets[t]
		c := &tr.Confirm
		rec := []string{"confirm", i(int64(r.Best + 1)), "", c.Mode, levelName(c.Policy), f(tr.Rate)}
		for k, v := range best.Values {
			rec = append(rec, r.Fields[k].Text(v))
		}
		w.Write(append(rec, i(c.Games), i(c.Wins), f(c.WinRate), f(tr.WinCI[0]), f(tr.WinCI[1]), "", strconv.FormatBool(tr.Reached),
			tr.Answer.String(), i(tr.GamesToSettle)))
	}
	for k := range r.Trace {
		e := &r.Trace[k]
		for t := range r.Targets {
			tr := &r.Targets[t]
			rec := []string{"candidate", i(int64(k + 1)), strconv.Itoa(e.Round), tr.Confirm.Mode, levelName(tr.Confirm.Policy), f(tr.Rate)}
			for j, v := range e.Values {
				rec = append(rec, r.Fields[j].Text(v))
			}
			ci := stats.Wilson(e.Wins[t], e.Games[t], 0.05)
			w.Write(append(rec, i(e.Games[t]), i(e.Wins[t]), f(e.WinRates[t]), f(ci.Lo), f(ci.Hi), f(e.Objective), "", "", ""))
		}
	}
}

func tuneCommand(r *sim.TuneResult) string {
	args := []string{"tune"}
	for _, t := range r.Targets {
		rate := fmt.Sprintf("%g", t.Rate)
		if t.Relative {
			rate = fmt.Sprintf("%+g", t.Rate)
		}
		args = append(args, "--target", fmt.Sprintf("%s:%s=%s", t.Confirm.Mode, t.Confirm.Policy, rate))
	}
	for _, fd := range r.Fields {
		if fd.Choices != nil {
			args = append(args, "--vary", fd.Path)
			continue
		}
		args = append(args, "--vary", fmt.Sprintf("%s=%d..%d", fd.Path, fd.Values[0], fd.Values[len(fd.Values)-1]))
	}
	if r.OneChange {
		args = append(args, "--one-change")
	}
	args = append(args, "--budget", fmt.Sprint(r.BudgetGames), "--seed", fmt.Sprint(r.Seed),
		"--confirm-seed", fmt.Sprint(r.ConfirmSeed), "--confirm-games", fmt.Sprint(r.ConfirmGames))
	if r.Tolerance != sim.DefaultTolerance {
		args = append(args, "--tolerance", fmt.Sprint(r.Tolerance))
	}
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}

func tuneSection(idx int, src Source, r *sim.TuneResult) (section, error) {
	command := tuneCommand(r)
	s := newSection(idx, "tune", src)
	paths := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		paths[i] = f.Path
	}
	searched := strings.Join(paths, ", ")
	if r.OneChange {
		searched = fmt.Sprintf("one change at a time: the base and %d single changes of %d fields (%s)", len(r.Trace)-1, len(r.Fields), tuneFieldGlobs(r))
	}
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Base rules", Value: r.RulesVersion},
		{Name: "Base rules hash", Value: r.RulesHash},
		{Name: "Tuned rules hash", Value: r.TunedHash},
		{Name: "Searched", Value: searched},
		{Name: "Search seed and budget", Value: fmt.Sprintf("%d; %d games, %d played", r.Seed, r.BudgetGames, r.SearchGames)},
		{Name: "Confirmation", Value: fmt.Sprintf("seed %d, %s games per target", r.ConfirmSeed, gamesOfShard(r.ConfirmGames, r.Shard))},
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted during the confirmation: its figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "How it searches: "+sim.TuneMethod+".", tuneRule(r))
	for i := range r.Targets {
		t := &r.Targets[i]
		s.List = append(s.List, fmt.Sprintf("%s, %s, target %s: %s.", capitalize(t.Confirm.Mode), playerName(t.Confirm.Policy), targetText(t), TuneVerdict(r, t)))
	}
	for _, d := range r.Changes {
		s.List = append(s.List, fmt.Sprintf("Tuned %s: %s (base %s).", d.Path, d.B, d.A))
	}
	conf, err := tuneConfirmFigure(s.ID+"-confirm", r)
	if err != nil {
		return section{}, err
	}
	trace, err := tuneTraceFigure(s.ID+"-trace", r)
	if err != nil {
		return section{}, err
	}
	s.Groups = append(s.Groups, group{Figures: []figure{conf, trace}})
	return s, nil
}

// tuneConfirmFigure draws every target's confirmed win rate with its
// interval, and the target.
func tuneConfirmFigure(id string, r *sim.TuneResult) (figure, error) {
	title := "Confirmed win rates of the tuned rules against their targets"
	p := newPlot(title, "win rate (% of games won)", "")
	names := make([]string, len(r.Targets))
	pts := make(whiskers, len(r.Targets))
	targets := make(whiskers, len(r.Targets))
	conf := percentText(r.Confidence)
	t := table{Header: []string{"target", "rate asked", "games", "win rate", conf + " low", conf + " high", "verdict"}}
	for i := range r.Targets {
		tr := &r.Targets[i]
		c := &tr.Confirm
		names[i] = c.Mode + ", " + playerName(c.Policy)
		y := rowY(i, len(r.Targets))
		// A change is drawn where it puts the base's win rate, with its
		// interval.
		lo, hi, goal := tr.WinCI[0], tr.WinCI[1], tr.Rate
		if tr.Relative && tr.ConfirmBase != nil {
			b := tr.ConfirmBase.WinRate
			lo, hi, goal = b+lo, b+hi, b+goal
		}
		pts[i] = whisker{x: 100 * c.WinRate, lo: 100 * lo, hi: 100 * hi, y: y}
		targets[i] = whisker{x: 100 * goal, lo: 100 * goal, hi: 100 * goal, y: y}
		path := fmt.Sprintf("targets.%d.", i)
		asked, ciLo, ciHi := percent(tr.Rate, path+"target"), percent(tr.WinCI[0], path+"win_ci.0"), percent(tr.WinCI[1], path+"win_ci.1")
		if tr.Relative {
			asked, ciLo, ciHi = points(tr.Rate, path+"target"), points(tr.WinCI[0], path+"win_ci.0"), points(tr.WinCI[1], path+"win_ci.1")
		}
		t.Rows = append(t.Rows, []cell{text(names[i]), asked, count(c.Games, path+"confirm.games"),
			percent(c.WinRate, path+"confirm.win_rate"), ciLo, ciHi, text(TuneVerdict(r, tr))})
	}
	categoriesY(p, names)
	dots, err := addWhiskers(p, pts, 0)
	if err != nil {
		return figure{}, err
	}
	marks, err := plotter.NewScatter(targets)
	if err != nil {
		return figure{}, fmt.Errorf("report: %v", err)
	}
	marks.GlyphStyle = draw.GlyphStyle{Color: lostColour, Radius: vg.Points(5), Shape: draw.CrossGlyph{}}
	p.Add(marks)
	// The axis spans every interval and target, with a margin each side.
	lo, hi := 100.0, 0.0
	for i := range pts {
		lo, hi = min(lo, pts[i].lo, targets[i].x), max(hi, pts[i].hi, targets[i].x)
	}
	pad := 0.08 * max(hi-lo, 1)
	p.X.Min, p.X.Max = max(0, lo-pad), min(100, hi+pad)
	svg, err := renderSVG(p, []legendItem{{"confirmed win rate and " + conf + " interval", dots}, {"target", marks}},
		plotWidth, categoryHeight(len(names)), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Table: t}, nil
}

// tuneTraceFigure draws the objective of every candidate as last played,
// in the order first played, and lists the best of them.
func tuneTraceFigure(id string, r *sim.TuneResult) (figure, error) {
	title := "The search: each candidate's objective, by round"
	p := newPlot(title, "candidate (in the order first played)", "objective: Σ (win rate − target)²")
	// The best is drawn on its own; the others by the last round they
	// reached, which only the best reaches in the last.
	byRound := map[int]plotter.XYs{}
	for i, e := range r.Trace {
		if i != r.Best {
			byRound[e.Round] = append(byRound[e.Round], plotter.XY{X: float64(i + 1), Y: e.Objective})
		}
	}
	var legend []legendItem
	for round := 1; round < r.Rounds || round == 1; round++ {
		xy := byRound[round]
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: seriesColour(round - 1), Radius: vg.Points(2.5), Shape: seriesShape(round - 1)}
		p.Add(sc)
		legend = append(legend, legendItem{fmt.Sprintf("last played in round %d", round), sc})
	}
	best, err := plotter.NewScatter(plotter.XYs{{X: float64(r.Best + 1), Y: r.Trace[r.Best].Objective}})
	if err != nil {
		return figure{}, fmt.Errorf("report: %v", err)
	}
	best.GlyphStyle = draw.GlyphStyle{Color: okBlack, Radius: vg.Points(6), Shape: draw.CircleGlyph{}}
	p.Add(best)
	legend = append(legend, legendItem{fmt.Sprintf("the best (played in all %d rounds)", r.Rounds), best})
	header := []string{"candidate", "round"}
	for _, f := range r.Fields {
		if r.OneChange {
			header = append(header, "change")
			break
		}
		header = append(header, f.Path)
	}
	for _, tr := range r.Targets {
		header = append(header, tr.Confirm.Mode+", "+playerName(tr.Confirm.Policy))
	}
	t := table{Header: append(header, "objective")}
	for _, i := range tuneTop(r, tuneTopRows) {
		e := &r.Trace[i]
		path := fmt.Sprintf("trace.%d.", i)
		row := []cell{count(int64(i+1), ""), count(int64(e.Round), path+"round")}
		if r.OneChange {
			row = append(row, text(candidateText(r, e)))
		}
		for k, v := range e.Values {
			if r.OneChange {
				break
			}
			if r.Fields[k].Choices != nil {
				row = append(row, text(r.Fields[k].Text(v)))
				continue
			}
			row = append(row, count(int64(v), fmt.Sprintf("%svalues.%d", path, k)))
		}
		for k := range e.WinRates {
			row = append(row, percent(e.WinRates[k], fmt.Sprintf("%swin_rates.%d", path, k)))
		}
		t.Rows = append(t.Rows, append(row, num(e.Objective, "%.5f", path+"objective")))
	}
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(280), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id, Title: title, SVG: svg, Table: t,
		Note: fmt.Sprintf("The table lists the %d best candidates, the most played first.", len(t.Rows))}, nil
}
