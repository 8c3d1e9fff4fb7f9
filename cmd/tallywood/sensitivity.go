package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "sensitivity", summary: "move every numeric rules field one step down and up; rank the fields by their effect", run: runSensitivity})
}

const sensitivityUsage = `usage: tallywood sensitivity [flags]

Moves every numeric field of the rules file (or those --fields selects) one
--step down and one up, and plays each change against the base rules on the
same seeds, for each cell of --mode × --policy × --politician. Each field is
ranked by the larger score difference of its two changes; every difference
is tested over the whole family (Bonferroni). A field the cell's difficulty
cannot read (difficulties.normal.* at Hard) is skipped with a note, and so
is a change outside the field's bounds or one the rules refuse.

The default scan (every field of the reference rules, casual, Normal and
Hard, 2000 games per change: 430 changes) plays 864,000 games: about 3½
minutes on two free cores with casual (measured: 2,040 games per CPU
second), about 8½ with --policy skilled (860 games per CPU second).
--list prints the fields, their values and bounds without playing. See
docs/balance.md.

flags:
`

// defaultSensitivityGames is the games per change of the default scan:
// enough to tell a change of about 4 points of score in a family of about
// a thousand tests, few enough for the whole scan to take minutes.
const defaultSensitivityGames = 2000

func runSensitivity(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sensitivity")
	fields := fs.StringArray("fields", nil, "`GLOB`: the fields to move, as --set names them, * for any run (repeatable; default: every numeric field)")
	stepFlag := fs.String("step", "1", "how far to move each field, a `STEP`: N whole units, or a percentage of its value (25%)")
	games := fs.Int64("games", defaultSensitivityGames, "`N` games per cell and change")
	modeFlag := fs.String("mode", modesDefault, modesUsage)
	policyFlag := fs.String("policy", "casual", policiesUsage)
	politicianFlag := fs.String("politician", "random", politiciansUsage)
	seed := fs.Uint64("seed", 1, seedUsage)
	workers := fs.Int("workers", runtime.NumCPU(), workersUsage)
	rulesFile := fs.String("rules", "", rulesFileUsage)
	list := fs.Bool("list", false, "print the selected fields, their values and bounds, and play nothing")
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", outUsage)
	shardFlag := fs.String("shard", "1/1", shardUsage)
	wide := fs.Bool("wide", false, wideUsage)
	quiet := fs.Bool("quiet", false, quietUsage)
	maxErrors := maxErrorsFlag(fs)
	if code, done := parseFlags(fs, args, sensitivityUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "sensitivity: unexpected argument %q", fs.Arg(0))
	}
	if err := checkGames(fs, *games); err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	if *workers < 1 {
		return fail(stderr, "sensitivity: --workers %d: must be at least 1", *workers)
	}
	if err := checkMaxErrors(*maxErrors); err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	step, err := sim.ParseStep(*stepFlag)
	if err != nil {
		return fail(stderr, "sensitivity: --%v", err)
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html")
	if err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	if err := onlyWith(fs, "wide", "--format table", fmtName == "table"); err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "sensitivity: --shard %v", err)
	}
	base, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "sensitivity: --rules: %v", err)
	}
	if *list {
		return listFields(base, *fields, stdout, stderr)
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	politicians, err := parsePoliticians(base, "politician", *politicianFlag, true)
	if err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	cfg := sim.SensitivityConfig{Base: base, Fields: *fields, Step: step, Seed: *seed, Games: *games, Shard: shard,
		Workers: capWorkers("sensitivity", *workers, stderr), MaxErrors: *maxErrors}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	perSeed, err := sim.SensitivityGames(cfg)
	if err != nil {
		return fail(stderr, "sensitivity: --fields: %v", err)
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	ctx, release := interruptible("sensitivity", stderr)
	defer release()
	bar := startProgress(stderr, perSeed*shard.Len(*games), *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Sensitivity(ctx, cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "sensitivity: %v", err)
	}
	reportFailures(stderr, res)
	if err != nil {
		failRun(stderr, "sensitivity: %v", err) // past --max-errors: stopped, and marked so
	}
	return writeStudy("sensitivity", res, "this run", fmtName, report.TextOptions{Wide: *wide}, output, stderr)
}

// listFields is --list: the numeric fields globs select, with their
// values, bounds and which games read them.
func listFields(base *engine.Rules, globs []string, stdout, stderr io.Writer) int {
	fields, err := base.Fields(globs...)
	if err != nil {
		return fail(stderr, "sensitivity: --fields: %v", err)
	}
	var b strings.Builder
	for _, f := range fields {
		bounds := "-"
		if f.Bounded {
			bounds = fmt.Sprintf("%d..%d", f.Lo, f.Hi)
		}
		who := "?"
		if s, err := engine.ReadBy(f.Path); err == nil {
			who = s.Who()
		}
		fmt.Fprintf(&b, "%-46s %4d  %-7s %s\n", f.Path, f.Value, bounds, who)
	}
	fmt.Fprintf(&b, "%d numeric fields\n", len(fields))
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return fail(stderr, "sensitivity: %v", err)
	}
	return exitOK
}
