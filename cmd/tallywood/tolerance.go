package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"tallywood/sim"
)

// toleranceFlag defines --tolerance on fs, the designer's tolerance with
// one meaning in every command: a difference within ±it, of score or of
// win rate, is close enough. close says what a command calls it there
// ("reached", "negligible").
func toleranceFlag(fs *pflag.FlagSet, close string) *float64 {
	return fs.Float64("tolerance", sim.DefaultTolerance,
		fmt.Sprintf("the designer's `TOLERANCE`: within ±it is close enough (0.02: 2 points of score or win rate); %s means within it at 95%%", close))
}

// checkTolerance checks --tolerance.
func checkTolerance(tol float64) error {
	if err := sim.CheckTolerance(tol); err != nil {
		return fmt.Errorf("--tolerance %v", err)
	}
	return nil
}
