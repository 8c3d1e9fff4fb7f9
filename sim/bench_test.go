package sim

import (
	"context"
	"fmt"
	"testing"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
)

// BenchmarkSim measures `tallywood sim` throughput: games per second in
// total over the workers, one normal cell.
func BenchmarkSim(b *testing.B) {
	for _, pol := range []string{"random", "greedy"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", pol, workers), func(b *testing.B) {
				games := int64(4096)
				if pol != "random" {
					games = 256
				}
				cfg := Config{
					RunConfig: RunConfig{Seed: 1, Workers: workers},
					Rules:     engine.Reference(), Games: games, Cells: []CellSpec{{Mode: engine.Normal, Policy: mustSpec(b, pol), Politician: RandomPoliticianIndex}},
				}
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					if _, err := Run(context.Background(), cfg); err != nil {
						b.Fatal(err)
					}
					n++
				}
				b.ReportMetric(float64(int64(n)*games)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}

// BenchmarkGame is one game with the random policy on one core, for
// profiling the engine.
func BenchmarkGame(b *testing.B) {
	p := newPlayer(nil)
	spec := mustSpec(b, "random")
	p.opp = (&Config{}).opposition()
	r := engine.Reference()
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		if err := p.play(r, deal.GameSeed(1, i), engine.Normal, spec, RandomPoliticianIndex); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkAutomaton compares the built-in Opposition with the reference
// script (opposition/script), game for game, on one core: the script
// must keep at least half the built-in one's games a second for the
// skilled player (docs/automaton.md quotes the figures).
func BenchmarkAutomaton(b *testing.B) {
	scripted, err := engine.Reference().WithAutomaton(script.ReferenceName, script.Reference())
	if err != nil {
		b.Fatal(err)
	}
	for _, pol := range []string{"casual", "skilled"} {
		for _, rules := range []struct {
			name string
			r    *engine.Rules
		}{{"built-in", engine.Reference()}, {"script", scripted}} {
			b.Run(pol+"/"+rules.name, func(b *testing.B) {
				p := newPlayer(nil)
				spec := mustSpec(b, pol)
				b.ReportAllocs()
				i := uint64(0)
				for b.Loop() {
					if err := p.play(rules.r, deal.GameSeed(1, i), engine.Mode(i%2), spec, RandomPoliticianIndex); err != nil {
						b.Fatal(err)
					}
					i++
				}
				b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
			})
		}
	}
}
