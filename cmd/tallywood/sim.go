package main

import (
	"fmt"
	"io"
	"runtime"

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
	seats   *sim.SeatsConfig // sim --seats 2..4: a study without the Opposition
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
		return parseSeatsSim(fs, seatsFlags{seats: *seats, games: *games, seed: *seed, workers: *workers, rules: *rulesFile,
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
	if o.seats != nil {
		return runSeatsSim(ctx, o, out, stderr)
	}
	o.cfg.Workers = capWorkers("sim", o.workers, stderr)
	keys := make([]string, len(o.cfg.Cells))
	for i, c := range o.cfg.Cells {
		keys[i] = c.Policy.Label
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
	src := report.Source{Name: reportName(cmd, "this run"), Sim: res, Version: res.TallywoodVersion}
	return writeStudy(cmd, src, res.JSON, format, report.TextOptions{Wide: wide}, out, stderr)
}
