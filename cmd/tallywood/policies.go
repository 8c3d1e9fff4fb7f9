package main

import (
	"fmt"
	"io"

	"tallywood/sim/policy"
)

func init() {
	register(command{name: "policies", summary: "list the player policies and their parameters", run: runPolicies})
}

func runPolicies(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(stdout, "usage: tallywood policies\n\nLists the policies a --policy spec can name: NAME or NAME:key=value,key=value.")
		return exitOK
	}
	if len(args) > 0 {
		return fail(stderr, "policies: unexpected argument %q", args[0])
	}
	fmt.Fprint(stdout, policy.Describe())
	return exitOK
}
