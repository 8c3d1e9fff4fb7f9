package sim

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
)

func init() {
	example(KindSeats, func(t testing.TB, shard Shard) Study {
		return runSeats(t, seatsConfig(t, 6, 1, shard, "random", "random"))
	})
	example(KindSeatsCompare, func(t testing.TB, shard Shard) Study {
		res, err := CompareSeats(context.Background(), seatsConfig(t, 6, 1, shard, "random", "random"),
			SeatsArm{"a", engine.Reference()}, SeatsArm{"b", engine.Reference()})
		if err != nil {
			t.Fatal(err)
		}
		return res
	})
}

func seatsConfig(t testing.TB, deals int64, workers int, shard Shard, lineup ...string) SeatsConfig {
	specs := make([]policy.Spec, len(lineup))
	for i, s := range lineup {
		specs[i] = mustSpec(t, s)
	}
	return SeatsConfig{RunConfig: RunConfig{Seed: 5, Workers: workers, Shard: shard}, Rules: engine.Reference(), Deals: deals, Lineup: specs}
}

func runSeats(t testing.TB, cfg SeatsConfig) *SeatsResult {
	t.Helper()
	r, err := RunSeats(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func untimedSeats(r *SeatsResult) []byte {
	c := *r
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	return Encode(&c)
}

// TestRunSeatsDeterministic: a study is the same for any number of workers,
// and its shards merged are the whole study.
func TestRunSeatsDeterministic(t *testing.T) {
	lineup := []string{"random", "random", "random"}
	want := untimedSeats(runSeats(t, seatsConfig(t, 150, 1, Shard{}, lineup...)))
	for _, w := range []int{2, 3} {
		if got := untimedSeats(runSeats(t, seatsConfig(t, 150, w, Shard{}, lineup...))); !bytes.Equal(got, want) {
			t.Errorf("workers %d: result differs from workers 1", w)
		}
	}
	var parts []*SeatsResult
	var names []string
	for k := 1; k <= 3; k++ {
		parts = append(parts, runSeats(t, seatsConfig(t, 150, 2, Shard{K: k, N: 3}, lineup...)))
		names = append(names, "part"+string(rune('0'+k)))
	}
	m, err := mergeAs(parts, names, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimedSeats(m); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole study:\n%s\nwant\n%s", got, want)
	}
}

// TestRunSeatsRows: every game counts once per seat, the scores of a game
// add up to one victory, and a lineup's duplicates share a row (it plays
// every seat of every game).
func TestRunSeatsRows(t *testing.T) {
	for players := 2; players <= engine.MaxSeats; players++ {
		lineup := []string{"random", "random", "random", "random"}[:players]
		r := runSeats(t, seatsConfig(t, 60, 2, Shard{}, lineup...))
		games := int64(60 * players)
		if r.Counts.Games != games || r.Counts.Deals != 60 {
			t.Fatalf("%d players: %d games, want %d", players, r.Counts.Games, games)
		}
		if err := r.check(func(n int64) int64 { return n }); err != nil {
			t.Fatal(err)
		}
		var score, initScore int64
		for _, c := range r.Counts.Policies {
			score += c.Score12
		}
		for _, c := range r.Counts.Initiative {
			initScore += c.Score12
		}
		if score != 12*games || initScore != 12*games {
			t.Errorf("%d players: scores %d and %d twelfths, want one victory a game (%d)", players, score, initScore, 12*games)
		}
		if len(r.Policies) != 1 || r.Counts.Policies[0].Games != games*int64(players) {
			t.Errorf("%d players: %d policy rows for lineup %v", players, len(r.Policies), lineup)
		}
		fair := 1 / float64(players)
		if lo, hi := r.FirstSeatAdvantageCI95[0], r.FirstSeatAdvantageCI95[1]; lo > r.FirstSeatAdvantage || hi < r.FirstSeatAdvantage || r.FirstSeatAdvantage != r.Initiative[0].MeanScore-fair {
			t.Errorf("%d players: first-seat advantage %v not within %v", players, r.FirstSeatAdvantage, r.FirstSeatAdvantageCI95)
		}
	}
}

// TestMergeSeatsRefuses: shards of other studies and impossible counts
// are named.
func TestMergeSeatsRefuses(t *testing.T) {
	a := runSeats(t, seatsConfig(t, 20, 1, Shard{K: 1, N: 2}, "random", "random"))
	b := runSeats(t, seatsConfig(t, 20, 1, Shard{K: 2, N: 2}, "random", "random"))
	other := runSeats(t, seatsConfig(t, 20, 1, Shard{K: 2, N: 2}, "random", "random", "random"))
	bad := *b
	bad.Counts.Policies = append([]RowCounts(nil), b.Counts.Policies...)
	bad.Counts.Policies[0].Wins = bad.Counts.Policies[0].Games + 1
	cases := []struct {
		rs   []*SeatsResult
		want string
	}{
		{[]*SeatsResult{a, a}, "b: shard 1/2 is already in a"},
		{[]*SeatsResult{a, other}, "b: lineup random,random,random differs from random,random in a"},
		{[]*SeatsResult{a, &bad}, "b: policy random: wins"},
	}
	for _, c := range cases {
		_, err := mergeAs(c.rs, []string{"a", "b"}, MergeOptions{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// TestRunSeatsPolicies: every built-in policy plays a seat of a table, and
// the rows tell them apart: greedy outscores the random player.
func TestRunSeatsPolicies(t *testing.T) {
	r := runSeats(t, seatsConfig(t, 40, 2, Shard{}, "greedy", "random", "pollster", "mcts:iters=8"))
	if len(r.Policies) != 4 {
		t.Fatalf("%d policy rows, want 4", len(r.Policies))
	}
	greedy, random := r.Policies[0], r.Policies[1]
	if greedy.Name != "greedy" || random.Name != "random" || greedy.MeanScoreCI95[0] <= random.MeanScoreCI95[1] {
		t.Errorf("greedy %+v does not clearly outscore random %+v", greedy, random)
	}
}

// TestCompareSeats: a comparison of two rule sets at a table plays the
// same deals as the two studies (its arms' rows are theirs), its
// differences are B − A paired by deal, identical arms differ by exactly
// nothing, and the result does not depend on the workers.
func TestCompareSeats(t *testing.T) {
	ref := engine.Reference()
	other, err := ref.With(engine.Assignment{Path: "track.max", Value: "14"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := seatsConfig(t, 40, 1, Shard{}, "greedy", "random", "random")
	res, err := CompareSeats(context.Background(), cfg, SeatsArm{"reference", ref}, SeatsArm{"track14", other})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Rules = ref
	a := runSeats(t, cfg)
	cfg.Rules = other
	b := runSeats(t, cfg)
	for i, row := range res.Policies {
		if row.A != a.Policies[i] || row.B != b.Policies[i] {
			t.Errorf("policy %s: the arms' rows differ from the studies':\n%+v\n%+v", row.Name, row, a.Policies[i])
		}
		if d := row.B.MeanScore - row.A.MeanScore; math.Abs(d-row.MeanScoreDiff) > 1e-12 {
			t.Errorf("policy %s: score difference %v, want %v", row.Name, row.MeanScoreDiff, d)
		}
	}
	if res.FirstSeatAdvantage[0] != a.FirstSeatAdvantage || res.FirstSeatAdvantage[1] != b.FirstSeatAdvantage {
		t.Errorf("first-seat advantages %v, want %v and %v", res.FirstSeatAdvantage, a.FirstSeatAdvantage, b.FirstSeatAdvantage)
	}
	cfg.Workers = 2
	again, err := CompareSeats(context.Background(), cfg, SeatsArm{"reference", ref}, SeatsArm{"track14", other})
	if err != nil {
		t.Fatal(err)
	}
	res.ElapsedSeconds, again.ElapsedSeconds = 0, 0
	res.GamesPerSecond, again.GamesPerSecond = 0, 0
	if !bytes.Equal(Encode(res), Encode(again)) {
		t.Error("the comparison depends on the workers")
	}
	same, err := CompareSeats(context.Background(), cfg, SeatsArm{"a", ref}, SeatsArm{"b", ref})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range append(same.Policies, same.Initiative...) {
		if row.MeanScoreDiff != 0 || row.MeanScoreDiffCI95 != [2]float64{} || row.MeanScoreDiffPValue != 1 {
			t.Errorf("identical arms: %s differs: %+v", row.Name, row)
		}
	}
}

// TestSeatsRefuseAnOpposition: a study at a table has no Opposition, so
// a RunConfig that sets one is refused rather than silently not played.
func TestSeatsRefuseAnOpposition(t *testing.T) {
	cfg := seatsConfig(t, 2, 1, Shard{}, "greedy", "random")
	cfg.Opposition = opposition.Solo{}
	if _, err := RunSeats(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "no Opposition") {
		t.Errorf("RunSeats with an Opposition: %v", err)
	}
	cfg.Rules = nil
	if _, err := CompareSeats(context.Background(), cfg, SeatsArm{"a", engine.Reference()}, SeatsArm{"b", engine.Reference()}); err == nil || !strings.Contains(err.Error(), "no Opposition") {
		t.Errorf("CompareSeats with an Opposition: %v", err)
	}
}
