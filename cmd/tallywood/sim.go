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
	modeFlag := fs.String("mode", modesDefault, modesUsage)
	policyFlag := fs.String("policy", defaultPolicies, policiesUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	workers := fs.Int("workers", runtime.NumCPU(), workersUsage)
	rulesFile := fs.String("rules", "", rulesFileUsage)
	sets := fs.StringArray("set", nil, setUsage)
	politicianFlag := fs.String("politician", "random", politiciansUsage)
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", outUsage)
	shardFlag := fs.String("shard", "1/1", shardUsage)
	wide := fs.Bool("wide", false, wideUsage)
	quiet := fs.Bool("quiet", false, quietUsage)
	maxErrors := maxErrorsFlag(fs)
	seats := fs.Int("seats", 1, seatsUsage)
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
	if err := checkMaxErrors(*maxErrors); err != nil {
		return nil, fs, err
	}
	if *seats < 1 || *seats > engine.MaxSeats {
		return nil, fs, fmt.Errorf("--seats %d is outside 1..%d", *seats, engine.MaxSeats)
	}
	if *seats > 1 {
		return parseSeatsSim(fs, seatsFlags{seats: *seats, games: *games, seed: *seed, workers: *workers, rules: *rulesFile,
			sets: *sets, policy: *policyFlag, shard: *shardFlag, format: *format, out: *out, quiet: *quiet, wide: *wide, maxErrors: *maxErrors})
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
	keys, games := make([]string, len(o.cfg.Cells)), make([]int64, len(o.cfg.Cells))
	for i, c := range o.cfg.Cells {
		keys[i], games[i] = c.Policy.Label, o.cfg.Shard.Len(o.cfg.Games)
	}
	bar := startCellProgress(stderr, keys, games, o.quiet)
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
	return writeStudy("sim", res, "this run", o.format, report.TextOptions{Wide: o.wide}, out, stderr)
}
