package sim

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mergeAs merges results of one type.
func mergeAs[T Study](rs []T, names []string, opt MergeOptions) (T, error) {
	var zero T
	ss := make([]Study, len(rs))
	for i, r := range rs {
		ss[i] = r
	}
	m, err := Merge(ss, names, opt)
	if err != nil {
		return zero, err
	}
	return m.(T), nil
}

// examples play a small result of each kind of study, as the shard
// given of 2 (each kind's test file registers its own in an init): the
// tests of every kind walk them.
var examples = map[Kind]func(t testing.TB, shard Shard) Study{}

// everyKind plays the example of every registered kind of study as shard
// k of 2 and returns their JSON by kind.
func everyKind(t testing.TB, k int) map[Kind][]byte {
	out := map[Kind][]byte{}
	for _, kind := range Kinds() {
		play, ok := examples[kind]
		if !ok {
			t.Fatalf("kind %s has no example: register one in its test file", kind)
		}
		out[kind] = Encode(play(t, Shard{K: k, N: 2}))
	}
	return out
}

// edit decodes a result's JSON into a map, lets spoil change it, and
// encodes it again.
func edit(t *testing.T, data []byte, spoil func(d map[string]any)) []byte {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	spoil(d)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustDecode(t *testing.T, data []byte) Study {
	t.Helper()
	s, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMergeChecksEveryKindAlike: every kind's shards are refused when
// their versions differ (issue 21: compare and sweep shards with an edited
// version merged), merged with --allow-mixed-versions as "mixed", and
// merged whole as complete.
func TestMergeChecksEveryKindAlike(t *testing.T) {
	first, second := everyKind(t, 1), everyKind(t, 2)
	kinds := Kinds()
	for _, k := range kinds {
		t.Run(string(k), func(t *testing.T) {
			a := mustDecode(t, first[k])
			b := mustDecode(t, edit(t, second[k], func(d map[string]any) { d["tallywood_version"] = "v9.9.9" }))
			_, err := Merge([]Study{a, b}, []string{"a", "b"}, MergeOptions{})
			if err == nil || !strings.Contains(err.Error(), `b: tallywood_version "v9.9.9" differs`) {
				t.Errorf("edited version: %v", err)
			}
			m, err := Merge([]Study{a, b}, []string{"a", "b"}, MergeOptions{AllowMixedVersions: true})
			if err != nil {
				t.Fatal(err)
			}
			if h := m.Head(); h.TallywoodVersion != "mixed" || !h.Complete || h.Shard != "" {
				t.Errorf("merged: version %q, complete %t, shard %q", h.TallywoodVersion, h.Complete, h.Shard)
			}
			if n, total, _ := m.Played(); n != total {
				t.Errorf("merged whole: %d of %d played", n, total)
			}
			if _, err := Merge([]Study{a, a}, []string{"a", "b"}, MergeOptions{}); err == nil || err.Error() != "b: shard 1/2 is already in a" {
				t.Errorf("a shard twice: %v", err)
			}
			other := kinds[(slices.Index(kinds, k)+1)%len(kinds)]
			if _, err := Merge([]Study{a, mustDecode(t, second[other])}, []string{"a", "b"}, MergeOptions{}); err == nil || !strings.Contains(err.Error(), "merge shards of one run") {
				t.Errorf("another kind: %v", err)
			}
		})
	}
}

// TestDecodeRecomputesDerivedFields: what a reader sees is what the
// counts give, whatever the file says (issue 21: `report` showed an edited
// win_rate of 0.99 where merge recomputed 22.5%).
func TestDecodeRecomputesDerivedFields(t *testing.T) {
	data := everyKind(t, 1)
	for _, tt := range []struct {
		kind  Kind
		spoil func(d map[string]any)
		check func(s Study) bool
	}{
		{KindSim, func(d map[string]any) { d["cells"].([]any)[0].(map[string]any)["win_rate"] = 0.99 },
			func(s Study) bool {
				c := s.(*Result).Cells[0]
				return c.WinRate == ratio(c.Counts.Wins, c.Counts.Games)
			}},
		{KindSim, func(d map[string]any) { d["complete"] = true },
			func(s Study) bool { return !s.Head().Complete }},
		{KindCompare, func(d map[string]any) { d["cells"].([]any)[0].(map[string]any)["verdict"] = "easier" },
			func(s Study) bool { return s.(*CompareResult).Cells[0].Verdict == NoClearDifference }},
		{KindCompare, func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["a"].(map[string]any)["win_rate"] = 0.99
		}, func(s Study) bool {
			c := s.(*CompareResult).Cells[0].A
			return c.WinRate == ratio(c.Counts.Wins, c.Counts.Games)
		}},
		{KindSweep, func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["points"].([]any)[0].(map[string]any)["score_diff"] = 0.5
		},
			func(s Study) bool {
				p := s.(*SweepResult).Cells[0].Points[0]
				d, _, _ := p.Pairs.ScoreDiff()
				return p.ScoreDiff == d
			}},
		{KindSensitivity, func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["changes"].([]any)[0].(map[string]any)["verdict"] = "easier"
		}, func(s Study) bool { return s.(*SensitivityResult).Cells[0].Changes[0].Verdict == NoClearDifference }},
		{KindSeats, func(d map[string]any) { d["policies"].([]any)[0].(map[string]any)["win_rate"] = 0.99 },
			func(s Study) bool {
				r := s.(*SeatsResult)
				return r.Policies[0].WinRate == ratio(r.Counts.Policies[0].Wins, r.Counts.Policies[0].Games)
			}},
		{KindTune, func(d map[string]any) { d["search_games"] = 1 },
			func(s Study) bool { return s.(*TuneResult).SearchGames > 1 }},
		{KindTune, func(d map[string]any) { d["trace"].([]any)[0].(map[string]any)["objective"] = 0 },
			func(s Study) bool { return s.(*TuneResult).Trace[0].Objective > 0 }},
		{KindCurve, func(d map[string]any) {
			d["points"].([]any)[1].(map[string]any)["cells"].([]any)[0].(map[string]any)["win_band"] = []any{0.0, 1.0}
		}, func(s Study) bool {
			c := s.(*CurveResult).Points[1].Cells[0]
			return c.WinBand != [2]float64{0, 1}
		}},
		{KindCalibrate, func(d map[string]any) {
			d["testers"].([]any)[1].(map[string]any)["decision_fit"] = map[string]any{"skill": 1.9}
		}, func(s Study) bool { return s.(*CalibrateResult).Testers[1].DecisionFit.Skill != 1.9 }},
		{KindSeatsCompare, func(d map[string]any) { d["first_seat_advantage_diff"] = 0.5 },
			func(s Study) bool {
				r := s.(*SeatsCompareResult)
				return r.FirstSeatAdvantageDiff == r.Initiative[0].MeanScoreDiff
			}},
	} {
		s := mustDecode(t, edit(t, data[tt.kind], tt.spoil))
		if !tt.check(s) {
			t.Errorf("%s: a derived field edited in the file was read as it is", tt.kind)
		}
	}
}

// TestDecodeRefuses: files that decode as JSON but hold no study.
func TestDecodeRefuses(t *testing.T) {
	data := everyKind(t, 1)
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		// issue 21: merge printed an empty table, exit 0.
		{"compare without cells", []byte(`{"kind":"compare","format":"tallywood-compare/2","cells":[]}`), "cells: none"},
		{"sweep without cells", edit(t, data[KindSweep], func(d map[string]any) { d["cells"] = []any{} }), "cells: none"},
		// issue 21: shards whose elapsed_seconds added up to +Inf made
		// merge --format json panic.
		{"huge elapsed", edit(t, data[KindSeats], func(d map[string]any) { d["elapsed_seconds"] = 1e308 }), "elapsed_seconds 1e+308 is not within"},
		{"huge cell elapsed", edit(t, data[KindCompare], func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["elapsed_seconds"] = 1e308
		}), "elapsed_seconds 1e+308 is not within"},
		// issue 21: an edited votes_sum gave mean votes −5.1e16.
		{"votes sum", edit(t, data[KindSeats], func(d map[string]any) {
			d["counts"].(map[string]any)["by_policy"].([]any)[0].(map[string]any)["votes_sum"] = 9e15
		}), "votes_sum 9000000000000000 is outside"},
		// report accepted a cross-table merge refused.
		{"cross table", edit(t, data[KindCompare], func(d map[string]any) {
			x := d["cells"].([]any)[0].(map[string]any)["pairs"].(map[string]any)["cross_wdl"].([]any)
			x[0].([]any)[0] = x[0].([]any)[0].(float64) + 1
		}), "cross-table"},
		{"table compare of an older build", []byte(`{"kind":"table-compare","tallywood_version":"x"}`), "written by an older tallywood"},
		{"unknown kind", []byte(`{"kind":"tuner","format":"tallywood-tuner/1"}`), `unknown kind of result "tuner": tallywood reads calibrate, cards, compare, curve, sensitivity, sim, sweep, table, table-compare and tune results`},
	} {
		_, err := Decode(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestTimingSumsStayFinite: the largest timing Decode accepts, merged
// from many shards, still encodes.
func TestTimingSumsStayFinite(t *testing.T) {
	var parts []Study
	var names []string
	for k := 1; k <= 2; k++ {
		d := everyKind(t, k)[KindSim]
		s := mustDecode(t, edit(t, d, func(m map[string]any) {
			for _, c := range m["cells"].([]any) {
				c.(map[string]any)["elapsed_seconds"] = maxSeconds
			}
		}))
		parts, names = append(parts, s), append(names, fmt.Sprint(k))
	}
	m, err := mergeAs(parts, names, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(Encode(m))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Head().ElapsedSeconds; got != 2*maxSeconds {
		t.Errorf("elapsed %g, want %g: each of 2 cells at most %g", got, 2*maxSeconds, maxSeconds)
	}
}

// FuzzStudy feeds `merge` and `report` arbitrary files of every kind: a
// file that decodes must merge alone, and the merge must survive a JSON
// round trip unchanged.
func FuzzStudy(f *testing.F) {
	data := everyKind(f, 1)
	for _, k := range Kinds() {
		f.Add(data[k])
	}
	f.Add([]byte(`{"format":"tallywood-sim/1","cells":[{"counts":{"games":1,"wins":1,"margin_histogram":{"lo":5000,"counts":[1]}}}]}`))
	f.Add([]byte(`{"kind":"compare","format":"tallywood-compare/2","cells":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			return
		}
		m, err := Merge([]Study{s}, []string{"f"}, MergeOptions{})
		if err != nil {
			t.Fatalf("a %s result that decodes does not merge alone: %v", s.Head().Kind, err)
		}
		back, err := Decode(Encode(m))
		if err != nil {
			t.Fatalf("merged %s result does not decode: %v", s.Head().Kind, err)
		}
		if !bytes.Equal(Encode(back), Encode(m)) {
			t.Fatalf("JSON round trip changed the %s result", s.Head().Kind)
		}
	})
}

var update = flag.Bool("update", false, "rewrite testdata/kinds from the examples")

// TestKindFiles keeps testdata/kinds/KIND-K.json, the example of every
// registered kind as shard K of 2, the files the tests of sim/report and
// cmd/tallywood walk every kind with: each registered kind has both, and
// they are what the example plays today, timing aside (go test ./sim -run
// KindFiles -update writes them again).
func TestKindFiles(t *testing.T) {
	for k := 1; k <= 2; k++ {
		for kind, data := range everyKind(t, k) {
			path := filepath.Join("testdata", "kinds", fmt.Sprintf("%s-%d.json", kind, k))
			if *update {
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			file, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v: a kind's example is missing (go test ./sim -run KindFiles -update)", err)
			}
			if s := mustDecode(t, file); s.Head().Kind != kind {
				t.Errorf("%s holds a %s result", path, s.Head().Kind)
			}
			if !bytes.Equal(withoutTiming(t, file), withoutTiming(t, data)) {
				t.Errorf("%s is not what the %s example plays today (go test ./sim -run KindFiles -update)", path, kind)
			}
		}
	}
}

// withoutTiming is a result's JSON with every timing field removed.
func withoutTiming(t *testing.T, data []byte) []byte {
	var drop func(v any)
	drop = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "games_per_second")
			delete(v, "elapsed_seconds")
			for _, x := range v {
				drop(x)
			}
		case []any:
			for _, x := range v {
				drop(x)
			}
		}
	}
	return edit(t, data, func(d map[string]any) { drop(d) })
}
