package policy_test

import (
	"fmt"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
)

func ExampleParse() {
	sp, err := policy.Parse("mcts:rollout=random,iters=400")
	fmt.Println(sp.Label, err)
	_, err = policy.Parse("mcts:iters=0")
	fmt.Println(err)
	// Output:
	// mcts:iters=400 <nil>
	// policy "mcts:iters=0": iters=0: want an integer from 1 to 100000
}

func ExamplePlay() {
	sp, _ := policy.Parse("greedy")
	p := sp.New()
	const seed = 7
	g, _ := engine.New(engine.Reference(), seed, engine.Config{Mode: engine.Normal, Opposition: opposition.Solo{}})
	p.Reset(seed) // the policy's own stream, from the game seed
	if err := policy.Play(g, p, nil); err != nil {
		fmt.Println(err)
	}
	fmt.Println(g.Over(), policy.Eval(g) == float64(g.Result.Margin()))
	// Output:
	// true true
}
