package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"tallywood/opposition/scenario"
)

func init() {
	register(command{name: "scenario", summary: "run scenario files: what does the Opposition do here?", subcommands: []string{"run"}, run: runScenario})
}

const scenarioUsage = `usage:
  tallywood scenario run [--quiet] FILE...

Runs each scenario file (docs/scenarios.md): prints its trace, then PASS or
FAIL with the facts that differ. Exit status 1 if any scenario fails, 2 if
a file is malformed.

flags:
  -q, --quiet   print only PASS/FAIL lines and differences, not traces
`

func runScenario(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("scenario", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	quiet := fs.BoolP("quiet", "q", false, "print no traces")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, scenarioUsage)
			return exitOK
		}
		return fail(stderr, "scenario: %s", flagError(err))
	}
	rest := fs.Args()
	switch {
	case len(rest) == 0:
		fmt.Fprint(stderr, scenarioUsage)
		return exitBadArgs
	case rest[0] != "run":
		return fail(stderr, "scenario: unknown subcommand %q (run)", rest[0])
	case len(rest) == 1:
		return fail(stderr, "scenario: run needs at least one FILE")
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
