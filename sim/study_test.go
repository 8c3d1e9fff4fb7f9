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

	"tallywood/engine"
	"tallywood/sim/playtest"
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
// given of 2 (each kind's test file registers its own in an init, with
// example): the tests of every kind walk them.
var examples = map[Kind]func(t testing.TB, shard Shard) Study{}

// example registers kind k's example, once.
func example(k Kind, play func(t testing.TB, shard Shard) Study) {
	if _, dup := examples[k]; dup {
		panic("sim: example of kind " + string(k) + " registered twice")
	}
	examples[k] = play
}

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
// their versions differ (compare and sweep shards with an edited
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
// counts give, whatever the file says (`report` showed an edited
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
			func(s Study) bool { return s.(*CompareResult).Cells[0].Verdict == NotEnoughGames }},
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
		}, func(s Study) bool { return s.(*SensitivityResult).Cells[0].Changes[0].Verdict == NotEnoughGames }},
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
		// Merge printed an empty table, exit 0.
		{"compare without cells", []byte(`{"kind":"compare","format":"tallywood-compare/2","cells":[]}`), "cells: none"},
		{"sweep without cells", edit(t, data[KindSweep], func(d map[string]any) { d["cells"] = []any{} }), "cells: none"},
		// Shards whose elapsed_seconds added up to +Inf made
		// merge --format json panic.
		{"huge elapsed", edit(t, data[KindSeats], func(d map[string]any) { d["elapsed_seconds"] = 1e308 }), "elapsed_seconds 1e+308 is not within"},
		{"huge cell elapsed", edit(t, data[KindCompare], func(d map[string]any) {
			d["cells"].([]any)[0].(map[string]any)["elapsed_seconds"] = 1e308
		}), "elapsed_seconds 1e+308 is not within"},
		// An edited votes_sum gave mean votes −5.1e16.
		{"votes sum", edit(t, data[KindSeats], func(d map[string]any) {
			d["counts"].(map[string]any)["by_policy"].([]any)[0].(map[string]any)["votes_sum"] = 9e15
		}), "votes_sum 9000000000000000 is outside"},
		// report accepted a cross-table merge refused.
		{"cross table", edit(t, data[KindCompare], func(d map[string]any) {
			x := d["cells"].([]any)[0].(map[string]any)["pairs"].(map[string]any)["cross_wdl"].([]any)
			x[0].([]any)[0] = x[0].([]any)[0].(float64) + 1
		}), "cross-table"},
		{"table compare of an older build", []byte(`{"kind":"table-compare","tallywood_version":"x"}`), "written by an older tallywood"},
		{"unknown kind", []byte(`{"kind":"tuner","format":"tallywood-tuner/1"}`), `unknown kind of result "tuner": tallywood reads arc, calibrate, cards, compare, curve, sensitivity, sim, sweep, table, table-compare and tune results`},
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
// file that decodes must merge alone, the merge must survive a JSON round
// trip unchanged, and its counts must agree with each other as no forged
// file's may (implied): so that no count a reader trusts can flip a
// verdict or hold it up. The seeds include files whose paired sums and
// tune fields were forged each way the readers once accepted.
func FuzzStudy(f *testing.F) {
	data := everyKind(f, 1)
	for _, k := range Kinds() {
		f.Add(data[k])
	}
	for _, forged := range forgedFiles(f, data) {
		f.Add(forged)
	}
	f.Add([]byte(`{"format":"tallywood-sim/1","cells":[{"counts":{"games":1,"wins":1,"margin_histogram":{"lo":5000,"counts":[1]}}}]}`))
	f.Add([]byte(`{"kind":"compare","format":"tallywood-compare/2","cells":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(data)
		if err != nil {
			return
		}
		if err := implied(s); err != nil {
			t.Fatalf("a %s result decodes whose counts disagree: %v", s.Head().Kind, err)
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

// forgedFiles are the examples with their paired sums and tune fields
// forged, one way each: sums against the arms, sums of squares against
// the sums, sums no games reach, tune's blocks, fields and rounds.
func forgedFiles(t testing.TB, data map[Kind][]byte) [][]byte {
	cell := func(d map[string]any) map[string]any { return d["cells"].([]any)[0].(map[string]any) }
	set := func(m map[string]any, kv ...any) {
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
	}
	var out [][]byte
	for _, f := range []struct {
		kind  Kind
		spoil func(d map[string]any)
	}{
		{KindCompare, func(d map[string]any) {
			set(cell(d)["pairs"].(map[string]any), "margin_diff_sum", -2000, "margin_diff_sum_sq", 1333334)
		}},
		{KindCompare, func(d map[string]any) { set(cell(d)["pairs"].(map[string]any), "margin_diff_sum_sq", 0) }},
		{KindSweep, func(d map[string]any) {
			set(cell(d)["points"].([]any)[0].(map[string]any)["pairs_vs_base"].(map[string]any), "margin_diff_sum", 1e15, "margin_diff_sum_sq", 1e15)
		}},
		{KindSensitivity, func(d map[string]any) {
			set(cell(d)["changes"].([]any)[0].(map[string]any)["looks"].([]any)[0].(map[string]any), "margin_diff_sum", 1e15, "margin_diff_sum_sq", 1e15)
		}},
		{KindSeatsCompare, func(d map[string]any) {
			set(d["counts"].(map[string]any)["by_policy"].([]any)[0].(map[string]any), "wins_diff_sum", 2, "wins_diff_sum_sq", 2)
		}},
		{KindTune, func(d map[string]any) { set(d, "rounds", 4611686018427387904) }},
		{KindTune, func(d map[string]any) { set(d, "block_games", 0) }},
		{KindTune, func(d map[string]any) {
			set(d["fields"].([]any)[0].(map[string]any), "path", "difficulties.normal.no_such_field")
		}},
		{KindTune, func(d map[string]any) { set(d["trace"].([]any)[1].(map[string]any), "round", 4611686018427387904) }},
		{KindArc, func(d map[string]any) {
			set(cell(d)["parts_bp"].([]any)[0].(map[string]any), "sum", 1666666666655200, "sum_sq", 4e15)
		}},
		{KindArc, func(d map[string]any) {
			set(cell(d)["votes"].([]any)[0].(map[string]any), "sum", 1666666667306, "sum_sq", 1666666667306)
		}},
		{KindArc, func(d map[string]any) { cell(d)["shares_by_round"].([]any)[0].([]any)[0] = 1e15 }},
		{KindArc, func(d map[string]any) {
			set(d["paired_deals"].([]any)[0].(map[string]any)["scores"].(map[string]any), "row_sum_sq", 1e15)
		}},
		{KindCalibrate, func(d map[string]any) {
			d["testers"].([]any)[0].(map[string]any)["decisions"].(map[string]any)["log_likelihood"].([]any)[3] = -50.0
		}},
		{KindCalibrate, func(d map[string]any) {
			set(d["testers"].([]any)[0].(map[string]any)["results"].([]any)[1].(map[string]any),
				"margin_games", 2, "margin_wins", 0, "margin_sum", 20000, "margin_sum_sq", 200000000)
		}},
	} {
		var d map[string]any
		if err := json.Unmarshal(data[f.kind], &d); err != nil {
			t.Fatal(err)
		}
		f.spoil(d)
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// implied restates, for a decoded result, what its counts imply of each
// other: a pair's cross-table has its arms' outcomes and its margin sum is
// B's minus A's, its squares fit its sum; a table comparison's paired sums
// are its rows' differences; a card held at the end is one drawn and not
// played; a tune's rounds are its trace's, within those of successive
// halving over it, its blocks at least one game, its fields numbers of a
// rules file.
func implied(s Study) error {
	pair := func(p *PairCounts, a, b *Counts) error {
		var rows, cols [3]int64
		for i := range p.Cross {
			for j := range p.Cross[i] {
				rows[i] += p.Cross[i][j]
				cols[j] += p.Cross[i][j]
			}
		}
		switch {
		case rows != [3]int64{a.Wins, a.Draws, a.Losses}:
			return fmt.Errorf("cross-table rows %v, arm A %d/%d/%d", rows, a.Wins, a.Draws, a.Losses)
		case b != nil && cols != [3]int64{b.Wins, b.Draws, b.Losses}:
			return fmt.Errorf("cross-table columns %v, arm B %d/%d/%d", cols, b.Wins, b.Draws, b.Losses)
		case b != nil && p.MarginDiffSum != b.MarginSum-a.MarginSum:
			return fmt.Errorf("margin_diff_sum %d, arms %d and %d", p.MarginDiffSum, a.MarginSum, b.MarginSum)
		case !p.margins().Possible(2 * maxPerGame):
			return fmt.Errorf("margin sums %d, %d over %d pairs", p.MarginDiffSum, p.MarginDiffSumSq, p.Games)
		}
		return nil
	}
	switch r := s.(type) {
	case *CompareResult:
		for i := range r.Cells {
			c := &r.Cells[i]
			if err := pair(&c.Pairs, &c.A.Counts, &c.B.Counts); err != nil {
				return err
			}
		}
	case *SweepResult:
		for i := range r.Cells {
			for j := range r.Cells[i].Points {
				p := &r.Cells[i].Points[j]
				if err := pair(&p.Pairs, &r.Cells[i].Base.Counts, &p.Result.Counts); err != nil {
					return err
				}
			}
		}
	case *SensitivityResult:
		for i := range r.Cells {
			for j := range r.Cells[i].Changes {
				// A fixed scan's one look pairs every seed of the base; a
				// race's looks and confirmation some of them.
				if ch := &r.Cells[i].Changes[j]; r.Design == DesignFixed && len(ch.Looks) == 1 {
					if err := pair(&ch.Looks[0], &r.Cells[i].Base.Counts, nil); err != nil {
						return err
					}
				}
			}
		}
	case *SeatsCompareResult:
		c := &r.Counts
		a, b := slices.Concat(c.A.Policies, c.A.Initiative), slices.Concat(c.B.Policies, c.B.Initiative)
		for i, p := range slices.Concat(c.Policies, c.Initiative) {
			if p.WinsDiff != b[i].Wins-a[i].Wins || p.Score12Diff != b[i].Score12-a[i].Score12 {
				return fmt.Errorf("paired row %d: %+v, arms %+v and %+v", i+1, p, a[i], b[i])
			}
		}
	case *CardsResult:
		for i := range r.Cells {
			for _, sc := range r.Cells[i].Strategy {
				if sc.Played.Games+sc.Held.Games > sc.Drawn.Games {
					return fmt.Errorf("%s played %d and held %d of %d drawn", sc.ID, sc.Played.Games, sc.Held.Games, sc.Drawn.Games)
				}
			}
		}
	case *ArcResult:
		for i := range r.Cells {
			c := &r.Cells[i]
			var final [2]int64
			for _, d := range c.Base.Counts.Districts {
				final[0] += d.PlayerShares
				final[1] += d.OppositionShares
			}
			var parts int64
			for k := range c.Parts {
				parts += c.Parts[k].Sum
			}
			// Each game's three parts and opening chance are rounded to a
			// basis point apart.
			outcomes := bp*c.Base.Wins + bp/2*c.Base.Draws - c.Opening.Sum
			switch {
			case c.Votes[0].Sum != c.Base.Counts.PlayerVotes || c.Votes[1].Sum != c.Base.Counts.OppVotes:
				return fmt.Errorf("votes %d and %d, the games' %d and %d", c.Votes[0].Sum, c.Votes[1].Sum, c.Base.Counts.PlayerVotes, c.Base.Counts.OppVotes)
			case c.Shares[len(c.Shares)-1] != final:
				return fmt.Errorf("last round's shares %v, the Final Tally's %v", c.Shares[len(c.Shares)-1], final)
			case parts-outcomes > 2*c.Base.Games || outcomes-parts > 2*c.Base.Games:
				return fmt.Errorf("parts %d, outcomes less opening chances %d, over %d games", parts, outcomes, c.Base.Games)
			}
		}
		for _, d := range r.Deals {
			var cols int64
			for _, c := range d.Table.ColSum {
				cols += c
			}
			if cols != d.Table.Sum || d.Table.RowSq < d.Table.SumSq {
				return fmt.Errorf("deal scores: columns %d, sum %d, squares %d and %d", cols, d.Table.Sum, d.Table.RowSq, d.Table.SumSq)
			}
		}
	case *CalibrateResult:
		for _, ts := range r.Testers {
			for k, v := range ts.Decisions.LogLik {
				if ts.Decisions.Decisions == 0 && v != 0 {
					return fmt.Errorf("%s: log-likelihood[%d] %g with no decisions", ts.Name, k, v)
				}
			}
			for _, rd := range ts.Results {
				if rd.MarginSum > rd.MarginWins*playtest.MaxMargin || rd.MarginSum < rd.MarginWins-(rd.MarginGames-rd.MarginWins)*playtest.MaxMargin {
					return fmt.Errorf("%s: margin sum %d of %d games, %d won", ts.Name, rd.MarginSum, rd.MarginGames, rd.MarginWins)
				}
			}
		}
	case *TuneResult:
		last := 0
		for _, e := range r.Trace {
			last = max(last, e.Round)
		}
		if r.Rounds != last || r.Rounds > halvingRounds(len(r.Trace)) || r.BlockGames < 1 {
			return fmt.Errorf("rounds %d (the trace's %d, of %d candidates), block_games %d", r.Rounds, last, len(r.Trace), r.BlockGames)
		}
		for _, f := range r.Fields {
			if !engine.IsNumericPath(f.Path) {
				return fmt.Errorf("field %q", f.Path)
			}
		}
	}
	return nil
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

// TestDecodeRefusesForgedCounts: counts that contradict what the others
// imply are refused on decode, whatever the kind: a forged count could
// otherwise flip a verdict (a compare whose paired margin sum of −2000,
// against the arms' own −30, merged to "lower margin only" with an
// interval of no width) or hold up a reader.
func TestDecodeRefusesForgedCounts(t *testing.T) {
	data := everyKind(t, 1)
	cell := func(d map[string]any) map[string]any { return d["cells"].([]any)[0].(map[string]any) }
	pairs := func(d map[string]any) map[string]any { return cell(d)["pairs"].(map[string]any) }
	point := func(d map[string]any) map[string]any {
		return cell(d)["points"].([]any)[0].(map[string]any)["pairs_vs_base"].(map[string]any)
	}
	change := func(d map[string]any) map[string]any {
		return cell(d)["changes"].([]any)[0].(map[string]any)["looks"].([]any)[0].(map[string]any)
	}
	for _, tt := range []struct {
		name  string
		kind  Kind
		spoil func(d map[string]any)
		want  string
	}{
		// The sums of squares fit the sum (Cauchy–Schwarz), but not the arms.
		{"compare paired margin against the arms", KindCompare, func(d map[string]any) {
			pairs(d)["margin_diff_sum"], pairs(d)["margin_diff_sum_sq"] = -2000, 1333334
		}, "margin_diff_sum -2000 is not arm B's margin_sum − arm A's (-30)"},
		{"compare sum of squares 0", KindCompare, func(d map[string]any) { pairs(d)["margin_diff_sum_sq"] = 0 },
			"margin_diff_sum -30 and margin_diff_sum_sq 0 are not the sums of 3 differences"},
		{"compare cross-table against the arms", KindCompare, func(d map[string]any) {
			pairs(d)["cross_wdl"] = []any{[]any{1, 0, 0}, []any{0, 0, 0}, []any{0, 0, 2}}
		}, "cross_wdl: arm A's outcomes are 1 wins, 0 draws and 2 losses, its counts 0, 0 and 3"},
		{"sweep paired margin 10^15", KindSweep, func(d map[string]any) {
			point(d)["margin_diff_sum"], point(d)["margin_diff_sum_sq"] = 1e15, 1e15
		}, "margin_diff_sum 1000000000000000 and margin_diff_sum_sq 1000000000000000 are not the sums of 3 differences"},
		{"sensitivity paired margin 10^15", KindSensitivity, func(d map[string]any) {
			change(d)["margin_diff_sum"], change(d)["margin_diff_sum_sq"] = 1e15, 1e15
		}, "margin_diff_sum 1000000000000000 and margin_diff_sum_sq 1000000000000000 are not the sums of 3 differences"},
		{"strategy card played and held more than drawn", KindCards, func(d map[string]any) {
			card := cell(d)["strategy_cards"].([]any)[0].(map[string]any)
			card["held_at_end"] = map[string]any{"games": 2, "score_halves_sum": 0, "score_halves_sum_sq": 0, "margin_sum": -80, "margin_sum_sq": 3200}
		}, `strategy_cards "PW-01": held_at_end: games 2: more than the 1 drawn and not played`},
		{"tune block_games 0", KindTune, func(d map[string]any) { d["block_games"] = 0 }, "block_games 0 is outside 1..150 (budget_games)"},
		{"tune field that does not exist", KindTune, func(d map[string]any) {
			d["fields"].([]any)[0].(map[string]any)["path"] = "difficulties.normal.no_such_field"
		}, `field 1: path "difficulties.normal.no_such_field" names no number or choice of a rules file`},
		{"table-compare paired wins against the arms", KindSeatsCompare, func(d map[string]any) {
			p := d["counts"].(map[string]any)["by_policy"].([]any)[0].(map[string]any)
			p["wins_diff_sum"], p["wins_diff_sum_sq"] = 2, 2
		}, "wins_diff_sum 2 is not arm B's wins − arm A's (0)"},
		{"rules hash not a hash", KindSim, func(d map[string]any) { d["rules_hash"] = "zz" }, `rules_hash "zz" is not a rules hash (64 hex digits)`},
		// Each was accepted (issue 41).
		{"tune base 10^15", KindTune, func(d map[string]any) { d["fields"].([]any)[0].(map[string]any)["base"] = 1e15 },
			"field 1: base 1000000000000000 and values"},
		{"sensitivity to 10^15", KindSensitivity, func(d map[string]any) { cell(d)["changes"].([]any)[0].(map[string]any)["to"] = 1e15 },
			"to 1000000000000000: not a rules file's numbers"},
		{"sensitivity base errors -1", KindSensitivity, func(d map[string]any) {
			cell(d)["base"].(map[string]any)["counts"].(map[string]any)["errors"] = -1
		}, "base: errors -1 is outside 0.."},
		{"sweep point errors -1", KindSweep, func(d map[string]any) {
			cell(d)["points"].([]any)[0].(map[string]any)["result"].(map[string]any)["counts"].(map[string]any)["errors"] = -1
		}, "point 1: errors -1 is outside 0.."},
		{"compare arm errors -1", KindCompare, func(d map[string]any) {
			cell(d)["a"].(map[string]any)["counts"].(map[string]any)["errors"] = -1
		}, "arm A: errors -1 is outside 0.."},
	} {
		_, err := Decode(edit(t, data[tt.kind], tt.spoil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestTuneRoundsFromTrace: a tune's rounds are derived from its trace, not
// read (a forged "rounds": 4611686018427387904 made report loop that many
// times), and a trace whose rounds the search cannot have played is
// refused.
func TestTuneRoundsFromTrace(t *testing.T) {
	data := everyKind(t, 1)[KindTune]
	s := mustDecode(t, edit(t, data, func(d map[string]any) { d["rounds"] = 4611686018427387904 }))
	if got := s.(*TuneResult).Rounds; got != 2 {
		t.Errorf("rounds %d, want the trace's 2", got)
	}
	for _, tt := range []struct {
		spoil func(d map[string]any)
		want  string
	}{
		{func(d map[string]any) { d["trace"].([]any)[1].(map[string]any)["round"] = 4611686018427387904 },
			"trace 2: round 4611686018427387904 is outside 1..2, the rounds of successive halving over 2 candidates"},
		{func(d map[string]any) { d["trace"].([]any)[1].(map[string]any)["games"] = []any{100} },
			"trace 2: target 1: 100 games, more than the 50 of 1 block"},
		{func(d map[string]any) { d["best"] = 1 }, "best 1 was last played in round 1, not in the last round (2)"},
	} {
		_, err := Decode(edit(t, data, tt.spoil))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v, want %q", err, tt.want)
		}
	}
}

// TestRegistriesRefuseADuplicate: a kind, a format without a kind field
// and a kind's example each register once; a second registration under
// the same name panics at init rather than replacing the first.
func TestRegistriesRefuseADuplicate(t *testing.T) {
	for name, register := range map[string]func(){
		"kind":     func() { registerKind(KindSim, func() Study { return &Result{} }) },
		"kindless": func() { registerKindless(FormatSim, KindSim) },
		"example":  func() { example(KindSim, examples[KindSim]) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered twice without a panic", name)
				}
			}()
			register()
		}()
	}
}
