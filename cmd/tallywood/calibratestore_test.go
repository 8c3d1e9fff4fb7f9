package main

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/cmd/tallywood/serve"
	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
)

// TestCalibrateStore: calibrate --store reads a playtest store's games
// (here two testers' finished games, written through the store as serve
// writes them) as it reads save files; a store whose games are under
// other rules is refused naming them.
func TestCalibrateStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playtests.db")
	st, err := serve.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.Reference()
	plan, err := st.AddPlan(serve.Plan{Name: "p", RulesName: engine.ReferenceName, Rules: r.Canonical(), RulesHash: r.Hash,
		Mode: "normal", Seed: 1, Deals: 2, Politician: "moderate"})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, name := range []string{"ana", "bo"} {
		tr, err := st.AddTester(plan, name, strings.Repeat(string(rune('a'+i)), 43))
		if err != nil {
			t.Fatal(err)
		}
		g, err := st.StartGame(tr.ID, 0, "moderate")
		if err != nil {
			t.Fatal(err)
		}
		s, err := play.New(play.Config{Rules: r, Seed: 1, Opposition: opposition.Solo{}, Politician: r.PoliticianIndex("moderate")})
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; !s.Game().Over(); n++ {
			legal := s.Legal(nil)
			o := legal[rng.IntN(len(legal))]
			if err := s.Choose(o); err != nil {
				t.Fatal(err)
			}
			over := s.Game().Over()
			if err := st.AddDecision(g.ID, serve.Decision{N: n, Option: engine.OptionID(o), At: time.Now(), ThinkMS: 1000}, over, s.Game().Result.Margin()); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Close()
	code, out, errs := runCLI(t, "calibrate", "--store", path, "--games", "20", "--search-games", "2", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	res, err := sim.DecodeAs[*sim.CalibrateResult]([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Testers) != 2 || res.Testers[0].Name != "ana" || res.Testers[1].Name != "bo" {
		t.Fatalf("testers %+v, want ana and bo", res.Testers)
	}
	other := filepath.Join("..", "..", "testdata", "rules", "switch-turns-clockwise.json")
	code, _, errs = runCLI(t, "calibrate", "--store", path, "--rules", other, "--games", "20", "--quiet")
	if code == exitOK || !strings.Contains(errs, "no game under rules") || !strings.Contains(errs, "2 games under rules reference") {
		t.Fatalf("other rules: exit %d: %s", code, errs)
	}
}
