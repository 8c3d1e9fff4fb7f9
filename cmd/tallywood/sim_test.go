package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// runCLI runs the command line args and returns its exit code and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// badRulesFiles writes an invalid and a malformed rules file.
func badRulesFiles(t *testing.T, dir string) (invalid, malformed string) {
	t.Helper()
	ref := string(engine.ReferenceJSON())
	bad := strings.Replace(ref, `"cubes_per_district": 10`, `"cubes_per_district": 99`, 1)
	if bad == ref {
		t.Fatal("reference rules have no cubes_per_district 10 to spoil")
	}
	invalid = filepath.Join(dir, "invalid.json")
	malformed = filepath.Join(dir, "malformed.json")
	if err := os.WriteFile(invalid, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(malformed, []byte(`{"version": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return invalid, malformed
}

// TestBadInput checks every bad input of issue 5: a one-line error naming
// the problem, exit code 2, nothing written to --out.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	invalid, malformed := badRulesFiles(t, dir)
	missing := filepath.Join(dir, "missing.json")
	known := strings.Join(policy.Names(), ", ")

	// Two shard results of different runs, and a file that is no result.
	shardA := filepath.Join(dir, "a.json")
	shardB := filepath.Join(dir, "b.json")
	for _, s := range []struct{ path, seed, shard string }{{shardA, "1", "1/2"}, {shardB, "2", "2/2"}} {
		if code, _, errs := runCLI(t, "sim", "--games", "20", "--mode", "normal", "--policy", "random", "--seed", s.seed,
			"--shard", s.shard, "--format", "json", "--out", s.path, "--quiet"); code != exitOK {
			t.Fatalf("shard run: exit %d: %s", code, errs)
		}
	}
	sameShard := filepath.Join(dir, "a2.json")
	if code, _, errs := runCLI(t, "sim", "--games", "20", "--mode", "normal", "--policy", "random", "--seed", "1",
		"--shard", "1/2", "--format", "json", "--out", sameShard, "--quiet"); code != exitOK {
		t.Fatalf("shard run: exit %d: %s", code, errs)
	}

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"sim unknown flag", []string{"sim", "--bogus"}, "tallywood: sim: unknown flag: --bogus"},
		{"sim unknown policy", []string{"sim", "--policy", "nope"},
			`tallywood: sim: --policy: policy "nope": unknown (known: ` + known + ")"},
		{"sim policy parameter", []string{"sim", "--policy", "random:depth=3"},
			`tallywood: sim: --policy: policy "random:depth=3": random has no parameter "depth"`},
		{"sim policy not key=value", []string{"sim", "--policy", "random:depth"},
			`tallywood: sim: --policy: policy "random:depth": "depth" is not key=value`},
		{"sim games 0", []string{"sim", "--games", "0"}, "tallywood: sim: --games 0: must be at least 1"},
		{"sim games negative", []string{"sim", "--games=-3"}, "tallywood: sim: --games -3: must be at least 1"},
		{"sim shard K>N", []string{"sim", "--shard", "5/4"}, `tallywood: sim: --shard "5/4" is not K/N with 1 ≤ K ≤ N`},
		{"sim shard 0", []string{"sim", "--shard", "0/4"}, `tallywood: sim: --shard "0/4" is not K/N with 1 ≤ K ≤ N`},
		{"sim shard text", []string{"sim", "--shard", "half"}, `tallywood: sim: --shard "half" is not K/N with 1 ≤ K ≤ N`},
		{"sim rules unreadable", []string{"sim", "--rules", missing},
			"tallywood: sim: --rules: engine: rules file: open " + missing + ": no such file or directory"},
		{"sim rules invalid", []string{"sim", "--rules", invalid},
			"tallywood: sim: --rules: " + invalid + ": rules: cubes_per_district: 99 is out of range 1..20"},
		{"sim rules malformed", []string{"sim", "--rules", malformed},
			"tallywood: sim: --rules: " + malformed + ": rules: version: line 1, column 14: number is not a valid string"},
		{"sim mode", []string{"sim", "--mode", "easy"}, `tallywood: sim: --mode "easy" is not normal, hard or both`},
		{"sim format", []string{"sim", "--format", "xml"}, `tallywood: sim: --format "xml" is not table, json or csv`},
		{"sim politician", []string{"sim", "--politician", "nobody"},
			`tallywood: sim: --politician "nobody" is not a politician (magnate, starlet, moderate, red-favourite, blue-favourite, populist, random, all)`},
		{"sim workers", []string{"sim", "--workers", "0"}, "tallywood: sim: --workers 0: must be at least 1"},
		{"sim argument", []string{"sim", "extra"}, `tallywood: sim: unexpected argument "extra"`},
		{"merge different runs", []string{"merge", shardA, shardB},
			"tallywood: merge: " + shardB + ": seed 2 differs from 1 in " + shardA + ": shards of different runs"},
		{"merge same shard twice", []string{"merge", shardA, sameShard},
			"tallywood: merge: " + sameShard + ": shard 1/2 is already in " + shardA},
		{"merge not a result", []string{"merge", shardA, invalid},
			"tallywood: merge: " + invalid + `: not a tallywood sim result: json: unknown field "name"`},
		{"merge missing file", []string{"merge", shardA, missing},
			"tallywood: merge: open " + missing + ": no such file or directory"},
		{"merge no files", []string{"merge"}, "tallywood: merge: no result files given"},
		{"compare same arms", []string{"compare"},
			"tallywood: compare: arms A and B are the same: set one of --a-/--b-rules, -mode, -policy or -politician"},
		{"compare sprt", []string{"compare", "--b-mode", "hard", "--sprt", "0.02"},
			`tallywood: compare: --sprt "0.02" is not P0,P1: two different win rate differences between -1 and 1`},
		{"compare alpha", []string{"compare", "--b-mode", "hard", "--sprt", "0,0.02", "--alpha", "0.7"},
			"tallywood: compare: --alpha 0.7 is not between 0 and 0.5"},
		{"compare arm rules", []string{"compare", "--b-rules", invalid},
			"tallywood: compare: --b-rules: " + invalid + ": rules: cubes_per_district: 99 is out of range 1..20"},
		{"compare arm policy", []string{"compare", "--a-policy", "nope"},
			`tallywood: compare: --a-policy: policy "nope": unknown (known: ` + known + ")"},
		{"compare games", []string{"compare", "--games", "0"}, "tallywood: compare: --games 0: must be at least 1"},
		{"trace mode", []string{"trace", "--mode", "easy"}, `tallywood: trace: --mode "easy" is not normal or hard`},
		{"trace format", []string{"trace", "--format", "json"}, `tallywood: trace: --format "json" is not text or jsonl`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tt.name, " ", "-"))
			args := append(append([]string{}, tt.args...), "--quiet")
			if tt.args[0] == "merge" || tt.args[0] == "trace" {
				args = tt.args
			}
			if tt.args[0] != "trace" {
				args = append(args, "--out", out)
			}
			if tt.args[0] == "merge" {
				args = append([]string{"merge", "--out", out}, tt.args[1:]...)
			}
			code, stdout, stderr := runCLI(t, args...)
			if code != exitBadArgs {
				t.Errorf("exit %d, want %d", code, exitBadArgs)
			}
			if got := strings.TrimSuffix(stderr, "\n"); got != tt.want {
				t.Errorf("stderr\n%s\nwant\n%s", got, tt.want)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("--out %s was written", out)
			}
		})
	}
}

// untimedJSON strips the timing fields of a sim result.
func untimedJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	r, err := sim.DecodeResult(data)
	if err != nil {
		t.Fatal(err)
	}
	r.GamesPerSecond, r.ElapsedSeconds = 0, 0
	for i := range r.Cells {
		r.Cells[i].GamesPerSecond, r.Cells[i].ElapsedSeconds = 0, 0
	}
	return r.JSON()
}

func TestSimDeterministicAcrossWorkers(t *testing.T) {
	var want []byte
	for _, w := range []string{"1", "2", "4"} {
		code, out, errs := runCLI(t, "sim", "--games", "300", "--policy", "random", "--politician", "all",
			"--workers", w, "--format", "json", "--quiet")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		got := untimedJSON(t, []byte(out))
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("--workers %s differs from --workers 1", w)
		}
	}
}

// TestShardMergeEqualsSingleRun is the scale-out contract: shards 1/4 …
// 4/4 merged equal the unsharded run.
func TestShardMergeEqualsSingleRun(t *testing.T) {
	dir := t.TempDir()
	common := []string{"--games", "403", "--policy", "random", "--seed", "11", "--format", "json", "--quiet"}
	code, whole, errs := runCLI(t, append([]string{"sim"}, common...)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	files := []string{}
	for k := 1; k <= 4; k++ {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		files = append(files, f)
		args := append([]string{"sim", "--shard", fmt.Sprintf("%d/4", k), "--workers", "1", "--out", f}, common...)
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, errs)
		}
	}
	code, merged, errs := runCLI(t, append([]string{"merge"}, files...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if !bytes.Equal(untimedJSON(t, []byte(merged)), untimedJSON(t, []byte(whole))) {
		t.Errorf("merged shards differ from the single run:\n%s\nwant\n%s", merged, whole)
	}
}

func TestSimInterruptedWritesPartialResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	old := baseContext
	baseContext = func() context.Context { return ctx }
	defer func() { baseContext = old }()
	out := filepath.Join(t.TempDir(), "partial.json")
	code, _, errs := runCLI(t, "sim", "--games", "1000000", "--policy", "random", "--format", "json", "--out", out, "--quiet")
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if !strings.Contains(errs, "interrupted") {
		t.Errorf("stderr %q does not say interrupted", errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Interrupted bool }
	if err := json.Unmarshal(data, &r); err != nil || !r.Interrupted {
		t.Errorf("partial result not marked interrupted (err %v): %s", err, data)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestSimOutputs(t *testing.T) {
	tests := []struct {
		format string
		check  func(t *testing.T, out string)
	}{
		{"table", func(t *testing.T, out string) {
			for _, s := range []string{"WIN RATE [95% CI]", "| normal | random | random", "| hard   | random | random", "Where games are won and lost", "| Yellow "} {
				if !strings.Contains(out, s) {
					t.Errorf("table lacks %q:\n%s", s, out)
				}
			}
		}},
		{"csv", func(t *testing.T, out string) {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 3 || lines[0] != strings.Join(simCSVHeader, ",") {
				t.Errorf("csv:\n%s", out)
			}
			if !strings.HasPrefix(lines[1], "normal,random,random,50,") {
				t.Errorf("csv row %q", lines[1])
			}
		}},
		{"json", func(t *testing.T, out string) {
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"rules_hash", "seed", "games_per_cell", "cells", "interrupted", "games_per_second"} {
				if _, ok := doc[k]; !ok {
					t.Errorf("json lacks %q", k)
				}
			}
			cell := doc["cells"].([]any)[0].(map[string]any)
			for _, k := range []string{"mode", "policy", "politician", "games", "wins", "draws", "losses", "win_rate",
				"win_ci95", "mean_margin", "margin_ci95", "mean_player_votes", "mean_opposition_votes",
				"margin_quantiles", "districts", "fallbacks"} {
				if _, ok := cell[k]; !ok {
					t.Errorf("json cell lacks %q", k)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			code, out, errs := runCLI(t, "sim", "--games", "50", "--policy", "random", "--format", tt.format)
			if code != exitOK || errs != "" {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			tt.check(t, out)
		})
	}
}

func TestTrace(t *testing.T) {
	code, out, errs := runCLI(t, "trace", "--seed", "5", "--game", "3", "--policy", "random")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.HasPrefix(out, "Game 3 of seed 5") || !strings.Contains(out, "Result: you ") {
		t.Errorf("narration:\n%s", out)
	}
	code, out, errs = runCLI(t, "trace", "--seed", "5", "--game", "3", "--policy", "random", "--format", "jsonl")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var last struct{ Kind, Text string }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != "result" {
		t.Errorf("last line %q (err %v), want the result event", lines[len(lines)-1], err)
	}
}

// TestTraceReplaysSimGame checks that trace plays the same game as sim:
// the result of game i of seed s is the one sim counted.
func TestTraceReplaysSimGame(t *testing.T) {
	code, out, _ := runCLI(t, "sim", "--games", "1", "--seed", "9", "--mode", "hard", "--policy", "random", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatal(code)
	}
	r, err := sim.DecodeResult([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	margin := int(r.Cells[0].MeanMargin)
	_, trace, _ := runCLI(t, "trace", "--seed", "9", "--game", "0", "--mode", "hard", "--policy", "random")
	if !strings.HasSuffix(trace, outcomeWords(margin)+"\n") {
		t.Errorf("trace does not end with margin %+d:\n%s", margin, trace[max(0, len(trace)-200):])
	}
}

func TestPolicies(t *testing.T) {
	code, out, _ := runCLI(t, "policies")
	if code != exitOK || !strings.Contains(out, "random") {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestSplitPolicies(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"greedy,random", []string{"greedy", "random"}},
		{"mcts:iters=400,rollout=greedy,random", []string{"mcts:iters=400,rollout=greedy", "random"}},
		{"random,mcts:iters=4,c=1.4", []string{"random", "mcts:iters=4,c=1.4"}},
		{"random", []string{"random"}},
	}
	for _, tt := range tests {
		if got := splitPolicies(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("splitPolicies(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestProgressLine(t *testing.T) {
	got := progressLine(250, 1000, 5e9)
	want := "[=======                       ]  25% 250/1000 games  50 games/s  ETA 0:15\033[K"
	if got != want {
		t.Errorf("progressLine = %q, want %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	// The random policy never wins, so the arms never differ in wins and
	// the SPRT accepts H0 after 146 ties (n·log 0.98 ≤ log(1/19)).
	code, out, errs := runCLI(t, "compare", "--policy", "random", "--b-mode", "hard", "--sprt", "0,0.02",
		"--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r sim.CompareResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.SPRT == nil || r.SPRT.Decision != "H0" || r.Games != 146 || r.SPRT.Games != 146 {
		t.Errorf("SPRT %+v after %d games, want H0 after 146", r.SPRT, r.Games)
	}
	if r.A.Mode != "normal" || r.B.Mode != "hard" || r.MeanMarginDiff >= 0 {
		t.Errorf("arms %s/%s, margin difference %g: want normal/hard with hard worse", r.A.Mode, r.B.Mode, r.MeanMarginDiff)
	}
	code, out, errs = runCLI(t, "compare", "--policy", "random", "--b-mode", "hard", "--games", "100", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"| A   |", "| B   |", "win rate", "McNemar", "mean margin"} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
}

func TestOutDirectoryMissing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "no", "such", "x.json")
	code, stdout, stderr := runCLI(t, "sim", "--games", "10", "--out", out)
	want := fmt.Sprintf("tallywood: sim: --out: directory %q does not exist\n", filepath.Dir(out))
	if code != exitBadArgs || stderr != want || stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %q; want exit 2 and %q", code, stderr, stdout, want)
	}
}
