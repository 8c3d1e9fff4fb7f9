package engine

import "testing"

// perft counts the decision sequences of a given depth from g, perft-style:
// every legal option is applied to a copy, so g itself must not change.
func perft(g *Game, depth int) int {
	if depth == 0 || g.Over() {
		return 1
	}
	var buf [MaxOptions]Option
	n := 0
	for _, o := range g.Legal(buf[:0]) {
		c := *g
		if err := c.Apply(o); err != nil {
			panic(err)
		}
		n += perft(&c, depth-1)
	}
	return n
}

// TestPerft freezes the number of decision sequences from the opening of
// two seeds: card (4), column (4), row (3), region (5), then the action
// menu, which depends on the card, the money and the board. A change in
// these numbers is a change in the legal-option generator: read the diff
// of the rules before accepting it.
func TestPerft(t *testing.T) {
	cases := []struct {
		seed  uint64
		mode  Mode
		depth int
		want  int
	}{
		{1, Normal, 1, 4},
		{1, Normal, 2, 16},
		{1, Normal, 3, 48},
		{1, Normal, 4, 240},
		{1, Normal, 5, 1776},
		{1, Normal, 6, 6120},
		{2, Hard, 4, 240},
		{2, Hard, 5, 1689},
	}
	for _, c := range cases {
		g := newTestGame(t, c.seed, c.mode)
		before := *g
		if got := perft(g, c.depth); got != c.want {
			t.Errorf("seed %d %s depth %d: %d sequences, want %d", c.seed, c.mode, c.depth, got, c.want)
		}
		if *g != before {
			t.Errorf("seed %d: perft changed the start state", c.seed)
		}
	}
}
