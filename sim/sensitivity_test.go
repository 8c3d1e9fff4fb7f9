package sim

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
)

func init() {
	example(KindSensitivity, func(t testing.TB, shard Shard) Study {
		cfg := sensitivityConfig(t, 6, "random")
		cfg.Shard = shard
		res, err := Sensitivity(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	})
}

// sensitivityConfig scans two fields Hard reads and one only Normal
// reads, for one Hard cell of pol.
func sensitivityConfig(t testing.TB, games int64, pol string) SensitivityConfig {
	return SensitivityConfig{
		RunConfig: RunConfig{Seed: 9801, Workers: 2}, Base: engine.Reference(),
		Fields: []string{"actions.campaign_polling", "difficulties.*.bonus_divisor", "difficulties.hard.player_initiative"},
		Step:   Step{By: 1}, Games: games, Cells: []CellSpec{{Mode: engine.Hard, Policy: mustSpec(t, pol), Politician: RandomPoliticianIndex}},
	}
}

func untimedSensitivity(r *SensitivityResult) []byte {
	c := *r
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	c.Cells = append([]SensitivityCell(nil), r.Cells...)
	for i := range c.Cells {
		c.Cells[i].Base.GamesPerSecond, c.Cells[i].Base.ElapsedSeconds = 0, 0
	}
	return Encode(&c)
}

// TestSensitivitySkips: a field the cell's difficulty cannot
// read is skipped with a note, not played; so is a step out of bounds.
func TestSensitivitySkips(t *testing.T) {
	r, err := Sensitivity(context.Background(), sensitivityConfig(t, 4, "random"))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Cells[0]
	var changes []string
	for _, ch := range c.Changes {
		changes = append(changes, ch.Path+"="+strconv.Itoa(ch.To))
	}
	// Hard's player_initiative is 2 (I-20: the Opposition first), its
	// bounds 1..2: up leaves them.
	if got := strings.Join(changes, " "); got != "actions.campaign_polling=1 actions.campaign_polling=3 "+
		"difficulties.hard.player_initiative=1 difficulties.hard.bonus_divisor=1 difficulties.hard.bonus_divisor=3" {
		t.Errorf("changes played: %s", got)
	}
	var skips []string
	for _, s := range c.Skipped {
		skips = append(skips, s.Path+": "+s.Why)
	}
	want := []string{
		"difficulties.normal.bonus_divisor: not read at hard: read by only the solo game at normal",
		"difficulties.hard.player_initiative: 3 leaves its bounds 1..2",
	}
	got := strings.Join(skips, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("skipped:\n%s\nwant %q", got, w)
		}
	}
	// Five changes, one look each (a fixed scan), a score interval each.
	if r.Tests != 5 || r.Confidence != 1-0.05/5 {
		t.Errorf("family: %d tests at confidence %g", r.Tests, r.Confidence)
	}
	cfg := sensitivityConfig(t, 4, "random")
	cfg.Fields = []string{"difficulties.normal.*"}
	if _, err := Sensitivity(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "nothing to play") {
		t.Errorf("nothing Hard reads: %v", err)
	}
}

// TestSensitivityMatchesCompare: a change's paired numbers
// are those of a `compare` of the base against the change on the same
// seed and games, exactly.
func TestSensitivityMatchesCompare(t *testing.T) {
	const games = 300
	cfg := sensitivityConfig(t, games, "greedy")
	cfg.Fields = []string{"actions.campaign_polling"}
	r, err := Sensitivity(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range r.Cells[0].Changes {
		b, err := cfg.Base.With(engine.Assignment{Path: ch.Path, Value: strconv.Itoa(ch.To)})
		if err != nil {
			t.Fatal(err)
		}
		spec := cfg.Cells[0]
		cmp, err := Compare(context.Background(), CompareConfig{
			RunConfig: RunConfig{Seed: cfg.Seed, Workers: 2}, A: CompareArm{Name: "base", Rules: cfg.Base}, B: CompareArm{Name: "change", Rules: b},
			Cells: []ComparePair{{A: spec, B: spec, Games: games}},
		})
		if err != nil {
			t.Fatal(err)
		}
		cc := cmp.Cells[0]
		if cc.Pairs != *ch.last() {
			t.Errorf("%s=%d: pairs %+v, compare's %+v", ch.Path, ch.To, *ch.last(), cc.Pairs)
		}
		if cc.ScoreDiff != ch.ScoreDiff || cc.MarginDiff != ch.MarginDiff {
			t.Errorf("%s=%d: score %g margin %g, compare's %g and %g", ch.Path, ch.To, ch.ScoreDiff, ch.MarginDiff, cc.ScoreDiff, cc.MarginDiff)
		}
		if ch.ScoreDiff == 0 && ch.MarginDiff == 0 {
			t.Errorf("%s=%d: no difference at all: the change was not played", ch.Path, ch.To)
		}
	}
}

// TestSensitivityWorkersAndShards: the same result for 1 and 2 workers
// and for two merged shards.
func TestSensitivityWorkersAndShards(t *testing.T) {
	var outs [][]byte
	for _, w := range []int{1, 2} {
		cfg := sensitivityConfig(t, 40, "greedy")
		cfg.Workers = w
		r, err := Sensitivity(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, untimedSensitivity(r))
	}
	var parts []*SensitivityResult
	for k := 1; k <= 2; k++ {
		cfg := sensitivityConfig(t, 40, "greedy")
		cfg.Shard = Shard{K: k, N: 2}
		r, err := Sensitivity(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAs[*SensitivityResult](Encode(r))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
	}
	m, err := mergeAs(parts, []string{"1", "2"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, untimedSensitivity(m))
	for i, o := range outs[1:] {
		if !bytes.Equal(o, outs[0]) {
			t.Errorf("run %d differs from 1 worker:\n%s\n%s", i+2, o, outs[0])
		}
	}
}

func TestParseStep(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Step
		ok   bool
	}{
		{"1", Step{By: 1}, true}, {"3", Step{By: 3}, true}, {"25%", Step{Percent: 25}, true},
		{"0", Step{}, false}, {"-1", Step{}, false}, {"x", Step{}, false}, {"0%", Step{}, false}, {"NaN%", Step{}, false},
	} {
		got, err := ParseStep(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseStep(%q) = %+v, %v", c.in, got, err)
		}
	}
	if d := (Step{Percent: 25}).of(12); d != 3 {
		t.Errorf("25%% of 12: %d", d)
	}
	if d := (Step{Percent: 25}).of(1); d != 1 {
		t.Errorf("25%% of 1: %d, want at least one unit", d)
	}
}

// TestSensitivityOldFamily: a scan stores no sentence; the "family" in
// words that older scans held still reads, and is dropped.
func TestSensitivityOldFamily(t *testing.T) {
	r, err := Sensitivity(context.Background(), sensitivityConfig(t, 4, "random"))
	if err != nil {
		t.Fatal(err)
	}
	data := Encode(r)
	if bytes.Contains(data, []byte(`"family"`)) {
		t.Fatalf("a scan writes a family:\n%s", data)
	}
	old := bytes.Replace(data, []byte(`"tests":`), []byte(`"family": "the family is the score and the margin difference of every change", "tests":`), 1)
	back, err := DecodeAs[*SensitivityResult](old)
	if err != nil {
		t.Fatalf("a scan with its family in words: %v", err)
	}
	if got, want := untimedSensitivity(back), untimedSensitivity(r); !bytes.Equal(got, want) {
		t.Errorf("read back as\n%s\nwant\n%s", got, want)
	}
	bad := bytes.Replace(data, []byte(`"tests":`), []byte(`"family": 5, "tests":`), 1)
	if _, err := DecodeAs[*SensitivityResult](bad); err == nil {
		t.Error("a family that is not words reads")
	}
}

// TestSensitivityRefused: a change the rules refuse within its bounds is
// skipped with the rules' reason, not the assignment the scan made.
func TestSensitivityRefused(t *testing.T) {
	r := engine.Reference()
	fields, err := r.Fields("endorsements[0].level")
	if err != nil {
		t.Fatal(err)
	}
	plan, skip := planSensitivity(r, fields, nil, Step{By: 1}, engine.Hard)
	var got []string
	for _, s := range skip {
		got = append(got, fmt.Sprintf("%s=%d: %s", s.Path, *s.To, s.Why))
	}
	want := "endorsements[0].level=0: the rules refuse it: endorsements[0].level: 0, want 1 (levels in order)\n" +
		"endorsements[0].level=2: the rules refuse it: endorsements[0].level: 2, want 1 (levels in order)"
	if len(plan) != 0 || strings.Join(got, "\n") != want {
		t.Errorf("%d played, skipped:\n%s\nwant\n%s", len(plan), strings.Join(got, "\n"), want)
	}
}

// TestSensitivityChoices: a Solo card's choices are played at each of
// their alternatives (C-16: a District other than the card's other one),
// a choice Normal cannot read is skipped, and each change is the rules
// with that one value set.
func TestSensitivityChoices(t *testing.T) {
	cfg := SensitivityConfig{
		RunConfig: RunConfig{Seed: 15003, Workers: 2}, Base: engine.Reference(),
		Fields: []string{"solo_cards[S-03].left_*", "difficulties.hard.bonus_rounding"},
		Step:   Step{By: 1}, Games: 4, Cells: []CellSpec{{Mode: engine.Normal, Policy: mustSpec(t, "random"), Politician: RandomPoliticianIndex}},
	}
	r, err := Sensitivity(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ch := range r.Cells[0].Changes {
		got = append(got, fmt.Sprintf("%s %s→%s", ch.Path, ch.FromChoice, ch.ToChoice))
		want, err := engine.Reference().With(engine.Assignment{Path: ch.Path, Value: ch.ToChoice})
		if err != nil || want.Hash != ch.RulesHash {
			t.Errorf("%s=%s: rules %s, want those of the one assignment (%v)", ch.Path, ch.ToChoice, ch.RulesHash, err)
		}
	}
	want := "solo_cards[S-03].left_district Red→Blue\n" +
		"solo_cards[S-03].left_district Red→Yellow\n" +
		"solo_cards[S-03].left_action Celebrity→Public Works\n" +
		"solo_cards[S-03].left_action Celebrity→Research\n" +
		"solo_cards[S-03].left_action Celebrity→Campaign"
	if strings.Join(got, "\n") != want {
		t.Errorf("changes:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	if s := r.Cells[0].Skipped; len(s) != 1 || s[0].Path != "difficulties.hard.bonus_rounding" {
		t.Errorf("skipped %+v, want Hard's rounding, which Normal does not read", s)
	}
	// The decoded result reads back the same.
	back, err := Decode(Encode(r))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Encode(back), Encode(r)) {
		t.Error("a scan of choices does not read back as written")
	}
}
