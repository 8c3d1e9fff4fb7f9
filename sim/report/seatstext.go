package report

import (
	"bytes"
	"fmt"
	"strconv"

	"tallywood/engine"
	"tallywood/sim"
)

// seatsText writes a study of several players (sim --seats) as two ASCII
// tables: by policy, then by starting Initiative position, and the
// first-seat advantage. Without wide, the tables leave out the columns the
// rates sum up (wins, shared wins, mean votes), so that they fit 100
// characters (issue 23: 129).
func seatsText(b *bytes.Buffer, r *sim.SeatsResult, wide bool) error {
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	weightsNotes(b, "", r.Lineup, r.RulesHash)
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
		header := []string{set.title, "GAMES", "WIN RATE [95% CI]", "SCORE [95% CI]", "MEAN PLACE"}
		if wide {
			header = []string{set.title, "GAMES", "WINS", "SHARED", "WIN RATE [95% CI]", "SCORE [95% CI]", "MEAN PLACE", "MEAN VOTES"}
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
	b.WriteString(wrapText("WIN RATE: first place alone. SCORE: a win counts 1, a victory shared by k players 1/k; a fair seat scores 1/players."))
	b.WriteString(wrapText("Every deal is played once per rotation of the lineup, so each policy starts from every Initiative position equally often."))
	return nil
}

// seatsCompareText writes a comparison of two rule sets at a table
// (compare --seats): per policy and per starting Initiative position, the
// score under A and B and B − A.
func seatsCompareText(b *bytes.Buffer, r *sim.SeatsCompareResult) error {
	fmt.Fprintf(b, "A: %s (hash %s)  B: %s (hash %s)\n", r.A.Name, engine.ShortHash(r.A.RulesHash), r.B.Name, engine.ShortHash(r.B.RulesHash))
	fmt.Fprintf(b, "seed %d, %d players without the Opposition, %d deals × %d seatings under each rule set", r.Seed, r.Players, r.Deals, r.Players)
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	var rows [][]string
	for _, set := range [][]sim.SeatsCompareRow{r.Policies, r.Initiative} {
		for _, row := range set {
			rows = append(rows, []string{
				row.Name, pct(row.A.MeanScore), pct(row.B.MeanScore),
				fmt.Sprintf("%s [%s, %s] points", pointsText(row.MeanScoreDiff), pointsText(row.MeanScoreDiffCI95[0]), pointsText(row.MeanScoreDiffCI95[1])),
				fmt.Sprintf("%.3g", row.MeanScoreDiffPHolm),
				pct(row.A.WinRate) + " → " + pct(row.B.WinRate),
			})
		}
	}
	if err := writeTable(b, []string{"ROW", "SCORE A", "SCORE B", "B − A [95% CI]", "P (HOLM)", "WIN RATE A → B"}, 1, rows); err != nil {
		return err
	}
	failedDeals(b, r.Errors)
	b.WriteString(firstSeatDiffWords(r) + "\n")
	b.WriteString(wrapText("SCORE: a win counts 1, a victory shared by k players 1/k. B − A is paired by deal (the same cards under both rule sets);"))
	b.WriteString("P (HOLM): its p-value adjusted for every row tested.\n")
	return nil
}

// failedDeals says, under a study's tables, how many deals failed.
func failedDeals(b *bytes.Buffer, n int64) {
	if n > 0 {
		fmt.Fprintf(b, "FAILED: %d deals failed and are not counted above (see the errors).\n", n)
	}
}
