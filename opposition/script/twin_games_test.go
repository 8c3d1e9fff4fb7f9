package script

import (
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// TestTwinGames plays many games of the random player against the
// built-in Opposition and against the reference script, with every
// variant switch that changes the Opposition's choices, and requires the
// same events, byte for byte, and the same result; the scripted games
// keep every invariant after every decision (engine.Game.Check).
func TestTwinGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	base := engine.Reference()
	variants := map[string]string{
		"reference":                        "",
		"opposition_respects_blocks off":   "variants.opposition_respects_blocks=false",
		"opposition_cleanup_after_round_4": "variants.opposition_cleanup_after_round_4=true",
		"opposition_plaza_popularity_too":  "variants.opposition_plaza_popularity_too=true",
	}
	for name, set := range variants {
		t.Run(name, func(t *testing.T) {
			r := base
			if set != "" {
				var err error
				a, err := engine.ParseAssignment(set)
				if err != nil {
					t.Fatal(err)
				}
				if r, err = base.With(a); err != nil {
					t.Fatal(err)
				}
			}
			scripted, err := r.WithAutomaton(ReferenceName, Reference())
			if err != nil {
				t.Fatal(err)
			}
			opp := oppositionFor(t, scripted)
			for i := range games {
				seed := uint64(1000 + i)
				mode := engine.Mode(i % 2)
				want := playRandom(t, r, seed, mode, opposition.Solo{}, false)
				got := playRandom(t, scripted, seed, mode, opp, true)
				if len(got.events) != len(want.events) {
					t.Fatalf("seed %d %s: %d events, built-in %d", seed, mode, len(got.events), len(want.events))
				}
				for j := range got.events {
					if got.events[j] != want.events[j] {
						t.Fatalf("seed %d %s, event %d:\n script: %s\nbuilt-in: %s", seed, mode, j,
							r.Text(got.events[j]), r.Text(want.events[j]))
					}
				}
				if got.result != want.result {
					t.Fatalf("seed %d %s: result %+v, built-in %+v", seed, mode, got.result, want.result)
				}
			}
		})
	}
}

type played struct {
	events []engine.Event
	result engine.Result
}

// playRandom plays one game of the random player, checking the invariants
// after every decision when check is set.
func playRandom(t *testing.T, r *engine.Rules, seed uint64, mode engine.Mode, opp engine.Opposition, check bool) played {
	t.Helper()
	log := &engine.Log{}
	g, err := engine.New(r, seed, engine.Config{Mode: mode, Opposition: opp, Recorder: log})
	if err != nil {
		t.Fatal(err)
	}
	p := engine.NewRandomPlayer(seed)
	for !g.Over() {
		if check {
			if err := g.Check(); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
		if err := g.Apply(p.Choose(g)); err != nil {
			t.Fatal(err)
		}
	}
	return played{log.Events, g.Result}
}
