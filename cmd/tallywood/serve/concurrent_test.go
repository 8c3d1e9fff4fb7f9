package serve

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestTestersAtOnce: four testers play whole games at once, two on the
// same deal (the playtest that lost a game when two testers played one
// seed): every game is stored whole and apart, and the two on one deal
// played the same deal.
func TestTestersAtOnce(t *testing.T) {
	ts := newTestServer(t)
	names := []string{"ana", "bo", "cy", "di"}
	tokens := make([]string, len(names))
	for i, n := range names {
		tokens[i] = ts.invite(n)
	}
	made := make([][]string, len(names))
	ids := make([]int64, len(names))
	var wg sync.WaitGroup
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i] = ts.start(tokens[i], i%2)
			made[i] = ts.playOut(tokens[i], ids[i], ts.state(tokens[i], ids[i]), rand.New(rand.NewPCG(uint64(i), 9)))
		}()
	}
	wg.Wait()
	for i := range names {
		ds, err := ts.store.Decisions(ids[i])
		if err != nil || len(ds) != len(made[i]) {
			t.Fatalf("%s: %d decisions stored, %d made (%v)", names[i], len(ds), len(made[i]), err)
		}
		g, _, _ := ts.store.Game(ids[i])
		if !g.Finished || g.Deal != i%2 {
			t.Fatalf("%s: game %+v, want deal %d finished", names[i], g, i%2)
		}
	}
	if ids[0] == ids[2] {
		t.Fatal("two testers of one deal share a game")
	}
}
