package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/report"
)

// Failed games, alike in every kind of study (sim, compare, sweep, and
// both at a table): --max-errors, and the failures listed on stderr.

// maxErrorsFlag defines --max-errors on fs.
func maxErrorsFlag(fs *pflag.FlagSet) *int64 {
	return fs.Int64("max-errors", 0, "`N` failed games (an exec program that crashed, hung or answered nonsense) to go on past")
}

// checkMaxErrors refuses a negative --max-errors.
func checkMaxErrors(n int64) error {
	if n < 0 {
		return fmt.Errorf("--max-errors %d: must be at least 0", n)
	}
	return nil
}

// reportFailures writes, a line each, the failed items s lists, which
// are not in its counts, and how many more failed.
func reportFailures(w io.Writer, s sim.Study) {
	for _, line := range report.Failures(s) {
		failRun(w, "%s", line)
	}
}
