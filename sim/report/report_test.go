package report

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

func mustSpec(t testing.TB, s string) policy.Spec {
	t.Helper()
	p, err := policy.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// simJSON plays the default grid of `tallywood sim --games games --seed
// seed` (both modes, greedy and random, a random politician per game) and
// returns its JSON.
func simJSON(t testing.TB, games int64, seed uint64) []byte {
	t.Helper()
	cfg := sim.Config{RunConfig: sim.RunConfig{Seed: seed}, Rules: engine.Reference(), Games: games}
	for _, m := range []engine.Mode{engine.Normal, engine.Hard} {
		for _, p := range []string{"greedy", "random"} {
			cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: mustSpec(t, p), Politician: sim.RandomPoliticianIndex})
		}
	}
	r, err := sim.Run(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Encode(r)
}

// fivePoints is the three-answer sequential test of a 5-point difference.
var fivePoints = &sim.Sequential{On: sim.OnScore, Delta: 0.05, Alpha: 0.05, Beta: 0.05}

// compareJSON compares the reference rules (A) with Hard's bonus
// divisor at 3 (B) for greedy and random on Hard, with the sequential
// test (if any).
func compareJSON(t testing.TB, games int64, seed uint64, test *sim.Sequential) []byte {
	t.Helper()
	ref := engine.Reference()
	b, err := ref.With(engine.Assignment{Path: "difficulties.hard.bonus_divisor", Value: "3"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.CompareConfig{
		RunConfig: sim.RunConfig{Seed: seed}, A: sim.CompareArm{Name: "reference", Rules: ref}, B: sim.CompareArm{Name: "divisor 3", Rules: b},
		Test: test,
	}
	for _, p := range []string{"greedy", "random"} {
		c := sim.CellSpec{Mode: engine.Hard, Policy: mustSpec(t, p), Politician: sim.RandomPoliticianIndex}
		cfg.Cells = append(cfg.Cells, sim.ComparePair{A: c, B: c, Games: games})
	}
	r, err := sim.Compare(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Encode(r)
}

// sweepJSON sweeps Hard's bonus divisor over 1, 2, 3 for greedy and
// random on Hard, with a target win rate (0: none).
func sweepJSON(t testing.TB, games int64, seed uint64, target float64) []byte {
	t.Helper()
	const param = "difficulties.hard.bonus_divisor"
	base := engine.Reference()
	cfg := sim.SweepConfig{RunConfig: sim.RunConfig{Seed: seed}, Base: base, Params: []string{param}, Games: games, Target: target}
	for _, v := range []string{"1", "2", "3"} {
		a := engine.Assignment{Path: param, Value: v}
		r, err := base.With(a)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Points = append(cfg.Points, sim.SweepPoint{Set: []engine.Assignment{a}, Rules: r})
	}
	for _, p := range []string{"greedy", "random"} {
		cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: engine.Hard, Policy: mustSpec(t, p), Politician: sim.RandomPoliticianIndex})
	}
	r, err := sim.Sweep(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Encode(r)
}

// games is n games, or a tenth of them in -short mode (the race run):
// the tests hold the report's structure, which any number of games has.
func games(n int64) int64 {
	if testing.Short() {
		return n / 10
	}
	return n
}

var testMeta = Meta{Tool: "v0.0.0-test", Made: time.Date(2026, 11, 30, 17, 0, 0, 0, time.UTC)}

// render decodes the results and writes their report.
func render(t testing.TB, meta Meta, files ...[]byte) []byte {
	t.Helper()
	srcs := make([]Source, len(files))
	for i, data := range files {
		src, err := Decode(fmt.Sprintf("result%d.json", i+1), data)
		if err != nil {
			t.Fatal(err)
		}
		srcs[i] = src
	}
	var b bytes.Buffer
	if err := Write(&b, srcs, meta); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkFigures verifies that the section has exactly the figures ids, in
// order, each with an SVG of non-zero size titled as its table, and that
// every number of every table is the JSON's.
func checkFigures(t *testing.T, sec *parsedSection, doc any, ids []string) {
	t.Helper()
	var got []string
	for _, f := range sec.Figures {
		got = append(got, f.ID)
		if f.SVGTitle == "" || f.Summary != "Numbers: "+f.SVGTitle {
			t.Errorf("%s: SVG title %q, table summary %q", f.ID, f.SVGTitle, f.Summary)
		}
		if !(f.Width > 0 && f.Height > 0) {
			t.Errorf("%s: SVG size %g × %g", f.ID, f.Width, f.Height)
		}
		if len(f.Rows) == 0 {
			t.Errorf("%s: empty table", f.ID)
		}
		fromJSON := 0
		for _, row := range f.Rows {
			for _, c := range row {
				if err := checkCellJSON(doc, c); err != nil {
					t.Errorf("%s: %v", f.ID, err)
				}
				if c.JSON != "" {
					fromJSON++
				}
			}
		}
		if fromJSON == 0 {
			t.Errorf("%s: no number in the table is read from the JSON", f.ID)
		}
	}
	if !slices.Equal(got, ids) {
		t.Errorf("figures %v, want %v", got, ids)
	}
}

func figureByID(t *testing.T, sec *parsedSection, id string) *parsedFigure {
	t.Helper()
	for _, f := range sec.Figures {
		if f.ID == id {
			return f
		}
	}
	t.Fatalf("no figure %s", id)
	return nil
}

func TestSimReport(t *testing.T) {
	n300 := games(300)
	data := simJSON(t, n300, 11)
	doc := decodeGeneric(t, data)
	secs := parsePage(t, render(t, testMeta, data))
	if len(secs) != 1 || secs[0].ID != "s1" || secs[0].Src != "0" {
		t.Fatalf("sections %+v, want one, s1 of source 0", secs)
	}
	sec := secs[0]
	cells, _ := jsonAt(doc, "cells")
	n := len(cells.([]any))
	ids := []string{"s1-winrate", "s1-fallbacks"}
	for i := 1; i <= n; i++ {
		ids = append(ids, fmt.Sprintf("s1-cell%d-margin", i), fmt.Sprintf("s1-cell%d-districts", i))
	}
	checkFigures(t, sec, doc, ids)

	hash, _ := jsonAt(doc, "rules_hash")
	for name, want := range map[string]string{
		"Seed": "11", "Games per cell": fmt.Sprint(n300), "Cells": "4", "Rules hash": hash.(string),
		"Tool version": "tallywood " + deal.Version(),
		"Command":      fmt.Sprintf("tallywood sim --games %d --seed 11 --mode both --policy greedy,random --politician random --format json", n300),
	} {
		if got := sec.Facts[name]; got != want {
			t.Errorf("fact %s = %q, want %q", name, got, want)
		}
	}
	if rows := figureByID(t, sec, "s1-winrate").Rows; len(rows) != n {
		t.Errorf("win rate table: %d rows, want %d", len(rows), n)
	}
	for i := range n {
		// The histogram's table: every game once, and each percentile
		// marked at the margin the JSON gives.
		f := figureByID(t, sec, fmt.Sprintf("s1-cell%d-margin", i+1))
		var games int64
		marks := map[string]string{}
		for _, row := range f.Rows {
			k, _ := strconv.ParseInt(row[1].V, 10, 64)
			games += k
			for _, m := range strings.Split(row[4].Text, ", ") {
				if m != "" {
					marks[m] = row[0].V
				}
			}
		}
		want, _ := jsonAt(doc, fmt.Sprintf("cells.%d.games", i))
		if fmt.Sprint(games) != want.(fmt.Stringer).String() {
			t.Errorf("%s: histogram holds %d games, want %v", f.ID, games, want)
		}
		for _, p := range []string{"p5", "p25", "p50", "p75", "p95"} {
			q, _ := jsonAt(doc, fmt.Sprintf("cells.%d.margin_quantiles.%s", i, p))
			if marks[p] != q.(fmt.Stringer).String() {
				t.Errorf("%s: %s marked at margin %q, want %v", f.ID, p, marks[p], q)
			}
		}
		// The Districts' table: ahead, tied and behind make up every game.
		f = figureByID(t, sec, fmt.Sprintf("s1-cell%d-districts", i+1))
		if len(f.Rows) != engine.NumDistricts {
			t.Errorf("%s: %d rows, want %d", f.ID, len(f.Rows), engine.NumDistricts)
		}
		for _, row := range f.Rows {
			sum := 0.0
			for _, c := range row[5:8] {
				x, _ := strconv.ParseFloat(c.V, 64)
				sum += x
			}
			if sum < 1-1e-9 || sum > 1+1e-9 {
				t.Errorf("%s %s: ahead + tied + behind = %g", f.ID, row[0].Text, sum)
			}
		}
	}
}

func TestCompareReport(t *testing.T) {
	n400 := games(400)
	data := compareJSON(t, n400, 5, fivePoints)
	doc := decodeGeneric(t, data)
	secs := parsePage(t, render(t, testMeta, data))
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	checkFigures(t, secs[0], doc, []string{"s1-score-diff", "s1-winrate", "s1-margin-diff", "s1-sequential"})
	want := "tallywood compare --games " + fmt.Sprint(n400) + " --seed 5 --mode hard --policy greedy,random --politician random " +
		"--b-set difficulties.hard.bonus_divisor=3 --b-name 'divisor 3' --sprt-delta 0.05 --alpha 0.05 --beta 0.05 --format json"
	if got := secs[0].Facts["Command"]; got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	if got := figureByID(t, secs[0], "s1-winrate").Rows; len(got) != 4 {
		t.Errorf("win rate table: %d rows, want 2 cells × 2 arms", len(got))
	}
}

func TestSweepReport(t *testing.T) {
	n300 := max(games(300), 100)
	data := sweepJSON(t, n300, 5, 0.15)
	doc := decodeGeneric(t, data)
	// The games are fixed by the seed: greedy's win rate meets the target
	// at a swept value.
	if v, err := jsonAt(doc, "cells.0.crossing.regions.0.values.0"); err != nil || v == nil {
		t.Fatalf("the test sweep's greedy cell does not meet its target (%v, %v): choose another target or seed", v, err)
	}
	secs := parsePage(t, render(t, testMeta, data))
	if len(secs) != 1 {
		t.Fatalf("%d sections, want 1", len(secs))
	}
	sec := secs[0]
	// No plot of crossings (it was empty when nothing crossed):
	// each cell's plot shows the target and says where the rate meets it.
	checkFigures(t, sec, doc, []string{"s1-cell1-winrate", "s1-cell2-winrate"})
	want := "tallywood sweep --set difficulties.hard.bonus_divisor=1,2,3 --games " + fmt.Sprint(n300) + " --seed 5 --mode hard --policy greedy,random --politician random --target 0.15 --format json"
	if got := sec.Facts["Command"]; got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	for i := 1; i <= 2; i++ {
		// The three points, the reference's divisor 2 marked as the base
		// rules rather than shown twice.
		f := figureByID(t, sec, fmt.Sprintf("s1-cell%d-winrate", i))
		if got, want := column(f, 0, 1), []string{"1", "2 (base rules)", "3"}; !slices.Equal(got, want) {
			t.Errorf("cell %d: rows %q, want %q", i, got, want)
		}
	}
}

func TestSeveralResults(t *testing.T) {
	simData, cmpData, sweepData := simJSON(t, games(100), 2), compareJSON(t, games(100), 2, fivePoints), sweepJSON(t, games(50), 2, 0.15)
	page := render(t, testMeta, simData, cmpData, sweepData)
	secs := parsePage(t, page)
	if len(secs) != 3 || secs[0].ID != "s1" || secs[1].ID != "s2" || secs[1].Src != "1" || secs[2].ID != "s3" {
		t.Fatalf("sections %+v, want s1, s2 and s3", secs)
	}
	if !strings.Contains(secs[1].Facts["Command"], fmt.Sprintf("tallywood compare --games %d --seed 2", games(100))) {
		t.Errorf("reconstructed command %q", secs[1].Facts["Command"])
	}
	for _, s := range []string{`<a href="#s1">`, `<a href="#s2">`, `<a href="#s3">`, "Made by tallywood v0.0.0-test on 2026-11-30 17:00 UTC."} {
		if !bytes.Contains(page, []byte(s)) {
			t.Errorf("the page has no %s", s)
		}
	}
	// Self-contained: nothing that would make a browser fetch or run.
	for _, s := range []string{"<script", "http://", "https://", "@import", "url("} {
		if i := bytes.Index(page, []byte(s)); i >= 0 && !bytes.HasPrefix(page[i:], []byte("http://www.w3.org/")) {
			t.Errorf("the page holds %q at byte %d", s, i)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	good := string(simJSON(t, 20, 1))
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "report: f.json: not a tallywood result: the file is empty"},
		{"not JSON", "games,wins\n1,0\n", "report: f.json: not a tallywood result: invalid character 'g' looking for beginning of value"},
		{"no kind", `{"seed": 1}`, `report: f.json: not a tallywood result: no "kind" field`},
		{"old compare", `{"format": "tallywood-compare/1"}`,
			`report: f.json: result of format "tallywood-compare/1": written by an older tallywood, run it again`},
		{"unknown format", `{"format": "tallywood-ladder/1"}`,
			`report: f.json: unknown kind of result (format "tallywood-ladder/1"): tallywood reads arc, calibrate, cards, compare, curve, sensitivity, sim, sweep, table, table-compare and tune results`},
		{"unknown kind", `{"kind": "ladder", "format": "tallywood-ladder/1"}`,
			`report: f.json: unknown kind of result "ladder": tallywood reads arc, calibrate, cards, compare, curve, sensitivity, sim, sweep, table, table-compare and tune results`},
		{"sim with an unknown field", strings.Replace(good, `"seed"`, `"colour": 1, "seed"`, 1),
			`report: f.json: not a tallywood sim result: json: unknown field "colour"`},
		{"wins do not add up", strings.Replace(good, `"wins": `, `"wins": 1000`, 1),
			"report: f.json: cell 1 (normal/greedy/random): wins 1000"},
		{"compare with an unknown field", `{"kind": "compare", "format": "tallywood-compare/2", "arms": []}`,
			`report: f.json: not a tallywood compare result: json: unknown field "arms"`},
		{"no cells", `{"kind": "compare", "format": "tallywood-compare/2", "cells": []}`, "report: f.json: cells: none"},
		{"sweep of another format", `{"kind": "sweep", "format": "tallywood-sweep/0"}`,
			`report: f.json: not a tallywood sweep result (format "tallywood-sweep/0", want "tallywood-sweep/4")`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode("f.json", []byte(tc.data))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want %s", err, tc.want)
			}
		})
	}
}

func TestWriteNothing(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, nil, testMeta); err == nil || err.Error() != "report: no results to report on" {
		t.Errorf("got %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %d bytes", b.Len())
	}
}

func TestCommandLineQuoting(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--games", "10"}, "tallywood sim --games 10"},
		{[]string{"sim", "--policy", "mcts:iters=400,rollout=greedy"}, "tallywood sim --policy mcts:iters=400,rollout=greedy"},
		{[]string{"sim", "--out", "my report.html"}, "tallywood sim --out 'my report.html'"},
		{[]string{"compare", "--b-rules", "it's.json"}, `tallywood compare --b-rules 'it'\''s.json'`},
		{[]string{"sim", "--rules", ""}, "tallywood sim --rules ''"},
	}
	for _, tc := range tests {
		if got := commandLine(tc.args); got != tc.want {
			t.Errorf("commandLine(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}

// TestReproducingShards: one rule for the shards of every kind's command
// (issue 41): none for every game, --shard K/N for one shard, and for
// shards merged each shard's command into a file, then merge; never
// --shard 1+2/4, which --shard refuses.
func TestReproducingShards(t *testing.T) {
	args := []string{"sim", "--seed", "5"}
	tests := []struct{ shard, want string }{
		{"", "tallywood sim --seed 5 --format json"},
		{"3/8", "tallywood sim --seed 5 --shard 3/8 --format json"},
		{"1+2/2", "tallywood sim --seed 5 --format json"},
		{"2+4/4", "tallywood sim --seed 5 --shard 2/4 --format json --out shard-2-of-4.json && " +
			"tallywood sim --seed 5 --shard 4/4 --format json --out shard-4-of-4.json && " +
			"tallywood merge --format json shard-2-of-4.json shard-4-of-4.json"},
	}
	for _, tc := range tests {
		if got := reproducing(args, tc.shard); got != tc.want {
			t.Errorf("shard %q: %s, want %s", tc.shard, got, tc.want)
		}
	}
}

// FuzzDecode feeds the report arbitrary files: decoding must fail cleanly
// or give a result the report draws without panicking. The seeds are
// small: each run draws every plot, and the fuzzer minimises inputs by
// rerunning them byte by byte.
func FuzzDecode(f *testing.F) {
	one := sim.Config{RunConfig: sim.RunConfig{Seed: 1}, Rules: engine.Reference(), Games: 3,
		Cells: []sim.CellSpec{{Mode: engine.Normal, Policy: mustSpec(f, "random"), Politician: sim.RandomPoliticianIndex}}}
	r, err := sim.Run(f.Context(), one)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sim.Encode(r))
	f.Add(compareJSON(f, 3, 1, fivePoints))
	f.Add([]byte(`{"format":"tallywood-sim/1","cells":[{"games":1,"wins":1,"counts":{"games":1,"wins":1,"margin_histogram":{"lo":1024,"counts":[1]}}}]}`))
	f.Add(sweepJSON(f, 3, 1, 0.15))
	f.Add([]byte(`{"kind":"compare","format":"tallywood-compare/2","cells":[{"games":3}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, err := Decode("f.json", data)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := Write(&b, []Source{src}, testMeta); err != nil && !strings.HasPrefix(err.Error(), "report: ") {
			t.Fatalf("error without the package prefix: %v", err)
		}
	})
}

// TestOptionalFigures checks that a figure shows only when its data does:
// the sequential test's without a test, the crossings without a target.
func TestOptionalFigures(t *testing.T) {
	cmp, sweep := compareJSON(t, games(100), 3, nil), sweepJSON(t, games(100), 3, 0)
	secs := parsePage(t, render(t, testMeta, cmp, sweep))
	checkFigures(t, secs[0], decodeGeneric(t, cmp), []string{"s1-score-diff", "s1-winrate", "s1-margin-diff"})
	checkFigures(t, secs[1], decodeGeneric(t, sweep), []string{"s2-cell1-winrate", "s2-cell2-winrate"})
}

// TestHeaderNotes checks what the header says of a result beyond its
// numbers: the version that wrote it, an interrupted run, no cells.
func TestHeaderNotes(t *testing.T) {
	data := string(simJSON(t, games(50), 3))
	tests := []struct {
		name    string
		data    string
		version string
		want    []string
	}{
		{"version", data, "v1.2.3 0123456789ab", []string{"<dt>Tool version</dt><dd>tallywood v1.2.3 0123456789ab</dd>"}},
		{"no version", data, "", []string{"<dt>Tool version</dt><dd>not recorded in the result</dd>"}},
		{"interrupted", strings.NewReplacer(`"interrupted": false`, `"interrupted": true`, `"complete": true`, `"complete": false`).Replace(data), "",
			[]string{"This run was interrupted: the figures are of the games played before it stopped."}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Decode("r.json", []byte(tc.data))
			if err != nil {
				t.Fatal(err)
			}
			src.Study.Head().TallywoodVersion = tc.version
			var b bytes.Buffer
			if err := Write(&b, []Source{src}, testMeta); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("the page has no %q", w)
				}
			}
		})
	}
}

// TestSeatsReports: a study of several players and a comparison at a
// table (--seats) each get their figure, the figure's numbers equal the
// JSON, and the command line replays the study.
func TestSeatsReports(t *testing.T) {
	lineup := []policy.Spec{mustSpec(t, "random"), mustSpec(t, "random"), mustSpec(t, "random")}
	cfg := sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 3, Workers: 2}, Rules: engine.Reference(), Deals: 40, Lineup: lineup}
	study, err := sim.RunSeats(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	other, err := engine.Reference().With(engine.Assignment{Path: "track.max", Value: "14"})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := sim.CompareSeats(context.Background(), cfg, sim.SeatsArm{Name: "reference", Rules: engine.Reference()}, sim.SeatsArm{Name: "track 14", Rules: other})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		data    []byte
		figure  string
		rows    int
		command string
	}{
		{sim.Encode(study), "s1-score", 4, "tallywood sim --seats 3 --policy random,random,random --games 40 --seed 3 --format json"},
		{sim.Encode(cmp), "s1-score", 4, "tallywood compare --seats 3 --policy random,random,random --games 40 --seed 3 --b-set track.max=14 --format json"},
	} {
		doc := decodeGeneric(t, tc.data)
		secs := parsePage(t, render(t, testMeta, tc.data))
		if len(secs) != 1 {
			t.Fatalf("%d sections, want 1", len(secs))
		}
		checkFigures(t, secs[0], doc, []string{tc.figure})
		if got := len(figureByID(t, secs[0], tc.figure).Rows); got != tc.rows {
			t.Errorf("%s: %d rows, want %d (one policy, three Initiative positions)", tc.figure, got, tc.rows)
		}
		if got := secs[0].Facts["Command"]; got != tc.command {
			t.Errorf("command\n%s\nwant\n%s", got, tc.command)
		}
	}
}
