package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"tallywood/sim"
)

// CSV writes src's result as CSV: a row per cell of a sim result, per cell
// and point of a sweep (the base first, unless a point is the base), per row of a study of several
// players. A partial (interrupted) result ends with a row saying so: a
// person sees it, and a reader that wants every row to have the header's
// fields (Go's encoding/csv, pandas) stops there (issue 22: partial CSV
// files carried no mark). Comparisons have no CSV form.
func CSV(w io.Writer, src Source) error {
	cw := csv.NewWriter(w)
	switch {
	case src.Sim != nil:
		simCSV(cw, src.Sim)
	case src.Sweep != nil:
		sweepCSV(cw, src.Sweep)
	case src.Seats != nil:
		seatsCSV(cw, src.Seats)
	case src.Cards != nil:
		cardsCSV(cw, src.Cards)
	case src.Tune != nil:
		tuneCSV(cw, src.Tune)
	case src.Sensitivity != nil:
		sensitivityCSV(cw, src.Sensitivity)
	case src.Compare != nil, src.SeatsCompare != nil:
		return fmt.Errorf("report: %s: a comparison has no CSV form (its text, JSON or HTML has it all)", src.Name)
	default:
		return fmt.Errorf("report: %s: no result in the source", src.Name)
	}
	if src.Interrupted() {
		cw.Write([]string{"# partial result: the run was interrupted after " + src.Played()})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %v", err)
	}
	return nil
}

// csvFloat writes a number exactly (the shortest form that reads back the
// same float64).
func csvFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func csvInt(x int64) string { return strconv.FormatInt(x, 10) }

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
			c.Mode, c.Policy, c.Politician, i(c.Games), i(c.Wins), i(c.Draws), i(c.Losses),
			f(c.WinRate), f(c.WinCI95[0]), f(c.WinCI95[1]), f(c.MeanMargin), f(c.MarginCI95[0]), f(c.MarginCI95[1]),
			f(c.MeanPlayerVotes), f(c.MeanOppositionVotes),
			strconv.Itoa(q.P5), strconv.Itoa(q.P25), strconv.Itoa(q.P50), strconv.Itoa(q.P75), strconv.Itoa(q.P95),
			i(c.Fallbacks.OtherDistrict), i(c.Fallbacks.BothDistricts), f(c.Fallbacks.OtherPerGame), f(c.Fallbacks.BothPerGame),
			f(c.GamesPerSecond),
		})
	}
}

func sweepCSV(w *csv.Writer, r *sim.SweepResult) {
	f, i := csvFloat, csvInt
	header := append([]string{"mode", "policy", "politician"}, r.Params...)
	header = append(header, "is_base", "games", "wins", "draws", "losses", "win_rate", "win_ci95_lo", "win_ci95_hi",
		"win_ci_simultaneous_lo", "win_ci_simultaneous_hi", "mean_margin", "margin_ci95_lo", "margin_ci95_hi",
		"score_diff_vs_base", "score_diff_ci95_lo", "score_diff_ci95_hi",
		"margin_diff_vs_base", "margin_diff_ci95_lo", "margin_diff_ci95_hi")
	w.Write(header)
	row := func(c *sim.SweepCell, values []string, isBase bool, cell *sim.Cell, simultaneous *[2]float64, diffs []string) {
		rec := append([]string{c.Mode, c.Policy, c.Politician}, values...)
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
			row(c, baseValues(r), true, &c.Base, nil, []string{"0", "0", "0", "0", "0", "0"})
		}
		for j := range c.Points {
			p := &c.Points[j]
			row(c, p.Values, p.IsBase, &p.Result, p.WinCISimultaneous, []string{f(p.ScoreDiff), f(p.ScoreDiffCI95[0]), f(p.ScoreDiffCI95[1]),
				f(p.MarginDiff), f(p.MarginDiffCI95[0]), f(p.MarginDiffCI95[1])})
		}
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
