package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
)

// The study commands (sim, compare, sweep, cards, sensitivity, tune)
// share one runner. Each is a studyCommand, in its own file: the shared
// flags it takes, its own flags, and how it builds its study from them.
// runStudy owns the rest: the shared flags and their checks, the output
// file, the progress bar, interrupts, failed games and the writing of the
// result, so every study command behaves alike.

// A studyCommand is one study command.
type studyCommand struct {
	name, summary, usage string
	// shared says which of the shared flags the command takes, and their
	// defaults.
	shared sharedFlags
	// define defines the command's own flags on fs and returns the
	// function that builds its plan, called once every flag is parsed and
	// the shared ones are checked (in s). An inputError from it is bad
	// content in a file; any other error a bad flag.
	define func(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error)
}

// sharedFlags says which shared flags a study command takes and how they
// read there.
type sharedFlags struct {
	games      int64  // --games's default
	gamesUsage string // its help
	rulesUsage string // --rules's help (default: rulesFileUsage); "": no --rules
	sets       bool   // --set PATH=VALUE changes the rules
	// grid: --mode, --policy (default policy) and, with politician,
	// --politician make the cells.
	grid       bool
	policy     string
	politician bool
	formats    []string // the output formats, table first
	formatFlag string   // the flag whose extension names the format (default --out)
	wide, all  bool     // --wide, --all (table only)
	shardUsage string   // --shard's help (default: shardUsage)
	// args: the command takes arguments besides its flags (calibrate's
	// files); without, an argument is an error.
	args bool
}

// studyFlags are the shared flags as parsed; runStudy checks them before
// the command's plan is built.
type studyFlags struct {
	fs         *pflag.FlagSet
	games      int64
	seed       uint64
	workers    int
	rulesPath  string
	sets       []string
	modes      string
	policies   string
	politician string
	format     string
	out        string
	shardFlag  string
	shard      sim.Shard
	quiet      bool
	wide, all  bool
	maxErrors  int64
	// files are the files the plan reads, and then the outputs.
	files files
}

// A plan is what a study command plays and how runStudy shows it.
type plan struct {
	// instead, when set, is written to stdout in place of a study (sensitivity --list).
	instead func(stdout io.Writer) error
	// open, when set, checks the other files the command writes, as the
	// output is checked, before the run (tune's rules file), opening
	// them in fl.
	open func(fl *files, stderr io.Writer) error
	// notes are said on stderr before the run (what the arms are).
	notes string
	// before, when set, is done before the run starts, under the run's
	// interrupt and with its workers (tune sets its budget from --time);
	// a badFlag from it is a usage error, any other a failed run.
	before func(ctx context.Context, workers int, stderr io.Writer) error
	// keys and games drive the progress bar: the cells play one after the
	// other, cell k games[k] games at the speed of key keys[k]; or, with
	// no keys, total games at one speed.
	keys  []string
	games []int64
	total int64
	// run plays the study with workers workers, counting games into
	// progress; a nil result with an error is a failed run, a result with
	// sim.ErrTooManyFailed one stopped past --max-errors.
	run func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error)
	// after, when set, is done with the result before it is written
	// (tune's rules file).
	after func(res sim.Study) error
	// name is what the report calls the result ("this run").
	name string
	text report.TextOptions
}

// runConfig is the run the shared flags set up: the seed, the shard and
// the failed items past which the study stops (the workers and the
// progress are the runner's).
func (s *studyFlags) runConfig() sim.RunConfig {
	return sim.RunConfig{Seed: s.seed, Shard: s.shard, MaxErrors: s.maxErrors}
}

// badFlag is an error of a flag that only a plan's before can find (tune's
// --time, by the speed it measures): a usage error.
type badFlag struct{ error }

// checkGames bounds --games when given: at least 1, and no more than the
// counters hold.
func checkGames(fs *pflag.FlagSet, games int64) error {
	if fs.Changed("games") && (games < 1 || games > sim.MaxGames) {
		return fmt.Errorf("--games %d is outside 1..%d", games, int64(sim.MaxGames))
	}
	return nil
}

// result turns a runner's typed result into a study: nil when the
// runner returned none.
func result[T any, P interface {
	*T
	sim.Study
}](r P, err error) (sim.Study, error) {
	if r == nil {
		return nil, err
	}
	return r, err
}

// register registers c as a command.
func (c *studyCommand) register() {
	register(command{name: c.name, summary: c.summary, run: c.run})
}

// flags defines the shared flags c takes on fs.
func (c *studyCommand) flags(fs *pflag.FlagSet) *studyFlags {
	sh := c.shared
	s := &studyFlags{fs: fs}
	if sh.gamesUsage != "" {
		fs.Int64Var(&s.games, "games", sh.games, sh.gamesUsage)
	}
	fs.Uint64Var(&s.seed, "seed", 1, seedUsage)
	fs.IntVar(&s.workers, "workers", runtime.NumCPU(), workersUsage)
	if sh.rulesUsage != "" {
		fs.StringVar(&s.rulesPath, "rules", "", sh.rulesUsage)
	}
	if sh.sets {
		fs.StringArrayVar(&s.sets, "set", nil, setUsage)
	}
	if sh.grid {
		fs.StringVar(&s.modes, "mode", modesDefault, modesUsage)
		fs.StringVar(&s.policies, "policy", sh.policy, policiesUsage)
	}
	if sh.politician {
		fs.StringVar(&s.politician, "politician", "random", politiciansUsage)
	}
	fs.StringVar(&s.format, "format", "table", formatUsage(sh))
	fs.StringVar(&s.out, "out", "", outUsage)
	fs.StringVar(&s.shardFlag, "shard", "1/1", cmp.Or(sh.shardUsage, shardUsage))
	if sh.wide {
		fs.BoolVar(&s.wide, "wide", false, wideUsage)
	}
	if sh.all {
		fs.BoolVar(&s.all, "all", false, "table: every item of every family (the first 10 otherwise)")
	}
	fs.BoolVar(&s.quiet, "quiet", false, quietUsage)
	fs.Int64Var(&s.maxErrors, "max-errors", 0, maxErrorsUsage)
	return s
}

// formatUsage is --format's help: the formats a command writes.
func formatUsage(sh sharedFlags) string {
	return fmt.Sprintf("output `FORMAT`: %s (the report; without --format: by --%s's extension)",
		orList(sh.formats), cmp.Or(sh.formatFlag, "out"))
}

// check checks the shared flags.
func (s *studyFlags) check(sh sharedFlags) error {
	fs := s.fs
	if fs.NArg() > 0 && !sh.args {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := checkGames(fs, s.games); err != nil {
		return err
	}
	if s.workers < 1 {
		return fmt.Errorf("--workers %d: must be at least 1", s.workers)
	}
	if s.maxErrors < 0 {
		return fmt.Errorf("--max-errors %d: must be at least 0", s.maxErrors)
	}
	out := s.out
	if sh.formatFlag != "" {
		out = fs.Lookup(sh.formatFlag).Value.String()
	}
	format, err := outputFormat(fs, s.format, out, "table", sh.formats...)
	if err != nil {
		return err
	}
	s.format = format
	for _, fl := range []string{"wide", "all"} {
		if err := onlyWith(fs, fl, "--format table", format == "table"); err != nil {
			return err
		}
	}
	if s.shard, err = sim.ParseShard(s.shardFlag); err != nil {
		return fmt.Errorf("--shard %v", err)
	}
	return nil
}

// rules loads --rules and applies --set.
func (s *studyFlags) rules() (*engine.Rules, error) {
	s.files.read("--rules", s.rulesPath)
	r, err := loadRules(s.rulesPath)
	if err != nil {
		return nil, inputError{fmt.Errorf("--rules: %v", err)}
	}
	if r, err = applySets(r, s.sets); err != nil {
		return nil, fmt.Errorf("--set: %v", err)
	}
	return r, nil
}

// cells are the cells of --mode × --policy × --politician under rules r
// (the politician random when the command takes no --politician).
func (s *studyFlags) cells(r *engine.Rules) ([]sim.CellSpec, error) {
	modes, err := parseModes("mode", s.modes)
	if err != nil {
		return nil, err
	}
	specs, err := parsePolicies("policy", s.policies)
	if err != nil {
		return nil, err
	}
	s.files.readSpecs(specs...)
	politicians := []int{sim.RandomPoliticianIndex}
	if s.fs.Lookup("politician") != nil {
		if politicians, err = parsePoliticians(r, "politician", s.politician, true); err != nil {
			return nil, err
		}
	}
	var cells []sim.CellSpec
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cells = append(cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	return cells, nil
}

// cellProgress sets the plan's progress bar to the cells: each plays
// games (this shard's) at its policy's speed.
func (p *plan) cellProgress(cells []sim.CellSpec, games int64) {
	p.keys, p.games = make([]string, len(cells)), make([]int64, len(cells))
	for i, c := range cells {
		p.keys[i], p.games[i] = c.Policy.Label, games
	}
}

// parse parses the command line args and plans the study, reading the
// rules files the flags name and no other file. The error is
// pflag.ErrHelp for --help, an inputError for bad content in a file, or a
// usage error.
func (c *studyCommand) parse(args []string) (*studyFlags, *plan, error) {
	fs := newFlags(c.name)
	s := c.flags(fs)
	build := c.define(fs, s)
	if err := fs.Parse(args); err != nil {
		return s, nil, err
	}
	if err := s.check(c.shared); err != nil {
		return s, nil, err
	}
	p, err := build()
	return s, p, err
}

// run runs the study command c with the command line args.
func (c *studyCommand) run(args []string, stdout, stderr io.Writer) int {
	s, p, err := c.parse(args)
	if err != nil {
		return reportParseError(err, s.fs, c.usage, stdout, stderr)
	}
	fail := func(err error) int { return reportParseError(err, s.fs, c.usage, stdout, stderr) }
	if p.instead != nil {
		if err := p.instead(stdout); err != nil {
			return fail(err)
		}
		return exitOK
	}
	out, err := s.files.open("--out", s.out, stdout, stderr)
	if err != nil {
		return fail(err)
	}
	if p.open != nil {
		if err := p.open(&s.files, stderr); err != nil {
			return fail(err)
		}
	}
	fmt.Fprint(stderr, p.notes)
	ctx, release := interruptible(c.name, stderr)
	defer release()
	workers := capWorkers(c.name, s.workers, stderr)
	if p.before != nil {
		var bad badFlag
		if err := p.before(ctx, workers, stderr); errors.As(err, &bad) {
			return fail(bad.error)
		} else if err != nil {
			return failRun(stderr, "%s: %v", c.name, err)
		}
	}
	var bar *progress
	if len(p.keys) > 0 {
		bar = startCellProgress(stderr, p.keys, p.games, s.quiet)
	} else {
		bar = startProgress(stderr, p.total, s.quiet)
	}
	res, err := p.run(ctx, workers, &bar.done)
	bar.stop()
	if res == nil {
		return failRun(stderr, "%s: %v", c.name, err)
	}
	reportFailures(stderr, res)
	if err != nil {
		// More failed games than --max-errors: the run stopped like an
		// interrupted one, and its result says so.
		failRun(stderr, "%s: %v", c.name, err)
	}
	if p.after != nil {
		if err := p.after(res); err != nil {
			return failRun(stderr, "%s: %v", c.name, err)
		}
	}
	return writeStudy(c.name, res, cmp.Or(p.name, "this run"), s.format, p.text, out, stderr)
}
