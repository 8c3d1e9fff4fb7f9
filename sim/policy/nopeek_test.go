package policy

import (
	"testing"

	"tallywood/engine"
)

// positions returns games stopped at player decisions in every part of the
// game (first turn, mid-round, Clean Up, late rounds, Final Tally
// reveals), reached by random play.
func positions(t testing.TB) []*engine.Game {
	t.Helper()
	var out []*engine.Game
	buf := make([]engine.Option, 0, engine.MaxOptions)
	for seed := uint64(1); seed <= 4; seed++ {
		for _, n := range []int{0, 5, 12, 27, 44, 63, 80, 101, 118, 500} {
			g := newGame(t, seed, engine.Mode(seed%2))
			r := &Random{}
			r.Reset(seed * 7)
			for i := 0; i < n && !g.Over(); i++ {
				if err := g.Apply(r.Choose(g, g.Legal(buf[:0]))); err != nil {
					t.Fatal(err)
				}
			}
			if g.Over() {
				continue
			}
			if len(g.Legal(buf[:0])) > 1 {
				out = append(out, g)
			}
		}
	}
	return out
}

// peeker is a policy that reads the top of the Solo deck: the no-peeking
// test must catch it, which shows the positions do vary what is hidden.
type peeker struct{}

func (peeker) Reset(uint64) {}
func (peeker) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	x := int(g.Solo.Cards[max(0, int(g.Solo.N)-1)]) + int(g.Piles[0][0].Faces[0])
	return legal[x%len(legal)]
}

// changed reports at how many positions p's decision changes when only the
// hidden information of the position changes (the Solo deck, the Strategy
// decks, face-down tiles and piles, face-down Initial Support, the bag's
// future draws), with the same policy seed.
func changed(t *testing.T, newPolicy func() Policy, worlds int) (changes, total int) {
	return changedAt(t, positions(t), newPolicy, worlds)
}

func changedAt(t *testing.T, games []*engine.Game, newPolicy func() Policy, worlds int) (changes, total int) {
	buf := make([]engine.Option, 0, engine.MaxOptions)
	buf2 := make([]engine.Option, 0, engine.MaxOptions)
	for i, g := range games {
		p := newPolicy()
		p.Reset(uint64(i))
		want := p.Choose(g, g.Legal(buf[:0]))
		for w := range worlds {
			alt := *g
			alt.Determinize(uint64(1000*i + w)) // same view, other hidden facts
			q := newPolicy()
			q.Reset(uint64(i))
			got := q.Choose(&alt, alt.Legal(buf2[:0]))
			total++
			if got != want {
				changes++
				t.Logf("position %d (%s), world %d: got %s, want %s", i, g.Pending, w, alt.Describe(got), g.Describe(want))
			}
		}
	}
	return changes, total
}

func TestNoPeeking(t *testing.T) {
	tests := []struct {
		spec   string
		worlds int
	}{
		{"random", 3},
		{"greedy", 3},
		{"greedy:samples=3", 2},
		{"pollster", 3},
		{"builder", 3},
		{"mcts:iters=40", 2},
		{"mcts:iters=10,rollout=greedy,depth=3", 1},
		{"learned", 3},
		{"learned:samples=2", 2},
		{"mcts:iters=40,prior=2", 2},
		{"mcts:iters=40,prior=2,value=1,vlevel=casual", 2},
		{"mcts:iters=20,prior=2,value=0.5,vlevel=casual", 1},
		{"dial:skill=0.5", 3},
		{"dial:skill=1.5", 1},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			sp, err := Parse(tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if n, total := changed(t, sp.New, tt.worlds); n > 0 {
				t.Errorf("%d of %d decisions changed with only hidden information changed", n, total)
			}
		})
	}
}

func TestNoPeekingCatchesAPeeker(t *testing.T) {
	inner := &testing.T{}
	n, total := changed(inner, func() Policy { return peeker{} }, 3)
	if n == 0 {
		t.Errorf("a policy reading the Solo deck went unnoticed in %d decisions", total)
	}
}

// TestNoPeekingOverATurn follows a policy through consecutive decisions
// in two worlds that look the same to the player, for policies that keep
// state between decisions (mcts reuses its tree): the decisions agree as
// long as the observations do.
func TestNoPeekingOverATurn(t *testing.T) {
	for _, spec := range []string{"mcts:iters=30", "greedy", "learned", "mcts:iters=30,prior=1", "mcts:iters=30,prior=1,value=1,vlevel=casual", "dial:skill=0.5", "dial:skill=1.5"} {
		t.Run(spec, func(t *testing.T) {
			sp, err := Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			buf := make([]engine.Option, 0, engine.MaxOptions)
			steps := 0
			for i, g0 := range positions(t) {
				a, b := *g0, *g0
				b.Determinize(uint64(77 + i))
				p, q := sp.New(), sp.New()
				p.Reset(uint64(i))
				q.Reset(uint64(i))
				for k := 0; k < 12 && !a.Over() && observe(&a, 0) == observe(&b, 0); k++ {
					oa := p.Choose(&a, a.Legal(buf[:0]))
					ob := q.Choose(&b, b.Legal(buf[:0]))
					if oa != ob {
						t.Fatalf("position %d, step %d: %s in one world, %s in the other", i, k, a.Describe(oa), b.Describe(ob))
					}
					mustApply(&a, oa)
					mustApply(&b, ob)
					steps++
				}
			}
			t.Logf("%d decisions compared", steps)
		})
	}
}

// tablePositions returns games of 3 and 4 players without the Opposition
// stopped at decisions with a choice, reached by random play.
func tablePositions(t testing.TB) []*engine.Game {
	t.Helper()
	var out []*engine.Game
	buf := make([]engine.Option, 0, engine.MaxOptions)
	for _, seats := range []int{3, 4} {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, n := range []int{0, 14, 60, 130, 190, 260, 2000} {
				g, err := engine.NewTable(engine.Reference(), seed, engine.TableConfig{Politicians: []int{5, 4, 3, 2}[:seats]})
				if err != nil {
					t.Fatal(err)
				}
				r := &Random{}
				r.Reset(seed * 11)
				for i := 0; i < n && !g.Over(); i++ {
					if err := g.Apply(r.Choose(g, g.Legal(buf[:0]))); err != nil {
						t.Fatal(err)
					}
				}
				if !g.Over() && len(g.Legal(buf[:0])) > 1 {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// handPeeker reads the first card of the next player's hand.
type handPeeker struct{}

func (handPeeker) Reset(uint64) {}
func (handPeeker) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	s := (g.Decision().Seat + 1) % g.NSeats
	return legal[int(g.Seats[s].Hand[0])%len(legal)]
}

// TestNoPeekingAtTheTable: in games of several players, a policy's choice
// does not change when only what its seat cannot see changes, the other
// players' hands and face-down discards included (every
// built-in policy plays a seat without peeking at other players' hands).
func TestNoPeekingAtTheTable(t *testing.T) {
	games := tablePositions(t)
	for _, spec := range []string{"random", "greedy", "pollster", "builder", "mcts:iters=30", "mcts:iters=10,rollout=greedy,depth=3", "learned", "mcts:iters=20,prior=2"} {
		t.Run(spec, func(t *testing.T) {
			sp, err := Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			if n, total := changedAt(t, games, sp.New, 2); n > 0 {
				t.Errorf("%d of %d decisions changed with only hidden information changed", n, total)
			}
		})
	}
	inner := &testing.T{}
	if n, total := changedAt(inner, games, func() Policy { return handPeeker{} }, 3); n == 0 {
		t.Errorf("a policy reading another player's hand went unnoticed in %d decisions", total)
	}
}
