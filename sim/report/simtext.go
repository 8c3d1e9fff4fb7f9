package report

import (
	"bytes"
	"fmt"
	"strconv"

	"tallywood/engine"
	"tallywood/sim"
)

// simLegend explains, under the table, the column a reader cannot guess.
// The Opposition falls back in almost every game: a Solo card's action is
// often impossible where its Assistant stands (I-9), and I-10 says what it
// does then.
const simLegend = "FALLBACKS/GAME: per game, Opposition actions moved to its other District / done in neither (I-10)\n"

// simText writes a sim result as two ASCII tables: the win rates, then
// where games are won and lost. Without wide, the first holds the columns
// that fit 100 characters with the default policies.
func simText(b *bytes.Buffer, r *sim.Result, wide bool) error {
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	var pols []string
	for _, c := range r.Cells {
		pols = append(pols, c.Policy)
	}
	weightsNotes(b, "", pols, r.RulesHash)
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
			rows = append(rows, []string{c.Mode, c.Policy, c.Politician, winRate, margin, fallbacks})
			continue
		}
		rows = append(rows, []string{
			c.Mode, c.Policy, c.Politician,
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
			fmt.Fprintf(b, "FAILED: %d games of %s/%s/%s failed and are not counted above (see the errors).\n", c.Errors, c.Mode, c.Policy, c.Politician)
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
				c.Mode, c.Policy, c.Politician, d.District,
				fmt.Sprintf("%.2f : %.2f", d.MeanPlayerShares, d.MeanOppositionShares),
				fmt.Sprintf("%.1f : %.1f", d.MeanPlayerVotes, d.MeanOppositionVotes),
				pct(d.PlayerAheadRate), pct(d.OppositionAheadRate),
			})
		}
	}
	return writeTable(b, []string{"MODE", "POLICY", "POLITICIAN", "DISTRICT", "SHARES", "VOTES", "AHEAD", "BEHIND"}, 4, rows)
}
