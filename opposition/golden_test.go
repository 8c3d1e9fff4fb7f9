package opposition_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/golden (read the diff before accepting it)")

// goldenSeed is the seed of the golden games.
const goldenSeed = 20261129

// TestGolden plays one complete seeded game per difficulty with the random
// player and compares its narration byte for byte with
// testdata/golden/opposition-<mode>.txt. Regenerate only with -update.
func TestGolden(t *testing.T) {
	for _, mode := range []engine.Mode{engine.Normal, engine.Hard} {
		t.Run(mode.String(), func(t *testing.T) {
			log := &engine.Log{}
			g, err := engine.New(engine.Reference(), goldenSeed, engine.Config{Mode: mode, Opposition: opposition.Solo{}, Recorder: log})
			if err != nil {
				t.Fatal(err)
			}
			if err := engine.NewRandomPlayer(goldenSeed).Play(g); err != nil {
				t.Fatal(err)
			}
			got := []byte(g.Rules().Narrate(log.Events))
			path := filepath.Join("..", "testdata", "golden", "opposition-"+mode.String()+".txt")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./opposition -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[i], wl[i]) {
						t.Fatalf("%s differs from line %d:\n got: %s\nwant: %s\n(regenerate with -update only after reading the whole diff)", path, i+1, gl[i], wl[i])
					}
				}
				t.Fatalf("%s: got %d lines, want %d", path, len(gl), len(wl))
			}
		})
	}
}

// TestNoAllocs checks that the Opposition's notes cost
// nothing without a recorder: a whole game allocates nothing.
func TestNoAllocs(t *testing.T) {
	g := new(engine.Game)
	p := engine.NewRandomPlayer(0)
	seed := uint64(0)
	allocs := testing.AllocsPerRun(50, func() {
		seed++
		if err := g.Reset(engine.Reference(), seed, engine.Config{Mode: engine.Mode(seed % 2), Opposition: opposition.Solo{}}); err != nil {
			t.Fatal(err)
		}
		p.Reset(seed)
		if err := p.Play(g); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("a game allocates %.1f times, want 0", allocs)
	}
}

// BenchmarkGame plays complete games of the random player against the
// Opposition, alternating Normal and Hard.
func BenchmarkGame(b *testing.B) {
	g := new(engine.Game)
	p := engine.NewRandomPlayer(0)
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		if err := g.Reset(engine.Reference(), seed, engine.Config{Mode: engine.Mode(seed % 2), Opposition: opposition.Solo{}}); err != nil {
			b.Fatal(err)
		}
		p.Reset(seed)
		if err := p.Play(g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGameRecorded is BenchmarkGame with every event recorded and
// narrated notes built: the cost of a trace.
func BenchmarkGameRecorded(b *testing.B) {
	g := new(engine.Game)
	p := engine.NewRandomPlayer(0)
	log := &engine.Log{}
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		seed++
		log.Events = log.Events[:0]
		if err := g.Reset(engine.Reference(), seed, engine.Config{Mode: engine.Mode(seed % 2), Opposition: opposition.Solo{}, Recorder: log}); err != nil {
			b.Fatal(err)
		}
		p.Reset(seed)
		if err := p.Play(g); err != nil {
			b.Fatal(err)
		}
	}
}
