// Command tallywood runs the Tallywood Rally solo engine: Monte Carlo win
// rates, paired rule comparisons, traces, scenarios and rules files.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	_ "tallywood/sim/policy/exec" // --policy exec:COMMAND
)

// Exit codes: 0 success, 1 a run that failed or was interrupted, 2 bad
// input (flags, files).
const (
	exitOK      = 0
	exitFailed  = 1
	exitBadArgs = 2
)

// command is one subcommand. Each lives in its own file and registers
// itself in init, so subcommands stay independent of each other.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitBadArgs
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "tallywood: unknown command %q (see tallywood --help)\n", args[0])
		return exitBadArgs
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tallywood COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n'tallywood COMMAND --help' describes a command's flags.")
}

// fail prints a one-line error for bad input and returns exitBadArgs.
func fail(stderr io.Writer, format string, args ...any) int {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintln(stderr, "tallywood: "+strings.TrimPrefix(msg, "tallywood: "))
	return exitBadArgs
}
