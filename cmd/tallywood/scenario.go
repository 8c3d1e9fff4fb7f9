package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/opposition/scenario"
	"tallywood/sim"
	"tallywood/sim/deal"
)

func init() {
	register(command{name: "scenario", summary: "run scenario files: what do the rules do here?", subcommands: []string{"run", "setup"}, run: runScenario})
}

const scenarioUsage = `usage:
  tallywood scenario run [--quiet] FILE...
  tallywood scenario setup [--seed N] [--game N] [--mode MODE] [--politician ID]

run: runs each scenario file (docs/scenarios.md): prints its trace, then
PASS or FAIL with the facts that differ. Exit status 1 if any scenario
fails, 2 if a file is malformed.

setup: prints the standard setup of game --game of master seed --seed (the
game 'tallywood trace --seed N --game N' narrates, 'tallywood play --seed N
--game N' deals and 'tallywood sim --seed N' plays as that game number,
with the same Politician) as a scenario file to start from: every setup
value stated, the tile piles and decks in order as facts. The file's "seed"
is that game's own seed (the game seed), which the scenario deals again.

flags:
`

func runScenario(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("scenario", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	quiet := fs.BoolP("quiet", "q", false, "run: print only PASS/FAIL lines and differences, not traces")
	seed := fs.Uint64("seed", 1, seedUsage)
	game := fs.Uint64("game", 0, gameUsage)
	modeName := fs.String("mode", "normal", modeUsage)
	pol := fs.String("politician", "random", politicianUsage)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, scenarioUsage+helpText(fs))
			return exitOK
		}
		return fail(stderr, "scenario: %s", flagError(err, fs))
	}
	rest := fs.Args()
	switch {
	case len(rest) == 0:
		fmt.Fprint(stderr, scenarioUsage)
		return exitBadArgs
	case rest[0] == "setup":
		if len(rest) > 1 {
			return fail(stderr, "scenario: setup takes no FILE (%q)", rest[1])
		}
		if fs.Changed("quiet") {
			return fail(stderr, "scenario: --quiet: only for scenario run")
		}
		mode, err := parseMode("mode", *modeName)
		if err != nil {
			return fail(stderr, "scenario: %v", err)
		}
		if *game >= sim.MaxGames {
			return fail(stderr, "scenario: --game %d is outside 0..%d", *game, int64(sim.MaxGames-1))
		}
		// The seed convention of sim, trace and play: game --game of
		// master seed --seed, and the Politician they deal for it.
		rules := engine.Reference()
		pols, err := parsePoliticians(rules, "politician", *pol, false)
		if err != nil {
			return fail(stderr, "scenario: %v", err)
		}
		gameSeed := deal.GameSeed(*seed, *game)
		out, err := scenario.Skeleton(rules, gameSeed, mode, deal.SoloPolitician(pols[0], gameSeed, len(rules.Politicians)), fmt.Sprintf("game %d of seed %d", *game, *seed))
		if err != nil {
			return fail(stderr, "%v", err)
		}
		stdout.Write(out) // a failed write is reported by run (checkedWriter)
		return exitOK
	case rest[0] != "run":
		return fail(stderr, "scenario: unknown subcommand %q (run or setup)", rest[0])
	case len(rest) == 1:
		return fail(stderr, "scenario: run needs at least one FILE")
	}
	for _, name := range []string{"seed", "game", "mode", "politician"} {
		if fs.Changed(name) {
			return fail(stderr, "scenario: --%s: only for scenario setup", name)
		}
	}
	code := exitOK
	passed, failed, malformed := 0, 0, 0
	for _, path := range rest[1:] {
		s, err := scenario.Load(path)
		if err != nil {
			failInput(stderr, "%v", err)
			malformed++
			code = exitBadArgs
			continue
		}
		res := s.Run()
		if !*quiet {
			fmt.Fprintf(stdout, "=== %s (%s)\n%s\n", res.Name, path, res.Description)
			fmt.Fprint(stdout, indent(res.Trace))
		}
		if res.Pass() {
			passed++
			fmt.Fprintf(stdout, "PASS %s\n", res.Name)
			continue
		}
		failed++
		if code == exitOK {
			code = exitFailed
		}
		fmt.Fprintf(stdout, "FAIL %s (%s)\n", res.Name, path)
		for _, d := range res.Diffs {
			fmt.Fprintf(stdout, "  %s\n", d)
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed, %d malformed\n", passed, failed, malformed)
	return code
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	return "  " + strings.Join(lines, "  ") + "\n"
}
