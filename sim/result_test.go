package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim/deal"
)

// shardDoc returns shard 1/2 of a 40-game run as a generic JSON document
// to spoil.
func shardDoc(t *testing.T) map[string]any {
	t.Helper()
	r := run(t, testConfig(t, 40, 1, Shard{K: 1, N: 2}))
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(Encode(r)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func encode(t *testing.T, doc map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cell0 and counts0 are the first cell and its counts in a document.
func cell0(doc map[string]any) map[string]any {
	return doc["cells"].([]any)[0].(map[string]any)
}
func counts0(doc map[string]any) map[string]any { return cell0(doc)["counts"].(map[string]any) }

// TestDecodeResultRefusesInconsistentShards:
// every impossible or corrupted shard is refused, naming what is wrong.
func TestDecodeResultRefusesInconsistentShards(t *testing.T) {
	num := func(v any) int64 {
		n, err := v.(json.Number).Int64()
		if err != nil {
			panic(err)
		}
		return n
	}
	tests := []struct {
		name  string
		spoil func(doc map[string]any) []byte // nil result: encode doc
		want  string
	}{
		{"wins 150 losses -50 of 100 (item 7)", func(d map[string]any) []byte {
			c, n := cell0(d), counts0(d)
			c["games"], c["wins"], c["draws"], c["losses"] = 100, 150, 0, -50
			n["games"], n["wins"], n["draws"], n["losses"] = 100, 150, 0, -50
			return nil
		}, "cell 1 (normal/random/random): counts: wins 150 is outside 0..games (100)"},
		{"counts inflated tenfold", func(d map[string]any) []byte {
			n := counts0(d)
			for _, k := range []string{"games", "wins", "draws", "losses", "margin_sum", "margin_sum_sq", "player_votes", "opposition_votes",
				"fallback_other", "fallback_both", "games_with_fallback"} {
				n[k] = 10 * num(n[k])
			}
			for _, dc := range n["districts"].([]any) {
				for k, v := range dc.(map[string]any) {
					dc.(map[string]any)[k] = 10 * num(v)
				}
			}
			h := n["margin_histogram"].(map[string]any)
			for i, v := range h["counts"].([]any) {
				h["counts"].([]any)[i] = 10 * num(v)
			}
			return nil
		}, "cell 1 (normal/random/random): counts: games 200, more than the 20 the shard plays"},
		{"negative histogram bin", func(d map[string]any) []byte {
			h := counts0(d)["margin_histogram"].(map[string]any)
			h["lo"] = -3
			h["counts"] = []any{-1, 0, 0, 21}
			return nil
		}, "cell 1 (normal/random/random): counts: margin_histogram: margin -3 has -1 games, outside 0..games (20)"},
		{"histogram short of games", func(d map[string]any) []byte {
			h := counts0(d)["margin_histogram"].(map[string]any)
			bins := h["counts"].([]any)
			bins[len(bins)-1] = num(bins[len(bins)-1]) - 1
			return nil
		}, "cell 1 (normal/random/random): counts: margin_histogram holds 19 games, not games (20)"},
		{"histogram outside the margins", func(d map[string]any) []byte {
			h := counts0(d)["margin_histogram"].(map[string]any)
			h["lo"] = 1020
			h["counts"] = []any{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}
			return nil
		}, "not a tallywood sim result: margin histogram from 1020 with 10 bins is outside ±1024"},
		{"two districts in counts", func(d map[string]any) []byte {
			n := counts0(d)
			n["districts"] = n["districts"].([]any)[:2]
			return nil
		}, "not a tallywood sim result: districts: 2 entries, want 4"},
		{"five districts in counts", func(d map[string]any) []byte {
			n := counts0(d)
			ds := n["districts"].([]any)
			n["districts"] = append(ds, ds[0])
			return nil
		}, "not a tallywood sim result: districts: 5 entries, want 4"},
		{"three districts in the summary", func(d map[string]any) []byte {
			c := cell0(d)
			c["districts"] = c["districts"].([]any)[:3]
			return nil
		}, "cell 1 (normal/random/random): districts: 3 entries, want 4"},
		{"a District named twice", func(d map[string]any) []byte {
			ds := cell0(d)["districts"].([]any)
			ds[1].(map[string]any)["district"] = ds[0].(map[string]any)["district"]
			return nil
		}, `cell 1 (normal/random/random): districts[1]: name "Red" is empty, too long or repeated`},
		{"negative district votes", func(d map[string]any) []byte {
			counts0(d)["districts"].([]any)[2].(map[string]any)["player_votes"] = -4
			return nil
		}, "cell 1 (normal/random/random): counts: districts[2].player_votes -4 is outside 0..32767 per game"},
		{"ahead in more games than played", func(d map[string]any) []byte {
			counts0(d)["districts"].([]any)[0].(map[string]any)["opposition_ahead"] = 20
			counts0(d)["districts"].([]any)[0].(map[string]any)["player_ahead"] = 1
			return nil
		}, "cell 1 (normal/random/random): counts: districts[0]: player_ahead 1 and opposition_ahead 20 are not two disjoint counts of the 20 games"},
		{"margin sum off the votes", func(d map[string]any) []byte {
			n := counts0(d)
			n["player_votes"], n["opposition_votes"], n["margin_sum"] = 300, 1000, -699
			return nil
		}, "cell 1 (normal/random/random): counts: margin_sum -699 is not player_votes − opposition_votes (-700)"},
		{"margin sums off the histogram", func(d map[string]any) []byte {
			n := counts0(d)
			n["player_votes"], n["opposition_votes"], n["margin_sum"], n["margin_sum_sq"] = 300, 500, -200, 2001
			n["margin_histogram"] = map[string]any{"lo": -10, "counts": []any{20}}
			return nil
		}, "cell 1 (normal/random/random): counts: margin_sum -200 and margin_sum_sq 2001 are not those of the histogram (-200, 2000)"},
		{"fallback games without fallbacks", func(d map[string]any) []byte {
			n := counts0(d)
			n["fallback_other"], n["fallback_both"] = 3, 2
			c := cell0(d)["fallbacks"].(map[string]any)
			c["other_district"], c["both_districts"] = 3, 2
			return nil
		}, "cell 1 (normal/random/random): counts: games_with_fallback 20 is more than the fallbacks (5)"},
		{"games 4.6e18", func(d map[string]any) []byte {
			counts0(d)["games"] = json.Number("4.6e18")
			return nil
		}, "not a tallywood sim result: counts.games: 4.6e18 is not a whole number of int64's range"},
		{"games_per_cell 4600000000000000000", func(d map[string]any) []byte {
			d["games_per_cell"] = int64(4600000000000000000)
			return nil
		}, "games_per_cell 4600000000000000000 is outside 1..1000000000000"},
		{"summary wins edited", func(d map[string]any) []byte {
			cell0(d)["wins"] = 3
			return nil
		}, "cell 1 (normal/random/random): wins 3 differs from counts (0)"},
		{"fewer games, not interrupted", func(d map[string]any) []byte {
			d["games_per_cell"] = 42
			return nil
		}, "cell 1 (normal/random/random): counts: games 20, fewer than the 21 the shard plays, and the run was not interrupted"},
		{"a cell twice", func(d map[string]any) []byte {
			cs := d["cells"].([]any)
			d["cells"] = append(cs, cs[0])
			return nil
		}, "cell 3 (normal/random/random): the same cell as cell 1"},
		{"no cells", func(d map[string]any) []byte {
			d["cells"] = []any{}
			return nil
		}, "cells: none"},
		{"an unknown field", func(d map[string]any) []byte {
			counts0(d)["bonus"] = 1
			return nil
		}, `not a tallywood sim result: json: unknown field "bonus"`},
		{"a huge version", func(d map[string]any) []byte {
			d["tallywood_version"] = strings.Repeat("v", 5000)
			return nil
		}, "tallywood_version: 5000 bytes, more than 1024"},
		{"two shards concatenated", func(d map[string]any) []byte {
			b := encode(t, d)
			return append(b, b...)
		}, "not a tallywood sim result: data after the result at byte "},
		{"trailing garbage", func(d map[string]any) []byte {
			return append(encode(t, d), "\n}garbage"...)
		}, "not a tallywood sim result: data after the result at byte "},
		{"another format", func(d map[string]any) []byte {
			d["format"] = "tallywood-compare/1"
			return nil
		}, `not a tallywood sim result (format "tallywood-compare/1", want "tallywood-sim/1")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := shardDoc(t)
			data := tt.spoil(doc)
			if data == nil {
				data = encode(t, doc)
			}
			_, err := DecodeAs[*Result](data)
			if err == nil {
				t.Fatalf("accepted, want %q", tt.want)
			}
			if got := err.Error(); got != tt.want && !(strings.HasSuffix(tt.want, " ") && strings.HasPrefix(got, tt.want)) {
				t.Errorf("error\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	t.Logf("%d spoiled shards refused", len(tests))
}

func TestDecodeResultAcceptsRunAndMerge(t *testing.T) {
	r := run(t, testConfig(t, 40, 1, Shard{K: 1, N: 2}))
	back, err := DecodeAs[*Result](Encode(r))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Encode(back), Encode(r)) {
		t.Error("JSON round trip changed the result")
	}
	if r.Complete || r.TallywoodVersion != deal.Version() {
		t.Errorf("shard: complete %t, version %q; want false, %q", r.Complete, r.TallywoodVersion, deal.Version())
	}
	whole := run(t, testConfig(t, 40, 1, Shard{}))
	if !whole.Complete {
		t.Error("a whole run is not marked complete")
	}
}

func TestMergeVersions(t *testing.T) {
	a := run(t, testConfig(t, 40, 1, Shard{K: 1, N: 2}))
	b := run(t, testConfig(t, 40, 1, Shard{K: 2, N: 2}))
	b.TallywoodVersion = "v9.9.9 0123456789ab"
	_, err := mergeAs([]*Result{a, b}, []string{"a", "b"}, MergeOptions{})
	want := `b: tallywood_version "v9.9.9 0123456789ab" differs from "` + a.TallywoodVersion +
		`" in a: rerun the shard with one build, or merge anyway with --allow-mixed-versions`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	m, err := mergeAs([]*Result{a, b}, []string{"a", "b"}, MergeOptions{AllowMixedVersions: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.TallywoodVersion != "mixed" || !m.Complete {
		t.Errorf("version %q, complete %t; want mixed, true", m.TallywoodVersion, m.Complete)
	}
	if shards, of := m.Coverage(); shards != of {
		t.Errorf("coverage %d of %d, want all", shards, of)
	}
	part, err := mergeAs([]*Result{a}, []string{"a"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if shards, of := part.Coverage(); shards != 1 || of != 2 || part.Complete {
		t.Errorf("coverage %d of %d, complete %t; want 1 of 2, false", shards, of, part.Complete)
	}
}

// TestDecodersWordTrailingDataAlike: every result decoder refuses data
// after its result, a stray closing brace too, in the same words.
func TestDecodersWordTrailingDataAlike(t *testing.T) {
	ctx := t.Context()
	cmp := normalVsHard(t, 5)
	cmp.Cells[0].A.Policy, cmp.Cells[0].B.Policy = mustSpec(t, "random"), mustSpec(t, "random")
	compared, err := Compare(ctx, cmp)
	if err != nil {
		t.Fatal(err)
	}
	sweepCfg := sweepConfig(t, 3)
	sweepCfg.Cells = sweepCfg.Cells[:1]
	swept, err := Sweep(ctx, sweepCfg)
	if err != nil {
		t.Fatal(err)
	}
	tableCfg := seatsConfig(t, 3, 1, Shard{}, "random", "random")
	tableCompared, err := CompareSeats(ctx, tableCfg, SeatsArm{"a", engine.Reference()}, SeatsArm{"b", engine.Reference()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		kind   Kind
		data   []byte
		decode func([]byte) error
	}{
		{KindSim, Encode(run(t, testConfig(t, 4, 1, Shard{}))), func(b []byte) error { _, err := DecodeAs[*Result](b); return err }},
		{KindCompare, Encode(compared), func(b []byte) error { _, err := DecodeAs[*CompareResult](b); return err }},
		{KindSweep, Encode(swept), func(b []byte) error { _, err := DecodeAs[*SweepResult](b); return err }},
		{KindSeats, Encode(runSeats(t, tableCfg)), func(b []byte) error { _, err := DecodeAs[*SeatsResult](b); return err }},
		{KindSeatsCompare, Encode(tableCompared), func(b []byte) error { _, err := DecodeAs[*SeatsCompareResult](b); return err }},
	} {
		if err := tt.decode(tt.data); err != nil {
			t.Errorf("%s: its own JSON: %v", tt.kind, err)
		}
		for _, extra := range []string{string(tt.data), "}", " \n]"} {
			data := append(slices.Clone(tt.data), extra...)
			at := len(tt.data) + len(extra) - len(strings.TrimLeft(extra, " \n"))
			want := fmt.Sprintf("not a tallywood %s result: data after the result at byte %d (concatenated results?)", tt.kind, at)
			if err := tt.decode(data); err == nil || err.Error() != want {
				t.Errorf("%s followed by %.10q: error %v, want %q", tt.kind, extra, err, want)
			}
		}
	}
}

// TestMergesWordMismatchAlike: every merge refuses a shard of another run
// in the same words, naming the field and both values.
func TestMergesWordMismatchAlike(t *testing.T) {
	ctx := t.Context()
	names := []string{"a", "b"}
	want := func(field, got, want string) string {
		return "b: " + field + " " + got + " differs from " + want + " in a: shards of different runs"
	}
	compared := func(seed uint64, shard Shard) *CompareResult {
		cfg := normalVsHard(t, 6)
		cfg.Cells[0].A.Policy, cfg.Cells[0].B.Policy = mustSpec(t, "random"), mustSpec(t, "random")
		cfg.Seed, cfg.Shard = seed, shard
		r, err := Compare(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	swept := func(seed uint64, shard Shard) *SweepResult {
		cfg := sweepConfig(t, 6)
		cfg.Cells = cfg.Cells[:1]
		cfg.Seed, cfg.Shard = seed, shard
		r, err := Sweep(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	table := func(seed uint64, shard Shard) *SeatsResult {
		cfg := seatsConfig(t, 6, 1, shard, "random", "random")
		cfg.Seed = seed
		return runSeats(t, cfg)
	}
	solo := func(seed uint64, shard Shard) *Result {
		cfg := testConfig(t, 6, 1, shard)
		cfg.Seed = seed
		return run(t, cfg)
	}
	half, third := Shard{K: 1, N: 2}, Shard{K: 2, N: 3}
	for _, tt := range []struct {
		name string
		err  func() error
		want string
	}{
		{"sim seed", func() error {
			_, err := mergeAs([]*Result{solo(7, half), solo(8, Shard{K: 2, N: 2})}, names, MergeOptions{})
			return err
		}, want("seed", "8", "7")},
		{"table seed", func() error {
			_, err := mergeAs([]*SeatsResult{table(5, half), table(6, Shard{K: 2, N: 2})}, names, MergeOptions{})
			return err
		}, want("seed", "6", "5")},
		{"compare seed", func() error {
			_, err := mergeAs([]*CompareResult{compared(3, half), compared(4, Shard{K: 2, N: 2})}, names, MergeOptions{})
			return err
		}, want("seed", "4", "3")},
		{"sweep seed", func() error {
			_, err := mergeAs([]*SweepResult{swept(5, half), swept(6, Shard{K: 2, N: 2})}, names, MergeOptions{})
			return err
		}, want("seed", "6", "5")},
		{"sim shard count", func() error {
			_, err := mergeAs([]*Result{solo(7, half), solo(7, third)}, names, MergeOptions{})
			return err
		}, want("shard count", "3", "2")},
		{"table shard count", func() error {
			_, err := mergeAs([]*SeatsResult{table(5, half), table(5, third)}, names, MergeOptions{})
			return err
		}, want("shard count", "3", "2")},
		{"compare shard count", func() error {
			_, err := mergeAs([]*CompareResult{compared(3, half), compared(3, third)}, names, MergeOptions{})
			return err
		}, want("shard count", "3", "2")},
		{"sweep shard count", func() error {
			_, err := mergeAs([]*SweepResult{swept(5, half), swept(5, third)}, names, MergeOptions{})
			return err
		}, want("shard count", "3", "2")},
	} {
		if err := tt.err(); err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestResultStringsChecked: every string of a result file is checked
// against what it may be, in every kind of result (a cell mode
// of "normal\n\x1b[31mFAKE LINE\x1b[0m" merged and printed an extra row).
func TestResultStringsChecked(t *testing.T) {
	r, err := Run(context.Background(), testConfig(t, 4, 1, Shard{}))
	if err != nil {
		t.Fatal(err)
	}
	sim := string(Encode(r))
	table, err := RunSeats(context.Background(), seatsConfig(t, 2, 1, Shard{}, "random", "greedy"))
	if err != nil {
		t.Fatal(err)
	}
	tab := string(Encode(table))
	mode := `"mode": "` + r.Cells[0].Mode + `"`
	pol := `"policy": "` + r.Cells[0].Policy + `"`
	tests := []struct {
		name, data, from, to, want string
		decode                     func([]byte) error
	}{
		{"escape codes in a mode", sim, mode, `"mode": "normal\n\u001b[31mFAKE LINE\u001b[0m"`,
			`not a tallywood sim result: cells[0].mode: "normal\n\x1b[31mFAKE LINE\x1b[0m" holds U+000A, a control or hidden character`, nil},
		{"mode not a difficulty", sim, mode, `"mode": "easy"`, `cells[0].mode: "easy" is not normal or hard`, nil},
		{"mode in capitals", sim, mode, `"mode": "Normal"`, `cells[0].mode: "Normal" is not normal or hard`, nil},
		{"policy not a spec", sim, pol, `"policy": "Cheater!"`, `cells[0].policy: "Cheater!" is not a policy spec`, nil},
		{"bidi in a politician", sim, `"politician": "`, `"politician": "\u202e`, `cells[0].politician: "\u202e`, nil},
		{"zero width in a district", sim, `"district": "Red"`, `"district": "Re\u200bd"`, `cells[0].districts[0].district: "Re\u200bd" holds U+200B`, nil},
		{"lineup not a spec", tab, "\"lineup\": [\n    \"random\"", "\"lineup\": [\n    \"Random\"", `not a tallywood table result: lineup[0]: "Random" is not a policy spec`,
			func(b []byte) error { _, err := DecodeAs[*SeatsResult](b); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := strings.Replace(tt.data, tt.from, tt.to, 1)
			if data == tt.data {
				t.Fatalf("no %s in the result", tt.from)
			}
			decode := tt.decode
			if decode == nil {
				decode = func(b []byte) error { _, err := DecodeAs[*Result](b); return err }
			}
			if err := decode([]byte(data)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant …%s", err, tt.want)
			}
		})
	}
}
