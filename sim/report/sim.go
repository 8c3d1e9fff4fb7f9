package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindSim, kindView[*sim.Result]{text: simText, wide: true, csv: simCSV, section: simSection})
}

// simSection reports a sim or merge result.
func simSection(idx int, src Source, r *sim.Result) (section, error) {
	command := simCommand(r)
	s := newSection(idx, "sim", src)
	games := gamesOfShard(r.GamesPerCell, r.Shard)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games per cell", Value: games},
		{Name: "Cells", Value: fmt.Sprint(len(r.Cells))},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Rules changed by", Value: "--set " + strings.Join(r.Overrides, " --set ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, fmt.Sprintf("Win rates carry Wilson 95%% intervals, margins Student-t 95%% intervals, each for its own cell: "+
		"with %d cells, expect about one in twenty intervals to miss its true value. The margin is your votes minus the Opposition's.", len(r.Cells)))

	all := group{}
	for _, build := range []func(string, *sim.Result) (figure, error){winRateFigure, fallbackFigure} {
		f, err := build(s.ID, r)
		if err != nil {
			return section{}, err
		}
		all.Figures = append(all.Figures, f)
	}
	s.Groups = append(s.Groups, all)
	for i := range r.Cells {
		c := &r.Cells[i]
		g := group{Heading: CellTitle(c, c)}
		path := fmt.Sprintf("cells.%d.", i)
		id := fmt.Sprintf("%s-cell%d", s.ID, i+1)
		m, err := marginFigure(id, CellTitle(c, c), c, path)
		if err != nil {
			return section{}, err
		}
		d, err := districtFigure(id, CellTitle(c, c), c, path)
		if err != nil {
			return section{}, err
		}
		g.Figures = append(g.Figures, m, d)
		s.Groups = append(s.Groups, g)
	}
	return s, nil
}

// modeIndex numbers the modes of cells in order of first appearance, for
// the series colours.
func modeIndex(cells []sim.Cell) map[string]int {
	idx := map[string]int{}
	for _, c := range cells {
		if _, ok := idx[c.Mode]; !ok {
			idx[c.Mode] = len(idx)
		}
	}
	return idx
}

// winRateFigure is the dot-and-whisker plot of each cell's win rate.
func winRateFigure(id string, r *sim.Result) (figure, error) {
	const title = "Win rate per cell, with 95% intervals"
	p := newPlot(title, "win rate (% of games won)", "cell")
	names := make([]string, len(r.Cells))
	for i := range r.Cells {
		names[i] = CellTitle(&r.Cells[i], &r.Cells[i])
	}
	categoriesY(p, names)
	modes := modeIndex(r.Cells)
	series := make([]whiskers, len(modes))
	t := table{Header: []string{"mode", "policy", "politician", "games", "wins", "draws", "losses", "win rate", "95% low", "95% high"}}
	for i := range r.Cells {
		c := &r.Cells[i]
		k := modes[c.Mode]
		series[k] = append(series[k], whisker{x: 100 * c.WinRate, lo: 100 * c.WinCI95[0], hi: 100 * c.WinCI95[1], y: rowY(i, len(r.Cells))})
		path := fmt.Sprintf("cells.%d.", i)
		t.Rows = append(t.Rows, []cell{
			text(c.Mode), text(playerName(c.Policy)), text(politicianName(c.Politician)),
			count(c.Games, path+"games"), count(c.Wins, path+"wins"), count(c.Draws, path+"draws"), count(c.Losses, path+"losses"),
			percent(c.WinRate, path+"win_rate"), percent(c.WinCI95[0], path+"win_ci95.0"), percent(c.WinCI95[1], path+"win_ci95.1"),
		})
	}
	order := make([]string, len(modes))
	for m, k := range modes {
		order[k] = m
	}
	var legend []legendItem
	for k, m := range order {
		dots, err := addWhiskers(p, series[k], k)
		if err != nil {
			return figure{}, err
		}
		legend = append(legend, legendItem{m, dots})
	}
	p.X.Min = 0
	padX(p)
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(len(r.Cells)), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-winrate", Title: title, SVG: svg,
		Note: "Each row is a cell: difficulty, policy and politician (left out when drawn per game); colour and marker shape repeat the difficulty.", Table: t}, nil
}

// fallbackFigure shows the Opposition's I-10 fallbacks per game in each
// cell: how often it could not act in the connected District, or in
// either.
func fallbackFigure(id string, r *sim.Result) (figure, error) {
	const title = "The Opposition's fallbacks per game (I-10)"
	p := newPlot(title, "fallbacks per game", "cell")
	names := make([]string, len(r.Cells))
	other := make(plotter.Values, len(r.Cells))
	both := make(plotter.Values, len(r.Cells))
	t := table{Header: []string{"mode", "policy", "politician", "other District", "both Districts", "other per game", "both per game", "games with a fallback", "share of games"}}
	n := len(r.Cells)
	for i := range r.Cells {
		c := &r.Cells[i]
		names[i] = CellTitle(c, c)
		// Bars are placed at their Y value by index: the first cell on top.
		other[n-1-i] = c.Fallbacks.OtherPerGame
		both[n-1-i] = c.Fallbacks.BothPerGame
		path := fmt.Sprintf("cells.%d.fallbacks.", i)
		f := &c.Fallbacks
		t.Rows = append(t.Rows, []cell{
			text(c.Mode), text(playerName(c.Policy)), text(politicianName(c.Politician)),
			count(f.OtherDistrict, path+"other_district"), count(f.BothDistricts, path+"both_districts"),
			num(f.OtherPerGame, "%.3f", path+"other_per_game"), num(f.BothPerGame, "%.3f", path+"both_per_game"),
			count(f.GamesWithFallback, path+"games_with_fallback"), percent(f.GamesWithFallbackRate, path+"games_with_fallback_rate"),
		})
	}
	categoriesY(p, names)
	barW := vg.Points(rowHeight * 0.4)
	var legend []legendItem
	for k, s := range []struct {
		vals   plotter.Values
		name   string
		offset vg.Length
	}{{other, "unable in the connected District", barW / 2}, {both, "unable in both Districts", -barW / 2}} {
		b, err := plotter.NewBarChart(s.vals, barW)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		b.Horizontal = true
		b.Offset = s.offset
		b.Color = seriesColour(k)
		b.LineStyle.Width = 0
		p.Add(b)
		legend = append(legend, legendItem{s.name, b})
	}
	p.X.Min = 0
	padX(p)
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(n), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-fallbacks", Title: title, SVG: svg,
		Note: "I-10: when the Opposition cannot take an action in the connected District it moves to the other District and tries there; " +
			"when it cannot act in either, it gains 1 Money and 1 Popularity instead.", Table: t}, nil
}

// marginFigure is the histogram of a cell's margins, one bar a vote,
// coloured by outcome, with the 5th to 95th percentiles marked.
func marginFigure(id, name string, c *sim.Cell, path string) (figure, error) {
	title := "Margin distribution: " + name
	p := newPlot(title, "margin (votes: yours − the Opposition's)", "games (% of the cell)")
	h := &c.Counts.Hist
	nonZero := func(n int64) bool { return n != 0 }
	first := slices.IndexFunc(h[:], nonZero)
	last := first
	for i := first; i >= 0 && i < len(h); i++ {
		if h[i] != 0 {
			last = i
		}
	}
	q := c.MarginQuantiles
	marks := map[int][]string{}
	for _, m := range []struct {
		name string
		v    int
	}{{"p5", q.P5}, {"p25", q.P25}, {"p50", q.P50}, {"p75", q.P75}, {"p95", q.P95}} {
		marks[m.v] = append(marks[m.v], m.name)
	}
	t := table{Header: []string{"margin (votes)", "games", "share", "cumulative share", "percentile"}}
	var won, drawn, lost []plotter.HistogramBin
	var cum int64
	var top float64
	if first >= 0 {
		for i := first; i <= last; i++ {
			m := i - sim.MarginLimit
			share := 100 * float64(h[i]) / float64(c.Games)
			top = max(top, share)
			bin := plotter.HistogramBin{Min: float64(m) - 0.5, Max: float64(m) + 0.5, Weight: share}
			switch {
			case m > 0:
				won = append(won, bin)
			case m < 0:
				lost = append(lost, bin)
			default:
				drawn = append(drawn, bin)
			}
			cum += h[i]
			t.Rows = append(t.Rows, []cell{
				count(int64(m), ""),
				count(h[i], fmt.Sprintf("%scounts.margin_histogram.counts.%d", path, i-first)),
				percent(float64(h[i])/float64(c.Games), ""),
				percent(float64(cum)/float64(c.Games), ""),
				text(strings.Join(marks[m], ", ")),
			})
		}
	}
	var legend []legendItem
	for _, s := range []struct {
		bins []plotter.HistogramBin
		c    color.Color
		name string
	}{{lost, lostColour, "lost"}, {drawn, drawColour, "draw"}, {won, wonColour, "won"}} {
		if len(s.bins) == 0 {
			continue
		}
		hist := &plotter.Histogram{Bins: s.bins, Width: 1, FillColor: s.c, LineStyle: draw.LineStyle{Width: 0}}
		p.Add(hist)
		legend = append(legend, legendItem{s.name, hist})
	}
	// The percentiles: a dashed line each, labelled above the bars.
	labelY := top * 1.1
	var lx plotter.XYLabels
	var pline *plotter.Line
	for _, m := range []struct {
		name string
		v    int
	}{{"p5", q.P5}, {"p25", q.P25}, {"p50", q.P50}, {"p75", q.P75}, {"p95", q.P95}} {
		style := draw.LineStyle{Color: okBlack, Width: vg.Points(1), Dashes: dashed()}
		l, err := vLine(p, float64(m.v), 0, top*1.05, style)
		if err != nil {
			return figure{}, err
		}
		pline = l
		lx.XYs = append(lx.XYs, plotter.XY{X: float64(m.v), Y: labelY})
		lx.Labels = append(lx.Labels, m.name)
	}
	labels, err := plotter.NewLabels(lx)
	if err != nil {
		return figure{}, fmt.Errorf("report: %v", err)
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font.Size = 10
		labels.TextStyle[i].XAlign = draw.XCenter
	}
	p.Add(labels)
	legend = append(legend, legendItem{"percentiles p5 … p95", pline})
	p.Y.Min = 0
	p.Y.Max = top * 1.18
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(280), title)
	if err != nil {
		return figure{}, err
	}
	note := fmt.Sprintf("Percentiles of the margin: p5 %+d, p25 %+d, median %+d, p75 %+d, p95 %+d votes.", q.P5, q.P25, q.P50, q.P75, q.P95)
	if c.Counts.Clamped > 0 {
		note += fmt.Sprintf(" %d games had margins beyond ±%d and are counted in the edge bars.", c.Counts.Clamped, sim.MarginLimit)
	}
	return figure{ID: id + "-margin", Title: title, SVG: svg, Note: note, Table: t}, nil
}

// districtFigure shows, for each District, the share of games in which
// you or the Opposition had more votes there.
func districtFigure(id, name string, c *sim.Cell, path string) (figure, error) {
	title := "Where games are won and lost: " + name
	p := newPlot(title, "games (% of the cell)", "District")
	n := len(c.Districts)
	names := make([]string, n)
	ahead, tied, behind := make(plotter.Values, n), make(plotter.Values, n), make(plotter.Values, n)
	t := table{Header: []string{"District", "your shares", "its shares", "your votes", "its votes", "you ahead", "tied", "it ahead"}}
	for i := range c.Districts {
		d := &c.Districts[i]
		names[i] = d.District
		j := n - 1 - i
		tie := max(0, 1-d.PlayerAheadRate-d.OppositionAheadRate)
		ahead[j], tied[j], behind[j] = 100*d.PlayerAheadRate, 100*tie, 100*d.OppositionAheadRate
		dp := fmt.Sprintf("%sdistricts.%d.", path, i)
		t.Rows = append(t.Rows, []cell{
			text(d.District),
			plain2(d.MeanPlayerShares, dp+"mean_player_shares"), plain2(d.MeanOppositionShares, dp+"mean_opposition_shares"),
			plain2(d.MeanPlayerVotes, dp+"mean_player_votes"), plain2(d.MeanOppositionVotes, dp+"mean_opposition_votes"),
			percent(d.PlayerAheadRate, dp+"player_ahead_rate"), percent(tie, ""), percent(d.OppositionAheadRate, dp+"opposition_ahead_rate"),
		})
	}
	if n == 0 {
		return figure{}, fmt.Errorf("report: %s: no Districts in the cell", name)
	}
	categoriesY(p, names)
	barW := vg.Points(rowHeight * 0.7)
	var below *plotter.BarChart
	var legend []legendItem
	for _, s := range []struct {
		vals plotter.Values
		c    color.Color
		name string
	}{{ahead, wonColour, "you ahead"}, {tied, drawColour, "tied"}, {behind, lostColour, "Opposition ahead"}} {
		b, err := plotter.NewBarChart(s.vals, barW)
		if err != nil {
			return figure{}, fmt.Errorf("report: %v", err)
		}
		b.Horizontal = true
		b.Color = s.c
		b.LineStyle.Width = 0
		if below != nil {
			b.StackOn(below)
		}
		below = b
		p.Add(b)
		legend = append(legend, legendItem{s.name, b})
	}
	p.X.Min, p.X.Max = 0, 100
	svg, err := renderSVG(p, legend, plotWidth, categoryHeight(n), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-districts", Title: title, SVG: svg,
		Note: "A District counts as ahead for whoever had more votes there at the Final Tally; the table also gives the mean shares and votes per game.", Table: t}, nil
}

// simLegend explains, under the table, the column a reader cannot guess.
// The Opposition falls back in almost every game: a Solo card's action is
// often impossible where its Assistant stands (I-9), and I-10 says what it
// does then.
const simLegend = "FALLBACKS/GAME: per game, Opposition actions moved to its other District / done in neither (I-10)\n"

// simText writes a sim result as two ASCII tables: the win rates, then
// where games are won and lost. Without wide, the first holds the columns
// that fit 100 characters with the default policies.
func simText(b *bytes.Buffer, r *sim.Result, opt TextOptions) error {
	wide := opt.Wide
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if a := r.AutomatonText(); a != "" {
		b.WriteString(a + "\n")
	}
	var pols []string
	for _, c := range r.Cells {
		pols = append(pols, c.Policy)
	}
	if l := playersLegend(pols); l != "" {
		b.WriteString(l + "\n")
	}
	weightsNotes(b, "", pols, r.RulesID)
	held := int64(0) // the games a cell of the shards holds, failed ones too
	for _, c := range r.Cells {
		held = max(held, c.Games+c.Errors)
	}
	fmt.Fprintf(b, "seed %d, %s", r.Seed, heldWords(held, r.GamesPerCell, "games", "per cell", r.Shard))
	if r.Interrupted {
		b.WriteString(", INTERRUPTED (cells hold fewer games)")
	}
	b.WriteString("; margin: your votes − the Opposition's\n")
	header := []string{"MODE", "POLICY", "POLITICIAN", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]", "FALLBACKS/GAME"}
	if wide {
		header = []string{"MODE", "POLICY", "POLITICIAN", "GAMES", "W / D / L", "WIN RATE [95% CI]",
			"MEAN MARGIN [95% CI]", "VOTES YOU : OPP", "MARGIN P5 P25 P50 P75 P95", "FALLBACKS/GAME", "GAMES/S"}
	}
	var rows [][]string
	for _, c := range r.Cells {
		q := c.MarginQuantiles
		winRate := fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(c.WinCI95[0]), pct(c.WinCI95[1]))
		margin := fmt.Sprintf("%s [%s, %s]", signedText(c.MeanMargin), signedText(c.MarginCI95[0]), signedText(c.MarginCI95[1]))
		fallbacks := fmt.Sprintf("%.2f / %.2f", c.Fallbacks.OtherPerGame, c.Fallbacks.BothPerGame)
		if !wide {
			rows = append(rows, []string{c.Mode, playerName(c.Policy), politicianName(c.Politician), winRate, margin, fallbacks})
			continue
		}
		rows = append(rows, []string{
			c.Mode, playerName(c.Policy), politicianName(c.Politician),
			strconv.FormatInt(c.Games, 10),
			fmt.Sprintf("%d / %d / %d", c.Wins, c.Draws, c.Losses),
			winRate, margin,
			fmt.Sprintf("%.1f : %.1f", c.MeanPlayerVotes, c.MeanOppositionVotes),
			fmt.Sprintf("%d %d %d %d %d", q.P5, q.P25, q.P50, q.P75, q.P95),
			fallbacks,
			fmt.Sprintf("%.0f", c.GamesPerSecond),
		})
	}
	if err := writeTable(b, header, 3, rows); err != nil {
		return err
	}
	for _, c := range r.Cells {
		if c.Errors > 0 {
			fmt.Fprintf(b, "FAILED: %d games of %s/%s/%s failed and are not counted above (see the errors).\n", c.Errors, c.Mode, playerName(c.Policy), c.Politician)
		}
	}
	b.WriteString(simLegend)
	if len(r.Cells) > 1 {
		fmt.Fprintf(b, "95%% intervals are per cell: across %d cells, about one in twenty may miss by chance.\n", len(r.Cells))
	}
	b.WriteString("\nWhere games are won and lost (means per game, you : Opposition; AHEAD: games you out-voted it there)\n")
	rows = nil
	for _, c := range r.Cells {
		for _, d := range c.Districts {
			rows = append(rows, []string{
				c.Mode, playerName(c.Policy), politicianName(c.Politician), d.District,
				fmt.Sprintf("%.2f : %.2f", d.MeanPlayerShares, d.MeanOppositionShares),
				fmt.Sprintf("%.1f : %.1f", d.MeanPlayerVotes, d.MeanOppositionVotes),
				pct(d.PlayerAheadRate), pct(d.OppositionAheadRate),
			})
		}
	}
	return writeTable(b, []string{"MODE", "POLICY", "POLITICIAN", "DISTRICT", "SHARES", "VOTES", "AHEAD", "BEHIND"}, 4, rows)
}

// simCSVHeader lists the columns of a sim result: the scalar fields of a
// cell.
var simCSVHeader = []string{
	"mode", "policy", "politician", "games", "wins", "draws", "losses",
	"win_rate", "win_ci95_lo", "win_ci95_hi", "mean_margin", "margin_ci95_lo", "margin_ci95_hi",
	"mean_player_votes", "mean_opposition_votes",
	"margin_p5", "margin_p25", "margin_p50", "margin_p75", "margin_p95",
	"fallbacks_other_district", "fallbacks_both_districts", "fallbacks_other_per_game", "fallbacks_both_per_game",
	"games_per_second",
}

func simCSV(w *csv.Writer, r *sim.Result) {
	f, i := csvFloat, csvInt
	w.Write(simCSVHeader)
	for _, c := range r.Cells {
		q := c.MarginQuantiles
		w.Write([]string{
			c.Mode, levelName(c.Policy), c.Politician, i(c.Games), i(c.Wins), i(c.Draws), i(c.Losses),
			f(c.WinRate), f(c.WinCI95[0]), f(c.WinCI95[1]), f(c.MeanMargin), f(c.MarginCI95[0]), f(c.MarginCI95[1]),
			f(c.MeanPlayerVotes), f(c.MeanOppositionVotes),
			strconv.Itoa(q.P5), strconv.Itoa(q.P25), strconv.Itoa(q.P50), strconv.Itoa(q.P75), strconv.Itoa(q.P95),
			i(c.Fallbacks.OtherDistrict), i(c.Fallbacks.BothDistricts), f(c.Fallbacks.OtherPerGame), f(c.Fallbacks.BothPerGame),
			f(c.GamesPerSecond),
		})
	}
}

// simCommand reconstructs the sim command line that plays the games of r.
func simCommand(r *sim.Result) string {
	var modes, policies, politicians []string
	for _, c := range r.Cells {
		modes, policies, politicians = uniq(modes, c.Mode), uniq(policies, c.Policy), uniq(politicians, c.Politician)
	}
	args := []string{"sim", "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed)}
	switch {
	case len(modes) == 2:
		args = append(args, "--mode", "both")
	case len(modes) == 1:
		args = append(args, "--mode", modes[0])
	}
	if len(policies) > 0 {
		args = append(args, "--policy", strings.Join(policies, ","))
	}
	switch {
	case len(politicians) > 1:
		args = append(args, "--politician", "all")
	case len(politicians) == 1:
		args = append(args, "--politician", politicians[0])
	}
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}
