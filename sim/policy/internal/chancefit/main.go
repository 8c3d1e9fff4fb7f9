// Command chancefit makes the win-chance model (sim/policy/chance.json)
// and checks it. It plays games of each skill level named (LEVEL=GAMES)
// on a data seed, Normal and Hard alternately, the politician drawn as
// `sim --politician random` does, and records the win chance's inputs at
// a share (-keep) of the points of each game's arc (policy.Arc: every
// decision of the player and the start of every Opposition turn), with
// the game's outcome (a win 1, a draw ½). It fits one network per level
// to them (logistic loss, Adam), measures each on held-out games of
// another seed (the Brier score against the base rate's, and a table of
// predicted against observed by tenths) and writes the file, which
// records the command, the data seed, the rules and the held-out scores.
//
//	go run ./sim/policy/internal/chancefit -rules mine.json -out mine-chance.json casual=20000 skilled=20000
//
// (make chance has the shipped file's command.) With -check it plays no
// training games: it measures the model of -model (default: the shipped
// one) on held-out games and, at -check-positions positions sampled from
// them, compares its chance with the mean outcome of -continuations
// games continued from the position by the same level, each from a copy
// determinized from the player's view (make chance-check). The same
// arguments give the same output byte for byte, whatever the number of
// workers: games are played in parallel and kept by index, and the fit
// runs on one goroutine in a fixed order.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/policy"
)

func main() {
	o := options{}
	flag.Uint64Var(&o.seed, "seed", 12000, "master seed of the training games")
	flag.Uint64Var(&o.heldout, "heldout", 12001, "master seed of the held-out games")
	flag.IntVar(&o.heldoutGames, "heldout-games", 2000, "held-out games per level")
	flag.Float64Var(&o.keep, "keep", 0.25, "share of each game's points kept for the fit")
	flag.IntVar(&o.hidden, "hidden", 32, "hidden units (0: logistic regression)")
	flag.IntVar(&o.epochs, "epochs", 6, "passes over the data")
	flag.Float64Var(&o.lr, "lr", 0.002, "Adam's step size")
	flag.IntVar(&o.batch, "batch", 256, "positions per step")
	flag.Float64Var(&o.calib, "calib", 0.2, "share of each level's games (the last) kept out of the fit, to scale its output so that its chances are calibrated")
	flag.Uint64Var(&o.kneeSeed, "knee-seed", 0, "with -knee-games: master seed of the games the knee is fitted on")
	flag.IntVar(&o.kneeGames, "knee-games", 0, "games per level of -knee-seed that the knee is fitted on (0: the -calib games)")
	flag.BoolVar(&o.pooled, "pooled", false, "fit one network on every level's games together, used for each level (to measure against one per level)")
	flag.StringVar(&o.out, "out", "", "write the model to this file (default: report only)")
	flag.StringVar(&o.rulesFile, "rules", "", "rules file to train for (default: the reference rules)")
	flag.IntVar(&o.workers, "workers", 2, "parallel games")
	flag.BoolVar(&o.check, "check", false, "measure the model of -model instead of training: calibration and continuations")
	flag.StringVar(&o.model, "model", "", "with -check: the win-chance file (default: the shipped one)")
	flag.IntVar(&o.checkPositions, "check-positions", 300, "with -check: positions per level the continuations start from")
	flag.IntVar(&o.continuations, "continuations", 100, "games continued from each position of the interval's measure and of the check")
	flag.Uint64Var(&o.intervalSeed, "interval-seed", 12003, "master seed of the games whose positions measure the chance's interval")
	flag.IntVar(&o.intervalPositions, "interval-positions", 6000, "positions per level that measure the chance's interval")
	flag.Uint64Var(&o.checkSeed, "check-seed", 12002, "with -check: master seed of the continuations' positions")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: chancefit [flags] LEVEL=GAMES...   (e.g. casual=20000 skilled=20000)\n       chancefit -check [flags] LEVEL...")
		flag.PrintDefaults()
	}
	args := parseArgs()
	var err error
	if o.levels, err = parseLevels(args, !o.check); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	o.rules = engine.Reference()
	if o.rulesFile != "" {
		if o.rules, err = engine.LoadFile(o.rulesFile); err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(2)
		}
	}
	// A script the rules name is compiled before any game is played.
	if err := script.Check(o.rules); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	o.command = command(o, args)
	if !o.quiet {
		o.progress = os.Stderr
	}
	start := time.Now()
	if o.check {
		var m *policy.ChanceModel
		if o.model != "" {
			if m, err = policy.LoadChance(o.model); err != nil {
				fmt.Fprintln(os.Stderr, "chancefit:", err)
				os.Exit(2)
			}
		} else {
			m = policy.ShippedChance()
		}
		rep, _, err := checkModel(o, m)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(1)
		}
		fmt.Print(rep)
		fmt.Fprintf(os.Stderr, "took %s\n", time.Since(start).Round(time.Second))
		return
	}
	m, rep, err := train(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(1)
	}
	fmt.Print(rep)
	fmt.Fprintf(os.Stderr, "took %s\n", time.Since(start).Round(time.Second))
	if o.out != "" {
		if err := os.WriteFile(o.out, m.Encode(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(1)
		}
	}
}

type level struct {
	name  string
	spec  policy.Spec
	games int
}

type options struct {
	levels                []level
	seed, heldout         uint64
	heldoutGames          int
	keep                  float64
	hidden, epochs, batch int
	lr, calib             float64
	pooled                bool
	out, rulesFile, model string
	rules                 *engine.Rules
	workers               int
	check                 bool
	checkPositions        int
	continuations         int
	checkSeed             uint64
	intervalSeed          uint64
	intervalPositions     int
	kneeSeed              uint64
	kneeGames             int
	quiet                 bool
	command               string
	progress              io.Writer
}

// validate refuses seeds that would measure the model on what fitted it
// and budgets that measure nothing.
func (o options) validate() error {
	switch {
	case o.continuations < 2:
		return fmt.Errorf("-continuations %d: want at least 2", o.continuations)
	case o.intervalPositions < 100:
		return fmt.Errorf("-interval-positions %d: want at least 100", o.intervalPositions)
	case o.checkPositions < 1:
		return fmt.Errorf("-check-positions %d: want at least 1", o.checkPositions)
	}
	seeds := map[uint64]string{o.seed: "-seed"}
	for _, s := range []struct {
		name string
		v    uint64
	}{{"-heldout", o.heldout}, {"-interval-seed", o.intervalSeed}, {"-check-seed", o.checkSeed}, {"-knee-seed", o.kneeSeed}} {
		if s.name == "-knee-seed" && o.kneeGames == 0 {
			continue
		}
		if other, ok := seeds[s.v]; ok {
			return fmt.Errorf("%s and %s are both %d: each measure needs games of its own", other, s.name, s.v)
		}
		seeds[s.v] = s.name
	}
	return nil
}

// parseLevels reads LEVEL=GAMES arguments (LEVEL alone when the games
// are not needed: -check), at least one, each a skill level once.
func parseLevels(args []string, needGames bool) ([]level, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no levels: give LEVEL=GAMES arguments, e.g. casual=20000")
	}
	var out []level
	for _, a := range args {
		name, n, ok := strings.Cut(a, "=")
		games, err := strconv.Atoi(n)
		if needGames && (!ok || err != nil || games < 1) {
			return nil, fmt.Errorf("%q: want LEVEL=GAMES with GAMES ≥ 1, e.g. casual=20000", a)
		}
		sp, err := policy.Parse(name)
		if err != nil || sp.Level != name {
			return nil, fmt.Errorf("%q: %s is not a skill level", a, name)
		}
		if slices.ContainsFunc(out, func(l level) bool { return l.name == name }) {
			return nil, fmt.Errorf("%q: level %s twice", a, name)
		}
		out = append(out, level{name, sp, games})
	}
	return out, nil
}

// parseArgs parses the flags wherever they are among the levels (make
// chance writes -out after them) and returns the levels.
func parseArgs() []string {
	flag.Parse()
	var args []string
	for rest := flag.Args(); len(rest) > 0; rest = flag.Args() {
		args = append(args, rest[0])
		flag.CommandLine.Parse(rest[1:]) // ExitOnError
	}
	return args
}

// command is the command line that trains the same model: every flag
// that changes it, none that does not (-out, -workers, -quiet).
func command(o options, args []string) string {
	parts := []string{"go run ./sim/policy/internal/chancefit",
		fmt.Sprintf("-seed %d -heldout %d -heldout-games %d -keep %g", o.seed, o.heldout, o.heldoutGames, o.keep),
		fmt.Sprintf("-hidden %d -epochs %d -lr %g -batch %d -calib %g", o.hidden, o.epochs, o.lr, o.batch, o.calib),
		fmt.Sprintf("-interval-seed %d -interval-positions %d -continuations %d", o.intervalSeed, o.intervalPositions, o.continuations)}
	if o.kneeGames > 0 {
		parts = append(parts, fmt.Sprintf("-knee-seed %d -knee-games %d", o.kneeSeed, o.kneeGames))
	}
	if o.pooled {
		parts = append(parts, "-pooled")
	}
	if o.rulesFile != "" {
		parts = append(parts, "-rules "+o.rulesFile)
	}
	return strings.Join(append(parts, args...), " ")
}
