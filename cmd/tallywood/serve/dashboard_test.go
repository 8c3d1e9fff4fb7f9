package serve

import (
	"archive/zip"
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
)

// TestDashboard: after a finished game the dashboard shows the tester,
// the game and its result, calibrate's fit with its cost, and the three
// exports read back with the readers of their formats.
func TestDashboard(t *testing.T) {
	ts := newTestServer(t)
	levels, err := policy.ParseList("novice,skilled")
	if err != nil {
		t.Fatal(err)
	}
	ts.srv.cfg.Fit.Games, ts.srv.cfg.Fit.SearchGames, ts.srv.cfg.Fit.Skills, ts.srv.cfg.Fit.Levels = 10, 1, []float64{0, 1, 2}, levels
	token := ts.invite("ana")
	id := ts.start(token, 0)
	made := ts.playOut(token, id, ts.state(token, id), rand.New(rand.NewPCG(8, 9)))
	deadline := time.Now().Add(2 * time.Minute)
	for {
		fits, running := ts.srv.fit.status()
		if len(fits) == 1 && !running {
			if fits[0].Err != "" {
				t.Fatalf("the fit failed: %s", fits[0].Err)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no fit within two minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	page := string(ts.page("/d/" + ts.srv.designer))
	for _, want := range []string{"ana", "finished", "/t/" + token, "1 recorded games", "games of the curve played", "FROM DECISIONS", "ON DIAL"} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard does not show %q", want)
		}
	}
	d := "/d/" + ts.srv.designer + "/export/"
	games, err := playtest.ParseDecisions("decisions.jsonl", ts.page(d+"decisions.jsonl"))
	if err != nil || len(games) != 1 || len(games[0].Decisions) != len(made) || games[0].Margin == nil {
		t.Fatalf("decisions: %d games, %v", len(games), err)
	}
	outs, err := playtest.ParseOutcomes("outcomes.csv", ts.page(d+"outcomes.csv"))
	if err != nil || len(outs) != 1 || outs[0].Tester != "ana" || outs[0].Margin != *games[0].Margin {
		t.Fatalf("outcomes: %+v, %v", outs, err)
	}
	zipped := ts.page(d + "saves.zip")
	zr, err := zip.NewReader(bytes.NewReader(zipped), int64(len(zipped)))
	if err != nil || len(zr.File) != 1 {
		t.Fatalf("saves.zip: %v", err)
	}
	f, _ := zr.File[0].Open()
	var b bytes.Buffer
	b.ReadFrom(f)
	rec, err := play.ParseRecord(b.Bytes())
	if err != nil || len(rec.Decisions) != len(made) || rec.Tester != "ana" {
		t.Fatalf("the save file: %v", err)
	}
}
