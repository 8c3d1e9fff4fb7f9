package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"tallywood/engine"
)

func init() {
	register(command{name: "rules", summary: "dump the default rules file, or check one", subcommands: []string{"dump", "check"}, run: runRules})
}

const rulesUsage = `usage:
  tallywood rules dump          print the default rules file (the reference set)
  tallywood rules check FILE    validate a rules file and print its hash
`

func runRules(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("rules", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, rulesUsage)
			return exitOK
		}
		return fail(stderr, "rules: %s", flagError(err))
	}
	rest := fs.Args()
	switch {
	case len(rest) == 1 && rest[0] == "dump":
		stdout.Write(engine.ReferenceJSON())
		return exitOK
	case len(rest) == 2 && rest[0] == "check":
		r, err := engine.LoadFile(rest[1])
		if err != nil {
			return failInput(stderr, "%v", err)
		}
		fmt.Fprintf(stdout, "%s: ok (version %q, hash %s)\n", rest[1], r.Version, r.Hash)
		return exitOK
	}
	switch {
	case len(rest) == 0:
		fmt.Fprint(stderr, rulesUsage)
		return exitBadArgs
	case rest[0] == "dump":
		return fail(stderr, "rules: dump takes no argument, not %q", rest[1])
	case rest[0] == "check":
		return fail(stderr, "rules: check takes one FILE, not %d arguments", len(rest)-1)
	}
	return fail(stderr, "rules: unknown subcommand %q (dump or check)", rest[0])
}
