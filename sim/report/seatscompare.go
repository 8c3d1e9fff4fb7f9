package report

import (
	"bytes"
	"fmt"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindSeatsCompare, kindView[*sim.SeatsCompareResult]{text: seatsCompareText, section: seatsCompareSection})
}

// seatsCompareText writes a comparison of two rule sets at a table
// (compare --seats): per policy and per starting Initiative position, the
// score under A and B and B − A.
func seatsCompareText(b *bytes.Buffer, r *sim.SeatsCompareResult, _ TextOptions) error {
	fmt.Fprintf(b, "A: %s (hash %s)  B: %s (hash %s)\n", r.A.Name, engine.ShortHash(r.A.RulesHash), r.B.Name, engine.ShortHash(r.B.RulesHash))
	b.WriteString("B differs from A in:\n")
	for _, d := range rulesDifferences(r.Changes, &r.A, &r.B) {
		b.WriteString("  " + d + "\n")
	}
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

// seatsCompareCommand reconstructs the compare command line of a
// comparison at a table.
func seatsCompareCommand(r *sim.SeatsCompareResult) string {
	args := []string{"compare", "--seats", fmt.Sprint(r.Players), "--policy", strings.Join(r.Lineup, ","),
		"--games", fmt.Sprint(r.Deals), "--seed", fmt.Sprint(r.Seed)}
	args = append(args, rulesArgs("--a-rules", "--a-set", r.A.RulesID)...)
	args = append(args, rulesArgs("--b-rules", "--b-set", r.B.RulesID)...)
	return reproducing(args, r.Shard)
}

// seatsCompareSection reports a comparison of two rule sets at a table.
func seatsCompareSection(idx int, src Source, r *sim.SeatsCompareResult) (section, error) {
	command := seatsCompareCommand(r)
	s := newSection(idx, "compare --seats", src)
	s.ChangedTitle, s.Changed = "B differs from A in:", rulesDifferences(r.Changes, &r.A, &r.B)
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

// firstSeatDiffWords says the first-seat advantage under each arm of a
// comparison at a table, and B − A.
func firstSeatDiffWords(r *sim.SeatsCompareResult) string {
	return fmt.Sprintf("First-seat advantage: A %s, B %s points; B − A %s [%s, %s].",
		pointsText(r.FirstSeatAdvantage[0]), pointsText(r.FirstSeatAdvantage[1]),
		pointsText(r.FirstSeatAdvantageDiff), pointsText(r.FirstSeatDiffCI95[0]), pointsText(r.FirstSeatDiffCI95[1]))
}
