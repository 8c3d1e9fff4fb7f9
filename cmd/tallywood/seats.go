package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

// sim --seats N and compare --seats N: studies of the game for 2–4
// players, without the Opposition (sim.RunSeats, sim.CompareSeats), run
// and handed to the report package to write.

// seatsFlags are sim's flag values that a study of several players uses.
type seatsFlags struct {
	seats, workers       int
	games                int64
	seed                 uint64
	rules, policy, shard string
	format, out          string
	sets                 []string
	quiet, wide          bool
	maxErrors            int64
}

// parseSeatsSim checks sim's flags for a study of f.seats players:
// --policy is the lineup (one policy for every seat, or one per seat),
// --games the deals, each played once per rotation of the lineup. The solo
// game's --mode and --politician do not apply.
func parseSeatsSim(fs *pflag.FlagSet, f seatsFlags) (*simOptions, *pflag.FlagSet, error) {
	for _, name := range []string{"mode", "politician"} {
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
	o := &simOptions{out: f.out, quiet: f.quiet, workers: f.workers, wide: f.wide}
	if o.format, err = outputFormat(fs, f.format, f.out, "table", "table", "json", "csv", "html"); err != nil {
		return nil, fs, err
	}
	if err := onlyWith(fs, "wide", "--format table", o.format == "table"); err != nil {
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
	o.seats = &sim.SeatsConfig{Rules: rules, Seed: f.seed, Deals: f.games, Shard: shard, Lineup: lineup, MaxErrors: f.maxErrors}
	return o, fs, nil
}

// parseLineup reads --policy as the lineup of a table of seats players:
// one policy for every seat, or one per seat (rotation 0's seating).
func parseLineup(policyFlag string, seats int) ([]policy.Spec, error) {
	lineup, err := parseSpecs("policy", policyFlag)
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

// runSeatsSim plays the study of o.seats and writes it.
func runSeatsSim(ctx context.Context, o *simOptions, out *output, stderr io.Writer) int {
	cfg := o.seats
	cfg.Workers = capWorkers("sim", o.workers, stderr)
	bar := startProgress(stderr, cfg.Shard.Len(cfg.Deals)*int64(len(cfg.Lineup)), o.quiet)
	cfg.Progress = &bar.done
	res, err := sim.RunSeats(ctx, *cfg)
	bar.stop()
	if res == nil {
		return failRun(stderr, "sim: %v", err)
	}
	reportFailures(stderr, tableFailures(res.Errors, res.Failures))
	if err != nil {
		failRun(stderr, "%v", err) // past --max-errors: stopped, and marked so (sim's message)
	}
	return writeStudy("sim", res, "this study", o.format, report.TextOptions{Wide: o.wide}, out, stderr)
}

// defaultSeatsDeals is compare --seats's --games default: deals played
// under each rule set, every seating of each.
const defaultSeatsDeals = 2000

// seatsConfig checks compare's flags for a comparison at a table:
// the arms differ in their rules only; the lineup and deals are shared.
func (f *compareFlags) seatsConfig() (*sim.SeatsConfig, [2]sim.SeatsArm, error) {
	fs := f.fs
	var arms [2]sim.SeatsArm
	if f.seats < 2 || f.seats > engine.MaxSeats {
		return nil, arms, fmt.Errorf("--seats %d is outside 1..%d", f.seats, engine.MaxSeats)
	}
	if fs.NArg() > 0 {
		return nil, arms, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, name := range []string{"mode", "politician", "a-mode", "b-mode", "a-policy", "b-policy", "a-politician", "b-politician",
		"sprt", "sprt-delta", "sprt-on", "alpha", "beta"} {
		if err := onlyWith(fs, name, "the solo game (--seats 1)", false); err != nil {
			return nil, arms, err
		}
	}
	if err := checkGames(fs, f.games); err != nil {
		return nil, arms, err
	}
	shard, err := sim.ParseShard(f.shard)
	if err != nil {
		return nil, arms, fmt.Errorf("--shard %v", err)
	}
	if f.workers < 1 {
		return nil, arms, fmt.Errorf("--workers %d: must be at least 1", f.workers)
	}
	if err := checkMaxErrors(*f.maxErrors); err != nil {
		return nil, arms, err
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
		arms[k] = sim.SeatsArm{Name: name, Rules: r}
	}
	if arms[0].Rules.Hash == arms[1].Rules.Hash {
		return nil, arms, errors.New("arms A and B play by the same rules: at a table they differ only in their rules; set --a-/--b-rules or -set")
	}
	deals := f.games
	if !fs.Changed("games") {
		deals = defaultSeatsDeals
	}
	return &sim.SeatsConfig{Seed: f.seed, Deals: deals, Shard: shard, Workers: f.workers, Lineup: lineup, MaxErrors: *f.maxErrors}, arms, nil
}

// runSeatsCompare is compare --seats N: the same deals, lineup and
// seatings under rules A and B, compared row by row, paired by deal.
func runSeatsCompare(f *compareFlags, stdout, stderr io.Writer) int {
	cfg, arms, err := f.seatsConfig()
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
	if w := sim.TableUnreadWarning(arms[0].Rules, arms[1].Rules, f.seats); w != "" {
		fmt.Fprintf(stderr, "tallywood: compare: warning: %s\n", w)
	}
	ctx, release := interruptible("compare", stderr)
	defer release()
	cfg.Workers = capWorkers("compare", cfg.Workers, stderr)
	bar := startProgress(stderr, 2*cfg.Shard.Len(cfg.Deals)*int64(len(cfg.Lineup)), f.quiet)
	cfg.Progress = &bar.done
	res, err := sim.CompareSeats(ctx, *cfg, arms[0], arms[1])
	bar.stop()
	if res == nil {
		return failRun(stderr, "compare: %v", err)
	}
	reportFailures(stderr, tableFailures(res.Errors, res.Failures))
	if err != nil {
		failRun(stderr, "compare: %v", err) // past --max-errors: stopped, and marked so
	}
	return writeStudy("compare", res, "this comparison", f.format, report.TextOptions{}, out, stderr)
}
