package main

import (
	"fmt"
	"io"

	"tallywood/sim/deal"
)

func init() {
	register(command{name: "version", summary: "print the version and the revision it was built from", run: runVersion})
}

const versionUsage = `usage: tallywood version   (or: tallywood --version)

Prints the module version and the version-control revision of this build,
from the build information Go records in the binary. Every result (sim,
merge, compare) records the first line's version as tallywood_version.
`

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, versionUsage)
		return exitOK
	}
	if len(args) > 0 {
		return fail(stderr, "version: unexpected argument %q", args[0])
	}
	b := deal.Build()
	fmt.Fprintf(stdout, "tallywood %s\n", b)
	rev := b.Revision
	switch {
	case rev == "":
		rev = "unknown (built without version control information)"
	case b.Modified:
		rev += " (with uncommitted changes)"
	}
	fmt.Fprintf(stdout, "revision %s\n", rev)
	if b.Time != "" {
		fmt.Fprintf(stdout, "committed %s\n", b.Time)
	}
	fmt.Fprintf(stdout, "built with %s\n", b.Go)
	return exitOK
}
