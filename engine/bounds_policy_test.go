package engine_test

import (
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// TestBuiltinPoliciesAtBounds: every built-in policy plays the rules files
// at the rules files' bounds, in solo against the Opposition and at a table
// of two, with the invariants holding at the end (greedy,
// builder, pollster and mcts panicked on a wrapped Research bonus, the
// evaluation on negative Vote Shares at --seats 2).
func TestBuiltinPoliciesAtBounds(t *testing.T) {
	specs := []string{"random", "greedy", "builder", "pollster", "mcts:iters=20"}
	games := uint64(6)
	for _, tt := range engine.BoundCases {
		r, err := engine.Reference().With(tt.At...)
		if err != nil {
			t.Fatalf("%s: %v", tt.Name, err)
		}
		for _, s := range specs {
			sp, err := policy.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			p := sp.New()
			for seed := uint64(1); seed <= games; seed++ {
				pol := int(seed*37) % len(r.Politicians)
				g, err := engine.New(r, seed, engine.Config{Mode: engine.Mode(seed % 2), Politician: pol, Opposition: opposition.Solo{}})
				if err != nil {
					t.Fatal(err)
				}
				p.Reset(seed)
				if err := policy.Play(g, p, nil); err != nil {
					t.Fatalf("%s, %s, seed %d: %v", tt.Name, s, seed, err)
				}
				if err := g.Check(); err != nil {
					t.Fatalf("%s, %s, seed %d: %v", tt.Name, s, seed, err)
				}
			}
			table := sim.NewSeatsPlayer([]policy.Spec{sp, sp})
			for seed := uint64(1); seed <= games; seed++ {
				if err := table.Play(r, seed, 0, nil); err != nil {
					t.Fatalf("%s, %s at a table, seed %d: %v", tt.Name, s, seed, err)
				}
				if err := table.Game.Check(); err != nil {
					t.Fatalf("%s, %s at a table, seed %d: %v", tt.Name, s, seed, err)
				}
			}
			table.Close()
		}
	}
}
