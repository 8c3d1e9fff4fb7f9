package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"tallywood/engine"
)

func init() {
	example(KindCompare, func(t testing.TB, shard Shard) Study {
		cfg := normalVsHard(t, 6)
		cfg.Cells[0].A.Policy, cfg.Cells[0].B.Policy = mustSpec(t, "random"), mustSpec(t, "random")
		cfg.Shard = shard
		res, err := Compare(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	})
}

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
		RunConfig: RunConfig{Seed: 3}, A: CompareArm{Name: "normal", Rules: engine.Reference()},
		B: CompareArm{Name: "hard", Rules: engine.Reference()},
		Cells: []ComparePair{{
			A:     CellSpec{Mode: engine.Normal, Policy: greedy, Politician: RandomPoliticianIndex},
			B:     CellSpec{Mode: engine.Hard, Policy: greedy, Politician: RandomPoliticianIndex},
			Games: games,
		}},
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
				// random never wins: all ties, "within" after 29 pairs
				// (log 0.9 a pair to the lower bound of α = 0.05 split
				// over the test's two sides: log(0.05/0.975)).
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
			if test != nil && (c.Sequential == nil || c.Sequential.Decision != Within || c.Games != 29) {
				t.Errorf("sequential %+v after %d games: want 'within' after 29", c.Sequential, c.Games)
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
	if c.ScoreDiff != 0 || c.MarginDiff != 0 || c.Verdict != NotEnoughGames || c.Pairs.MarginDiffSumSq != 0 {
		t.Errorf("identical arms differ: %+v", c)
	}
}

// TestCompareDetectsHardOnlyChange: a change to Hard's
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
	cfg := CompareConfig{
		RunConfig: RunConfig{Seed: 1}, A: CompareArm{Name: "reference", Rules: engine.Reference()}, B: CompareArm{Name: "mine", Rules: mine},
		Cells: cells, PlayUnread: true,
	}
	r, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Cells[0].Verdict; got != NotEnoughGames || r.Cells[0].Pairs.MarginDiffSumSq != 0 {
		t.Errorf("Normal: %s with margin sum of squares %d, want no difference at all", got, r.Cells[0].Pairs.MarginDiffSumSq)
	}
	if got := r.Cells[1].Verdict; got != ScoreEasier {
		t.Errorf("Hard: %s (score %+.4f [%+.4f, %+.4f]), want easier", got, r.Cells[1].ScoreDiff, r.Cells[1].ScoreDiffCI95[0], r.Cells[1].ScoreDiffCI95[1])
	}
	if len(r.B.Overrides) != 1 || r.B.Overrides[0] != "difficulties.hard.bonus_divisor=3" || r.CellsTested != 2 {
		t.Errorf("arm B %+v, %d cells tested", r.B, r.CellsTested)
	}
	// By default the Normal cell, which cannot read the change, is not
	// played, and says why; Hard plays the same games.
	cfg.PlayUnread = false
	d, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cells) != 1 || d.Cells[0].Pairs != r.Cells[1].Pairs || len(d.Skipped) != 1 {
		t.Fatalf("by default: %d cells, %d skipped; want Hard's games as played beside Normal's", len(d.Cells), len(d.Skipped))
	}
	if sk := d.Skipped[0]; sk.Mode != "normal" || sk.Cell != 0 || sk.Games != 300 || len(sk.Unread) != 1 || sk.Unread[0] != "difficulties.hard.bonus_divisor" {
		t.Errorf("skipped %+v, want Normal (cell 1 of 300 games), which reads no difficulties.hard.bonus_divisor", sk)
	}
}

// TestCompareTwoAnswerHarder: deciding for
// −2 points wrote "decision": "easier". B (Hard) is harder than A
// (Normal), so the test decides for P1, and the verdict is "harder".
func TestCompareTwoAnswerHarder(t *testing.T) {
	cfg := normalVsHard(t, 2000)
	cfg.Test = &Sequential{P0: 0, P1: -0.02, Alpha: 0.05, Beta: 0.05}
	r, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Cells[0].Sequential
	if s.Decision != NearerP1 || r.Cells[0].Verdict != ScoreHarder || s.AlphaEach != 0.05 {
		t.Fatalf("decision %v, verdict %v, alpha each %g: want p1, harder, 0.05", s.Decision, r.Cells[0].Verdict, s.AlphaEach)
	}
	js := string(Encode(r))
	for _, want := range []string{`"decision": "p1"`, `"verdict": "harder"`, `"format": "tallywood-compare/6"`} {
		if !strings.Contains(js, want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

// TestCompareSequentialAlphaSplit: with several cells each cell's test
// runs at its share of --alpha (Sequential.ForCells), and the bounds
// written are that test's.
func TestCompareSequentialAlphaSplit(t *testing.T) {
	cfg := normalVsHard(t, 50)
	cfg.Cells = append(cfg.Cells, cfg.Cells[0])
	cfg.Test = &Sequential{Delta: 0.1, Alpha: 0.05, Beta: 0.05}
	r, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	each := (&Sequential{Delta: 0.1, Alpha: 0.0125, Beta: 0.05})
	lo, hi := each.Bounds()
	for i, c := range r.Cells {
		s := c.Sequential
		if s.Alpha != 0.05 || s.AlphaEach != 0.0125 || s.Lower != lo || s.Upper != hi {
			t.Errorf("cell %d: alpha %g, each %g, bounds %g, %g: want 0.05, 0.0125, %g, %g", i, s.Alpha, s.AlphaEach, s.Lower, s.Upper, lo, hi)
		}
		if c.Verdict != SequentialVerdict(each, s.Decision) {
			t.Errorf("cell %d: verdict %v is not the sequential test's (%v)", i, c.Verdict, s.Decision)
		}
	}
}

// TestCompareReadsOldFormats: a tallywood-compare/3 file (Holm's
// p-values, the old verdict words, a two-answer test's "easier", the
// label of the estimates) reads, and derive gives it the /4 rule's
// fields.
func TestCompareReadsOldFormats(t *testing.T) {
	cfg := normalVsHard(t, 300)
	cfg.Test = &Sequential{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}
	r, err := Compare(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(Encode(r), &d); err != nil {
		t.Fatal(err)
	}
	d["format"] = "tallywood-compare/3"
	for _, k := range []string{"verdict_level", "tests", "confidence"} {
		delete(d, k)
	}
	c := d["cells"].([]any)[0].(map[string]any)
	for _, k := range []string{"score_diff_ci", "margin_diff_ci", "score_diff_p_adj", "margin_diff_p_adj"} {
		delete(c, k)
	}
	c["score_diff_p_holm"], c["margin_diff_p_holm"], c["verdict"] = 0.5, 0.5, "easier by margin only"
	s := c["sequential"].(map[string]any)
	delete(s, "alpha_each")
	s["decision"] = "easier" // /3's word for P1; this test decides for P0
	// A label of the estimates after a stop, which older results stored.
	s["estimates"] = "biased by the stop"
	old, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeAs[*CompareResult](old)
	if err != nil {
		t.Fatal(err)
	}
	gc := got.Cells[0]
	if got.Format != FormatCompare || got.Tests != 2 || gc.Sequential.Decision != NearerP1 || gc.Sequential.AlphaEach != 0.05 ||
		gc.Verdict != ScoreEasier || gc.ScoreDiffCI != r.Cells[0].ScoreDiffCI || gc.ScoreDiffPAdj != r.Cells[0].ScoreDiffPAdj {
		t.Errorf("read as format %s, %d tests, decision %v, alpha each %g, verdict %v, CI %v, p adj %g",
			got.Format, got.Tests, gc.Sequential.Decision, gc.Sequential.AlphaEach, gc.Verdict, gc.ScoreDiffCI, gc.ScoreDiffPAdj)
	}
	if strings.Contains(string(Encode(got)), `"estimates"`) {
		t.Error("the label of the estimates after a stop is stored: it is report's words")
	}
	c["surprise"] = 1
	if old, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(old); err == nil || !strings.Contains(err.Error(), `unknown field "surprise"`) {
		t.Errorf("a cell's unknown field: %v", err)
	}
}
