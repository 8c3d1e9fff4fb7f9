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

// Two arms on the same seeds: A won 16 games that B lost, B won 6 that A
// lost (the Cavo et al. data of Fagerland, Lydersen & Laake, chapter 8).
func ExampleNewcombe() {
	p := sim.Paired{Both: 59, AOnly: 16, BOnly: 6, Neither: 80}
	ci := sim.Newcombe(p)
	fmt.Printf("B − A = %+.4f [%+.4f, %+.4f], McNemar p = %.4f\n", p.Diff(), ci.Lo, ci.Hi, sim.McNemar(p))
	// Output: B − A = -0.0621 [-0.1186, -0.0046], McNemar p = 0.0525
}
