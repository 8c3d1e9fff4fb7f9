package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindArc, kindView[*sim.ArcResult]{text: arcText, wide: true, csv: arcCSV, section: arcSection})
}

// arcTop is how many Solo cards the text and the page show (every one
// with --all; the CSV and JSON hold them all).
const arcTop = 5

// partWords name the parts of a game's change in win chance.
var partWords = [sim.NumParts]string{"your decisions", "luck: draws", "luck: cubes", "luck: reveals",
	"luck: Solo card flips", "the Opposition's automaton"}

// dealWords and luckWords name the deal's part and luck's in all.
const (
	dealWords = "luck: the deal"
	luckWords = "luck in all"
)

// arcMethod says how the arc study reads a game, in the text and the page.
const arcMethod = "the win chance is the model's probability that you win (a draw ½) when the cell's skill level plays " +
	"the rest of the game, read from what your seat sees, at each of your decisions and each start of an Opposition turn. " +
	"A game's change in chance, from the prior (the cell's mean opening chance: the chance before the deal is known) to " +
	"its outcome, is split exactly into your decisions (the chance a decision leads to, less the chance before it; for a " +
	"decision that sets chance going, the mean over determinized copies of what it leads to), luck and the Opposition's " +
	"automaton. Luck is the draws, cubes and reveals (what the chance they set going then did), the Solo card flips (the " +
	"chance once the Opposition's card is known less its mean over the cards it might have flipped, each read after its " +
	"automaton played the card in the same determinized copies) and the deal (the opening chance less the prior). The " +
	"automaton's part is the rest of its turns: what they change on average over the cards, and Round Scoring and Clean " +
	"Up when a turn ends the round. For a calibrated chance each part has a mean near 0 for the level it models; the " +
	"share of variance is each part's share of the squared steps and the deal's squares, which add up to the outcome's " +
	"variance around the prior. A Solo card's effect is the mean change of the turns that played it: below 0 costs you"

// pts is a chance (0–1) in points.
func pts(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// ciPoints is a mean in points with its interval.
func ciPoints(m float64, ci [2]float64) string {
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", m, ci[0], ci[1])
}

// rateCI is a rate with its interval, or "–" with no games.
func rateCI(r float64, ci [2]float64, n int64) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%s [%s, %s]", pct(r), pct(ci[0]), pct(ci[1]))
}

// turnName is the player's turn t of a game of turns turns, 1-based; one
// past the turns: the Final Tally's start; two past: its reveals.
func turnName(t, turns int) string {
	switch {
	case t == turns:
		return "the Final Tally's start"
	case t > turns:
		return "the Final Tally's reveals"
	}
	return fmt.Sprintf("turn %d", t+1)
}

func arcText(b *bytes.Buffer, r *sim.ArcResult, opt TextOptions) error {
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, "changed by %s\n", strings.Join(r.Overrides, ", "))
	}
	fmt.Fprintf(b, "win chance model %s; seed %d, %d games per cell", r.Model, r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	for i := range r.Cells {
		if err := arcCellText(b, &r.Cells[i], opt); err != nil {
			return err
		}
	}
	if len(r.Deals) > 0 {
		b.WriteString("\nPaired deals (the same deals played by every policy of a difficulty and politician):\n")
		for _, d := range r.Deals {
			wrapTo(b, fmt.Sprintf("%s, politician %s, %s: %d deals. The deal explains %s [%s, %s] of the score's variance; "+
				"every policy won %s of the deals, every one lost %s.",
				capitalize(d.Mode), d.Politician, strings.Join(d.Policies, ", "), d.Table.Rows,
				pct(d.DealShare), pct(d.DealShareCI95[0]), pct(d.DealShareCI95[1]),
				rateCI(d.AllWonRate, d.AllWonCI95, d.Table.Rows), rateCI(d.AllLostRate, d.AllLostCI95, d.Table.Rows)), "  ")
		}
	}
	b.WriteString("\n")
	b.WriteString(wrapText("Method: " + arcMethod + "."))
	var ps []string
	for _, c := range r.Cells {
		ps = append(ps, c.Base.Policy)
	}
	weightsNotes(b, "", ps, r.RulesID)
	return nil
}

func arcCellText(b *bytes.Buffer, c *sim.ArcCell, opt TextOptions) error {
	s := &c.Summary
	turns := len(c.ByTurn)
	fmt.Fprintf(b, "\n%s, %s, politician %s: %d games, win rate %s; the chance of %s\n", capitalize(c.Base.Mode), playerName(c.Base.Policy),
		c.Base.Politician, c.Base.Games, pct(c.Base.WinRate), c.Level)
	if c.Base.Games == 0 {
		return nil
	}
	wrapTo(b, fmt.Sprintf("Opening chance %.1f%% [%.1f, %.1f]. Lead changes (crossings of 50%% from one turn's start to the next) "+
		"per game: %.2f [%.2f, %.2f].", s.Opening, s.OpeningCI95[0], s.OpeningCI95[1], s.LeadChanges, s.LeadChangesCI95[0], s.LeadChangesCI95[1]), "  ")
	if s.Decided > 0 {
		wrapTo(b, fmt.Sprintf("Decided by (the winner's chance at 90%% or more from the start of that turn of yours on, "+
			"both sides' turns counted): median %s of %d, mean %.1f turns; %s still open at the Final Tally (the winner "+
			"below 90%% when it began). The winner's lowest chance: median %d%%; below 50%% in %s of the games, below 25%% in %s.",
			turnName(s.DecidedMedian, turns), turns, s.DecidedMean, pct(s.OpenAtTally), s.LowestMedian, pct(s.WinnerBehind), pct(s.WinnerBehind25)), "  ")
	}
	var rows [][]string
	for r, q := range s.FanByRound {
		cb := s.Comebacks[r]
		rows = append(rows, []string{fmt.Sprint(r + 1), fmt.Sprintf("%d %d %d %d %d", q[0], q[1], q[2], q[3], q[4]),
			pct(cb.BelowShare), rateCI(cb.WonRate, cb.WonCI95, cb.Below), pct(cb.AboveShare), rateCI(cb.LostRate, cb.LostCI95, cb.Above)})
	}
	if err := writeTable(b, []string{"ROUND", "CHANCE % P10–P90", "<25%", "WON FROM <25%", ">75%", "LOST FROM >75%"}, 1, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for r, cb := range s.Comebacks {
		rows = append(rows, []string{fmt.Sprint(r + 1), pct(cb.LedShare), fmt.Sprint(cb.Leaders), rateCI(cb.LeaderLost, cb.LeaderLostCI95, cb.Leaders)})
	}
	if err := writeTable(b, []string{"ROUND", "YOU LEAD", "A LEADER", "THE LEADER INTO THE ROUND LOSES [95% CI]"}, 1, rows); err != nil {
		return err
	}
	wrapTo(b, "The leader by the 50% line: you when your chance at the round's first point is above 50%, the Opposition "+
		"when it is below (A LEADER: games with one); the share of those games the leader lost, a draw no loss.", "  ")
	v := s.Votes
	var shares []string
	for _, x := range s.SharesByRound {
		shares = append(shares, fmt.Sprintf("%.1f/%.1f", x[0], x[1]))
	}
	wrapTo(b, fmt.Sprintf("Final votes: you %.1f (sd %.1f, 10th–90th percentile %d–%d); the Opposition %.1f (sd %.1f, %d–%d). "+
		"Vote Shares at the end of each round, you/the Opposition: %s.",
		v[0].Mean, v[0].SD, v[0].Quantiles[0], v[0].Quantiles[4], v[1].Mean, v[1].SD, v[1].Quantiles[0], v[1].Quantiles[4], strings.Join(shares, ", ")), "  ")
	rows = rows[:0]
	for k, p := range s.Parts {
		rows = append(rows, []string{partWords[k], ciPoints(p.Mean, p.MeanCI95), pct(p.VarShare)})
	}
	rows = append(rows, []string{dealWords, "+0.0 (by definition)", pct(s.Deal.VarShare)}, []string{luckWords, "", pct(s.Luck)})
	if err := writeTable(b, []string{"CHANGE IN CHANCE PER GAME", "POINTS [95% CI]", "SHARE OF VARIANCE"}, 1, rows); err != nil {
		return err
	}
	if opt.Wide || opt.All {
		rows = rows[:0]
		for _, k := range s.Kinds {
			rows = append(rows, []string{k.Kind, fmt.Sprintf("%.1f", k.PerGame), ciPoints(k.Decision, k.DecisionCI95), ciPoints(k.Luck, k.LuckCI95)})
		}
		if err := writeTable(b, []string{"DECISION", "PER GAME", "STEP OFFSET PTS/GAME", "LUCK PTS/GAME"}, 1, rows); err != nil {
			return err
		}
		wrapTo(b, kindOffsetNote, "  ")
	}
	rows = rows[:0]
	shown := 0
	all := 0
	for _, e := range s.Solo {
		if e.Round != 0 && !opt.All {
			continue
		}
		all++
		if !opt.All && shown >= arcTop {
			continue
		}
		shown++
		round := "all"
		if e.Round > 0 {
			round = fmt.Sprint(e.Round)
		}
		rows = append(rows, []string{fmt.Sprint(e.Rank), e.Card, round, fmt.Sprint(e.Turns), ciPoints(e.Mean, e.MeanCI95)})
	}
	if len(rows) > 0 {
		b.WriteString("  Solo cards, the costliest for you first (change in chance per turn that played the card):\n")
		if err := writeTable(b, []string{"#", "CARD", "ROUND", "TURNS", "POINTS [95% CI]"}, 2, rows); err != nil {
			return err
		}
		if shown < all {
			fmt.Fprintf(b, "  the first %d of %d (--all: every one, and by round; the CSV and JSON hold them all)\n", shown, all)
		}
	}
	if c.Base.Errors > 0 {
		fmt.Fprintf(b, "  FAILED: %d games failed and are not counted (see the errors).\n", c.Base.Errors)
	}
	return nil
}

// kindOffsetNote says how to read the decisions' parts by kind.
const kindOffsetNote = "STEP OFFSET: a kind's steps, from its decision to the next point, added up per game. They are " +
	"offsets of the model between kinds of point (its inputs do not say where in a turn the game is), not the " +
	"decisions' effects: an interval of no width is an offset alone, and the kinds' offsets cancel over a turn. " +
	"Read the decisions' part in all, and their luck (docs/arc.md)."

var arcCSVHeader = []string{"mode", "policy", "politician", "chance_level", "measure", "key", "value", "ci95_lo", "ci95_hi", "n"}

func arcCSV(w *csv.Writer, r *sim.ArcResult) {
	f, i := csvFloat, csvInt
	w.Write(arcCSVHeader)
	for _, c := range r.Cells {
		s := &c.Summary
		row := func(measure, key string, v, lo, hi float64, n int64) {
			w.Write([]string{c.Base.Mode, levelName(c.Base.Policy), c.Base.Politician, c.Level, measure, key, f(v), f(lo), f(hi), i(n)})
		}
		g := c.Base.Games
		row("opening", "", s.Opening, s.OpeningCI95[0], s.OpeningCI95[1], g)
		row("lead_changes", "", s.LeadChanges, s.LeadChangesCI95[0], s.LeadChangesCI95[1], g)
		row("decided_by_median", "", float64(s.DecidedMedian+1), 0, 0, s.Decided)
		row("decided_by_mean", "", s.DecidedMean+1, 0, 0, s.Decided)
		row("open_at_the_final_tally", "", s.OpenAtTally, 0, 0, s.Decided)
		row("winner_lowest_median", "", float64(s.LowestMedian), 0, 0, s.Decided)
		row("winner_below_50", "", s.WinnerBehind, 0, 0, s.Decided)
		row("winner_below_25", "", s.WinnerBehind25, 0, 0, s.Decided)
		quant := []string{"p10", "p25", "p50", "p75", "p90"}
		for t, q := range s.FanByTurn {
			for k, x := range q {
				row("chance_by_turn", fmt.Sprintf("%d:%s", t+1, quant[k]), float64(x), 0, 0, g)
			}
		}
		for rd, q := range s.FanByRound {
			for k, x := range q {
				row("chance_by_round", fmt.Sprintf("%d:%s", rd+1, quant[k]), float64(x), 0, 0, g)
			}
			cb := s.Comebacks[rd]
			row("won_from_below_25", fmt.Sprint(rd+1), cb.WonRate, cb.WonCI95[0], cb.WonCI95[1], cb.Below)
			row("lost_from_above_75", fmt.Sprint(rd+1), cb.LostRate, cb.LostCI95[0], cb.LostCI95[1], cb.Above)
			row("leader_lost", fmt.Sprint(rd+1), cb.LeaderLost, cb.LeaderLostCI95[0], cb.LeaderLostCI95[1], cb.Leaders)
			row("shares_player", fmt.Sprint(rd+1), s.SharesByRound[rd][0], 0, 0, g)
			row("shares_opposition", fmt.Sprint(rd+1), s.SharesByRound[rd][1], 0, 0, g)
		}
		for side, name := range []string{"votes_player", "votes_opposition"} {
			v := s.Votes[side]
			row(name, "mean", v.Mean, v.MeanCI95[0], v.MeanCI95[1], g)
			row(name, "sd", v.SD, 0, 0, g)
			for k, x := range v.Quantiles {
				row(name, quant[k], float64(x), 0, 0, g)
			}
		}
		for k, p := range s.Parts {
			row("part", sim.PartNames[k], p.Mean, p.MeanCI95[0], p.MeanCI95[1], g)
			row("part_variance_share", sim.PartNames[k], p.VarShare, 0, 0, g)
		}
		row("part_variance_share", "deal", s.Deal.VarShare, 0, 0, g)
		row("luck_variance_share", "", s.Luck, 0, 0, g)
		for _, k := range s.Kinds {
			row("decision", k.Kind, k.Decision, k.DecisionCI95[0], k.DecisionCI95[1], g)
			row("decision_luck", k.Kind, k.Luck, k.LuckCI95[0], k.LuckCI95[1], g)
			row("decisions_per_game", k.Kind, k.PerGame, 0, 0, g)
		}
		for _, e := range s.Solo {
			row("solo_card", fmt.Sprintf("%s@%d", e.Card, e.Round), e.Mean, e.MeanCI95[0], e.MeanCI95[1], e.Turns)
		}
	}
	for _, d := range r.Deals {
		pol := strings.Join(d.Policies, "+")
		for _, x := range []struct {
			m     string
			v     float64
			ci    [2]float64
			level string
		}{{"deal_share", d.DealShare, d.DealShareCI95, ""}, {"all_won", d.AllWonRate, d.AllWonCI95, ""}, {"all_lost", d.AllLostRate, d.AllLostCI95, ""}} {
			w.Write([]string{d.Mode, pol, d.Politician, x.level, x.m, "", f(x.v), f(x.ci[0]), f(x.ci[1]), i(d.Table.Rows)})
		}
	}
}

// arcCommand reconstructs the command line of r.
func arcCommand(r *sim.ArcResult) string {
	var modes, policies []string
	for _, c := range r.Cells {
		modes, policies = uniq(modes, c.Base.Mode), uniq(policies, c.Base.Policy)
	}
	args := []string{"arc", "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed),
		"--mode", strings.Join(modes, ","), "--policy", strings.Join(policies, ",")}
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}

// arcSection reports an arc study: per cell, the fan of the win chance
// by turn, the split of its change, and the costliest Solo cards.
func arcSection(idx int, src Source, r *sim.ArcResult) (section, error) {
	s := newSection(idx, "arc", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Win chance model", Value: r.Model},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games per cell", Value: gamesOfShard(r.GamesPerCell, r.Shard)},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Rules changed by", Value: strings.Join(r.Overrides, " ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, arcCommand(r))...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "How the arc is read: "+arcMethod+".")
	for _, d := range r.Deals {
		s.List = append(s.List, fmt.Sprintf("%s, politician %s, %s: %d paired deals; the deal explains %s [%s, %s] of the score's variance; every policy won %s, every one lost %s.",
			capitalize(d.Mode), d.Politician, strings.Join(d.Policies, ", "), d.Table.Rows, pct(d.DealShare), pct(d.DealShareCI95[0]), pct(d.DealShareCI95[1]),
			rateCI(d.AllWonRate, d.AllWonCI95, d.Table.Rows), rateCI(d.AllLostRate, d.AllLostCI95, d.Table.Rows)))
	}
	for ci := range r.Cells {
		c := &r.Cells[ci]
		g := group{Heading: fmt.Sprintf("%s: the chance of %s", CellTitle(&c.Base, &c.Base), c.Level)}
		for _, mk := range []func(string, int, *sim.ArcCell) (figure, error){fanFigure, partsFigure, soloFigure} {
			fig, err := mk(fmt.Sprintf("%s-cell%d", s.ID, ci+1), ci, c)
			if err != nil {
				return section{}, err
			}
			if fig.ID != "" {
				g.Figures = append(g.Figures, fig)
			}
		}
		s.Groups = append(s.Groups, g)
	}
	return s, nil
}

// fanFigure draws the percentiles of the win chance at the start of each
// of the player's turns.
func fanFigure(id string, ci int, c *sim.ArcCell) (figure, error) {
	title := fmt.Sprintf("%s: your win chance at the start of each turn", CellTitle(&c.Base, &c.Base))
	p := newPlot(title, "your turn", "win chance (%)")
	fans := c.Summary.FanByTurn
	names := []string{"10th–90th percentile", "25th–75th percentile", "median"}
	widths := []float64{1, 1.5, 2.5}
	pairs := [][2]int{{0, 4}, {1, 3}, {2, 2}}
	var legend []legendItem
	t := table{Header: []string{"turn", "10th", "25th", "median", "75th", "90th"}}
	for k, pr := range pairs {
		for side, q := range pr {
			if side == 1 && pr[0] == pr[1] {
				break
			}
			xy := make(plotter.XYs, len(fans))
			for i, f := range fans {
				xy[i] = plotter.XY{X: float64(i + 1), Y: float64(f[q])}
			}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return figure{}, err
			}
			l.LineStyle = solid(seriesColour(k), widths[k])
			if k == 0 {
				l.LineStyle.Dashes = dashed()
			}
			p.Add(l)
			if side == 0 {
				legend = append(legend, legendItem{names[k], l})
			}
		}
	}
	for i, f := range fans {
		path := fmt.Sprintf("cells.%d.summary.fan_by_turn.%d.", ci, i)
		t.Rows = append(t.Rows, []cell{text(fmt.Sprint(i + 1)), count(int64(f[0]), path+"0"), count(int64(f[1]), path+"1"),
			count(int64(f[2]), path+"2"), count(int64(f[3]), path+"3"), count(int64(f[4]), path+"4")})
	}
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min, p.X.Max = 1, float64(max(2, len(fans)))
	svg, err := renderSVG(p, legend, plotWidth, vg.Points(260), title)
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-fan", Title: title, SVG: svg, Table: t,
		Note: "The spread of your chance over the games at each of your turns: a wide fan late in the game means games stay open."}, nil
}

// partsFigure draws the mean of each part of a game's change in chance,
// with its interval, and each kind of decision's.
func partsFigure(id string, ci int, c *sim.ArcCell) (figure, error) {
	s := &c.Summary
	title := fmt.Sprintf("%s: where the change in win chance comes from", CellTitle(&c.Base, &c.Base))
	var rows []forestRow
	t := table{Header: []string{"part", "points per game", "low", "high", "share of variance"}}
	add := func(name string, m float64, iv [2]float64, share cell, path string) {
		rows = append(rows, forestRow{label: name, est: m, lo: iv[0], hi: iv[1]})
		t.Rows = append(t.Rows, []cell{text(name), plain2(m, path+"mean"), plain2(iv[0], path+"mean_ci95.0"), plain2(iv[1], path+"mean_ci95.1"), share})
	}
	for k, pt := range s.Parts {
		path := fmt.Sprintf("cells.%d.summary.parts.%d.", ci, k)
		add(partWords[k], pt.Mean, pt.MeanCI95, percent(pt.VarShare, path+"variance_share"), path)
	}
	// The deal's mean is 0 by definition: in the table, not the plot.
	t.Rows = append(t.Rows, []cell{text(dealWords), text("0 (by definition)"), text(""), text(""),
		percent(s.Deal.VarShare, fmt.Sprintf("cells.%d.summary.deal.variance_share", ci))},
		[]cell{text(luckWords), text(""), text(""), text(""), percent(s.Luck, fmt.Sprintf("cells.%d.summary.luck_variance_share", ci))})
	for k, kd := range s.Kinds {
		path := fmt.Sprintf("cells.%d.summary.decision_kinds.%d.", ci, k)
		rows = append(rows, forestRow{label: "decisions: " + kd.Kind, est: kd.Decision, lo: kd.DecisionCI95[0], hi: kd.DecisionCI95[1]})
		t.Rows = append(t.Rows, []cell{text("decisions: " + kd.Kind), plain2(kd.Decision, path+"decision"), plain2(kd.DecisionCI95[0], path+"decision_ci95.0"),
			plain2(kd.DecisionCI95[1], path+"decision_ci95.1"), text("")})
	}
	svg, err := forestSVG(title, "change in win chance per game (points)", "", rows, nil, "mean per game, 95% interval", "no change")
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-parts", Title: title, SVG: svg, Table: t,
		Note: "Each game's change in chance, from its opening chance to its outcome, split exactly into your decisions, luck (draws, cubes, reveals, Solo card flips) and the Opposition's automaton; the deal's share is its opening chance against the prior; the decisions' part by kind of decision."}, nil
}

// soloFigure draws the Solo cards that cost the player the most chance
// per turn, over every round.
func soloFigure(id string, ci int, c *sim.ArcCell) (figure, error) {
	var es []sim.SoloEffect
	var idx []int
	for k, e := range c.Summary.Solo {
		if e.Round == 0 && len(es) < 2*arcTop {
			es = append(es, e)
			idx = append(idx, k)
		}
	}
	if len(es) == 0 {
		return figure{}, nil
	}
	title := fmt.Sprintf("%s: the Solo cards that cost you the most", CellTitle(&c.Base, &c.Base))
	rows := make([]forestRow, len(es))
	t := table{Header: []string{"rank", "card", "turns", "points", "low", "high"}}
	for i, e := range es {
		rows[i] = forestRow{label: e.Card, est: e.Mean, lo: e.MeanCI95[0], hi: e.MeanCI95[1]}
		path := fmt.Sprintf("cells.%d.summary.solo_effects.%d.", ci, idx[i])
		t.Rows = append(t.Rows, []cell{text(fmt.Sprint(e.Rank)), text(e.Card), count(e.Turns, path+"turns"), plain2(e.Mean, path+"mean"),
			plain2(e.MeanCI95[0], path+"mean_ci95.0"), plain2(e.MeanCI95[1], path+"mean_ci95.1")})
	}
	svg, err := forestSVG(title, "change in win chance per turn that played it (points)", "", rows, nil, "mean per turn, 95% interval", "no change")
	if err != nil {
		return figure{}, err
	}
	return figure{ID: id + "-solo", Title: title, SVG: svg, Table: t,
		Note: "A turn's change runs from the Solo card's flip to your next decision. Cards come in a random order: these are effects."}, nil
}
