package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim"
)

func init() { tuneCommand.register() }

const tuneUsage = `usage: tallywood tune --target MODE:POLICY=RATE --vary PATH[=LO..HI] [flags]

Searches the values of the --vary fields for those whose win rates come
nearest every --target (the sum over targets of (win rate − target)² is
the objective), by successive halving over the candidates on common seeds,
within a budget of games (--budget) or time (--time). Then it plays the
best values on fresh seeds (--confirm-seed) and says, for every target,
whether it is reached: its exact (Clopper–Pearson) interval, simultaneous
over the targets, within the target ± --tolerance (2 points by default);
not reached when it lies beyond; not enough games when it reaches across.
--rules-out writes the tuned rules file; --out, the result. See
docs/balance.md.

A RATE with a sign is a change of the base rules' win rate: -0.05 is five
points below it (normal:skilled=-0.05). The search then compares every
candidate with the base rules on the same seeds, and the confirmation plays
the base rules beside the best values, seed by seed: the target is reached
when the interval of the change, simultaneous over the targets, lies within
the target ± --tolerance, as for a win rate.

--vary takes a path or a glob ('difficulties.hard.*': every number it
matches) and a range of whole numbers; without one a field ranges over its
value ± the larger of 3 and half its value. Values the rules refuse are
left out of the range. A glob also names choices, the fields that are not
numbers (a Solo card's Districts and actions: 'solo_cards*'): each ranges
over its value and the alternatives the rules accept.

--one-change searches the base rules and every single change: one field at
one of its other values. "Which change to which Solo card moves Normal by
−5 points for a skilled player?" is:

  tallywood tune --target normal:skilled=-0.05 --vary 'solo_cards*' --one-change

flags:
`

// maxTuneFields bounds the fields searched: the candidates are a sample
// of their grid, and more fields than this leaves each too few.
const maxTuneFields = 64

var tuneCommand = &studyCommand{
	name:    "tune",
	summary: "search rules values that bring win rates to targets; confirm them on fresh seeds",
	usage:   tuneUsage,
	shared: sharedFlags{rulesUsage: rulesFileUsage, formats: tableJSONCSVHTML,
		shardUsage: "play only shard `K/N` of the confirmation (every shard plays the whole search)"},
	define: defineTune,
}

// defineTune defines tune's own flags: the targets, the fields to vary,
// the search's budget, the confirmation and the tuned rules file.
func defineTune(fs *pflag.FlagSet, s *studyFlags) func() (*plan, error) {
	targets := fs.StringArray("target", nil, "`MODE:POLICY=RATE`: a win rate to reach (repeatable)")
	varies := fs.StringArray("vary", nil, "`PATH[=LO..HI]`: a number of the rules file to search, or a glob of them (repeatable)")
	budget := fs.Int64("budget", 200_000, "`N` games the search may play, over all candidates and targets")
	timeBudget := fs.Duration("time", 0, "search for about this `DURATION` instead (e.g. 10m): the budget in games is set from the speed of a first block")
	confirmSeed := fs.Uint64("confirm-seed", 0, "master seed `N` of the confirmation (default: --seed + 1)")
	confirmGames := fs.Int64("confirm-games", 10_000, "`N` games per target of the confirmation")
	rulesOut := fs.String("rules-out", "", "write the tuned rules `FILE`")
	tolerance := toleranceFlag(fs)
	oneChange := fs.Bool("one-change", false, "search the base and every single change (one field at another value), not combinations")
	return func() (*plan, error) {
		switch {
		case len(*targets) == 0:
			return nil, errors.New("no --target MODE:POLICY=RATE given")
		case len(*varies) == 0:
			return nil, errors.New("no --vary PATH given")
		case *budget < 1 || *budget > sim.MaxGames:
			return nil, fmt.Errorf("--budget %d: must be between 1 and %d games", *budget, int64(sim.MaxGames))
		case fs.Changed("time") && fs.Changed("budget"):
			return nil, errors.New("--time and --budget: give one budget")
		case fs.Changed("time") && *timeBudget <= 0:
			return nil, fmt.Errorf("--time %v: must be positive", *timeBudget)
		case *confirmGames < 1 || *confirmGames > sim.MaxGames:
			return nil, fmt.Errorf("--confirm-games %d: must be between 1 and %d", *confirmGames, int64(sim.MaxGames))
		}
		if err := checkTolerance(*tolerance); err != nil {
			return nil, err
		}
		if !fs.Changed("confirm-seed") {
			*confirmSeed = s.seed + 1
		}
		if *confirmSeed == s.seed {
			return nil, fmt.Errorf("--confirm-seed %d: the search's seed; the confirmation needs fresh seeds", *confirmSeed)
		}
		base, err := s.rules()
		if err != nil {
			return nil, err
		}
		cells, rates, relative, err := tuneTargets(*targets)
		if err != nil {
			return nil, fmt.Errorf("--target %v", err)
		}
		for _, c := range cells {
			s.files.readSpecs(c.Policy)
		}
		vary, err := tuneVary(base, *varies, *oneChange)
		if err != nil {
			return nil, fmt.Errorf("--vary %v", err)
		}
		cfg := sim.TuneConfig{RunConfig: s.runConfig(), Base: base, Targets: cells, Rates: rates, Relative: relative, OneChange: *oneChange, Vary: vary, Budget: *budget,
			ConfirmSeed: *confirmSeed, ConfirmGames: *confirmGames, Tolerance: *tolerance}
		least := sim.TuneMinBudget(cfg)
		if !fs.Changed("time") && *budget < least {
			return nil, fmt.Errorf("--budget %d: the search needs at least %d games for these targets and fields", *budget, least)
		}
		p := &plan{}
		p.before = func(ctx context.Context, workers int, stderr io.Writer) error {
			cfg.Workers = workers
			if fs.Changed("time") {
				b, perSec, err := sim.TuneBudget(ctx, cfg, *timeBudget)
				if err != nil {
					return fmt.Errorf("--time: %v", err)
				}
				if b < least {
					need := time.Duration(float64(least) / perSec * float64(time.Second)).Round(time.Millisecond)
					return badFlag{fmt.Errorf("--time %v: about %.0f games a second make a budget of %d games, fewer than the %d the search needs (--time %v or more)",
						*timeBudget, perSec, b, least, max(need, time.Millisecond))}
				}
				cfg.Budget = b
				// Said on stderr, so that --budget can repeat the search.
				fmt.Fprintf(stderr, "tune: --time %v: about %.0f games a second, a budget of %d games (--budget %d repeats this search)\n", *timeBudget, perSec, b, b)
			}
			p.total = cfg.Budget + int64(len(cells))*s.shard.Len(cfg.ConfirmGames)
			return nil
		}
		p.run = func(ctx context.Context, workers int, progress *atomic.Int64) (sim.Study, error) {
			cfg.Workers, cfg.Progress = workers, progress
			return result(sim.Tune(ctx, cfg))
		}
		var tunedOut *output
		p.open = func(fl *files, stderr io.Writer) (err error) {
			tunedOut, err = openTuned(fl, *rulesOut, stderr)
			return err
		}
		p.after = func(res sim.Study) error {
			if tunedOut == nil {
				return nil
			}
			if err := writeTuned(tunedOut, base, res.(*sim.TuneResult), *targets, *varies); err != nil {
				return fmt.Errorf("--rules-out: %v", err)
			}
			return nil
		}
		return p, nil
	}
}

// tuneTargets reads the --target flags, MODE:POLICY=RATE, into the cells
// to play (the politician random), their rates and whether each is
// relative (a RATE with a sign: a change of the base's win rate); nil
// when none is.
func tuneTargets(flags []string) ([]sim.CellSpec, []float64, []bool, error) {
	var cells []sim.CellSpec
	var rates []float64
	var relative []bool
	seen := map[string]string{} // the flag that gave each mode and policy a target
	for _, f := range flags {
		cell, rate, ok := strings.Cut(f, "=")
		mode, pol, ok2 := strings.Cut(cell, ":")
		if !ok || !ok2 {
			return nil, nil, nil, fmt.Errorf("%q: want MODE:POLICY=RATE (normal:skilled=0.45, or -0.05 for five points below the base)", kit.Clip(f))
		}
		m, err := engine.ParseMode(strings.TrimSpace(mode))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%q: %v", kit.Clip(f), err)
		}
		specs, err := parsePolicies("target", pol)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%q: %v", kit.Clip(f), err)
		}
		if len(specs) != 1 {
			return nil, nil, nil, fmt.Errorf("%q: one policy per target", kit.Clip(f))
		}
		text := strings.Replace(strings.TrimSpace(rate), "−", "-", 1)
		rel := strings.HasPrefix(text, "-") || strings.HasPrefix(text, "+")
		r, err := strconv.ParseFloat(text, 64)
		switch {
		case rel && (err != nil || !(r > -1 && r < 1 && r != 0)):
			return nil, nil, nil, fmt.Errorf("%q: the change %q is not a change of the win rate above -1 and below 1, not 0 (-0.05: five points below the base)", kit.Clip(f), kit.Clip(rate))
		case !rel && (err != nil || !(r > 0 && r < 1)):
			return nil, nil, nil, fmt.Errorf("%q: the rate %q is not a win rate above 0 and below 1", kit.Clip(f), kit.Clip(rate))
		}
		// One policy by any name (a level, or the spec it plays): said in
		// the words given.
		key := m.String() + ":" + specs[0].String()
		if first, dup := seen[key]; dup {
			return nil, nil, nil, fmt.Errorf("%q: %s:%s has a target already (%q)", kit.Clip(f), strings.TrimSpace(mode), strings.TrimSpace(pol), first)
		}
		seen[key] = f
		cells = append(cells, sim.CellSpec{Mode: m, Policy: specs[0], Politician: sim.RandomPoliticianIndex})
		rates = append(rates, r)
		relative = append(relative, rel)
	}
	if !slices.Contains(relative, true) {
		relative = nil
	}
	return cells, rates, relative, nil
}

// tuneVary reads the --vary flags: each a path or glob of the rules
// file's numbers and choices and, optionally, =LO..HI for numbers;
// without a range a number ranges over sim.TuneRange of its value, a
// choice over its value and alternatives. Each value is kept when the
// rules accept it with the other fields at their base values
// (sim.TuneValues, engine.Choices). A search of single changes
// (oneChange) may vary more fields: its candidates are not a sample of a
// grid.
func tuneVary(base *engine.Rules, flags []string, oneChange bool) ([]sim.TuneVary, error) {
	var out []sim.TuneVary
	seen := map[string]string{}
	for _, f := range flags {
		glob, rng, ranged := strings.Cut(f, "=")
		lo, hi := 0, 0
		if ranged {
			a, b, ok := strings.Cut(rng, "..")
			var err1, err2 error
			lo, err1 = strconv.Atoi(strings.TrimSpace(a))
			hi, err2 = strconv.Atoi(strings.TrimSpace(b))
			if !ok || err1 != nil || err2 != nil || lo > hi {
				return nil, fmt.Errorf("%q: the range %q is not LO..HI with whole numbers LO ≤ HI", kit.Clip(f), kit.Clip(rng))
			}
			if hi-lo > 1000 {
				return nil, fmt.Errorf("%q: the range %q has more than 1000 values", kit.Clip(f), kit.Clip(rng))
			}
		}
		fields, choices, err := base.Variables(glob)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", kit.Clip(f), err)
		}
		if ranged && len(fields) == 0 {
			return nil, fmt.Errorf("%q: a range is for numbers, and %s matches only choices (leave the range out: a choice ranges over its alternatives)", f, glob)
		}
		if ranged {
			choices = nil // the range says the glob means its numbers
		}
		for _, c := range choices {
			if prev, dup := seen[c.Path]; dup {
				return nil, fmt.Errorf("%q: %s is varied by %q already", f, c.Path, prev)
			}
			seen[c.Path] = f
			if len(c.Alternatives) > 0 {
				out = append(out, sim.TuneVaryChoice(c))
			}
		}
		for _, fd := range fields {
			if prev, dup := seen[fd.Path]; dup {
				return nil, fmt.Errorf("%q: %s is varied by %q already", kit.Clip(f), fd.Path, prev)
			}
			seen[fd.Path] = f
			a, b := lo, hi
			if !ranged {
				a, b = sim.TuneRange(fd.Value)
			}
			values := sim.TuneValues(base, fd.Path, a, b)
			if len(values) == 0 {
				return nil, fmt.Errorf("%q: the rules accept no value of %s in %d..%d", kit.Clip(f), fd.Path, a, b)
			}
			out = append(out, sim.TuneVary{Path: fd.Path, Values: values})
		}
	}
	if len(out) > maxTuneFields && !oneChange {
		return nil, fmt.Errorf("%d fields: at most %d (or --one-change, which searches them one at a time)", len(out), maxTuneFields)
	}
	return out, nil
}

// openTuned checks --rules-out, the tuned rules file, before the search,
// as the result's destination is checked (neither an input nor the
// result's file), so that a search of hours never ends in "cannot write";
// nil when there is no --rules-out.
func openTuned(fl *files, path string, stderr io.Writer) (*output, error) {
	switch path {
	case "":
		return nil, nil
	case "-":
		return nil, errors.New("--rules-out -: the tuned rules need a file (the result goes to stdout, or to --out)")
	}
	return fl.open("--rules-out", path, nil, stderr)
}

// writeTuned writes the tuned rules file to out: the base with the best
// values, named and versioned as tuned, its notes saying from what and how.
func writeTuned(out *output, base *engine.Rules, res *sim.TuneResult, targets, varies []string) error {
	name := base.Name
	if name == "" {
		name = "rules"
	}
	notes := fmt.Sprintf("tuned by tallywood tune from %s (%s, hash %s): --target %s --vary %s --budget %d --seed %d; "+
		"best of %d candidates by %s; confirmed on --confirm-seed %d, %d games per target.",
		base.Label(), base.Version, engine.ShortHash(base.Hash), strings.Join(targets, " --target "), strings.Join(varies, " --vary "),
		res.BudgetGames, res.Seed, len(res.Trace), "successive halving", res.ConfirmSeed, res.ConfirmGames)
	meta := []engine.Assignment{{Path: "name", Value: name + "-tuned"}, {Path: "version", Value: base.Version + " tuned"}, {Path: "notes", Value: notes}}
	tuned, err := base.With(append(res.Tuned(), meta...)...)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, tuned.Canonical(), "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	return out.write(b.Bytes())
}
