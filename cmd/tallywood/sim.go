package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"runtime"
	"strconv"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "sim", summary: "play seeded games and report win rates per difficulty and policy", run: runSim})
}

const simUsage = `usage: tallywood sim [flags]

Plays --games seeded games for each cell of --mode × --policy × --politician
and reports win rates with Wilson 95% intervals, margins, and where games
are won and lost. Game i plays on a seed derived from (--seed, i) alone.
Lists are comma-separated; names ignore case. --out x.json, x.csv choose
the format by the extension. Ctrl-C stops after the games in play and
writes the partial result, marked interrupted; a second Ctrl-C quits at
once.

flags:
`

// simOptions are sim's flags, parsed and checked.
type simOptions struct {
	cfg     sim.Config
	table   *sim.TableConfig // sim --seats 2..4: a study without the Opposition
	format  string
	out     string
	wide    bool
	quiet   bool
	workers int // as asked; capWorkers caps it
}

// parseSim parses and checks sim's flags. It reads the rules file but
// touches no other file; err is pflag.ErrHelp for --help, an inputError
// for a bad rules file, or a usage error.
func parseSim(args []string) (*simOptions, *pflag.FlagSet, error) {
	fs := newFlags("sim")
	games := fs.Int64("games", 10000, "`N` games per cell")
	modeFlag := fs.String("mode", "both", "difficulties, a `LIST` of normal and hard (both: normal,hard)")
	policyFlag := fs.String("policy", defaultPolicies, "player policies, a `LIST` of SPEC (see 'tallywood policies')")
	seed := fs.Uint64("seed", 1, "master seed `N`")
	workers := fs.Int("workers", runtime.NumCPU(), "`N` parallel workers (at most 4 per CPU)")
	rulesFile := fs.String("rules", "", "rules `FILE`, or default (the reference set)")
	sets := fs.StringArray("set", nil, "`PATH=VALUE`: change one rules field (repeatable; see docs/rules-file.md)")
	politicianFlag := fs.String("politician", "random", "politicians, a `LIST` of IDs, random (drawn per game) or all (one cell each)")
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", "write the output to `FILE` instead of stdout")
	shardFlag := fs.String("shard", "1/1", "play only shard `K/N`: the games i with i mod N = K-1")
	wide := fs.Bool("wide", false, "table: every column (wider than 100 characters)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	maxErrors := fs.Int64("max-errors", 0, "`N` failed games (an exec program that crashed, hung or answered nonsense) to go on past")
	seats := fs.Int("seats", 1, "`N` players: 1 is the solo game; 2 to 4 play without the Opposition, --policy as the lineup")
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	if fs.NArg() > 0 {
		return nil, fs, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *games < 1 || *games > sim.MaxGames {
		return nil, fs, fmt.Errorf("--games %d is outside 1..%d", *games, int64(sim.MaxGames))
	}
	if *workers < 1 {
		return nil, fs, fmt.Errorf("--workers %d: must be at least 1", *workers)
	}
	if *maxErrors < 0 {
		return nil, fs, fmt.Errorf("--max-errors %d: must be at least 0", *maxErrors)
	}
	if *seats < 1 || *seats > engine.MaxSeats {
		return nil, fs, fmt.Errorf("--seats %d is outside 1..%d", *seats, engine.MaxSeats)
	}
	if err := onlyWith(fs, "max-errors", "--seats 1 (a table run stops at a failed game)", *seats == 1); err != nil {
		return nil, fs, err
	}
	if *seats > 1 {
		return parseTableSim(fs, tableFlags{seats: *seats, games: *games, seed: *seed, workers: *workers, rules: *rulesFile,
			sets: *sets, policy: *policyFlag, shard: *shardFlag, format: *format, out: *out, quiet: *quiet})
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return nil, fs, err
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return nil, fs, err
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return nil, fs, fmt.Errorf("--shard %v", err)
	}
	o := &simOptions{out: *out, wide: *wide, quiet: *quiet, workers: *workers}
	if o.format, err = outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html"); err != nil {
		return nil, fs, err
	}
	if err := onlyWith(fs, "wide", "--format table", o.format == "table"); err != nil {
		return nil, fs, err
	}
	rules, err := loadRules(*rulesFile)
	if err != nil {
		return nil, fs, inputError{fmt.Errorf("--rules: %v", err)}
	}
	if rules, err = applySets(rules, *sets); err != nil {
		return nil, fs, fmt.Errorf("--set: %v", err)
	}
	politicians, err := parsePoliticians(rules, "politician", *politicianFlag, true)
	if err != nil {
		return nil, fs, err
	}
	o.cfg = sim.Config{Rules: rules, Seed: *seed, Games: *games, Shard: shard, MaxErrors: *maxErrors}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				o.cfg.Cells = append(o.cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	return o, fs, nil
}

func runSim(args []string, stdout, stderr io.Writer) int {
	o, fs, err := parseSim(args)
	if err != nil {
		return reportParseError(err, fs, simUsage, stdout, stderr)
	}
	out, err := openOutput(o.out, stdout, stderr)
	if err != nil {
		return fail(stderr, "sim: %v", err)
	}
	ctx, release := interruptible("sim", stderr)
	defer release()
	if o.table != nil {
		return runTableSim(ctx, o, out, stderr)
	}
	o.cfg.Workers = capWorkers("sim", o.workers, stderr)
	keys := make([]string, len(o.cfg.Cells))
	for i, c := range o.cfg.Cells {
		keys[i] = c.Policy.Canon
	}
	bar := startCellProgress(stderr, keys, o.cfg.Shard.Len(o.cfg.Games), o.quiet)
	o.cfg.Progress = &bar.done
	res, err := sim.Run(ctx, o.cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "sim: %v", err)
	}
	reportFailures(stderr, res)
	if err != nil {
		// More failed games than --max-errors: the run stopped like an
		// interrupted one, and its result says so.
		failRun(stderr, "%v", err)
	}
	return writeResult("sim", res, o.format, o.wide, out, stderr)
}

// reportFailures writes the failed games the result lists, which are not
// in its win rates.
func reportFailures(w io.Writer, r *sim.Result) {
	for _, c := range r.Cells {
		for _, f := range c.Failures {
			failRun(w, "game %d failed, not scored: %s", f.Game, f.Error)
		}
		if n := c.Errors - int64(len(c.Failures)); n > 0 {
			failRun(w, "and %d more failed games of %s/%s/%s", n, c.Mode, c.Policy, c.Politician)
		}
	}
}

// writeResult writes a sim result in format to out and says on stderr
// when it is partial: interrupted (exit 1, naming where the partial
// result now is) or some shards only.
func writeResult(cmd string, res *sim.Result, format string, wide bool, out *output, stderr io.Writer) int {
	what := fmt.Sprintf("%d games", played(res))
	var data []byte
	switch format {
	case "json":
		data = res.JSON()
	case "csv":
		data = simCSV(res, what)
	case "html":
		var err error
		if data, err = renderReport(report.Source{Name: reportName(cmd, "this run"), Sim: res, Version: res.TallywoodVersion}); err != nil {
			return failRun(stderr, "%v", err)
		}
	default:
		data = simTable(res, wide)
	}
	return out.result(cmd, data, res.Interrupted, what, stderr)
}

// csvPartial ends the CSV of an interrupted run, which holds what ("12
// games"), with a row saying so: a person sees it, and a reader that wants
// every row to have the header's fields (Go's encoding/csv, pandas) stops
// there (issue 22: partial CSV files carried no mark).
func csvPartial(w *csv.Writer, interrupted bool, what string) {
	if interrupted {
		w.Write([]string{"# partial result: the run was interrupted after " + what})
	}
}

func played(r *sim.Result) int64 {
	var n int64
	for _, c := range r.Cells {
		n += c.Games
	}
	return n
}

// simLegend explains, under the table, the column a reader cannot guess.
// The Opposition falls back in almost every game: a Solo card's action is
// often impossible where its Assistant stands (I-9), and I-10 says what it
// does then.
const simLegend = "FALLBACKS/GAME: per game, Opposition actions moved to its other District / done in neither (I-10)\n"

// simTable renders a result as two ASCII tables: the win rates, then
// where games are won and lost. Without wide, the first holds the columns
// that fit 100 characters with the default policies.
func simTable(r *sim.Result, wide bool) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	var pols []string
	for _, c := range r.Cells {
		pols = append(pols, c.Policy)
	}
	weightsNotes(&b, pols, r.RulesHash)
	fmt.Fprintf(&b, "seed %d, %d games per cell", r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED (cells hold fewer games)")
	}
	b.WriteString("; margin: your votes − the Opposition's\n")
	header := []string{"MODE", "POLICY", "POLITICIAN", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]", "FALLBACKS/GAME"}
	if wide {
		header = []string{"MODE", "POLICY", "POLITICIAN", "GAMES", "W / D / L", "WIN RATE [95% CI]",
			"MEAN MARGIN [95% CI]", "VOTES YOU : OPP", "MARGIN P5 P25 P50 P75 P95", "FALLBACKS/GAME", "GAMES/S"}
	}
	t := newTable(&b, header, 3)
	for _, c := range r.Cells {
		q := c.MarginQuantiles
		winRate := fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(c.WinCI95[0]), pct(c.WinCI95[1]))
		margin := fmt.Sprintf("%s [%s, %s]", signed(c.MeanMargin), signed(c.MarginCI95[0]), signed(c.MarginCI95[1]))
		fallbacks := fmt.Sprintf("%.2f / %.2f", c.Fallbacks.OtherPerGame, c.Fallbacks.BothPerGame)
		if !wide {
			t.Append([]string{c.Mode, c.Policy, c.Politician, winRate, margin, fallbacks})
			continue
		}
		t.Append([]string{
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
	t.Render()
	for _, c := range r.Cells {
		if c.Errors > 0 {
			fmt.Fprintf(&b, "FAILED: %d games of %s/%s/%s failed and are not counted above (see the errors).\n", c.Errors, c.Mode, c.Policy, c.Politician)
		}
	}
	b.WriteString(simLegend)
	if len(r.Cells) > 1 {
		fmt.Fprintf(&b, "95%% intervals are per cell: across %d cells, about one in twenty may miss by chance.\n", len(r.Cells))
	}
	b.WriteString("\nWhere games are won and lost (means per game, you : Opposition; AHEAD: games you out-voted it there)\n")
	t = newTable(&b, []string{"MODE", "POLICY", "POLITICIAN", "DISTRICT", "SHARES", "VOTES", "AHEAD", "BEHIND"}, 4)
	for _, c := range r.Cells {
		for _, d := range c.Districts {
			t.Append([]string{
				c.Mode, c.Policy, c.Politician, d.District,
				fmt.Sprintf("%.2f : %.2f", d.MeanPlayerShares, d.MeanOppositionShares),
				fmt.Sprintf("%.1f : %.1f", d.MeanPlayerVotes, d.MeanOppositionVotes),
				pct(d.PlayerAheadRate), pct(d.OppositionAheadRate),
			})
		}
	}
	t.Render()
	return b.Bytes()
}

// simCSVHeader lists the CSV columns: the scalar fields of a cell.
var simCSVHeader = []string{
	"mode", "policy", "politician", "games", "wins", "draws", "losses",
	"win_rate", "win_ci95_lo", "win_ci95_hi", "mean_margin", "margin_ci95_lo", "margin_ci95_hi",
	"mean_player_votes", "mean_opposition_votes",
	"margin_p5", "margin_p25", "margin_p50", "margin_p75", "margin_p95",
	"fallbacks_other_district", "fallbacks_both_districts", "fallbacks_other_per_game", "fallbacks_both_per_game",
	"games_per_second",
}

func simCSV(r *sim.Result, what string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(simCSVHeader)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
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
	csvPartial(w, r.Interrupted, what)
	w.Flush()
	return b.Bytes()
}
