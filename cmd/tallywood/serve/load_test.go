//go:build load

package serve

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

var (
	loadTesters  = flag.Int("load-testers", 50, "testers playing at once")
	loadDuration = flag.Duration("load-duration", 2*time.Minute, "how long they play")
)

// TestLoad: on loopback, 50 testers play scripted games at once for two
// minutes, each deciding after a pause of 0.2–0.8 s (a quick human), game
// after game. Every decision answered is in the store, once and in order;
// no request fails; the latency of a decision (request to answer,
// committed) is reported with its p50, p90, p99 and maximum, against the
// goal of a p99 at most 50 ms. `go test -tags load -run Load -v
// ./cmd/tallywood/serve` (.ci/run runs it).
func TestLoad(t *testing.T) {
	ts := newTestServer(t)
	if _, err := ts.store.db.Exec("UPDATE plans SET deals = 100"); err != nil {
		t.Fatal(err)
	}
	type tester struct {
		token     string
		made      map[int64][]string // decisions answered, by game
		latencies []time.Duration
		err       error
	}
	testers := make([]*tester, *loadTesters)
	for i := range testers {
		testers[i] = &tester{token: ts.invite(fmt.Sprintf("tester %02d", i)), made: map[int64][]string{}}
	}
	deadline := time.Now().Add(*loadDuration)
	var wg sync.WaitGroup
	for i, tr := range testers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					tr.err = fmt.Errorf("%v", r)
				}
			}()
			rng := rand.New(rand.NewPCG(uint64(i), 77))
			for deal := 0; time.Now().Before(deadline); deal++ {
				id := ts.start(tr.token, deal)
				a := ts.state(tr.token, id)
				for !a.Over && time.Now().Before(deadline) {
					time.Sleep(time.Duration(200+rng.IntN(600)) * time.Millisecond)
					opt := a.Options[rng.IntN(len(a.Options))]
					start := time.Now()
					code, next, body := ts.decide(tr.token, id, a.N, opt)
					if code != http.StatusOK {
						tr.err = fmt.Errorf("game %d decision %d: %d %s", id, a.N, code, body)
						return
					}
					tr.latencies = append(tr.latencies, time.Since(start))
					tr.made[id] = append(tr.made[id], opt)
					a = next
				}
			}
		}()
	}
	wg.Wait()
	var all []time.Duration
	games, finished := 0, 0
	for _, tr := range testers {
		if tr.err != nil {
			t.Fatal(tr.err)
		}
		all = append(all, tr.latencies...)
		for id, made := range tr.made {
			games++
			ds, err := ts.store.Decisions(id)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != len(made) {
				t.Fatalf("game %d: %d decisions answered, %d stored", id, len(made), len(ds))
			}
			for i, d := range ds {
				if d.Option != made[i] {
					t.Fatalf("game %d: decision %d stored as %s, made as %s", id, i, d.Option, made[i])
				}
			}
			if g, _, _ := ts.store.Game(id); g.Finished {
				finished++
			}
		}
	}
	slices.Sort(all)
	q := func(p float64) time.Duration { return all[min(len(all)-1, int(p*float64(len(all))))] }
	p99 := q(0.99)
	t.Logf("%d testers for %v: %d decisions (%.1f a second), %d games (%d finished), all in the store",
		len(testers), *loadDuration, len(all), float64(len(all))/loadDuration.Seconds(), games, finished)
	t.Logf("latency of a decision: p50 %v, p90 %v, p99 %v, max %v (goal: p99 at most 50ms)",
		q(0.5).Round(time.Microsecond), q(0.9).Round(time.Microsecond), p99.Round(time.Microsecond), all[len(all)-1].Round(time.Microsecond))
	if p99 > 50*time.Millisecond {
		t.Logf("p99 %v is above the 50 ms goal", p99)
	}
}
