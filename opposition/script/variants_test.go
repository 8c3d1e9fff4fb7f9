package script

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// TestVariants plays the worked variants of docs/automaton.md
// (testdata/automata) and checks that each differs from the reference in
// the way its docs say, and only a few lines away from it.
func TestVariants(t *testing.T) {
	ref := scriptRules(t, Reference())
	for _, tt := range []struct {
		name string
		// check looks at the variant's game and the reference's on one
		// seed and mode; it reports whether the variant showed its change.
		check func(t *testing.T, mode engine.Mode, v, r traced) bool
	}{
		{"fallback-votes", func(t *testing.T, mode engine.Mode, v, r traced) bool {
			// Unable in both: votes at the Final Tally, never the fallback's
			// Money and Popularity.
			for _, e := range v.events {
				if e.Kind == engine.EvTracker && e.Rule == "I-10" {
					t.Errorf("a fallback gain: %s", v.text(e))
				}
			}
			return v.g.Result.Votes[1] > 0 && v.g.Seats[1].Votes == int16(v.g.Seats[1].FallbackBoth)
		}},
		{"hard-keeps-worse", func(t *testing.T, mode engine.Mode, v, r traced) bool {
			if mode == engine.Normal {
				if v.narration != r.narration {
					t.Error("on Normal it plays otherwise than the reference")
				}
				return false
			}
			return v.count(engine.EvSoloReveal) > 0 && v.count(engine.EvSoloBottom) > 0
		}},
		{"trailing-only", func(t *testing.T, mode engine.Mode, v, r traced) bool {
			return v.narration != r.narration
		}},
		{"escalation", func(t *testing.T, mode engine.Mode, v, r traced) bool {
			extra := 0
			for _, e := range v.events {
				if e.Kind == engine.EvNote && strings.HasPrefix(e.Note, "extra action ") {
					if e.Round < 2 {
						t.Errorf("an extra action in round %d", e.Round+1)
					}
					extra++
				}
			}
			return extra > 0
		}},
		{"campaign-first", func(t *testing.T, mode engine.Mode, v, r traced) bool {
			for _, e := range v.events {
				if e.Kind == engine.EvNote && e.Rule == "variant e" {
					return true
				}
			}
			return false
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "automata", tt.name+".star"))
			if err != nil {
				t.Fatal(err)
			}
			// A few lines away: the variant's body against the reference's,
			// its own header aside.
			body := string(src)[strings.Index(string(src), "# ------"):]
			refBody := Reference()[strings.Index(Reference(), "# ------"):]
			if n := len(lineDiffCount(refBody, body)); n > 30 {
				t.Errorf("%d lines differ from the reference", n)
			}
			// Its rules file names it.
			rules, err := engine.LoadFile(filepath.Join("..", "..", "testdata", "automata", tt.name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if rules.Automaton == nil || rules.Automaton.Source != string(src) {
				t.Fatal("its rules file does not name it")
			}
			opp := oppositionFor(t, rules)
			shown := 0
			for seed := range uint64(40) {
				mode := engine.Mode(seed % 2)
				v := traceGame(t, rules, opp, seed, mode)
				r := traceGame(t, ref, oppositionFor(t, ref), seed, mode)
				if tt.check(t, mode, v, r) {
					shown++
				}
			}
			if shown == 0 {
				t.Error("no game shows the variant's change")
			}
		})
	}
}

// traced is a game played to its end with its events.
type traced struct {
	g         *engine.Game
	events    []engine.Event
	narration string
}

func (tr traced) text(e engine.Event) string { return tr.g.Rules().Text(e) }

func (tr traced) count(k engine.EventKind) int {
	n := 0
	for _, e := range tr.events {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func traceGame(t *testing.T, r *engine.Rules, opp engine.Opposition, seed uint64, mode engine.Mode) traced {
	t.Helper()
	log := &engine.Log{}
	g, err := engine.New(r, seed, engine.Config{Mode: mode, Opposition: opp, Recorder: log})
	if err != nil {
		t.Fatal(err)
	}
	// Every step of a variant goes through the engine, which keeps its
	// invariants: checked after every decision.
	p := engine.NewRandomPlayer(seed)
	for !g.Over() {
		if err := g.Check(); err != nil {
			t.Fatalf("seed %d, %s: %v", seed, mode, err)
		}
		if err := g.Apply(p.Choose(g)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Check(); err != nil {
		t.Fatalf("seed %d, %s, at the end: %v", seed, mode, err)
	}
	return traced{g, log.Events, r.Narrate(log.Events)}
}

// lineDiffCount lists the lines of b not in a and of a not in b, as a
// multiset: enough to say how far apart two scripts are.
func lineDiffCount(a, b string) []string {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	var out []string
	for l, n := range count {
		for range max(n, -n) {
			out = append(out, l)
		}
	}
	return out
}
