package script

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// referenceRules is the reference set with the reference script as its
// automaton.
func referenceRules(t testing.TB) *engine.Rules {
	t.Helper()
	r, err := engine.Reference().WithAutomaton(ReferenceName, Reference())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// oppositionFor is For, failing the test on error.
func oppositionFor(t testing.TB, r *engine.Rules) engine.Opposition {
	t.Helper()
	o, err := For(r)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// goldenSeed is the seed of the golden games (opposition's golden test).
const goldenSeed = 20261129

// TestGoldenTwin plays the golden games of testdata/golden with the
// reference script and compares their narration, byte for byte, with the
// built-in Opposition's golden traces.
func TestGoldenTwin(t *testing.T) {
	r := referenceRules(t)
	opp := oppositionFor(t, r)
	for _, mode := range []engine.Mode{engine.Normal, engine.Hard} {
		t.Run(mode.String(), func(t *testing.T) {
			log := &engine.Log{}
			g, err := engine.New(r, goldenSeed, engine.Config{Mode: mode, Opposition: opp, Recorder: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.NewRandomPlayer(goldenSeed).Play(g); err != nil {
				t.Fatal(err)
			}
			got := []byte(g.Rules().Narrate(log.Events))
			want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "golden", "opposition-"+mode.String()+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[i], wl[i]) {
						t.Fatalf("line %d:\n got: %s\nwant: %s", i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("got %d lines, want %d", len(gl), len(wl))
			}
		})
	}
	_ = opposition.Solo{}
}
