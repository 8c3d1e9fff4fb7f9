package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"github.com/spf13/pflag"

	"tallywood/sim"
)

func init() {
	register(command{name: "sim", summary: "play seeded games and report win rates per difficulty and policy", run: runSim})
}

const simUsage = `usage: tallywood sim [flags]

Plays --games seeded games for each cell of --mode × --policy × --politician
and reports win rates with Wilson 95% intervals, margins, and where games
are won and lost. Game i plays on a seed derived from (--seed, i) alone.

flags:
`

func runSim(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("sim", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	games := fs.Int64("games", 10000, "games per cell")
	modeFlag := fs.String("mode", "both", "difficulty: normal, hard or both")
	policyFlag := fs.String("policy", defaultPolicies, "player policies, comma-separated (see 'tallywood policies')")
	seed := fs.Uint64("seed", 1, "master seed")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers")
	rulesFile := fs.String("rules", "", "rules file, or default (the reference set)")
	politicianFlag := fs.String("politician", "random", "politician ID, random (per game), or all (one cell each)")
	format := fs.String("format", "table", "output: table, json or csv")
	out := fs.String("out", "", "write the output to FILE instead of stdout")
	shardFlag := fs.String("shard", "1/1", "play only shard K of N: the games i with i mod N = K-1")
	quiet := fs.Bool("quiet", false, "no progress bar")
	maxErrors := fs.Int64("max-errors", 0, "failed games (an exec program that crashed, hung or answered nonsense) to go on past")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, simUsage+fs.FlagUsages())
			return exitOK
		}
		return fail(stderr, "sim: %v", err)
	}
	if fs.NArg() > 0 {
		return fail(stderr, "sim: unexpected argument %q", fs.Arg(0))
	}
	if *games < 1 {
		return fail(stderr, "sim: --games %d: must be at least 1", *games)
	}
	if *workers < 1 {
		return fail(stderr, "sim: --workers %d: must be at least 1", *workers)
	}
	if *maxErrors < 0 {
		return fail(stderr, "sim: --max-errors %d: must be at least 0", *maxErrors)
	}
	modes, err := parseModes(*modeFlag)
	if err != nil {
		return fail(stderr, "sim: --mode %v", err)
	}
	specs, err := parsePolicies(*policyFlag)
	if err != nil {
		return fail(stderr, "sim: --policy: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "sim: --shard %v", err)
	}
	switch *format {
	case "table", "json", "csv":
	default:
		return fail(stderr, "sim: --format %q is not table, json or csv", *format)
	}
	rules, err := loadRules(*rulesFile)
	if err != nil {
		return fail(stderr, "sim: --rules: %v", err)
	}
	politicians, err := parsePolitician(rules, *politicianFlag, true)
	if err != nil {
		return fail(stderr, "sim: --politician %v", err)
	}
	if err := checkOut(*out); err != nil {
		return fail(stderr, "sim: --out: %v", err)
	}

	cfg := sim.Config{Rules: rules, Seed: *seed, Games: *games, Shard: shard, Workers: *workers, MaxErrors: *maxErrors}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	ctx, cancel := signal.NotifyContext(baseContext(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	bar := startProgress(stderr, int64(len(cfg.Cells))*shard.Len(*games), *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Run(ctx, cfg)
	bar.stop()
	if res == nil {
		fmt.Fprintf(stderr, "tallywood: sim: %v\n", err)
		return exitFailed
	}
	reportFailures(stderr, res)
	var data []byte
	switch *format {
	case "json":
		data = res.JSON()
	case "csv":
		data = simCSV(res)
	default:
		data = simTable(res)
	}
	if err := writeOut(*out, stdout, data); err != nil {
		fmt.Fprintf(stderr, "tallywood: sim: --out: %v\n", err)
		return exitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "tallywood: %v: partial result of %d games written\n", err, played(res))
		return exitFailed
	}
	if res.Interrupted {
		fmt.Fprintf(stderr, "tallywood: sim: interrupted: partial result of %d games written\n", played(res))
		return exitFailed
	}
	return exitOK
}

// reportFailures writes the failed games the result lists, which are not
// in its win rates.
func reportFailures(w io.Writer, r *sim.Result) {
	for _, c := range r.Cells {
		for _, f := range c.Failures {
			fmt.Fprintf(w, "tallywood: game %d failed, not scored: %s\n", f.Game, f.Error)
		}
		if n := c.Errors - int64(len(c.Failures)); n > 0 {
			fmt.Fprintf(w, "tallywood: and %d more failed games of %s/%s/%s\n", n, c.Mode, c.Policy, c.Politician)
		}
	}
}

func played(r *sim.Result) int64 {
	var n int64
	for _, c := range r.Cells {
		n += c.Games
	}
	return n
}

// simTable renders a result as two ASCII tables: the win rates, then
// where games are won and lost.
func simTable(r *sim.Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "rules %s (%s), seed %d, %d games per cell", r.RulesVersion, shortHash(r.RulesHash), r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	t := newTable(&b, []string{"MODE", "POLICY", "POLITICIAN", "GAMES", "W / D / L", "WIN RATE [95% CI]",
		"MEAN MARGIN [95% CI]", "VOTES YOU : OPP", "MARGIN P5 P25 P50 P75 P95", "FALLBACKS/GAME", "GAMES/S"}, 3)
	for _, c := range r.Cells {
		q := c.MarginQuantiles
		t.Append([]string{
			c.Mode, c.Policy, c.Politician,
			strconv.FormatInt(c.Games, 10),
			fmt.Sprintf("%d / %d / %d", c.Wins, c.Draws, c.Losses),
			fmt.Sprintf("%s [%s, %s]", pct(c.WinRate), pct(c.WinCI95[0]), pct(c.WinCI95[1])),
			fmt.Sprintf("%s [%s, %s]", signed(c.MeanMargin), signed(c.MarginCI95[0]), signed(c.MarginCI95[1])),
			fmt.Sprintf("%.1f : %.1f", c.MeanPlayerVotes, c.MeanOppositionVotes),
			fmt.Sprintf("%d %d %d %d %d", q.P5, q.P25, q.P50, q.P75, q.P95),
			fmt.Sprintf("%.2f / %.2f", c.Fallbacks.OtherPerGame, c.Fallbacks.BothPerGame),
			fmt.Sprintf("%.0f", c.GamesPerSecond),
		})
	}
	t.Render()
	for _, c := range r.Cells {
		if c.Errors > 0 {
			fmt.Fprintf(&b, "FAILED: %d games of %s/%s/%s failed and are not counted above (see the errors).\n", c.Errors, c.Mode, c.Policy, c.Politician)
		}
	}
	b.WriteString("Margin: your votes minus the Opposition's. FALLBACKS/GAME: the Opposition's I-10 fallbacks per game,\n" +
		"unable in the connected District / unable in both.\n")
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

func simCSV(r *sim.Result) []byte {
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
	w.Flush()
	return b.Bytes()
}
