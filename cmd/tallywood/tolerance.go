package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"tallywood/sim"
)

// toleranceUsage is --tolerance's help, the same in every command: one
// meaning everywhere.
const toleranceUsage = "the designer's `TOLERANCE`: a difference of score or win rate within ±it is close enough " +
	"(0.02: 2 points); reached, meets, within and negligible mean within it at 95%"

// toleranceFlag defines --tolerance on fs.
func toleranceFlag(fs *pflag.FlagSet) *float64 {
	return fs.Float64("tolerance", sim.DefaultTolerance, toleranceUsage)
}

// checkTolerance checks --tolerance.
func checkTolerance(tol float64) error {
	if err := sim.CheckTolerance(tol); err != nil {
		return fmt.Errorf("--tolerance %v", err)
	}
	return nil
}
