package main

import (
	"io"
	"runtime"
	"strconv"

	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "sweep", summary: "vary rules parameters over values on the same seeds; find a target win rate", run: runSweep})
}

const sweepUsage = `usage: tallywood sweep --set PATH=VALUES [flags]

Plays the same seeded games at every value of one rules parameter (or every
combination of several: one --set each), for each cell of --mode × --policy
× --politician, and pairs each point against the base rules game by game.
VALUES is a comma-separated list (1,2,3,4) or an integer range (2..6), or
both (1,3..5). With --target it names the swept values at which the win
rate may be the target, and the nearest values on either side, or which
way to sweep when none is (see docs/balance.md).

flags:
`

func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sweep")
	sets := fs.StringArray("set", nil, "`PATH=VALUES`: a rules parameter and its values (repeatable: a grid)")
	games := fs.Int64("games", 5000, "`N` games per cell and point")
	modeFlag := fs.String("mode", modesDefault, modesUsage)
	policyFlag := fs.String("policy", defaultPolicy, policiesUsage)
	politicianFlag := fs.String("politician", "random", politiciansUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	workers := fs.Int("workers", runtime.NumCPU(), workersUsage)
	rulesFile := fs.String("rules", "", "base rules `FILE`, or default (the reference set)")
	target := fs.Float64("target", 0, "find where the win rate crosses this rate (e.g. 0.40); one --set only")
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", outUsage)
	shardFlag := fs.String("shard", "1/1", shardUsage)
	quiet := fs.Bool("quiet", false, quietUsage)
	wide := fs.Bool("wide", false, wideUsage)
	maxErrors := maxErrorsFlag(fs)
	if code, done := parseFlags(fs, args, sweepUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "sweep: unexpected argument %q", fs.Arg(0))
	}
	if len(*sets) == 0 {
		return fail(stderr, "sweep: no --set PATH=VALUES given")
	}
	if err := checkGames(fs, *games); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if *workers < 1 {
		return fail(stderr, "sweep: --workers %d: must be at least 1", *workers)
	}
	if err := checkMaxErrors(*maxErrors); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if fs.Changed("target") && !(*target > 0 && *target < 1) {
		return fail(stderr, "sweep: --target %g: a win rate above 0 and below 1", *target)
	}
	if fs.Changed("target") && len(*sets) != 1 {
		return fail(stderr, "sweep: --target needs exactly one --set")
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html")
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if err := onlyWith(fs, "wide", "--format table", fmtName == "table"); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "sweep: --shard %v", err)
	}
	base, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "sweep: --rules: %v", err)
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	politicians, err := parsePoliticians(base, "politician", *politicianFlag, true)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	params, points, err := sim.SweepGrid(base, *sets)
	if err != nil {
		return fail(stderr, "sweep: --set: %v", err)
	}
	if fs.Changed("target") {
		for _, p := range points {
			if _, err := strconv.ParseFloat(p.Set[0].Value, 64); err != nil {
				return fail(stderr, "sweep: --target: value %q of %s is not a number", p.Set[0].Value, params[0])
			}
		}
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	cfg := sim.SweepConfig{Base: base, Params: params, Points: points, Seed: *seed, Games: *games, Shard: shard,
		Workers: capWorkers("sweep", *workers, stderr), Target: *target, MaxErrors: *maxErrors}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	ctx, release := interruptible("sweep", stderr)
	defer release()
	bar := startProgress(stderr, int64(len(cfg.Cells))*sim.SweepGamesPerSeed(base, points)*shard.Len(*games), *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Sweep(ctx, cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "sweep: %v", err)
	}
	reportFailures(stderr, sweepFailures(res))
	if err != nil {
		failRun(stderr, "sweep: %v", err) // past --max-errors: stopped, and marked so
	}
	return writeStudy("sweep", res, "this run", fmtName, report.TextOptions{Wide: *wide}, output, stderr)
}
