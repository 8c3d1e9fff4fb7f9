package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tallywood/engine"
)

func init() {
	example(KindCurve, func(t testing.TB, shard Shard) Study {
		cfg := curveConfig(8, 2)
		cfg.Shard = shard
		return runCurve(t, cfg)
	})
}

// curveConfig is a small curve: three skills, one above 1, both
// difficulties, a target of 30%.
func curveConfig(games, searchGames int64) CurveConfig {
	return CurveConfig{RunConfig: RunConfig{Seed: 13003, Shard: Shard{K: 1, N: 1}, Workers: 1},
		Rules: engine.Reference(), Skills: []float64{0, 0.6, 1.5}, Modes: []engine.Mode{engine.Normal, engine.Hard},
		Politician: RandomPoliticianIndex, Games: games, SearchGames: searchGames, Target: 0.3}
}

func runCurve(t testing.TB, cfg CurveConfig) *CurveResult {
	t.Helper()
	r, err := Curve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A curve is the same for any workers, and its shards merge into it.
func TestCurveWorkersAndShards(t *testing.T) {
	one := runCurve(t, curveConfig(12, 2))
	cfg := curveConfig(12, 2)
	cfg.Workers = 2
	if a, b := withoutTiming(t, Encode(one)), withoutTiming(t, Encode(runCurve(t, cfg))); !bytes.Equal(a, b) {
		t.Error("1 and 2 workers give different curves")
	}
	var shards []*CurveResult
	for k := 1; k <= 3; k++ {
		cfg := curveConfig(12, 2)
		cfg.Shard = Shard{K: k, N: 3}
		shards = append(shards, runCurve(t, cfg))
	}
	m, err := mergeAs(shards, []string{"1", "2", "3"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := withoutTiming(t, Encode(one)), withoutTiming(t, Encode(m)); !bytes.Equal(a, b) {
		t.Error("merged shards differ from the whole curve")
	}
}

// The curve's derived figures: the named levels, the gap between the
// difficulties, the bands holding the rates, a crossing per difficulty.
func TestCurveDerives(t *testing.T) {
	r := runCurve(t, curveConfig(40, 2))
	if len(r.Crossings) != 2 {
		t.Fatalf("%d crossings for 2 difficulties", len(r.Crossings))
	}
	for _, p := range r.Points {
		if p.Gap == nil || p.Pairs.Games != p.Cells[0].Games {
			t.Fatalf("skill %g: no gap, or pairs of other games", p.Skill)
		}
		for _, c := range p.Cells {
			if c.Policy != "dial:skill="+SkillText(p.Skill) || !(c.WinBand[0] <= c.WinRate && c.WinRate <= c.WinBand[1]) ||
				!(c.WinBand[0] <= c.WinCI95[0] && c.WinCI95[1] <= c.WinBand[1]) {
				t.Errorf("skill %g, %s: policy %q, rate %g, band %v, 95%% %v", p.Skill, c.Mode, c.Policy, c.WinRate, c.WinBand, c.WinCI95)
			}
		}
	}
	if p := r.Points[0]; p.Cells[0].Wins != 0 || p.Level != "" {
		t.Errorf("skill 0 (random): %d wins, level %q", p.Cells[0].Wins, p.Level)
	}
	cfg := curveConfig(2, 1)
	cfg.Skills, cfg.Modes = []float64{0.4, 1}, cfg.Modes[:1]
	one := runCurve(t, cfg)
	if one.Points[0].Level != "casual" || one.Points[1].Level != "skilled" || one.Points[0].Pairs != nil || one.Points[0].Gap != nil {
		t.Errorf("levels %q %q, pairs with one difficulty %v", one.Points[0].Level, one.Points[1].Level, one.Points[0].Pairs)
	}
}

func TestCurveRefuses(t *testing.T) {
	for _, tt := range []struct {
		name  string
		spoil func(c *CurveConfig)
		want  string
	}{
		{"falling skills", func(c *CurveConfig) { c.Skills = []float64{1, 0.5} }, "must rise"},
		{"beyond the dial", func(c *CurveConfig) { c.Skills = []float64{2.5} }, "must rise"},
		{"a difficulty twice", func(c *CurveConfig) { c.Modes = []engine.Mode{engine.Hard, engine.Hard} }, "twice"},
		{"no search games", func(c *CurveConfig) { c.SearchGames = 0 }, "0 games at skill 1.5"},
		{"target", func(c *CurveConfig) { c.Target = 1 }, "target"},
	} {
		cfg := curveConfig(4, 1)
		tt.spoil(&cfg)
		if _, err := Curve(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	data := Encode(runCurve(t, curveConfig(4, 1)))
	for _, tt := range []struct {
		name  string
		spoil func(d map[string]any)
		want  string
	}{
		{"pairs of other games", func(d map[string]any) {
			d["points"].([]any)[0].(map[string]any)["pairs"].(map[string]any)["games"] = 3.0
		}, "cross-table"},
		{"another policy", func(d map[string]any) {
			d["points"].([]any)[1].(map[string]any)["cells"].([]any)[0].(map[string]any)["policy"] = "greedy"
		}, `policy "greedy", want "dial:skill=0.6"`},
		{"modes", func(d map[string]any) { d["modes"] = []any{"normal"} }, "2 cells for 1 difficulties"},
	} {
		if _, err := Decode(edit(t, data, tt.spoil)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
