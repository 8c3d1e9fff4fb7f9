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
		RunConfig: sim.RunConfig{Seed: 1}, Rules: engine.Reference(), Games: 200,
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
