package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

// sim --seats N: a study of the game for 2–4 players, without the
// Opposition (sim.RunTable), and its output.

// tableFlags are sim's flag values that a study of several players uses.
type tableFlags struct {
	seats, workers       int
	games                int64
	seed                 uint64
	rules, policy, shard string
	format, out          string
	sets                 []string
	quiet                bool
}

// parseTableSim checks sim's flags for a study of f.seats players:
// --policy is the lineup (one policy for every seat, or one per seat),
// --games the deals, each played once per rotation of the lineup. The solo
// game's --mode and --politician do not apply.
func parseTableSim(fs *pflag.FlagSet, f tableFlags) (*simOptions, *pflag.FlagSet, error) {
	for _, name := range []string{"mode", "politician", "wide"} {
		if err := onlyWith(fs, name, "the solo game (--seats 1)", false); err != nil {
			return nil, fs, err
		}
	}
	lineup, err := parseLineup(f.policy, f.seats)
	if err != nil {
		return nil, fs, err
	}
	shard, err := sim.ParseShard(f.shard)
	if err != nil {
		return nil, fs, fmt.Errorf("--shard %v", err)
	}
	o := &simOptions{out: f.out, quiet: f.quiet, workers: f.workers}
	if o.format, err = outputFormat(fs, f.format, f.out, "table", "table", "json", "csv", "html"); err != nil {
		return nil, fs, err
	}
	rules, err := loadRules(f.rules)
	if err != nil {
		return nil, fs, inputError{fmt.Errorf("--rules: %v", err)}
	}
	if rules, err = applySets(rules, f.sets); err != nil {
		return nil, fs, fmt.Errorf("--set: %v", err)
	}
	if f.seats > len(rules.Politicians) {
		return nil, fs, inputError{fmt.Errorf("--seats %d: the rules have %d Politicians, one per player is needed", f.seats, len(rules.Politicians))}
	}
	o.table = &sim.TableConfig{Rules: rules, Seed: f.seed, Deals: f.games, Shard: shard, Lineup: lineup}
	return o, fs, nil
}

// parseLineup reads --policy as the lineup of a table of seats players:
// one policy for every seat, or one per seat (rotation 0's seating).
func parseLineup(policyFlag string, seats int) ([]policy.Spec, error) {
	lineup, _, err := parseSpecs("policy", policyFlag)
	if err != nil {
		return nil, err
	}
	switch len(lineup) {
	case seats:
	case 1:
		for len(lineup) < seats {
			lineup = append(lineup, lineup[0])
		}
	default:
		return nil, fmt.Errorf("--policy %q names %d policies for --seats %d: give one for every seat, or one per seat", policyFlag, len(lineup), seats)
	}
	return lineup, nil
}

// runTableSim plays the study of o.table and writes it.
func runTableSim(ctx context.Context, o *simOptions, out *output, stderr io.Writer) int {
	cfg := o.table
	cfg.Workers = capWorkers("sim", o.workers, stderr)
	bar := startProgress(stderr, cfg.Shard.Len(cfg.Deals)*int64(len(cfg.Lineup)), o.quiet)
	cfg.Progress = &bar.done
	res, err := sim.RunTable(ctx, *cfg)
	bar.stop()
	if err != nil {
		return failRun(stderr, "sim: %v", err)
	}
	return writeTableResult("sim", res, o.format, out, stderr)
}

// writeTableResult writes a study in format to out; an interrupted study
// says where its partial result now is and exits 1.
func writeTableResult(cmd string, res *sim.TableResult, format string, out *output, stderr io.Writer) int {
	what := fmt.Sprintf("%d games", res.Counts.Games)
	var data []byte
	switch format {
	case "json":
		data = res.JSON()
	case "csv":
		data = tableCSV(res, what)
	case "html":
		var err error
		if data, err = renderReport(report.Source{Name: reportName(cmd, "this study"), Table: res, Version: res.TallywoodVersion}); err != nil {
			return failRun(stderr, "%v", err)
		}
	default:
		data = tableText(res)
	}
	return out.result(cmd, data, res.Interrupted, what, stderr)
}

// Output of a study.

// tableText renders a study as two ASCII tables: by policy, then by
// starting Initiative position, and the first-seat advantage.
func tableText(r *sim.TableResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	weightsNotes(&b, r.Lineup, r.RulesHash)
	fmt.Fprintf(&b, "seed %d, %d players without the Opposition, %d deals × %d seatings = %d games",
		r.Seed, r.Players, r.Deals, r.Players, r.Deals*int64(r.Players))
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		fmt.Fprintf(&b, ", INTERRUPTED after %d games", r.Counts.Games)
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

func tableCSV(r *sim.TableResult, what string) []byte {
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
	csvPartial(w, r.Interrupted, what)
	w.Flush()
	return b.Bytes()
}

// defaultTableDeals is compare --seats's --games default: deals played
// under each rule set, every seating of each.
const defaultTableDeals = 2000

// tableCompareConfig checks compare's flags for a comparison at a table:
// the arms differ in their rules only; the lineup and deals are shared.
func (f *compareFlags) tableConfig() (*sim.TableConfig, [2]sim.TableArm, error) {
	fs := f.fs
	var arms [2]sim.TableArm
	if f.seats < 2 || f.seats > engine.MaxSeats {
		return nil, arms, fmt.Errorf("--seats %d is outside 1..%d", f.seats, engine.MaxSeats)
	}
	if fs.NArg() > 0 {
		return nil, arms, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, name := range []string{"mode", "politician", "a-mode", "b-mode", "a-policy", "b-policy", "a-politician", "b-politician",
		"sprt", "sprt-delta", "sprt-on", "alpha", "beta", "shard"} {
		if err := onlyWith(fs, name, "the solo game (--seats 1)", false); err != nil {
			return nil, arms, err
		}
	}
	if err := checkGames(fs, f.games); err != nil {
		return nil, arms, err
	}
	if f.workers < 1 {
		return nil, arms, fmt.Errorf("--workers %d: must be at least 1", f.workers)
	}
	format, err := outputFormat(fs, f.format, f.out, "table", "table", "json", "html")
	if err != nil {
		return nil, arms, err
	}
	f.format = format
	policyFlag := f.pol
	if !fs.Changed("policy") {
		policyFlag = defaultPolicy
	}
	lineup, err := parseLineup(policyFlag, f.seats)
	if err != nil {
		return nil, arms, err
	}
	for k := range armNames {
		r, name, flag, err := f.armRules(k)
		if err != nil {
			return nil, arms, err
		}
		if f.seats > len(r.Politicians) {
			return nil, arms, inputError{fmt.Errorf("%s: --seats %d: the rules have %d Politicians, one per player is needed", flag, f.seats, len(r.Politicians))}
		}
		arms[k] = sim.TableArm{Name: name, Rules: r}
	}
	if arms[0].Rules.Hash == arms[1].Rules.Hash {
		return nil, arms, errors.New("arms A and B play by the same rules: at a table they differ only in their rules; set --a-/--b-rules or -set")
	}
	deals := f.games
	if !fs.Changed("games") {
		deals = defaultTableDeals
	}
	return &sim.TableConfig{Seed: f.seed, Deals: deals, Workers: f.workers, Lineup: lineup}, arms, nil
}

// runTableCompare is compare --seats N: the same deals, lineup and
// seatings under rules A and B, compared row by row, paired by deal.
func runTableCompare(f *compareFlags, stdout, stderr io.Writer) int {
	cfg, arms, err := f.tableConfig()
	if err != nil {
		var in inputError
		if errors.As(err, &in) {
			return failInput(stderr, "compare: %v", in.error)
		}
		return fail(stderr, "compare: %v", err)
	}
	out, err := openOutput(f.out, stdout, stderr)
	if err != nil {
		return fail(stderr, "compare: %v", err)
	}
	if !f.quiet {
		fmt.Fprintf(stderr, "A: %s, B: %s; the rules differ in:\n", arms[0].Name, arms[1].Name)
		for _, d := range engine.Diff(arms[0].Rules, arms[1].Rules) {
			fmt.Fprintf(stderr, "  %s: %s → %s\n", d.Path, d.A, d.B)
		}
	}
	ctx, release := interruptible("compare", stderr)
	defer release()
	cfg.Workers = capWorkers("compare", cfg.Workers, stderr)
	bar := startProgress(stderr, 2*cfg.Deals*int64(len(cfg.Lineup)), f.quiet)
	cfg.Progress = &bar.done
	res, err := sim.CompareTables(ctx, *cfg, arms[0], arms[1])
	bar.stop()
	if err != nil {
		return failRun(stderr, "compare: %v", err)
	}
	data := res.JSON()
	switch f.format {
	case "table":
		data = tableCompareText(res)
	case "html":
		if data, err = renderReport(report.Source{Name: "this comparison", TableCompare: res, Version: res.TallywoodVersion}); err != nil {
			return failRun(stderr, "%v", err)
		}
	}
	return out.result("compare", data, res.Interrupted, fmt.Sprintf("%d deals", res.Deals), stderr)
}

// tableCompareText renders a comparison at a table: per policy and per
// starting Initiative position, the score under A and B and B − A.
func tableCompareText(r *sim.TableCompareResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "A: %s (hash %s)  B: %s (hash %s)\n", r.A.Name, engine.ShortHash(r.A.RulesHash), r.B.Name, engine.ShortHash(r.B.RulesHash))
	fmt.Fprintf(&b, "seed %d, %d players without the Opposition, %d deals × %d seatings under each rule set", r.Seed, r.Players, r.Deals, r.Players)
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	t := newTable(&b, []string{"ROW", "SCORE A", "SCORE B", "B − A [95% CI]", "P (HOLM)", "WIN RATE A → B"}, 1)
	for _, rows := range [][]sim.TableCompareRow{r.Policies, r.Initiative} {
		for _, row := range rows {
			t.Append([]string{
				row.Name, pct(row.A.MeanScore), pct(row.B.MeanScore),
				fmt.Sprintf("%s [%s, %s] points", points(row.MeanScoreDiff), points(row.MeanScoreDiffCI95[0]), points(row.MeanScoreDiffCI95[1])),
				fmt.Sprintf("%.3g", row.MeanScoreDiffPHolm),
				pct(row.A.WinRate) + " → " + pct(row.B.WinRate),
			})
		}
	}
	t.Render()
	fmt.Fprintf(&b, "First-seat advantage: A %s, B %s points; B − A %s [%s, %s].\n",
		points(r.FirstSeatAdvantage[0]), points(r.FirstSeatAdvantage[1]),
		points(r.FirstSeatAdvantageDiff), points(r.FirstSeatDiffCI95[0]), points(r.FirstSeatDiffCI95[1]))
	b.WriteString("SCORE: a win counts 1, a victory shared by k players 1/k. B − A is paired by deal (the same cards under both rule sets);\n" +
		"P (HOLM): its p-value adjusted for every row tested.\n")
	return b.Bytes()
}
