package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strconv"

	"tallywood/sim"
)

// Output of a study without the Opposition (sim --seats N).

// tableText renders a study as two ASCII tables: by policy, then by
// starting Initiative position, and the first-seat advantage.
func tableText(r *sim.TableResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "rules %s (%s), seed %d, %d players, %d deals × %d seatings = %d games",
		r.RulesVersion, shortHash(r.RulesHash), r.Seed, r.Players, r.Deals, r.Players, r.Counts.Games)
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	rows := func(title string, rs []sim.TableRow) {
		t := newTable(&b, []string{title, "GAMES", "WINS", "SHARED", "WIN RATE [95% CI]", "SCORE [95% CI]", "MEAN PLACE", "MEAN VOTES"}, 1)
		for _, row := range rs {
			t.Append([]string{
				row.Name,
				strconv.FormatInt(row.Games, 10),
				strconv.FormatInt(row.Wins, 10),
				strconv.FormatInt(row.SharedWins, 10),
				fmt.Sprintf("%s [%s, %s]", pct(row.WinRate), pct(row.WinRateCI95[0]), pct(row.WinRateCI95[1])),
				fmt.Sprintf("%s [%s, %s]", pct(row.MeanScore), pct(row.MeanScoreCI95[0]), pct(row.MeanScoreCI95[1])),
				fmt.Sprintf("%.2f", row.MeanPlace),
				fmt.Sprintf("%.1f", row.MeanVotes),
			})
		}
		t.Render()
	}
	rows("POLICY", r.Policies)
	rows("STARTS WITH", r.Initiative)
	fmt.Fprintf(&b, "First-seat advantage: %+.1f points [%+.1f, %+.1f] (the score of the player holding Initiative 1 at the start, minus the fair %s).\n",
		100*r.FirstSeatAdvantage, 100*r.FirstSeatAdvantageCI95[0], 100*r.FirstSeatAdvantageCI95[1], pct(1/float64(r.Players)))
	b.WriteString("WIN RATE: first place alone. SCORE: a win counts 1, a victory shared by k players 1/k; a fair seat scores 1/players.\n" +
		"Every deal is played once per rotation of the lineup, so each policy starts from every Initiative position equally often.\n")
	return b.Bytes()
}

// tableCSVHeader lists the CSV columns: one row per policy, then per
// starting Initiative position.
var tableCSVHeader = []string{
	"row", "name", "games", "wins", "shared_wins", "win_rate", "win_ci95_lo", "win_ci95_hi",
	"mean_score", "score_ci95_lo", "score_ci95_hi", "mean_place", "mean_votes",
}

func tableCSV(r *sim.TableResult) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(tableCSVHeader)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
	for _, set := range []struct {
		kind string
		rows []sim.TableRow
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
	w.Flush()
	return b.Bytes()
}
