package policy

import (
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

func TestParse(t *testing.T) {
	tests := []struct {
		spec, canon, err string
	}{
		{spec: "random", canon: "random"},
		{spec: "greedy", canon: "greedy"},
		{spec: "greedy:samples=4", canon: "greedy:samples=4"},
		{spec: "pollster", canon: "pollster"},
		{spec: "builder", canon: "builder"},
		{spec: "mcts", canon: "mcts"},
		{spec: "mcts:iters=400,rollout=greedy", canon: "mcts:iters=400,rollout=greedy"},
		{spec: "mcts:rollout=random,iters=200", canon: "mcts"},
		{spec: "mcts:depth=0,c=1.5", canon: "mcts:depth=0,c=1.5"},
		{spec: "minimax", err: "unknown"},
		{spec: "mcts:iters=0", err: "iters=0: want an integer from 1 to 100000"},
		{spec: "mcts:iters=lots", err: "iters=lots"},
		{spec: "mcts:rollout=smart", err: "rollout=smart: want random or greedy"},
		{spec: "mcts:c=-1", err: "c=-1"},
		{spec: "mcts:budget=3", err: `has no parameter "budget"`},
		{spec: "mcts:iters", err: "not key=value"},
		{spec: "mcts:iters=3,iters=4", err: "given twice"},
		{spec: "greedy:samples=0", err: "samples=0"},
		{spec: "random:x=1", err: "no parameter"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			sp, err := Parse(tt.spec)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Parse(%q) error = %v, want one containing %q", tt.spec, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sp.Canon != tt.canon {
				t.Errorf("Parse(%q).Canon = %q, want %q", tt.spec, sp.Canon, tt.canon)
			}
			if sp.New() == nil {
				t.Errorf("Parse(%q).New() = nil", tt.spec)
			}
		})
	}
}

func TestDescribeListsParameters(t *testing.T) {
	d := Describe()
	for _, want := range []string{"random", "greedy", "pollster", "builder", "mcts", "iters=200", "rollout=random"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe() lacks %q:\n%s", want, d)
		}
	}
}

// TestPoliciesPlayLegally plays whole games with every policy: Play fails
// on an option that is not legal.
func TestPoliciesPlayLegally(t *testing.T) {
	for _, spec := range []string{"random", "greedy", "greedy:samples=2", "pollster", "builder", "mcts:iters=8", "mcts:iters=4,rollout=greedy,depth=2"} {
		t.Run(spec, func(t *testing.T) {
			sp, err := Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			p := sp.New()
			for seed := uint64(1); seed <= 2; seed++ {
				g := newGame(t, seed, engine.Mode(seed%2))
				p.Reset(seed)
				if err := Play(g, p, nil); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func newGame(t testing.TB, seed uint64, mode engine.Mode) *engine.Game {
	t.Helper()
	r := engine.Reference()
	g, err := engine.New(r, seed, engine.Config{Mode: mode, Politician: int(seed) % len(r.Politicians), Opposition: opposition.Solo{}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
