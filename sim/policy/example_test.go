package policy_test

import (
	"fmt"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
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

func ExamplePlaySolo() {
	sp, _ := policy.Parse("greedy")
	p := sp.New()
	var g engine.Game
	// Game 0 of master seed 7, as 'tallywood trace --seed 7 --mode hard'
	// narrates it and sim --seed 7 plays it.
	d := deal.Solo{Mode: engine.Hard, Politician: deal.RandomPoliticianIndex, Opposition: opposition.Solo{}}
	if err := policy.PlaySolo(&g, engine.Reference(), deal.GameSeed(7, 0), d, p, nil); err != nil {
		fmt.Println(err)
	}
	fmt.Println(g.Over(), g.Rules().Politicians[g.Seats[0].Politician].ID, g.Result.Margin())
	// Output:
	// true red-favourite -8
}
