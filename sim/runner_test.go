package sim

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"testing"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

func init() {
	example(KindSim, func(t testing.TB, shard Shard) Study { return run(t, testConfig(t, 6, 1, shard)) })
}

func mustSpec(t testing.TB, s string) policy.Spec {
	t.Helper()
	spec, err := policy.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func testConfig(t testing.TB, games int64, workers int, shard Shard) Config {
	random := mustSpec(t, "random")
	return Config{
		RunConfig: RunConfig{Seed: 7, Workers: workers, Shard: shard}, Rules: engine.Reference(), Games: games, Cells: []CellSpec{
			{Mode: engine.Normal, Policy: random, Politician: RandomPoliticianIndex},
			{Mode: engine.Hard, Policy: random, Politician: 2},
		},
	}
}

// untimed returns the result's JSON with the timing fields zeroed.
func untimed(r *Result) []byte {
	c := *r
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	c.Cells = slices.Clone(r.Cells)
	for i := range c.Cells {
		c.Cells[i].GamesPerSecond, c.Cells[i].ElapsedSeconds = 0, 0
	}
	return Encode(&c)
}

func run(t testing.TB, cfg Config) *Result {
	t.Helper()
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunDeterministicAcrossWorkers(t *testing.T) {
	want := untimed(run(t, testConfig(t, 700, 1, Shard{})))
	for _, w := range []int{2, 4} {
		got := untimed(run(t, testConfig(t, 700, w, Shard{})))
		if !bytes.Equal(got, want) {
			t.Errorf("workers %d: result differs from workers 1:\n%s\nwant\n%s", w, got, want)
		}
	}
}

func TestRunCounts(t *testing.T) {
	r := run(t, testConfig(t, 300, 2, Shard{}))
	for _, c := range r.Cells {
		if c.Games != 300 || c.Wins+c.Draws+c.Losses != 300 {
			t.Errorf("%s: games %d, W/D/L %d/%d/%d, want 300 games", c.Mode, c.Games, c.Wins, c.Draws, c.Losses)
		}
		if c.MarginQuantiles.P5 > c.MarginQuantiles.P50 || c.MarginQuantiles.P50 > c.MarginQuantiles.P95 {
			t.Errorf("%s: quantiles out of order: %+v", c.Mode, c.MarginQuantiles)
		}
		if c.MeanMargin < c.MarginCI95[0] || c.MeanMargin > c.MarginCI95[1] {
			t.Errorf("%s: mean margin %g outside its interval %v", c.Mode, c.MeanMargin, c.MarginCI95)
		}
		if diff := c.MeanPlayerVotes - c.MeanOppositionVotes - c.MeanMargin; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: mean votes %g − %g ≠ mean margin %g", c.Mode, c.MeanPlayerVotes, c.MeanOppositionVotes, c.MeanMargin)
		}
	}
	if r.Cells[1].Politician != "moderate" || r.Cells[0].Politician != "random" {
		t.Errorf("politicians %q, %q", r.Cells[0].Politician, r.Cells[1].Politician)
	}
}

func TestShardsMergeToWholeRun(t *testing.T) {
	const games = 501 // not a multiple of the shard count
	want := untimed(run(t, testConfig(t, games, 2, Shard{})))
	for _, n := range []int{2, 4} {
		var parts []*Result
		var names []string
		for k := n; k >= 1; k-- { // any order
			r := run(t, testConfig(t, games, 1, Shard{K: k, N: n}))
			// Through JSON, as `tallywood merge` reads them.
			back, err := DecodeAs[*Result](Encode(r))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, back)
			names = append(names, Shard{K: k, N: n}.String())
		}
		merged, err := mergeAs(parts, names, MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := untimed(merged); !bytes.Equal(got, want) {
			t.Errorf("%d shards merged differ from the whole run:\n%s\nwant\n%s", n, got, want)
		}
	}
}

func TestMergeRefusesOtherRuns(t *testing.T) {
	base := run(t, testConfig(t, 40, 1, Shard{K: 1, N: 2}))
	other := func(f func(*Config)) *Result {
		cfg := testConfig(t, 40, 1, Shard{K: 2, N: 2})
		f(&cfg)
		return run(t, cfg)
	}
	tests := []struct {
		name string
		r    *Result
		want string
	}{
		{"seed", other(func(c *Config) { c.Seed = 8 }), "b: seed 8 differs from 7 in a: shards of different runs"},
		{"games", other(func(c *Config) { c.Games = 41 }), "b: games_per_cell 41 differs from 40 in a: shards of different runs"},
		{"cells", other(func(c *Config) { c.Cells = c.Cells[:1] }), "b: cells [normal/random/random] differs from [normal/random/random hard/random/moderate] in a: shards of different runs"},
		{"shard count", other(func(c *Config) { c.Shard = Shard{K: 2, N: 3} }), "b: shard count 3 differs from 2 in a: shards of different runs"},
		{"same shard", other(func(c *Config) { c.Shard = Shard{K: 1, N: 2} }), "b: shard 1/2 is already in a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mergeAs([]*Result{base, tt.r}, []string{"a", "b"}, MergeOptions{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestMergePartialShards(t *testing.T) {
	a := run(t, testConfig(t, 40, 1, Shard{K: 1, N: 3}))
	b := run(t, testConfig(t, 40, 1, Shard{K: 3, N: 3}))
	m, err := mergeAs([]*Result{b, a}, []string{"b", "a"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Shard != "1+3/3" {
		t.Errorf("shard %q, want 1+3/3", m.Shard)
	}
	if want := (Shard{1, 3}).Len(40) + (Shard{3, 3}).Len(40); m.Cells[0].Games != want {
		t.Errorf("games %d, want %d", m.Cells[0].Games, want)
	}
}

func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Run(ctx, testConfig(t, 100000, 2, Shard{}))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Interrupted {
		t.Error("not marked interrupted")
	}
	for _, c := range r.Cells {
		if c.Games >= 100000 {
			t.Errorf("%s: played all %d games", c.Mode, c.Games)
		}
	}
}

// TestPlayNoAllocs guards the hot path: a game with the random policy
// allocates nothing.
func TestPlayNoAllocs(t *testing.T) {
	p := newPlayer((&Config{}).opposition())
	spec := mustSpec(t, "random")
	r := engine.Reference()
	i := uint64(0)
	allocs := testing.AllocsPerRun(50, func() {
		if err := p.play(r, deal.GameSeed(1, i), engine.Hard, spec, RandomPoliticianIndex); err != nil {
			t.Fatal(err)
		}
		var c Counts
		c.Add(&p.g)
		i++
	})
	if allocs != 0 {
		t.Errorf("%g allocations per game, want 0", allocs)
	}
}

// TestWorkersCapped: no more workers start than there are items for
// them (RunConfig.workers, for every kind); and every worker started by a
// run gets games (--workers 2 must not leave one idle up to 64 games).
func TestWorkersCapped(t *testing.T) {
	for _, tt := range []struct {
		games   int64
		shard   Shard
		workers int
		want    int
	}{
		{1, Shard{}, 100000, 1},
		{2, Shard{}, 2, 2},
		{60, Shard{}, 2, 2},
		{chunkSize + 1, Shard{}, 3, 3},
		{10, Shard{K: 1, N: 5}, 100000, 2},
		{10 * chunkSize, Shard{}, 3, 3},
	} {
		cfg := RunConfig{Shard: tt.shard, Workers: tt.workers}
		got := cfg.workers(tt.shard.Len(tt.games))
		if got != tt.want {
			t.Errorf("%d games, shard %v, %d workers: %d start, want %d", tt.games, tt.shard, tt.workers, got, tt.want)
		}
		n := tt.shard.Len(tt.games)
		if size := chunkFor(n, got, chunkSize); (n+size-1)/size < int64(got) {
			t.Errorf("%d games on %d workers: chunks of %d leave a worker idle", n, got, size)
		}
	}
}

// TestWorkersAsked: a study with items enough starts the workers asked
// for; a cap applied without a count of items once left a table's study
// all on one worker, and a curve's largest stage is its largest point.
func TestWorkersAsked(t *testing.T) {
	if got := workerCount(5); got != 5 {
		t.Errorf("workerCount(5) = %d", got)
	}
	if got, want := workerCount(0), runtime.GOMAXPROCS(0); got != want {
		t.Errorf("workerCount(0) = %d, want GOMAXPROCS %d", got, want)
	}
	if got := (&SeatsConfig{RunConfig: RunConfig{Workers: 3}, Deals: 10}).tableWorkers(); got != 3 {
		t.Errorf("a table run of 10 deals with Workers 3 starts %d", got)
	}
	curve := CurveConfig{RunConfig: RunConfig{Workers: 5}, Skills: []float64{0.5, 1.5}, Games: 3, SearchGames: 40}
	if got := curve.workers(curve.items()); got != 5 {
		t.Errorf("a curve of 3 games a point and 40 above skill 1, with Workers 5, starts %d", got)
	}
}
