package exec

import (
	"encoding/json"
	"os/exec"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
	"tallywood/sim/policy/exec/exectest"
)

// benchmarkDecisions plays games through the protocol with the player of
// spec and reports the decisions a second: the harness's encoding of the
// view and options, the pipes both ways and the player's reading and
// answering (the fake Go player answers at once, so its figure is the
// protocol's own cost).
func benchmarkDecisions(b *testing.B, spec string) {
	sp, err := policy.Parse(spec)
	if err != nil {
		b.Skip(err)
	}
	p := sp.New()
	defer policy.Close(p)
	r := engine.Reference()
	var g engine.Game
	buf := make([]engine.Option, 0, engine.MaxOptions)
	decisions := 0
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		if g.Over() || seed == 0 {
			seed++
			if err := g.Reset(r, seed, engine.Config{Mode: engine.Normal, Opposition: opposition.Solo{}}); err != nil {
				b.Fatal(err)
			}
			p.Reset(seed)
		}
		legal := g.Legal(buf[:0])
		o := p.Choose(&g, legal)
		if err := p.(policy.Fallible).Err(); err != nil {
			b.Fatal(err)
		}
		if err := g.Apply(o); err != nil {
			b.Fatal(err)
		}
		decisions++
	}
	b.ReportMetric(float64(decisions)/b.Elapsed().Seconds(), "decisions/s")
}

func BenchmarkDecisionsGoPlayer(b *testing.B) { benchmarkDecisions(b, exectest.Spec("first", "", "")) }

func BenchmarkDecisionsPythonRandom(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("no python3")
	}
	benchmarkDecisions(b, "exec:python3 ../../../testdata/protocol/random_player.py")
}

// BenchmarkDecisionMessage is the harness's share of a decision: building
// the view and the options and encoding the message.
func BenchmarkDecisionMessage(b *testing.B) {
	games := positions(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g := games[i%len(games)]
		i++
		msg := Decision{Type: "decision", N: 1, Decision: g.Pending.String(), View: NewView(g), Options: Options(g, g.Legal(nil))}
		if _, err := json.Marshal(msg); err != nil {
			b.Fatal(err)
		}
	}
}
