package script

import (
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// BenchmarkHook times one call of each of the Opposition's hooks, built-in
// and scripted, on the positions of a played game: the cost a script adds
// to every Opposition turn a simulation or a search plays.
func BenchmarkHook(b *testing.B) {
	r := referenceRules(b)
	script := oppositionFor(b, r)
	// Positions: the Opposition about to play its turns, and the Final
	// Tally's reveals, of games of the random player.
	type pos struct {
		g    engine.Game
		seat int8
	}
	var turns, reveals []pos
	rec := &recorder{}
	rec.turn = func(g *engine.Game, s int8) { turns = append(turns, pos{*g, s}) }
	rec.reveal = func(g *engine.Game, s int8) { reveals = append(reveals, pos{*g, s}) }
	for seed := range uint64(20) {
		rec.Opposition = opposition.Solo{}
		g, err := engine.New(r, seed, engine.Config{Mode: engine.Mode(seed % 2), Opposition: rec})
		if err != nil {
			b.Fatal(err)
		}
		if err := engine.NewRandomPlayer(seed).Play(g); err != nil {
			b.Fatal(err)
		}
	}
	for _, opp := range []struct {
		name string
		o    engine.Opposition
	}{{"built-in", opposition.Solo{}}, {"script", script}} {
		b.Run("turn/"+opp.name, func(b *testing.B) {
			b.ReportAllocs()
			var g engine.Game
			i := 0
			for b.Loop() {
				p := &turns[i%len(turns)]
				g = p.g
				opp.o.Turn(&g, p.seat)
				i++
			}
		})
		b.Run("reveal/"+opp.name, func(b *testing.B) {
			b.ReportAllocs()
			var g engine.Game
			i := 0
			for b.Loop() {
				p := &reveals[i%len(reveals)]
				g = p.g
				opp.o.Reveal(&g, p.seat)
				i++
			}
		})
	}
}

// recorder keeps the positions at which the Opposition is asked.
type recorder struct {
	engine.Opposition
	turn, reveal func(g *engine.Game, s int8)
}

func (r *recorder) Turn(g *engine.Game, s int8) {
	r.turn(g, s)
	r.Opposition.Turn(g, s)
}

func (r *recorder) Reveal(g *engine.Game, s int8) int {
	r.reveal(g, s)
	return r.Opposition.Reveal(g, s)
}
