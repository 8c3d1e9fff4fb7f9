// Command tallywood runs the Tallywood Rally solo engine: Monte Carlo win
// rates, paired rule comparisons, traces, scenarios and rules files.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"tallywood/engine/kit"
	_ "tallywood/sim/policy/exec" // --policy exec:COMMAND
)

// Exit codes: 0 success, 1 a run that failed or was interrupted, or
// output that could not be written, 2 bad input (flags, files).
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
	// subcommands are the words the command takes as its first argument
	// (rules dump, rules check, ...), for help and shell completion.
	subcommands []string
	run         func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

// register registers subcommand c, once.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("tallywood: command " + c.name + " registered twice")
	}
	commands[c.name] = c
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run runs the command line args. Every write to stdout is checked: a
// command whose output could not be written (a full disk, a closed pipe)
// fails with exit 1 whatever it returned.
func run(args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := dispatch(args, out, stderr)
	if out.err != nil {
		name := "tallywood"
		if len(args) > 0 {
			if _, ok := commands[args[0]]; ok {
				name += ": " + args[0]
			}
		}
		fmt.Fprintf(stderr, "%s: the output could not be written: %v\n", name, out.err)
		if code == exitOK {
			code = exitFailed
		}
	}
	return code
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitBadArgs
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return exitOK
	case "--version":
		return runVersion(args[1:], stdout, stderr)
	case "help":
		if len(args) == 1 {
			usage(stdout)
			return exitOK
		}
		if len(args) > 2 {
			return failf(stderr, "", "help: one command at a time, not %q", strings.Join(args[1:], " "))
		}
		c, ok := commands[args[1]]
		if !ok {
			return failf(stderr, "", "help: unknown command %q%s", args[1], kit.DidYouMean(args[1], commandNames()))
		}
		return c.run([]string{"--help"}, stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		return failf(stderr, "", "unknown command %q%s", args[0], kit.DidYouMean(args[0], commandNames()))
	}
	return c.run(args[1:], stdout, stderr)
}

// commandNames returns the registered commands in order.
func commandNames() []string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tallywood COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, n := range commandNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n'tallywood help COMMAND' (or 'tallywood COMMAND --help') describes a command's flags;\n'tallywood --version' prints the version.")
}

// checkedWriter remembers the first failed write; after it, writes fail
// without writing, so output is never silently missing a middle part.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// file is the wrapped *os.File, if it is one (isTerminal looks at it).
func (c *checkedWriter) file() (*os.File, bool) {
	f, ok := c.w.(*os.File)
	return f, ok
}
