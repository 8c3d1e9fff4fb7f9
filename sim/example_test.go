package sim_test

import (
	"context"
	"fmt"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// The package's sketch: greedy's games on Hard, a politician drawn per
// game. The figures depend on every rule, so the example prints what any
// run of it has: the games played, and a win rate inside its interval.
func ExampleRun() {
	spec, _ := policy.Parse("greedy")
	res, err := sim.Run(context.Background(), sim.Config{
		Rules: engine.Reference(), Seed: 1, Games: 200,
		Cells: []sim.CellSpec{{Mode: engine.Hard, Policy: spec, Politician: sim.RandomPoliticianIndex}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Cells[0]
	fmt.Println(c.Mode, c.Policy, c.Games, c.WinCI95[0] <= c.WinRate && c.WinRate <= c.WinCI95[1])
	// Output: hard greedy 200 true
}

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
