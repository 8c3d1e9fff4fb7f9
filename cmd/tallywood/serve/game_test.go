package serve

import (
	"math/rand/v2"
	"testing"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
)

// TestWholeGame plays a game over HTTP to its end: every decision is in
// the store, and the store's game replays (play.Resume) to the same
// finished game and result as a terminal session given the same
// decisions.
func TestWholeGame(t *testing.T) {
	ts := newTestServer(t)
	token := ts.invite("ana")
	id := ts.start(token, 0)
	chosen := ts.playOut(token, id, ts.state(token, id), rand.New(rand.NewPCG(1, 2)))

	ds, err := ts.store.Decisions(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != len(chosen) {
		t.Fatalf("store holds %d decisions, %d were made", len(ds), len(chosen))
	}
	for i, d := range ds {
		if d.Option != chosen[i] {
			t.Fatalf("decision %d stored as %s, made as %s", i, d.Option, chosen[i])
		}
	}
	row, _, err := ts.store.Game(id)
	if err != nil || !row.Finished {
		t.Fatalf("game row %+v, %v: want finished", row, err)
	}
	// The same decisions at the terminal's session.
	plan, _ := ts.srv.games.plan(1)
	cfg := plan.config("ana")
	if cfg.Politician, err = plan.politicianIndex(); err != nil {
		t.Fatal(err)
	}
	s, err := play.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range chosen {
		o, _ := engine.ParseOptionID(id)
		if err := s.Choose(o); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Game().Over() || s.Game().Result.Margin() != row.Margin {
		t.Fatalf("replayed: over %v, margin %d; the store says margin %d", s.Game().Over(), s.Game().Result.Margin(), row.Margin)
	}
	t.Logf("%d decisions, margin %d", len(chosen), row.Margin)
}
