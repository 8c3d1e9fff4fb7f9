package sim

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"tallywood/engine"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
)

func init() {
	example(KindCalibrate, func(t testing.TB, shard Shard) Study {
		cfg := calibrateConfig(t, recordGames(t, "dial:skill=0.6", engine.Normal, 13004, 1), 4, 1)
		cfg.Outcomes = []playtest.Outcome{
			{Tester: "bo", Mode: engine.Normal, Result: playtest.Won, Line: 2},
			{Tester: "bo", Mode: engine.Hard, Result: playtest.Lost, Margin: -7, HasMargin: true, Line: 3},
		}
		cfg.Shard = shard
		return runCalibrate(t, cfg)
	})
}

// recordGames records n games of spec in mode on master seed seed, as
// sim --record does.
func recordGames(t testing.TB, spec string, mode engine.Mode, seed uint64, n int64) []playtest.Game {
	t.Helper()
	var mu sync.Mutex
	var games []playtest.Game
	cfg := Config{RunConfig: RunConfig{Seed: seed, Workers: 2},
		Rules: engine.Reference(), Games: n, Cells: []CellSpec{{Mode: mode, Policy: mustSpec(t, spec), Politician: RandomPoliticianIndex}},
		Record: func(_ int, g playtest.Game) {
			mu.Lock()
			games = append(games, g)
			mu.Unlock()
		}}
	run(t, cfg)
	slices.SortFunc(games, func(a, b playtest.Game) int { return int(a.Game) - int(b.Game) })
	for i := range games {
		games[i].File = "rec.jsonl"
	}
	return games
}

// calibrateConfig calibrates from records against the levels novice to
// expert, on a curve of three skills.
func calibrateConfig(t testing.TB, records []playtest.Game, games, search int64) CalibrateConfig {
	var levels []policy.Spec
	for _, name := range []string{"novice", "casual", "skilled", "expert"} {
		levels = append(levels, mustSpec(t, name))
	}
	return CalibrateConfig{RunConfig: RunConfig{Seed: 13005, Shard: Shard{K: 1, N: 1}, Workers: 1},
		Rules: engine.Reference(), Records: records, Levels: levels, Skills: []float64{0, 1, 2},
		Games: games, SearchGames: search}
}

func runCalibrate(t testing.TB, cfg CalibrateConfig) *CalibrateResult {
	t.Helper()
	r, err := Calibrate(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// sim --record keeps every decision: replayed, the records reach the
// margins they state; and the games are the sim run's, whatever the
// workers.
func TestRecordReplays(t *testing.T) {
	games := recordGames(t, "casual", engine.Hard, 13006, 6)
	if len(games) != 6 {
		t.Fatalf("%d games recorded", len(games))
	}
	rr := newRecordReader(engine.Reference(), (&Config{}).opposition(), nil, false)
	defer rr.Close()
	for i := range games {
		var rd gameRead
		if err := rr.read(&games[i], &rd); err != nil {
			t.Fatal(err)
		}
		if !rd.finished || int(rd.result.Margin()) != *games[i].Margin || games[i].Tester != "casual" {
			t.Errorf("game %d: replayed to margin %d, recorded %d", i, rd.result.Margin(), *games[i].Margin)
		}
	}
}

// A calibration is the same for any workers, and its shards merge into it.
func TestCalibrateWorkersAndShards(t *testing.T) {
	records := recordGames(t, "dial:skill=0.3", engine.Normal, 13007, 3)
	one := runCalibrate(t, calibrateConfig(t, records, 6, 2))
	cfg := calibrateConfig(t, records, 6, 2)
	cfg.Workers = 2
	if a, b := withoutTiming(t, Encode(one)), withoutTiming(t, Encode(runCalibrate(t, cfg))); !bytes.Equal(a, b) {
		t.Error("1 and 2 workers give different calibrations")
	}
	var shards []*CalibrateResult
	for k := 1; k <= 2; k++ {
		cfg := calibrateConfig(t, records, 6, 2)
		cfg.Shard = Shard{K: k, N: 2}
		shards = append(shards, runCalibrate(t, cfg))
	}
	m, err := mergeAs(shards, []string{"1", "2"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := withoutTiming(t, Encode(one)), withoutTiming(t, Encode(m)); !bytes.Equal(a, b) {
		t.Error("merged shards differ from the whole calibration")
	}
}

// The fit from decisions finds a dial tester near its setting: 12 games
// of the dial at 0.6 put it within its interval, and the levels' matches
// count the decisions the dial's own picks explain.
func TestCalibrateFindsTheDial(t *testing.T) {
	records := recordGames(t, "dial:skill=0.6", engine.Normal, 13008, 12)
	r := runCalibrate(t, calibrateConfig(t, records, 20, 2))
	if len(r.Testers) != 1 || r.Pooled != nil {
		t.Fatalf("%d testers, pooled %v", len(r.Testers), r.Pooled)
	}
	tr := r.Testers[0]
	f := tr.DecisionFit
	if f == nil || !(f.CI95[0] <= 0.6 && 0.6 <= f.CI95[1]) || !(f.CIPredict[0] <= f.CI95[0] && f.CI95[1] <= f.CIPredict[1]) {
		t.Fatalf("fit %+v does not hold 0.6", f)
	}
	d := tr.Decisions
	if d.Games != 12 || d.Decisions < 12*50 || d.Hinted != 0 {
		t.Errorf("decisions %+v", d)
	}
	if skilled := tr.Matches[2]; skilled.Rate != ratio(d.Best+d.Both, d.Decisions) {
		t.Errorf("skilled matched %g, the learned score's best %d of %d", skilled.Rate, d.Best+d.Both, d.Decisions)
	}
	if tr.ResultFit == nil || len(tr.Results) != 1 || tr.Results[0].MarginGames != 12 {
		t.Errorf("results %+v, fit %+v", tr.Results, tr.ResultFit)
	}
	if len(tr.Predictions) != 4 {
		t.Errorf("%d predictions, want 2 fits × 2 difficulties", len(tr.Predictions))
	}
	for _, p := range tr.Predictions {
		if !(p.WinCI[0] <= p.WinRate && p.WinRate <= p.WinCI[1]) {
			t.Errorf("prediction %+v outside its interval", p)
		}
	}
}

func TestCalibrateRefuses(t *testing.T) {
	records := recordGames(t, "casual", engine.Normal, 13009, 1)
	spoil := func(f func(g *playtest.Game)) []playtest.Game {
		g := records[0]
		g.Decisions = slices.Clone(g.Decisions)
		f(&g)
		return []playtest.Game{g}
	}
	for _, tt := range []struct {
		name    string
		records []playtest.Game
		want    string
	}{
		{"an illegal decision", spoil(func(g *playtest.Game) {
			g.Decisions[3] = playtest.Decision{Option: engine.Option{Kind: engine.OptReveal, A: 9}, Line: 5}
		}), "rec.jsonl:5: decision 4 (reveal/9/0/0) is not legal"},
		{"other rules", spoil(func(g *playtest.Game) { g.RulesHash = strings.Repeat("0", 64) }), "played under rules 000000000000"},
		{"another margin", spoil(func(g *playtest.Game) { m := *g.Margin + 1; g.Margin = &m }), "the replay ends at"},
		{"an unknown politician", spoil(func(g *playtest.Game) { g.Politician = "nobody" }), `politician "nobody"`},
		{"decisions after the end", spoil(func(g *playtest.Game) { g.Decisions = append(g.Decisions, g.Decisions[0]) }), "already over"},
		// Read twice, a game counts twice: a file named twice, or a copy.
		{"a game twice", []playtest.Game{records[0], records[0]}, "rec.jsonl: the same game as rec.jsonl"},
		{"a copy", append(spoil(func(g *playtest.Game) { g.File, g.Line = "copy.jsonl", 7 }), records[0]), "rec.jsonl: the same game as copy.jsonl:7"},
	} {
		if _, err := Calibrate(context.Background(), calibrateConfig(t, tt.records, 2, 1)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// Two testers dealt one game, deciding alike, are two games.
	bo := spoil(func(g *playtest.Game) { g.Tester = "bo" })
	if _, err := Calibrate(context.Background(), calibrateConfig(t, append(bo, records[0]), 2, 1)); err != nil {
		t.Errorf("two testers, one deal: %v", err)
	}
	// A level that fails (an exec program that crashed) fails the
	// calibration: its fallback option is no choice of its.
	cfg := calibrateConfig(t, records, 2, 1)
	cfg.Levels = append(cfg.Levels, policy.Spec{Name: "fails", Label: "fails", New: func() policy.Policy { return &failsSecond{} }})
	if _, err := Calibrate(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "decision 2: the level fails failed: gave up") {
		t.Errorf("a level that fails: %v", err)
	}
}

// failsSecond fails its second decision of every game, as an exec program
// that crashed would.
type failsSecond struct {
	n   int
	err error
}

func (f *failsSecond) Reset(uint64) { f.n, f.err = 0, nil }
func (f *failsSecond) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	f.n++
	f.err = nil
	if f.n == 2 {
		f.err = errors.New("gave up")
	}
	return legal[0]
}
func (f *failsSecond) Err() error       { return f.err }
func (f *failsSecond) End(*engine.Game) {}

// TestCalibrateRefusesForgedSums: a calibrate result whose tester's sums
// no games give is refused on decode (each was believed: a
// log-likelihood with no decisions moved the pooled fit, "0 of 2 won"
// with a margin sum of +20,000 gave "skill at least 2.00").
func TestCalibrateRefusesForgedSums(t *testing.T) {
	data := everyKind(t, 1)[KindCalibrate]
	tester := func(d map[string]any, i int) map[string]any { return d["testers"].([]any)[i].(map[string]any) }
	decisions := func(d map[string]any, i int) map[string]any { return tester(d, i)["decisions"].(map[string]any) }
	result := func(d map[string]any) map[string]any { return tester(d, 0)["results"].([]any)[1].(map[string]any) }
	for _, tt := range []struct {
		name  string
		spoil func(d map[string]any)
		want  string
	}{
		{"log-likelihood with no decisions", func(d map[string]any) {
			decisions(d, 0)["log_likelihood"].([]any)[3] = -50.0
		}, `testers[0] ("bo"): decisions.log_likelihood[3] -50: not 0 with no decisions`},
		{"none won, margins positive", func(d map[string]any) {
			r := result(d)
			r["margin_games"], r["margin_wins"], r["margin_sum"], r["margin_sum_sq"] = 2, 0, 20000, 200000000
		}, "results[1]: margin_sum 20000 and margin_sum_sq 200000000 are not those of 2 games, 0 won"},
		{"squares below the sum's", func(d map[string]any) {
			r := result(d)
			r["margin_games"], r["margin_wins"], r["margin_sum"], r["margin_sum_sq"] = 2, 0, -20, 100
		}, "results[1]: margin_sum -20 and margin_sum_sq 100 are not those of 2 games, 0 won"},
		{"won with no margin", func(d map[string]any) {
			r := result(d)
			r["margin_wins"], r["margin_sum"], r["margin_sum_sq"] = 1, 0, 0
		}, "results[1]: margin_sum 0 and margin_sum_sq 0 are not those of 1 games, 1 won"},
		{"more decisions than games hold", func(d map[string]any) {
			x := decisions(d, 1)
			x["forced"], x["hinted"] = 9000, 9000
		}, "more than 1 games can hold"},
	} {
		_, err := Decode(edit(t, data, tt.spoil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestCalibrateTesterNames: a tester is named one way everywhere. A
// tester named "pooled" gave two rows named pooled; "ana", "ana " and
// "аna" (a Cyrillic а) printed alike as three testers; "Ana" and "ana"
// in a CSV were two testers without a word. Each is refused, naming
// where.
func TestCalibrateTesterNames(t *testing.T) {
	records := recordGames(t, "casual", engine.Normal, 13009, 1)
	named := func(name string) playtest.Game {
		g := records[0]
		g.Tester = name
		return g
	}
	for _, tt := range []struct {
		name     string
		records  []playtest.Game
		outcomes []string
		want     string
	}{
		{"pooled", []playtest.Game{named("Pooled")}, nil, `rec.jsonl: a tester named "Pooled": the name is the pooled row's`},
		{"a space", []playtest.Game{named("ana ")}, []string{"ana"}, `outcomes line 2: tester "ana" and "ana " differ only in case or spaces`},
		{"case in the CSV", nil, []string{"ana", "Ana"}, `outcomes line 3: tester "Ana" and "ana" differ only in case or spaces`},
		{"a Cyrillic а", nil, []string{"ana", "\u0430na"}, `outcomes line 3: tester "аna" mixes Latin letters with Greek or Cyrillic ones`},
	} {
		cfg := calibrateConfig(t, tt.records, 2, 1)
		for i, name := range tt.outcomes {
			cfg.Outcomes = append(cfg.Outcomes, playtest.Outcome{Tester: name, Mode: engine.Normal, Result: playtest.Won, Line: i + 2})
		}
		if _, err := Calibrate(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// One script, other than Latin, is a name.
	cfg := calibrateConfig(t, []playtest.Game{named("Анна")}, 2, 1)
	cfg.Outcomes = []playtest.Outcome{{Tester: "Анна", Mode: engine.Normal, Result: playtest.Won, Line: 2}}
	if _, err := Calibrate(context.Background(), cfg); err != nil {
		t.Errorf("Анна: %v", err)
	}
}

// A tester off the dial is caught by the test of fit of their decisions:
// greedy decides like the dial near 0 and wins like it near 0.4, and
// six games' decisions agree with the learned score's best far more
// often in some kinds of decision (and far less in others) than the dial
// at one skill would. No win rate is predicted from such decisions, and
// the pool holds only the testers whose decisions fit the dial: not
// greedy, nor cleo, whose results alone were written down.
func TestCalibrateOffDial(t *testing.T) {
	ctx := context.Background()
	rules := engine.Reference()
	records := recordGames(t, "greedy", engine.Normal, 13810, 6)
	records = append(records, recordGames(t, "dial:skill=0.5", engine.Normal, 13811, 6)...)
	ana := recordGames(t, "dial:skill=0.5", engine.Normal, 13812, 6)
	for i := range ana {
		ana[i].Tester = "ana"
	}
	records = append(records, ana...)
	cfg := CalibrateConfig{Rules: rules, Records: records,
		Outcomes: []playtest.Outcome{{Tester: "cleo", Mode: engine.Normal, Result: playtest.Won, Line: 2}}}
	testers, err := readTesters(ctx, &cfg, map[string]int{"": 0}, false)
	if err != nil {
		t.Fatal(err)
	}
	curve, err := Curve(ctx, CurveConfig{RunConfig: RunConfig{Seed: 13813}, Rules: rules, Skills: []float64{0, 0.5, 1, 2},
		Modes: []engine.Mode{engine.Normal, engine.Hard}, Politician: RandomPoliticianIndex, Games: 20, SearchGames: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &CalibrateResult{Curves: []RulesCurve{{RulesID: rulesID(rules), Points: curve.Points}}, Testers: testers}
	r.derive()
	for _, tr := range r.Testers {
		x := tr.Decisions.Test
		offDial := tr.Name == "greedy"
		if tr.Name == "cleo" {
			if x != nil || tr.OffDial {
				t.Errorf("cleo, with results only: test %+v, off the dial %t", x, tr.OffDial)
			}
			continue
		}
		if x == nil || tr.OffDial != offDial || x.OffDial() != offDial || x.DF < 1 || len(x.Kinds) < 2 {
			t.Fatalf("%s: test %+v, off the dial %t", tr.Name, x, tr.OffDial)
		}
		var fromDecisions, fromResults int
		for _, p := range tr.Predictions {
			if p.From == FromDecisions {
				fromDecisions++
			} else {
				fromResults++
			}
		}
		if want := 2 * b2i(!offDial); fromDecisions != want || fromResults != 2 {
			t.Errorf("%s: %d predictions from decisions (want %d), %d from results (want 2)", tr.Name, fromDecisions, want, fromResults)
		}
		t.Logf("%s: skill %.3f, χ² %.1f on %d, p %.3g", tr.Name, x.Skill, x.Statistic, x.DF, x.P)
	}
	if !slices.Equal(r.PooledOf, []string{"ana", "dial:skill=0.5"}) || r.Pooled == nil || r.Pooled.Decisions.Games != 12 || len(r.Pooled.Results) != 1 || r.Pooled.Results[0].MarginGames != 12 {
		t.Errorf("pooled %v: %+v", r.PooledOf, r.Pooled)
	}
	// Results only: every tester's results are pooled.
	cfg = CalibrateConfig{Rules: rules, Outcomes: []playtest.Outcome{
		{Tester: "cleo", Mode: engine.Normal, Result: playtest.Won, Line: 2}, {Tester: "dan", Mode: engine.Hard, Result: playtest.Lost, Line: 3}}}
	if r.Testers, err = readTesters(ctx, &cfg, map[string]int{"": 0}, false); err != nil {
		t.Fatal(err)
	}
	r.derive()
	if !slices.Equal(r.PooledOf, []string{"cleo", "dan"}) {
		t.Errorf("results only: pooled %v", r.PooledOf)
	}
}
