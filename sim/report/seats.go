package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindSeats, kindView[*sim.SeatsResult]{text: seatsText, wide: true, csv: seatsCSV, section: seatsSection})
}

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
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}

// seatsSection reports a study of several players.
func seatsSection(idx int, src Source, r *sim.SeatsResult) (section, error) {
	command := seatsCommand(r)
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
	t := table{Header: []string{"row", "seats", "wins", "shared wins", "win rate", "score", "95% low", "95% high", "mean place"}}
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

// seatsText writes a study of several players (sim --seats) as two ASCII
// tables: by policy, then by starting Initiative position, and the
// first-seat advantage. Without wide, the tables leave out the columns the
// rates sum up (wins, shared wins, mean votes), so that they fit 100
// characters.
func seatsText(b *bytes.Buffer, r *sim.SeatsResult, opt TextOptions) error {
	wide := opt.Wide
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	weightsNotes(b, "", r.Lineup, r.RulesID)
	fmt.Fprintf(b, "seed %d, %d players without the Opposition, %s × %d seatings",
		r.Seed, r.Players, heldWords(r.Counts.Deals, r.Deals, "deals", "", r.Shard), r.Players)
	if r.Shard == "" {
		fmt.Fprintf(b, " = %d games", r.Deals*int64(r.Players))
	}
	if r.Interrupted {
		fmt.Fprintf(b, ", INTERRUPTED after %d games", r.Counts.Games)
	}
	b.WriteString("\n")
	for _, set := range []struct {
		title string
		rows  []sim.SeatsRow
	}{{"POLICY", r.Policies}, {"STARTS WITH", r.Initiative}} {
		header := []string{set.title, "SEATS", "WIN RATE [95% CI]", "SCORE [95% CI]", "MEAN PLACE"}
		if wide {
			header = []string{set.title, "SEATS", "WINS", "SHARED", "WIN RATE [95% CI]", "SCORE [95% CI]", "MEAN PLACE", "MEAN VOTES"}
		}
		var rows [][]string
		for _, row := range set.rows {
			games := strconv.FormatInt(row.Games, 10)
			winRate := fmt.Sprintf("%s [%s, %s]", pct(row.WinRate), pct(row.WinRateCI95[0]), pct(row.WinRateCI95[1]))
			score := fmt.Sprintf("%s [%s, %s]", pct(row.MeanScore), pct(row.MeanScoreCI95[0]), pct(row.MeanScoreCI95[1]))
			place := fmt.Sprintf("%.2f", row.MeanPlace)
			if !wide {
				rows = append(rows, []string{row.Name, games, winRate, score, place})
				continue
			}
			rows = append(rows, []string{row.Name, games, strconv.FormatInt(row.Wins, 10), strconv.FormatInt(row.SharedWins, 10),
				winRate, score, place, fmt.Sprintf("%.1f", row.MeanVotes)})
		}
		if err := writeTable(b, header, 1, rows); err != nil {
			return err
		}
	}
	failedDeals(b, r.Errors)
	b.WriteString(wrapText(firstSeatWords(r)))
	// A row counts seats, not games: a policy in every seat of 3,000
	// games of three sat 9,000 times (issue 42: "= 3000 games" stood
	// beside GAMES 9000).
	b.WriteString(wrapText(fmt.Sprintf("SEATS: the seats a row sat in, one per player of a game (%d in each game).", r.Players)))
	b.WriteString(wrapText("WIN RATE: first place alone. SCORE: a win counts 1, a victory shared by k players 1/k; a fair seat scores 1/players."))
	b.WriteString(wrapText("Every deal is played once per rotation of the lineup, so each policy starts from every Initiative position equally often."))
	return nil
}

// failedDeals says, under a study's tables, how many deals failed.
func failedDeals(b *bytes.Buffer, n int64) {
	if n > 0 {
		fmt.Fprintf(b, "FAILED: %d deals failed and are not counted above (see the errors).\n", n)
	}
}

// seatsCSVHeader lists the columns of a study of several players: one row
// per policy, then per starting Initiative position.
var seatsCSVHeader = []string{
	"row", "name", "games", "wins", "shared_wins", "win_rate", "win_ci95_lo", "win_ci95_hi",
	"mean_score", "score_ci95_lo", "score_ci95_hi", "mean_place", "mean_votes",
}

func seatsCSV(w *csv.Writer, r *sim.SeatsResult) {
	f, i := csvFloat, csvInt
	w.Write(seatsCSVHeader)
	for _, set := range []struct {
		kind string
		rows []sim.SeatsRow
	}{{"policy", r.Policies}, {"initiative", r.Initiative}} {
		for _, row := range set.rows {
			w.Write([]string{
				set.kind, row.Name, i(row.Games), i(row.Wins), i(row.SharedWins),
				f(row.WinRate), f(row.WinRateCI95[0]), f(row.WinRateCI95[1]),
				f(row.MeanScore), f(row.MeanScoreCI95[0]), f(row.MeanScoreCI95[1]),
				f(row.MeanPlace), f(row.MeanVotes),
			})
		}
	}
}

// firstSeatWords says a study's first-seat advantage.
func firstSeatWords(r *sim.SeatsResult) string {
	return fmt.Sprintf("First-seat advantage: %s points [%s, %s] (the score of the player holding Initiative 1 at the start, minus the fair %s).",
		pointsText(r.FirstSeatAdvantage), pointsText(r.FirstSeatAdvantageCI95[0]), pointsText(r.FirstSeatAdvantageCI95[1]), pct(1/float64(r.Players)))
}
