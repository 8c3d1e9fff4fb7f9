package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// positions returns games of several seeds stopped after n player
// decisions, so Determinize is checked in every phase of the game.
func positions(t *testing.T) []*Game {
	t.Helper()
	var out []*Game
	for seed := uint64(1); seed <= 6; seed++ {
		for _, n := range []int{0, 7, 30, 60, 95, 120, 1000} {
			g := newTestGame(t, seed, Mode(seed%2))
			p := NewRandomPlayer(seed * 31)
			for i := 0; i < n && !g.Over(); i++ {
				if err := g.Apply(p.Choose(g)); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, g)
		}
	}
	return out
}

// visible blanks the hidden information of a copy of g, so that two games
// differing only in hidden information compare equal.
func visible(g *Game) Game {
	c := *g
	for d := range c.Decks {
		c.Decks[d].Cards = [MaxSoloCards]uint8{}
		c.deckRng[d] = rand.PCG{}
	}
	c.Solo.Cards = [MaxSoloCards]uint8{}
	box := c.SoloBox.Cards[:c.SoloBox.N]
	// Seen blocks stay; the unseen ones are blanked (see determinizeSolo).
	pos := 0
	for r := 0; pos < len(box) && r < len(c.rules.Rounds); r++ {
		k := int(c.rules.Rounds[r].Turns)
		pos += k
		for j := pos; j < min(pos+k, len(box)); j++ {
			box[j] = 0
		}
		pos += k
	}
	for i := range c.NPlaced {
		if !c.Placed[i].FaceUp {
			c.Placed[i].Face = 0
		}
	}
	for k := range c.Piles {
		for t := range c.Piles[k] {
			c.Piles[k][t].Faces = [MaxPile]uint8{}
		}
	}
	for d := range c.Districts {
		if !c.Districts[d].SupportFaceUp {
			c.Districts[d].InitialSupport = 0
		}
	}
	c.soloRng, c.bagRng, c.autoRng = rand.PCG{}, rand.PCG{}, rand.PCG{}
	return c
}

// unknown lists, per kind of hidden information, the multiset Determinize
// must conserve.
func unknown(g *Game) map[string][]int {
	m := map[string][]int{}
	add := func(k string, v int) { m[k] = append(m[k], v) }
	for d := range g.Decks {
		for _, c := range g.Decks[d].Cards[:g.Decks[d].N] {
			add("deck"+string(rune('0'+d)), int(c))
		}
	}
	solo := slices.Clone(g.Solo.Cards[:g.Solo.N])
	solo = append(solo, g.SoloBox.Cards[:g.SoloBox.N]...)
	for _, c := range solo {
		add("solo", int(c))
	}
	for i := range g.NPlaced {
		p := g.Placed[i]
		if !p.FaceUp {
			add("tile"+string(rune('0'+int(p.Kind)*3+int(p.Tier))), int(p.Face))
		}
	}
	for k := range g.Piles {
		for t := range g.Piles[k] {
			for _, f := range g.Piles[k][t].Faces[:g.Piles[k][t].N] {
				add("tile"+string(rune('0'+k*3+t+1)), int(f))
			}
		}
	}
	for d := range g.Districts {
		if !g.Districts[d].SupportFaceUp {
			add("support", int(g.Districts[d].InitialSupport))
		}
	}
	for k := range m {
		slices.Sort(m[k])
	}
	return m
}

func TestDeterminizeConserves(t *testing.T) {
	for i, g := range positions(t) {
		c := *g
		c.Determinize(uint64(i) + 100)
		if visible(&c) != visible(g) {
			t.Fatalf("position %d: Determinize changed visible information", i)
		}
		want, got := unknown(g), unknown(&c)
		for k, w := range want {
			if !slices.Equal(got[k], w) {
				t.Errorf("position %d: %s: got %v, want %v", i, k, got[k], w)
			}
		}
	}
}

// TestDeterminizeIgnoresHidden is the property the no-peeking tests rest
// on: two games that differ only in hidden information are identical
// after Determinize with the same seed.
func TestDeterminizeIgnoresHidden(t *testing.T) {
	for i, g := range positions(t) {
		other := *g
		other.Determinize(uint64(i) + 5000) // another world, same view
		a, b := *g, other
		a.Determinize(42)
		b.Determinize(42)
		if a != b {
			t.Fatalf("position %d: Determinize depends on the hidden information", i)
		}
	}
}

func TestDeterminizeSamples(t *testing.T) {
	g := newTestGame(t, 3, Normal)
	a, b := *g, *g
	a.Determinize(1)
	b.Determinize(2)
	if a.Solo == b.Solo || a.Decks == b.Decks || a.Piles == b.Piles {
		t.Errorf("different seeds gave the same Solo deck, Strategy decks or piles")
	}
	c := *g
	c.Determinize(1)
	if a != c {
		t.Errorf("the same seed gave different samples")
	}
}

// TestDeterminizedPlays plays determinized games to the end: the sample
// is a consistent game state.
func TestDeterminizedPlays(t *testing.T) {
	for i, g := range positions(t) {
		c := *g
		c.Determinize(uint64(i))
		if err := NewRandomPlayer(uint64(i)).Play(&c); err != nil {
			t.Fatalf("position %d: %v", i, err)
		}
	}
}

func TestSortCards(t *testing.T) {
	tests := [][]uint8{
		{},
		{7},
		{3, 1, 2},
		{63, 0, 17, 40, 5},
		{200, 0, 63, 64, 127}, // beyond 63: the comparison sort
		{5, 5, 1, 3, 1},       // duplicates: the comparison sort
	}
	for _, in := range tests {
		got := slices.Clone(in)
		sortCards(got)
		want := slices.Clone(in)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("sortCards(%v) = %v, want %v", in, got, want)
		}
	}
}
