package report

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
)

// Studies of several players (sim --seats) and their comparisons
// (compare --seats).

// seatsRows are a study's rows in report order: policies, then starting
// Initiative positions, with their paths in the JSON.
func seatsRows(r *sim.SeatsResult) (rows []sim.SeatsRow, paths []string) {
	for i, row := range r.Policies {
		rows, paths = append(rows, row), append(paths, fmt.Sprintf("policies.%d.", i))
	}
	for i, row := range r.Initiative {
		rows, paths = append(rows, row), append(paths, fmt.Sprintf("initiative.%d.", i))
	}
	return rows, paths
}

// seatsCommand reconstructs the sim command line of a study.
func seatsCommand(r *sim.SeatsResult) string {
	args := []string{"sim", "--seats", fmt.Sprint(r.Players), "--policy", strings.Join(r.Lineup, ","),
		"--games", fmt.Sprint(r.Deals), "--seed", fmt.Sprint(r.Seed)}
	args = append(args, rulesArgs("--rules", "--set", "RULES.json", r.RulesHash, r.Overrides)...)
	if r.Shard != "" && !strings.Contains(r.Shard, "+") {
		args = append(args, "--shard", r.Shard)
	}
	return commandLine(append(args, "--format", "json"))
}

// seatsSection reports a study of several players.
func seatsSection(idx int, src Source, command string) (section, error) {
	r := src.Seats
	s := newSection(idx, "sim --seats", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Players", Value: fmt.Sprintf("%d, lineup %s", r.Players, strings.Join(r.Lineup, ", "))},
		{Name: "Deals", Value: fmt.Sprintf("%d, each played once per rotation of the lineup: %d games", r.Counts.Deals, r.Counts.Games)},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Rules changed by", Value: "--set " + strings.Join(r.Overrides, " --set ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This study was interrupted: the figures are of the deals played before it stopped.")
	}
	s.Notes = append(s.Notes, fmt.Sprintf("A win counts 1 and a victory shared by k players 1/k; a fair seat scores 1/%d. "+
		"Intervals are 95%% t-intervals over deals, since the seatings of one deal share its cards. %s",
		r.Players, firstSeatWords(r)))
	f, err := seatsScoreFigure(s.ID, r)
	if err != nil {
		return section{}, err
	}
	s.Groups = append(s.Groups, group{Figures: []figure{f}})
	return s, nil
}

// seatsScoreFigure is the dot-and-whisker plot of each row's score, with
// the fair share marked.
func seatsScoreFigure(id string, r *sim.SeatsResult) (figure, error) {
	const title = "Score per policy and per starting Initiative position, with 95% intervals"
	p := newPlot(title, "score (% of victories, a shared one split)", "row")
	rows, paths := seatsRows(r)
	names := make([]string, len(rows))
	var pts whiskers
	t := table{Header: []string{"row", "games", "wins", "shared wins", "win rate", "score", "95% low", "95% high", "mean place"}}
	for i, row := range rows {
		names[i] = row.Name
		pts = append(pts, whisker{x: 100 * row.MeanScore, lo: 100 * row.MeanScoreCI95[0], hi: 100 * row.MeanScoreCI95[1], y: rowY(i, len(rows))})
		path := paths[i]
		t.Rows = append(t.Rows, []cell{
			text(row.Name), count(row.Games, path+"games"), count(row.Wins, path+"wins"), count(row.SharedWins, path+"shared_wins"),
			percent(row.WinRate, path+"win_rate"), percent(row.MeanScore, path+"mean_score"),
			percent(row.MeanScoreCI95[0], path+"mean_score_ci95.0"), percent(row.MeanScoreCI95[1], path+"mean_score_ci95.1"),
			plain2(row.MeanPlace, path+"mean_place"),
		})
	}
	categoriesY(p, names)
	fair := 100 / float64(r.Players)
	line, err := vLine(p, fair, p.Y.Min, p.Y.Max, draw.LineStyle{Color: okBlack, Width: vg.Points(1), Dashes: dashed()})
	if err != nil {
		return figure{}, err
	}
	dots, err := addWhiskers(p, pts, 0)
	if err != nil {
		return figure{}, err
	}
	p.X.Min = 0
	padX(p)
	legend := []legendItem{{"score, 95% interval", dots}, {fmt.Sprintf("fair share (%.1f%%)", fair), line}}
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(len(rows)), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-score", Title: title, SVG: svg, Table: t,
		Note: "Policy rows count every seat the policy sat in; \"initiative K\" rows the player holding token K at the start."}, nil
}

// seatsCompareCommand reconstructs the compare command line of a
// comparison at a table.
func seatsCompareCommand(r *sim.SeatsCompareResult) string {
	args := []string{"compare", "--seats", fmt.Sprint(r.Players), "--policy", strings.Join(r.Lineup, ","),
		"--games", fmt.Sprint(r.Deals), "--seed", fmt.Sprint(r.Seed)}
	args = append(args, rulesArgs("--a-rules", "--a-set", "A.json", r.A.RulesHash, r.A.Overrides)...)
	args = append(args, rulesArgs("--b-rules", "--b-set", "B.json", r.B.RulesHash, r.B.Overrides)...)
	return commandLine(append(args, "--format", "json"))
}

// seatsCompareSection reports a comparison of two rule sets at a table.
func seatsCompareSection(idx int, src Source, command string) (section, error) {
	r := src.SeatsCompare
	s := newSection(idx, "compare --seats", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Arm A", Value: fmt.Sprintf("%s (rules hash %s)", r.A.Name, engine.ShortHash(r.A.RulesHash))},
		{Name: "Arm B", Value: fmt.Sprintf("%s (rules hash %s)", r.B.Name, engine.ShortHash(r.B.RulesHash))},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Players", Value: fmt.Sprintf("%d, lineup %s", r.Players, strings.Join(r.Lineup, ", "))},
		{Name: "Deals", Value: fmt.Sprintf("%d under each rule set, every seating of each", r.Deals)},
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	s.Notes = append(s.Notes, "B − A is paired by deal; intervals are 95% t-intervals over deals. "+firstSeatDiffWords(r))
	var rows []forestRow
	t := table{Header: []string{"row", "score A", "score B", "B − A (points)", "95% low", "95% high", "p (Holm)"}}
	for _, set := range []struct {
		key  string
		rows []sim.SeatsCompareRow
	}{{"policies", r.Policies}, {"initiative", r.Initiative}} {
		for i, row := range set.rows {
			path := fmt.Sprintf("%s.%d.", set.key, i)
			rows = append(rows, forestRow{label: row.Name, est: 100 * row.MeanScoreDiff, lo: 100 * row.MeanScoreDiffCI95[0], hi: 100 * row.MeanScoreDiffCI95[1]})
			t.Rows = append(t.Rows, []cell{
				text(row.Name), percent(row.A.MeanScore, path+"a.mean_score"), percent(row.B.MeanScore, path+"b.mean_score"),
				points(row.MeanScoreDiff, path+"mean_score_diff"),
				points(row.MeanScoreDiffCI95[0], path+"mean_score_diff_ci95.0"), points(row.MeanScoreDiffCI95[1], path+"mean_score_diff_ci95.1"),
				num(row.MeanScoreDiffPHolm, "%.3g", path+"mean_score_diff_p_holm"),
			})
		}
	}
	f, err := forestFigure(s.ID+"-score", "Score B − A per row, with 95% intervals", "B − A (points of score)", "95% interval", nil, rows, t)
	if err != nil {
		return section{}, err
	}
	s.Groups = append(s.Groups, group{Figures: []figure{f}})
	return s, nil
}
