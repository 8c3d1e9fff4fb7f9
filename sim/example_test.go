package sim_test

import (
	"fmt"

	"tallywood/sim"
)

// A win rate of 81 in 263 games (Newcombe's worked example) with its
// Wilson 95 % interval.
func ExampleWilson() {
	ci := sim.Wilson(81, 263)
	fmt.Printf("%.1f%% [%.1f%%, %.1f%%]\n", 100*81.0/263, 100*ci.Lo, 100*ci.Hi)
	// Output: 30.8% [25.5%, 36.6%]
}

// Holm's adjustment of four cells' p-values: only the smallest stays
// below 0.05.
func ExampleHolm() {
	fmt.Println(sim.Holm([]float64{0.01, 0.04, 0.03, 0.005}))
	// Output: [0.03 0.06 0.06 0.02]
}
