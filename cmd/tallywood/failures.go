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

// failedItems are the failed items of one cell, or of a study at a
// table, for reportFailures: item names one (a game, a paired game, a
// deal), cell the cell.
type failedItems struct {
	item, cell string
	errors     int64
	failures   []sim.Failure
}

// reportFailures writes the failed items a result lists, which are not in
// its counts, and how many more failed.
func reportFailures(w io.Writer, cells []failedItems) {
	for _, c := range cells {
		for _, f := range c.failures {
			failRun(w, "%s %d failed, not scored: %s", c.item, f.Game, f.Error)
		}
		if n := c.errors - int64(len(c.failures)); n > 0 {
			failRun(w, "and %d more failed %ss of %s", n, c.item, c.cell)
		}
	}
}

func simFailures(r *sim.Result) []failedItems {
	var out []failedItems
	for _, c := range r.Cells {
		out = append(out, failedItems{"game", c.Mode + "/" + c.Policy + "/" + c.Politician, c.Errors, c.Failures})
	}
	return out
}

func compareFailures(r *sim.CompareResult) []failedItems {
	var out []failedItems
	for i := range r.Cells {
		c := &r.Cells[i]
		out = append(out, failedItems{"paired game", report.CellTitle(&c.A, &c.B), c.Errors, c.Failures})
	}
	return out
}

func sweepFailures(r *sim.SweepResult) []failedItems {
	var out []failedItems
	for _, c := range r.Cells {
		out = append(out, failedItems{"game", c.Mode + "/" + c.Policy + "/" + c.Politician, c.Errors, c.Failures})
	}
	return out
}

// tableFailures are a study's failed deals at a table.
func tableFailures(errors int64, failures []sim.Failure) []failedItems {
	return []failedItems{{"deal", "the study", errors, failures}}
}
