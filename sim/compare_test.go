package sim

import (
	"bytes"
	"context"
	"testing"

	"tallywood/engine"
)

// untimedCompare is r's JSON without its timing fields.
func untimedCompare(r *CompareResult) []byte {
	c := *r
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	c.Cells = append([]CompareCell(nil), r.Cells...)
	for i := range c.Cells {
		c.Cells[i].ElapsedSeconds = 0
	}
	return Encode(&c)
}

// normalVsHard compares Normal (A) with Hard (B) for greedy.
func normalVsHard(t testing.TB, games int64) CompareConfig {
	greedy := mustSpec(t, "greedy")
	return CompareConfig{
		A: CompareArm{Name: "normal", Rules: engine.Reference()},
		B: CompareArm{Name: "hard", Rules: engine.Reference()},
		Cells: []ComparePair{{
			A:     CellSpec{Mode: engine.Normal, Policy: greedy, Politician: RandomPoliticianIndex},
			B:     CellSpec{Mode: engine.Hard, Policy: greedy, Politician: RandomPoliticianIndex},
			Games: games,
		}},
		Seed: 3,
	}
}

// TestCompareDeterministicAndSequential: the result, and where the
// sequential test stops, do not depend on the number of workers.
func TestCompareDeterministicAndSequential(t *testing.T) {
	games := int64(400)
	if testing.Short() {
		games = 120 // the race detector runs these too
	}
	for _, test := range []*Sequential{nil, {Delta: 0.1, Alpha: 0.05, Beta: 0.05}} {
		var want []byte
		for _, w := range []int{1, 2, 3} {
			cfg := normalVsHard(t, games)
			cfg.Workers, cfg.Test = w, test
			if test != nil {
				// random never wins: all ties, "within" after 28 pairs.
				cfg.Cells[0].A.Policy, cfg.Cells[0].B.Policy = mustSpec(t, "random"), mustSpec(t, "random")
			}
			r, err := Compare(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := r.Cells[0]
			if test == nil && c.Games != games {
				t.Errorf("games %d, want %d", c.Games, games)
			}
			if test != nil && (c.Sequential == nil || c.Sequential.Decision != Within || c.Games != 28 || c.Sequential.Estimates != stoppedNote) {
				t.Errorf("sequential %+v after %d games: want a labelled 'within' after 28", c.Sequential, c.Games)
			}
			got := untimedCompare(r)
			if want == nil {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Errorf("workers %d differ from workers 1:\n%s\nwant\n%s", w, got, want)
			}
		}
	}
}

// TestCompareShardsMerge: the shards of a compare merged equal the
// unsharded run.
func TestCompareShardsMerge(t *testing.T) {
	cfg := normalVsHard(t, 301)
	if testing.Short() {
		cfg.Cells[0].Games = 101
	}
	whole, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var parts []*CompareResult
	var names []string
	for k := 1; k <= 3; k++ {
		c := cfg
		c.Shard = Shard{K: k, N: 3}
		c.Workers = 1
		r, err := Compare(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAs[*CompareResult](Encode(r))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
		names = append(names, c.Shard.String())
	}
	merged, err := mergeAs(parts, names, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := untimedCompare(merged), untimedCompare(whole); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole run:\n%s\nwant\n%s", got, want)
	}
	if _, err := mergeAs([]*CompareResult{parts[0], parts[0]}, []string{"x", "y"}, MergeOptions{}); err == nil || err.Error() != "y: shard 1/3 is already in x" {
		t.Errorf("merging a shard twice: %v", err)
	}
}

func TestCompareSameArmsHaveNoDifference(t *testing.T) {
	cfg := normalVsHard(t, 200)
	cfg.Cells[0].B = cfg.Cells[0].A
	r, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Common random numbers: identical arms play identical games.
	c := r.Cells[0]
	if c.ScoreDiff != 0 || c.MarginDiff != 0 || c.Verdict != VerdictNone || c.Pairs.MarginDiffSumSq != 0 {
		t.Errorf("identical arms differ: %+v", c)
	}
}

// TestCompareDetectsHardOnlyChange is issue 9's case: a change to Hard's
// bonus divisor shows in the Hard cell and not in the Normal one.
func TestCompareDetectsHardOnlyChange(t *testing.T) {
	mine, err := engine.Reference().With(engine.Assignment{Path: "difficulties.hard.bonus_divisor", Value: "3"})
	if err != nil {
		t.Fatal(err)
	}
	greedy := mustSpec(t, "greedy")
	var cells []ComparePair
	for _, m := range []engine.Mode{engine.Normal, engine.Hard} {
		s := CellSpec{Mode: m, Policy: greedy, Politician: RandomPoliticianIndex}
		// Normal plays identical games in both arms, so a few suffice.
		games := int64(300)
		if m == engine.Hard {
			games = 2000
			if testing.Short() {
				games = 1000
			}
		}
		cells = append(cells, ComparePair{A: s, B: s, Games: games})
	}
	r, err := Compare(context.Background(), CompareConfig{
		A: CompareArm{Name: "reference", Rules: engine.Reference()}, B: CompareArm{Name: "mine", Rules: mine},
		Cells: cells, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Cells[0].Verdict; got != VerdictNone || r.Cells[0].Pairs.MarginDiffSumSq != 0 {
		t.Errorf("Normal: %s with margin sum of squares %d, want no difference at all", got, r.Cells[0].Pairs.MarginDiffSumSq)
	}
	if got := r.Cells[1].Verdict; got != VerdictEasier {
		t.Errorf("Hard: %s (score %+.4f [%+.4f, %+.4f]), want easier", got, r.Cells[1].ScoreDiff, r.Cells[1].ScoreDiffCI95[0], r.Cells[1].ScoreDiffCI95[1])
	}
	if len(r.B.Overrides) != 1 || r.B.Overrides[0] != "difficulties.hard.bonus_divisor=3" || r.CellsTested != 2 {
		t.Errorf("arm B %+v, %d cells tested", r.B, r.CellsTested)
	}
}
