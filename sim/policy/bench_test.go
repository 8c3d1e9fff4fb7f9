package policy

import (
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// benchSpecs are the policies BenchmarkPolicy times: every policy, the
// skill levels, the search settings docs/policies.md and docs/arc.md
// discuss and points along the skill dial.
var benchSpecs = []string{
	"random", "greedy", "pollster", "builder",
	"mcts:iters=100", "mcts:iters=400",
	"learned", "mcts:iters=100,prior=16",
	"novice", "casual", "skilled", "expert", "master",
	"mcts:iters=100,prior=16,value=1", "mcts:iters=50,prior=16,value=1",
	"dial:skill=0", "dial:skill=0.5", "dial:skill=1", "dial:skill=1.5", "dial:skill=2",
}

// BenchmarkPolicy plays complete games against the Opposition, Normal and
// Hard alternately: ns/op is the time of one game on one core; games/s
// and allocs/op (allocations per game) are reported.
func BenchmarkPolicy(b *testing.B) {
	for _, spec := range benchSpecs {
		b.Run(spec, func(b *testing.B) {
			sp, err := Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			p := sp.New()
			r := engine.Reference()
			buf := make([]engine.Option, 0, engine.MaxOptions)
			var g engine.Game
			seed := uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				seed++
				cfg := engine.Config{Mode: engine.Mode(seed % 2), Politician: int(seed) % len(r.Politicians), Opposition: opposition.Solo{}}
				if err := g.Reset(r, seed, cfg); err != nil {
					b.Fatal(err)
				}
				p.Reset(seed)
				if err := Play(&g, p, buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkChoose times single decisions at positions all through the
// game: ns/op is the time of one decision (decisions/s = 1e9 / ns/op).
func BenchmarkChoose(b *testing.B) {
	pos := positions(b)
	for _, spec := range []string{"random", "greedy", "pollster", "builder", "mcts:iters=100", "mcts:iters=400", "mcts:iters=100,rollout=greedy"} {
		b.Run(spec, func(b *testing.B) {
			sp, err := Parse(spec)
			if err != nil {
				b.Fatal(err)
			}
			p := sp.New()
			p.Reset(1)
			legal := make([][]engine.Option, len(pos))
			for i, g := range pos {
				legal[i] = g.Legal(nil)
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				p.Choose(pos[i], legal[i])
				i = (i + 1) % len(pos)
			}
		})
	}
}

func BenchmarkEval(b *testing.B) {
	pos := positions(b)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		Eval(pos[i])
		i = (i + 1) % len(pos)
	}
}

// BenchmarkNetValue times one learned evaluation of a position (the
// features, the net's inputs and its output), without tables.
func BenchmarkNetValue(b *testing.B) {
	pos := positions(b)
	var x [NetInputs]float32
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		netEval(pos[i], ShippedNet, engine.NoSeat, nil, &x)
		i = (i + 1) % len(pos)
	}
}

// BenchmarkNet times the net alone on one position's inputs.
func BenchmarkNet(b *testing.B) {
	var x [NetInputs]float32
	ScoreInputs(positions(b)[3], 0, &x)
	b.ReportAllocs()
	for b.Loop() {
		ShippedNet.Value(&x)
	}
}

func BenchmarkDeterminize(b *testing.B) {
	pos := positions(b)
	i := 0
	var c engine.Game
	b.ReportAllocs()
	for b.Loop() {
		c = *pos[i]
		c.Determinize(uint64(i))
		i = (i + 1) % len(pos)
	}
}
