package main

import (
	"io"

	"tallywood/sim"
	"tallywood/sim/report"
)

// maxErrorsUsage is --max-errors's help: the same count in every study.
const maxErrorsUsage = "`N` failed games in the whole study (an exec program that crashed, hung or answered nonsense) to go on past"

// reportFailures writes, a line each, the failed items s lists, which
// are not in its counts, and how many more failed.
func reportFailures(w io.Writer, s sim.Study) {
	for _, line := range report.Failures(s) {
		failRun(w, "%s", line)
	}
}
