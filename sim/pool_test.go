package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync/atomic"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// Every study kind counts failed games alike: the item
// that holds one (a game, a pair, a seed of a sweep, a deal) is left out
// whole and counted once in the errors, the study goes on, and past
// MaxErrors it stops like an interruption with ErrTooManyFailed.

// flakySpec is the spec of a flaky policy named name (only as flaky's).
func flakySpec(name string, only func(g *engine.Game) bool) policy.Spec {
	return policy.Spec{Name: name, Label: name, New: func() policy.Policy { return &flaky{only: only} }}
}

// firstSpec is the spec of firstOption, which never fails.
var firstSpec = policy.Spec{Name: "first", Label: "first", New: func() policy.Policy { return firstOption{} }}

// firstCounts plays with firstOption the solo games 0..games−1 of seed
// under r, leaving out those flaky fails (failing, their seeds): what a
// study of flaky counts for them.
func firstCounts(t *testing.T, r *engine.Rules, seed uint64, games int64, mode engine.Mode, politician int) (Counts, []uint64) {
	t.Helper()
	var c Counts
	var failing []uint64
	for i := range uint64(games) {
		s := deal.GameSeed(seed, i)
		if s%4 == 0 {
			failing = append(failing, s)
			continue
		}
		g, err := engine.New(r, s, engine.Config{Mode: mode, Politician: politician, Opposition: opposition.Solo{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := policy.Play(g, firstOption{}, nil); err != nil {
			t.Fatal(err)
		}
		c.Add(g)
	}
	return c, failing
}

// checkFailures checks that fs are the first failures of failing (seeds),
// each with the message format gives for its seed.
func checkFailures(t *testing.T, fs []Failure, failing []uint64, format string) {
	t.Helper()
	if len(fs) != min(len(failing), maxFailures) {
		t.Fatalf("%d failures listed, want %d", len(fs), min(len(failing), maxFailures))
	}
	for i, f := range fs {
		if want := fmt.Sprintf(format, failing[i]); f.Seed != failing[i] || f.Error != want {
			t.Errorf("failure %d: %+v, want seed %d, %q", i, f, failing[i], want)
		}
	}
}

// TestCompareCountsFailedPairs: a pair whose B game failed is left out of
// both arms and counted once in the cell's errors; the comparison goes on,
// the same for 1 and 4 workers, with or without a sequential test; past
// MaxErrors it stops at the failure after them in game order, so exactly
// there for any workers.
func TestCompareCountsFailedPairs(t *testing.T) {
	ref := engine.Reference()
	const games = 200
	config := func(workers int, maxErrors int64, test *Sequential) CompareConfig {
		return CompareConfig{
			RunConfig: RunConfig{Seed: 3, Workers: workers, MaxErrors: maxErrors},
			A:         CompareArm{Name: "a", Rules: ref}, B: CompareArm{Name: "b", Rules: ref},
			Cells: []ComparePair{{
				A:     CellSpec{Mode: engine.Normal, Policy: firstSpec, Politician: 1},
				B:     CellSpec{Mode: engine.Hard, Policy: flakySpec("flaky", nil), Politician: 1},
				Games: games,
			}},
			Test: test,
		}
	}
	wantA, failing := firstCounts(t, ref, 3, games, engine.Normal, 1)
	wantB, _ := firstCounts(t, ref, 3, games, engine.Hard, 1)
	for _, test := range []*Sequential{nil, {Delta: 0.1, Alpha: 0.05, Beta: 0.05}} {
		var want []byte
		for _, w := range []int{1, 4} {
			res, err := Compare(context.Background(), config(w, games, test))
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cells[0]
			if test == nil {
				if c.A.Counts != wantA || c.B.Counts != wantB || c.Errors != int64(len(failing)) || c.Games != games-c.Errors {
					t.Errorf("%d workers: %d pairs, %d errors; want the %d pairs that did not fail and %d errors", w, c.Games, c.Errors, games-len(failing), len(failing))
				}
				checkFailures(t, c.Failures, failing, "arm B: policy flaky: flaky: game seed %d, decision 3: gave up")
			}
			if got := untimedCompare(res); want == nil {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Errorf("sequential %v: 4 workers differ from 1:\n%s\nwant\n%s", test != nil, got, want)
			}
		}
	}

	for _, w := range []int{1, 4} {
		res, err := Compare(context.Background(), config(w, 3, nil))
		if !errors.Is(err, ErrTooManyFailed) || res == nil {
			t.Fatalf("%d workers: error %v, result %v; want ErrTooManyFailed with a result", w, err, res)
		}
		c := res.Cells[0]
		if want := c.Failures[3].Game - 3; !res.Interrupted || c.Errors != 4 || c.Games != want {
			t.Errorf("%d workers: interrupted %v, %d pairs, %d errors; want stopped at the fourth failure, after %d pairs", w, res.Interrupted, c.Games, c.Errors, want)
		}
		if want := "too many failed games: 4 failed, --max-errors 3"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
		back, err := DecodeAs[*CompareResult](Encode(res))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := mergeAs([]*CompareResult{back}, []string{"stopped"}, MergeOptions{}); err != nil {
			t.Errorf("a stopped comparison does not merge: %v", err)
		}
	}
}

// TestSweepCountsFailedSeeds: a seed whose game at a point failed is left
// out at the base and every point, which stay paired, and counted once in
// the cell's errors; the sweep goes on, the same for 1 and 4 workers, and
// stops past MaxErrors with a result that still merges.
func TestSweepCountsFailedSeeds(t *testing.T) {
	const games = 120
	cfg := sweepConfig(t, games)
	at3 := cfg.Points[2].Rules
	cfg.Cells = []CellSpec{{Mode: engine.Hard, Politician: 1,
		Policy: flakySpec("flaky", func(g *engine.Game) bool { return g.Rules().Hash == at3.Hash })}}
	wantBase, failing := firstCounts(t, cfg.Base, cfg.Seed, games, engine.Hard, 1)
	want1, _ := firstCounts(t, cfg.Points[0].Rules, cfg.Seed, games, engine.Hard, 1)
	want3, _ := firstCounts(t, at3, cfg.Seed, games, engine.Hard, 1)
	var want []byte
	for _, w := range []int{1, 4} {
		cfg.Workers, cfg.MaxErrors = w, games
		res, err := Sweep(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		c := res.Cells[0]
		if c.Base.Counts != wantBase || c.Points[0].Result.Counts != want1 || c.Points[1].Result.Counts != wantBase || c.Points[2].Result.Counts != want3 {
			t.Errorf("%d workers: the counts are not those of the seeds that did not fail", w)
		}
		if c.Errors != int64(len(failing)) || c.Points[2].Pairs.Games != games-c.Errors {
			t.Errorf("%d workers: %d errors, %d pairs at point 3; want %d and %d", w, c.Errors, c.Points[2].Pairs.Games, len(failing), games-len(failing))
		}
		checkFailures(t, c.Failures, failing, "point difficulties.hard.bonus_divisor=3: policy flaky: flaky: game seed %d, decision 3: gave up")
		if got := untimedSweep(res); want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("4 workers differ from 1:\n%s\nwant\n%s", got, want)
		}
	}

	cfg.MaxErrors = 3
	res, err := Sweep(context.Background(), cfg)
	if !errors.Is(err, ErrTooManyFailed) || res == nil {
		t.Fatalf("error %v, result %v; want ErrTooManyFailed with a result", err, res)
	}
	c := res.Cells[0]
	if !res.Interrupted || c.Errors < 4 || c.Base.Games+c.Errors >= games {
		t.Errorf("interrupted %v, %d seeds, %d errors: want a sweep stopped after the fourth failure", res.Interrupted, c.Base.Games, c.Errors)
	}
	mergeSweepAlone(t, res)
}

// mergeSweepAlone decodes r and merges it alone, as `merge` would.
func mergeSweepAlone(t *testing.T, r *SweepResult) *SweepResult {
	t.Helper()
	back, err := DecodeAs[*SweepResult](Encode(r))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mergeAs([]*SweepResult{back}, []string{"alone"}, MergeOptions{})
	if err != nil {
		t.Fatalf("the result does not merge: %v", err)
	}
	return m
}

// cancelAt plays the first option and, in the game number at it plays
// (from 1), cancels the study at the first decision and waits for its stop:
// that game is cut short.
type cancelAt struct {
	at, games int
	cancel    func()
	stop      *atomic.Bool
}

func (c *cancelAt) SetStop(stop *atomic.Bool) { c.stop = stop }
func (c *cancelAt) Reset(uint64)              { c.games++ }
func (c *cancelAt) Choose(_ *engine.Game, legal []engine.Option) engine.Option {
	if c.games == c.at && !c.stop.Load() {
		c.cancel()
		for !c.stop.Load() {
			runtime.Gosched()
		}
	}
	return legal[0]
}

// TestInterruptedSweepMerges: a sweep interrupted within a seed counts
// neither the seed's base game nor its points, so its result merges, alone
// and with another shard; it counted the base game and was refused as
// "point 2: games differ from the base's".
func TestInterruptedSweepMerges(t *testing.T) {
	cfg := sweepConfig(t, 20)
	cfg.Shard, cfg.Workers = Shard{K: 1, N: 2}, 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A seed plays the base and points 1 and 3 (point 2 is the base):
	// game 8 is the third seed's point 1.
	at := 8
	spec := policy.Spec{Name: "c", Label: "c", New: func() policy.Policy { return &cancelAt{at: at, cancel: cancel} }}
	cfg.Cells = []CellSpec{{Mode: engine.Hard, Politician: 1, Policy: spec}}
	res, err := Sweep(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Cells[0]
	if !res.Interrupted || c.Base.Games != 2 {
		t.Fatalf("interrupted %v after %d seeds; want an interrupt after 2", res.Interrupted, c.Base.Games)
	}
	for j, p := range c.Points {
		if p.Result.Games != 2 || p.Pairs.Games != 2 {
			t.Errorf("point %d: %d games, %d pairs; want the base's 2", j+1, p.Result.Games, p.Pairs.Games)
		}
	}
	mergeSweepAlone(t, res)

	cfg.Shard, at = Shard{K: 2, N: 2}, 0 // never cancels
	other, err := Sweep(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*SweepResult
	for _, r := range []*SweepResult{res, other} {
		back, err := DecodeAs[*SweepResult](Encode(r))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
	}
	m, err := mergeAs(parts, []string{"1/2", "2/2"}, MergeOptions{})
	if err != nil {
		t.Fatalf("an interrupted shard does not merge with another: %v", err)
	}
	if !m.Interrupted || m.Cells[0].Base.Games != 2+10 {
		t.Errorf("merged: interrupted %v, %d seeds; want true, 12", m.Interrupted, m.Cells[0].Base.Games)
	}
}

// tableCounts plays with SeatsPlayer of lineup the deals 0..deals−1 of
// cfg, leaving out those flaky fails (failing, their seeds), with cfg's
// layout: what a study of flaky counts for them.
func tableCounts(t *testing.T, cfg SeatsConfig, lineup []policy.Spec) (SeatsCounts, []uint64) {
	t.Helper()
	l := layoutOf(&cfg)
	total, one := l.newCounts(), l.newCounts()
	p := NewSeatsPlayer(lineup)
	defer p.Close()
	n := len(lineup)
	var failing []uint64
	for j := range uint64(cfg.Deals) {
		seed := deal.GameSeed(cfg.Seed, j)
		if seed%4 == 0 {
			failing = append(failing, seed)
			continue
		}
		one.reset()
		first := engine.TableInitiative(seed, n)
		for k := range n {
			if err := p.Play(cfg.Rules, seed, k, nil); err != nil {
				t.Fatal(err)
			}
			one.addGame(&p.Game, k, l.index, &first)
		}
		total.addDeal(&one)
	}
	return total, failing
}

// TestTableCountsFailedDeals: a deal one of whose games failed, here its
// last rotation's, is left out whole (every rotation, both arms of a
// comparison) and counted once in the errors; the study goes on, the same
// for 1 and 4 workers, and stops past MaxErrors with a result that decodes.
func TestTableCountsFailedDeals(t *testing.T) {
	const deals = 60
	random := mustSpec(t, "random")
	// Lineup entry 0 sits in seat 2 in rotation 2 only.
	lineup := []policy.Spec{flakySpec("flaky", func(g *engine.Game) bool { return g.Decision().Seat == 1 }), random, random}
	cfg := SeatsConfig{RunConfig: RunConfig{Seed: 5, MaxErrors: deals}, Rules: engine.Reference(), Deals: deals, Lineup: lineup}
	want, failing := tableCounts(t, cfg, []policy.Spec{firstSpec, random, random})
	var wantJSON []byte
	for _, w := range []int{1, 4} {
		cfg.Workers = w
		res := runSeats(t, cfg)
		if !reflect.DeepEqual(res.Counts, want) || res.Errors != int64(len(failing)) {
			t.Errorf("%d workers: %d deals, %d errors; want the %d deals that did not fail, %d errors", w, res.Counts.Deals, res.Errors, want.Deals, len(failing))
		}
		checkFailures(t, res.Failures, failing, "policy flaky in seat 2, rotation 2: flaky: game seed %d, decision 3: gave up")
		if got := untimedSeats(res); wantJSON == nil {
			wantJSON = got
		} else if !bytes.Equal(got, wantJSON) {
			t.Errorf("4 workers differ from 1:\n%s\nwant\n%s", got, wantJSON)
		}
		if _, err := DecodeAs[*SeatsResult](Encode(res)); err != nil {
			t.Error(err)
		}
	}

	cfg.MaxErrors = 3
	res, err := RunSeats(context.Background(), cfg)
	if !errors.Is(err, ErrTooManyFailed) || res == nil {
		t.Fatalf("error %v, result %v; want ErrTooManyFailed with a result", err, res)
	}
	if !res.Interrupted || res.Errors < 4 || res.Counts.Deals+res.Errors >= deals {
		t.Errorf("interrupted %v, %d deals, %d errors: want a study stopped after the fourth failure", res.Interrupted, res.Counts.Deals, res.Errors)
	}
	if _, err := mergeAs([]*SeatsResult{res}, []string{"stopped"}, MergeOptions{}); err != nil {
		t.Errorf("a stopped study does not merge: %v", err)
	}

	other, err := engine.Reference().With(engine.Assignment{Path: "track.max", Value: "14"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxErrors = deals
	cfg.Lineup[0] = flakySpec("flaky", func(g *engine.Game) bool { return g.Rules() == other })
	var cmpJSON []byte
	for _, w := range []int{1, 4} {
		cfg.Workers = w
		res, err := CompareSeats(context.Background(), cfg, SeatsArm{"reference", engine.Reference()}, SeatsArm{"track14", other})
		if err != nil {
			t.Fatal(err)
		}
		if res.Counts.A.Deals != deals-int64(len(failing)) || res.Errors != int64(len(failing)) {
			t.Errorf("compare, %d workers: %d deals, %d errors; want %d, %d", w, res.Counts.A.Deals, res.Errors, deals-len(failing), len(failing))
		}
		checkFailures(t, res.Failures, failing, "arm B: policy flaky in seat 1, rotation 0: flaky: game seed %d, decision 3: gave up")
		res.ElapsedSeconds, res.GamesPerSecond = 0, 0
		if got := Encode(res); cmpJSON == nil {
			cmpJSON = got
		} else if !bytes.Equal(got, cmpJSON) {
			t.Errorf("compare: 4 workers differ from 1")
		}
	}
	cfg.MaxErrors = 0
	if res, err := CompareSeats(context.Background(), cfg, SeatsArm{"reference", engine.Reference()}, SeatsArm{"track14", other}); !errors.Is(err, ErrTooManyFailed) || res == nil || !res.Interrupted {
		t.Errorf("compare with MaxErrors 0: error %v, result %v; want ErrTooManyFailed with an interrupted result", err, res)
	}
}
