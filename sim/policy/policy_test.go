package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

func TestParse(t *testing.T) {
	tests := []struct {
		spec, canon string
	}{
		{"random", "random"},
		{"greedy", "greedy"},
		{"greedy:samples=4", "greedy:samples=4"},
		{"greedy:samples=04", "greedy:samples=4"},
		{"pollster", "pollster"},
		{"builder", "builder"},
		{"mcts", "mcts"},
		{"mcts:iters=400,rollout=greedy", "mcts:iters=400,rollout=greedy"},
		{"mcts:rollout=greedy,iters=400", "mcts:iters=400,rollout=greedy"},
		{"mcts:rollout=random,iters=200", "mcts"},
		{"mcts:c=0.70", "mcts"},
		{"mcts:c=7e-1,scale=10.0,reuse=true", "mcts"},
		{"mcts:depth=0,c=1.5", "mcts:c=1.5,depth=0"},
		{"mcts:c=.25,scale=1E2", "mcts:c=0.25,scale=100"},
		{" mcts:iters=400 ", "mcts:iters=400"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			sp, err := Parse(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if sp.String() != tt.canon || sp.Label != tt.canon || sp.Level != "" {
				t.Errorf("Parse(%q): String() %q, Label %q, Level %q; want %q, %q, \"\"", tt.spec, sp.String(), sp.Label, sp.Level, tt.canon, tt.canon)
			}
			if sp.New() == nil {
				t.Errorf("Parse(%q).New() = nil", tt.spec)
			}
			// The canonical form is a fixed point.
			again, err := Parse(sp.String())
			if err != nil || again.String() != sp.String() {
				t.Errorf("Parse(%q) = %q, %v; want itself", sp.String(), again.String(), err)
			}
		})
	}
}

// TestParseErrors gives every parameter kind a bad value, NaN and the
// infinities included (NaN once crashed the search), and
// checks the whole message, which names the parameter.
func TestParseErrors(t *testing.T) {
	known := strings.Join(Names(), ", ")
	tests := []struct{ spec, err string }{
		{"minimax", `policy "minimax": unknown (known: ` + known + ")"},
		{"mcts:iters=0", `policy "mcts:iters=0": iters=0: want an integer from 1 to 100000`},
		{"mcts:iters=lots", `policy "mcts:iters=lots": iters=lots: want an integer from 1 to 100000`},
		{"mcts:rollout=smart", `policy "mcts:rollout=smart": rollout=smart: want random or greedy`},
		{"mcts:reuse=yes", `policy "mcts:reuse=yes": reuse=yes: want true or false`},
		{"mcts:c=-1", `policy "mcts:c=-1": c=-1: want a finite number from 0 to 10`},
		{"mcts:c=NaN,iters=5", `policy "mcts:c=NaN,iters=5": c=NaN: want a finite number from 0 to 10`},
		{"mcts:c=nan", `policy "mcts:c=nan": c=nan: want a finite number from 0 to 10`},
		{"mcts:c=Inf", `policy "mcts:c=Inf": c=Inf: want a finite number from 0 to 10`},
		{"mcts:c=-Inf", `policy "mcts:c=-Inf": c=-Inf: want a finite number from 0 to 10`},
		{"mcts:scale=NaN", `policy "mcts:scale=NaN": scale=NaN: want a finite number from 1 to 1000`},
		{"mcts:scale=+Inf", `policy "mcts:scale=+Inf": scale=+Inf: want a finite number from 1 to 1000`},
		{"mcts:scale=infinity", `policy "mcts:scale=infinity": scale=infinity: want a finite number from 1 to 1000`},
		{"mcts:budget=3", `policy "mcts:budget=3": mcts has no parameter "budget"`},
		{"mcts:iters", `policy "mcts:iters": "iters" is not key=value`},
		{"mcts:iters=3,iters=4", `policy "mcts:iters=3,iters=4": parameter "iters" given twice`},
		{"greedy:samples=0", `policy "greedy:samples=0": samples=0: want an integer from 1 to 64`},
		{"random:x=1", `policy "random:x=1": random has no parameter "x"`},
		{"skilled:iters=5", `policy "skilled:iters=5": skill level skilled takes no parameters (it is ` + mustLevel(t, "skilled").Spec + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			_, err := Parse(tt.spec)
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q) error = %v\nwant %s", tt.spec, err, tt.err)
			}
		})
	}
}

// TestNoParameterTakesNonFinite walks the registry, so a parameter added
// later is covered too: NaN and the infinities are refused for every
// parameter of every policy, with the parameter named.
func TestNoParameterTakesNonFinite(t *testing.T) {
	floats := 0
	for name, e := range registry {
		for _, p := range e.params {
			if _, err := p.norm("1.5"); err == nil {
				floats++
			}
			for _, bad := range []string{"NaN", "nan", "Inf", "-Inf", "+Inf", "infinity"} {
				spec := name + ":" + p.name + "=" + bad
				_, err := Parse(spec)
				if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("policy %q: %s=%s: want ", spec, p.name, bad)) {
					t.Errorf("Parse(%q) error = %v, want one naming %s", spec, err, p.name)
				}
			}
		}
	}
	if floats == 0 {
		t.Fatal("no float parameter found")
	}
}

func mustLevel(t *testing.T, name string) Level {
	lv, ok := levelByName(name)
	if !ok {
		t.Fatalf("no level %q", name)
	}
	return lv
}

// TestLevels: every level resolves to its spec (String() is the spec's, so
// a level and its spec are the same policy), shows its own name, and is
// listed by Names and Describe.
func TestLevels(t *testing.T) {
	d := Describe()
	for _, lv := range Levels {
		sp, err := Parse(lv.Name)
		if err != nil {
			t.Fatalf("level %s: %v", lv.Name, err)
		}
		direct, err := Parse(lv.Spec)
		if err != nil {
			t.Fatalf("level %s: %v", lv.Name, err)
		}
		if lv.Spec != direct.String() {
			t.Errorf("level %s: spec %q is not canonical (%q)", lv.Name, lv.Spec, direct.String())
		}
		if sp.String() != direct.String() || sp.Label != lv.Name || sp.Level != lv.Name {
			t.Errorf("level %s: String() %q, Label %q, Level %q", lv.Name, sp.String(), sp.Label, sp.Level)
		}
		if !slices.Contains(Names(), lv.Name) || !strings.Contains(d, lv.Name+" ") {
			t.Errorf("level %s is not listed", lv.Name)
		}
		if _, ok := registry[lv.Name]; ok {
			t.Errorf("level %s hides a policy of the same name", lv.Name)
		}
	}
}

// TestCompareGames: the paired games a comparison plays by default are
// the policy's: 500 for the searches (skill levels as their spec), 10,000
// for the rest, the numbers compare's usage states.
func TestCompareGames(t *testing.T) {
	for _, tt := range []struct {
		spec string
		want int64
	}{
		{"random", 10000},
		{"greedy", 10000},
		{"builder", 10000},
		{"pollster", 10000},
		{"learned", 10000},
		{"casual", 10000},
		{"skilled", 10000},
		{"mcts", 500},
		{"mcts:iters=400,rollout=greedy", 500},
		{"expert", 500},
		{"master", 500},
	} {
		sp, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.CompareGames(); got != tt.want {
			t.Errorf("%s: CompareGames() = %d, want %d", tt.spec, got, tt.want)
		}
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
	for _, spec := range []string{"random", "greedy", "greedy:samples=2", "pollster", "builder", "mcts:iters=8", "mcts:iters=4,rollout=greedy,depth=2", "learned", "mcts:iters=8,prior=3"} {
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

// FuzzParse: any spec string either fails with an error naming it, or
// parses to a policy whose canonical spec is a fixed point of Parse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"random", "greedy:samples=4", "mcts:c=0.70,iters=0400", "mcts:c=NaN", "skilled", "expert:iters=1", "mcts:iters", "mcts:,", ":", "pollster:x=1=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := Parse(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("policy %q: ", s)) {
				t.Fatalf("Parse(%q) error %q does not name the spec", s, err)
			}
			return
		}
		again, err := Parse(sp.String())
		if err != nil || again.String() != sp.String() {
			t.Fatalf("Parse(%q) = %q, which parses to %q, %v", s, sp.String(), again.String(), err)
		}
		if sp.Label != sp.String() && sp.Label != sp.Level {
			t.Fatalf("Parse(%q): Label %q is neither the spec %q nor the level", s, sp.Label, sp.String())
		}
	})
}

// TestRegistryRefusesADuplicate: a policy registers once, and not under a
// skill level's name (Parse would read the level); either panics at init.
func TestRegistryRefusesADuplicate(t *testing.T) {
	for _, name := range []string{"greedy", "casual"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered without a panic", name)
				}
			}()
			add(entry{name: name})
		}()
	}
}
