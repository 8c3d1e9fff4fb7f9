package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim/policy"
)

func init() {
	example(KindArc, func(t testing.TB, shard Shard) Study { return runArc(t, arcConfig(t, 40, 1, shard)) })
}

func arcConfig(t testing.TB, games int64, workers int, shard Shard) ArcConfig {
	return ArcConfig{RunConfig: RunConfig{Seed: 12, Workers: workers, Shard: shard},
		Rules: engine.Reference(), Games: games, Model: policy.ShippedChance(), Probes: 2,
		Cells: []CellSpec{
			{Mode: engine.Hard, Policy: mustSpec(t, "greedy"), Politician: RandomPoliticianIndex},
			{Mode: engine.Hard, Policy: mustSpec(t, "random"), Politician: RandomPoliticianIndex},
			{Mode: engine.Normal, Policy: mustSpec(t, "builder"), Politician: 1},
		},
		Levels: []string{"casual", "casual", "casual"}}
}

func runArc(t testing.TB, cfg ArcConfig) *ArcResult {
	t.Helper()
	r, err := Arc(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// untimedArc is an arc result's JSON without its timing.
func untimedArc(r *ArcResult) []byte {
	c := *r.clone().(*ArcResult)
	c.derive()
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	for i := range c.Cells {
		c.Cells[i].Base.GamesPerSecond, c.Cells[i].Base.ElapsedSeconds = 0, 0
	}
	return Encode(&c)
}

// TestArcDeterministic: the same result for 1 and 2 workers, and for two
// shards merged.
func TestArcDeterministic(t *testing.T) {
	want := untimedArc(runArc(t, arcConfig(t, 30, 1, Shard{})))
	if got := untimedArc(runArc(t, arcConfig(t, 30, 2, Shard{}))); !bytes.Equal(got, want) {
		t.Errorf("workers 2 differ from workers 1")
	}
	a := runArc(t, arcConfig(t, 30, 2, Shard{K: 1, N: 2}))
	b := runArc(t, arcConfig(t, 30, 1, Shard{K: 2, N: 2}))
	m, err := Merge([]Study{mustDecode(t, Encode(b)), a}, []string{"b", "a"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimedArc(m.(*ArcResult)); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole run")
	}
}

// TestArcPlaysAsSim: following the games changes none: every cell holds
// the games sim plays on the same seeds. Each cell's parts add up, over
// its games, to the outcomes minus the opening chances (each game's parts
// rounded to a basis point apiece), and with the deal's, whose sum is 0,
// to the outcomes minus the prior; luck counts every chance: the Solo
// card flips and the deal have a share of the variance, and the shares
// add up to 1; every game has its player's 14 turns and the
// Opposition's 14 (C-13), and the paired deals are the hard cells' games.
func TestArcPlaysAsSim(t *testing.T) {
	cfg := arcConfig(t, 60, 2, Shard{})
	r := runArc(t, cfg)
	sim := run(t, Config{RunConfig: RunConfig{Seed: cfg.Seed, Workers: 2}, Rules: cfg.Rules, Games: cfg.Games, Cells: cfg.Cells})
	for i, c := range r.Cells {
		if c.Base.Counts != sim.Cells[i].Counts {
			t.Errorf("cell %d: counts differ from sim's", i+1)
		}
		outcome := 2*c.Base.Wins + c.Base.Draws // halves
		var parts int64
		for _, p := range c.Parts {
			parts += p.Sum
		}
		if want := outcome*bp/2 - c.Opening.Sum; math.Abs(float64(parts-want)) > NumParts/2*float64(c.Base.Games) {
			t.Errorf("cell %d: parts add up to %d bp, want %d", i+1, parts, want)
		}
		s := c.Summary
		shares := s.Deal.VarShare
		for _, p := range s.Parts {
			shares += p.VarShare
		}
		if math.Abs(shares-1) > 1e-9 || s.Parts[PartFlips].VarShare <= 0 || s.Deal.VarShare <= 0 ||
			math.Abs(s.Luck-s.Deal.VarShare-s.Parts[PartDraws].VarShare-s.Parts[PartCubes].VarShare-s.Parts[PartReveals].VarShare-s.Parts[PartFlips].VarShare) > 1e-9 {
			t.Errorf("cell %d: shares %+v and deal %+v add up to %v, luck %v", i+1, s.Parts, s.Deal, shares, s.Luck)
		}
		var turns, opp int64
		for _, h := range c.ByTurn {
			for _, n := range h {
				turns += n
			}
		}
		for _, s := range c.Solo {
			opp += s.All.N
		}
		if turns != 14*c.Base.Games || opp != 14*c.Base.Games {
			t.Errorf("cell %d: %d turns of the player and %d of the Opposition, want 14 a game each", i+1, turns, opp)
		}
	}
	if len(r.Deals) != 1 || r.Deals[0].Table.Rows != cfg.Games || len(r.Deals[0].Policies) != 2 {
		t.Errorf("paired deals %+v, want the two hard cells' %d", r.Deals, cfg.Games)
	}
}

// TestArcIdenticalSoloCardsFlipNothing: with a planted deck of 24
// identical Solo cards (C-16's count, every one S-02's districts and
// actions), revealing the card tells nothing: the flips' part is 0 in
// every game and its share of the variance 0, while the Opposition's
// turns still change the chance.
func TestArcIdenticalSoloCardsFlipNothing(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(engine.ReferenceJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	cards := doc["solo_cards"].([]any)
	first := cards[1].(map[string]any) // S-02: Research and Campaign
	for _, c := range cards {
		for _, f := range []string{"left_district", "right_district", "left_action", "right_action"} {
			c.(map[string]any)[f] = first[f]
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	cfg := arcConfig(t, 40, 2, Shard{})
	cfg.Rules = r
	res := runArc(t, cfg)
	for i, c := range res.Cells {
		f := c.Parts[PartFlips]
		if f.N != c.Base.Games || f.Sum != 0 || f.SumSq != 0 || c.PartsSq[PartFlips] != 0 || c.Summary.Parts[PartFlips].VarShare != 0 {
			t.Errorf("cell %d: the flips of identical cards %+v, squares %d, share %v: want 0", i+1, f, c.PartsSq[PartFlips], c.Summary.Parts[PartFlips].VarShare)
		}
		if c.PartsSq[PartOpposition] == 0 {
			t.Errorf("cell %d: the Opposition's turns changed nothing", i+1)
		}
	}
}

// TestArcStrongSoloCardRanksFirst: a Solo card made clearly stronger (the
// cards study's strongCard) costs the player the most win chance of all
// the cards, over every round, its interval clear of the others' means.
func TestArcStrongSoloCardRanksFirst(t *testing.T) {
	cfg := arcConfig(t, 600, 2, Shard{})
	cfg.Cells = cfg.Cells[:1]
	cfg.Levels = cfg.Levels[:1]
	cfg.Opposition = strongCard{card: 12} // S-13
	r := runArc(t, cfg)
	var all []SoloEffect
	for _, e := range r.Cells[0].Summary.Solo {
		if e.Round == 0 {
			all = append(all, e)
		}
	}
	if len(all) != 24 {
		t.Fatalf("%d Solo card effects, want 24 (C-16)", len(all))
	}
	first := all[0]
	if first.Card != "S-13" {
		t.Fatalf("first: %+v, want S-13", first)
	}
	for _, e := range all[1:] {
		if first.MeanCI95[1] >= e.Mean {
			t.Errorf("S-13's interval %v reaches %s's effect %+.2f", first.MeanCI95, e.Card, e.Mean)
		}
	}
}

// BenchmarkArc is BenchmarkSim's greedy cell played by the arc study:
// the games and what following their win chance adds to them.
func BenchmarkArc(b *testing.B) {
	const games = 256
	cfg := ArcConfig{RunConfig: RunConfig{Seed: 1, Workers: 1}, Rules: engine.Reference(), Games: games, Model: policy.ShippedChance(), Probes: 4,
		Cells:  []CellSpec{{Mode: engine.Normal, Policy: mustSpec(b, "greedy"), Politician: RandomPoliticianIndex}},
		Levels: []string{"casual"}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, err := Arc(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n*games)/b.Elapsed().Seconds(), "games/s")
}

// TestArcRefusesForgedSums: an arc result whose chance split, decision
// kinds, votes, Vote Shares or deal scores no games can give is refused
// on decode (a forged parts_bp read "your decisions +833333333327.6
// points", a forged votes sum "you 83333333365.3 (sd 0.0)").
func TestArcRefusesForgedSums(t *testing.T) {
	data := everyKind(t, 1)[KindArc]
	cell := func(d map[string]any) map[string]any { return d["cells"].([]any)[0].(map[string]any) }
	bpOf := func(m any) map[string]any { return m.(map[string]any) }
	for _, tt := range []struct {
		name  string
		spoil func(d map[string]any)
		want  string
	}{
		{"decisions' part", func(d map[string]any) {
			p := bpOf(cell(d)["parts_bp"].([]any)[0])
			p["sum"], p["sum_sq"] = 1666666666655200, 4e15
		}, "parts_bp[0] (decisions): sums are not those of"},
		{"parts that do not add up to the outcomes", func(d map[string]any) {
			p := bpOf(cell(d)["parts_bp"].([]any)[1])
			p["sum"] = p["sum"].(float64) + 10000
		}, "parts_bp: the parts add up to"},
		{"step squares beyond the steps", func(d map[string]any) {
			cell(d)["parts_step_sq"].([]any)[5] = 4.611686018427388e18
		}, "parts_bp[5] (opposition): sums are not those of"},
		{"opening chance", func(d map[string]any) {
			o := bpOf(cell(d)["opening_bp"])
			o["sum"], o["sum_sq"] = 2e9, 4e9
		}, "opening_bp: sums are not those of"},
		{"decisions of a kind", func(d map[string]any) {
			bpOf(cell(d)["decision_kinds"].([]any)[0])["decisions"] = 1e15
		}, "decision_kinds[0]: not the counts of kind card"},
		{"a kind's part", func(d map[string]any) {
			k := bpOf(bpOf(cell(d)["decision_kinds"].([]any)[0])["decision_bp"])
			k["sum"], k["sum_sq"] = 8e14, 8e14
		}, "decision_kinds[0] (card): sums are not those of its"},
		{"kinds that are not the parts", func(d map[string]any) {
			k := bpOf(bpOf(cell(d)["decision_kinds"].([]any)[0])["decision_bp"])
			k["sum"] = k["sum"].(float64) + 2000
		}, "decision_kinds: their decisions parts add up to"},
		{"final votes", func(d map[string]any) {
			v := bpOf(cell(d)["votes"].([]any)[0])
			v["sum"], v["sum_sq"] = 1666666667306, 1666666667306
		}, "is not the games' votes"},
		{"votes' squares", func(d map[string]any) {
			v := bpOf(cell(d)["votes"].([]any)[0])
			v["sum_sq"] = v["sum_sq"].(float64) + 2e12
		}, "are not those of"},
		{"Vote Shares", func(d map[string]any) {
			cell(d)["shares_by_round"].([]any)[0].([]any)[0] = 1e15
		}, "shares_by_round[0][0]: sum 1000000000000000"},
		{"last round's shares", func(d map[string]any) {
			r := cell(d)["shares_by_round"].([]any)
			last := r[len(r)-1].([]any)
			last[0] = last[0].(float64) - 2
		}, "are not the Final Tally's"},
		{"a histogram bin that wraps", func(d map[string]any) {
			h := bpOf(cell(d)["votes"].([]any)[0])["histogram"].([]any)
			h[0], h[1], h[2], h[3] = 4.611686018427388e18, 4.611686018427388e18, 4.611686018427388e18, 4.611686018427388e18
		}, "votes[0]: a count outside 0..20"},
		{"deal scores' columns", func(d map[string]any) {
			s := bpOf(d["paired_deals"].([]any)[0].(map[string]any)["scores"])
			cols := s["column_sums"].([]any)
			cols[0], cols[1] = cols[0].(float64)-1, cols[1].(float64)+2
		}, "scores: the columns add up to"},
		{"deal rows' squares", func(d map[string]any) {
			bpOf(d["paired_deals"].([]any)[0].(map[string]any)["scores"])["row_sum_sq"] = 1e15
		}, "scores are not those of its deals"},
	} {
		_, err := Decode(edit(t, data, tt.spoil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestArcRefusesFormat1: a tallywood-arc/1 file (its luck one sum, the
// Solo card flips inside the Opposition's turns, decided_at_the_end where
// /2 has the Final Tally apart) is refused before any of its fields is
// read, saying in words why it cannot be read and to run arc again, not
// that a field is unknown (issue 42, item 1).
func TestArcRefusesFormat1(t *testing.T) {
	old := edit(t, everyKind(t, 1)[KindArc], func(d map[string]any) {
		d["format"] = "tallywood-arc/1"
		d["cells"].([]any)[0].(map[string]any)["summary"].(map[string]any)["decided_at_the_end"] = 0.4
	})
	_, err := Decode(old)
	if err == nil {
		t.Fatal("a tallywood-arc/1 file read")
	}
	for _, want := range []string{`format "tallywood-arc/1"`, "no longer reads", "cannot be split by source again", "run tallywood arc again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: want %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "unknown field") {
		t.Errorf("%v: names a field, not the format", err)
	}
}

// TestMergeRefusesSumsThatOverflow: two arc shards each within its
// bounds (a billion games of 24 Opposition turns allow sums of squares
// of 2⁶²+5) whose sums overflow together are refused by merge, naming
// the shard, not merged into a negative sum that report then refuses.
func TestMergeRefusesSumsThatOverflow(t *testing.T) {
	shards := make([]Study, 2)
	for k := range shards {
		// k+1 copies of each game: every count times a billion, the
		// margin histograms' offsets aside.
		scaled := scaleCounts(t, everyKind(t, k+1)[KindArc], 1e9, func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["parts_step_sq"].([]any)[2] = json.Number("4611686018427387909")
		})
		shards[k] = mustDecode(t, scaled)
	}
	_, err := Merge(shards, []string{"a", "b"}, MergeOptions{})
	if err == nil || !strings.Contains(err.Error(), "b: merged with the shards before it, the sums are not those of any games") ||
		!strings.Contains(err.Error(), "parts_bp[2]") {
		t.Errorf("merge: %v", err)
	}
}

// scaleCounts is a result's JSON with every whole number of its cells
// and paired deals, and its games per cell, times k (k copies of every
// game), the histograms' offsets (lo) aside; then spoil edits it.
func scaleCounts(t *testing.T, data []byte, k int64, spoil func(d map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var d map[string]any
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	var scale func(v any, key string) any
	scale = func(v any, key string) any {
		switch x := v.(type) {
		case map[string]any:
			for kk, vv := range x {
				x[kk] = scale(vv, kk)
			}
		case []any:
			for i := range x {
				x[i] = scale(x[i], key)
			}
		case json.Number:
			if n, err := x.Int64(); err == nil && key != "lo" {
				return json.Number(strconv.FormatInt(n*k, 10))
			}
		}
		return v
	}
	for _, key := range []string{"cells", "paired_deals", "games_per_cell"} {
		d[key] = scale(d[key], key)
	}
	spoil(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
