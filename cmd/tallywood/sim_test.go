package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/deal"
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

// TestBadInput checks every bad input (issues 5, 11 and 14): one line on
// stderr naming what is wrong, the exact message, exit code 2, nothing on
// stdout and nothing written to --out. OUT in args is a fresh path.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	invalid, malformed := badRulesFiles(t, dir)
	missing := filepath.Join(dir, "missing.json")
	known := strings.Join(policy.Names(), ", ")
	politicians := "magnate, starlet, moderate, red-favourite, blue-favourite, populist"

	// Shard results: two of different runs, one the same shard again,
	// one spoiled, one of another version.
	shard := func(name, seed, k string) string {
		p := filepath.Join(dir, name)
		if code, _, errs := runCLI(t, "sim", "--games", "20", "--mode", "normal", "--policy", "random", "--seed", seed,
			"--shard", k, "--out", p, "--quiet"); code != exitOK {
			t.Fatalf("shard run: exit %d: %s", code, errs)
		}
		return p
	}
	shardA, shardB, sameShard := shard("a.json", "1", "1/2"), shard("b.json", "2", "2/2"), shard("a2.json", "1", "1/2")
	spoilFile := func(name, from, old, new string) string {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		spoiled := strings.Replace(string(data), old, new, 1)
		if spoiled == string(data) {
			t.Fatalf("%s: no %q to spoil", from, old)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(spoiled), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shard2 := shard("c.json", "1", "2/2")
	table := func(name, lineup, k string) string {
		p := filepath.Join(dir, name)
		if code, _, errs := runCLI(t, "sim", "--seats", strconv.Itoa(strings.Count(lineup, ",")+1), "--policy", lineup, "--games", "6",
			"--shard", k, "--out", p, "--quiet"); code != exitOK {
			t.Fatalf("table run: exit %d: %s", code, errs)
		}
		return p
	}
	tableA, tableOther := table("t1.json", "random,random", "1/2"), table("t2.json", "random,random,random", "2/2")
	negative := spoilFile("neg.json", shard2, `"losses": 10,`, `"losses": -10,`)
	otherVersion := spoilFile("v.json", shard2, `"tallywood_version": "`, `"tallywood_version": "v0.0.1 `)
	concatenated := filepath.Join(dir, "two.json")
	data, _ := os.ReadFile(shardA)
	os.WriteFile(concatenated, append(data, data...), 0o644)
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, bytes.Repeat([]byte(" "), sim.MaxResultBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)

	see := func(cmd string) string { return "; see 'tallywood " + cmd + " --help'" }
	tests := []struct {
		name string
		args []string
		want string
	}{
		// Flags and arguments.
		{"no command", []string{"frob"}, `tallywood: unknown command "frob"; see 'tallywood --help'`},
		{"help of no command", []string{"help", "frob"}, `tallywood: help: unknown command "frob"; see 'tallywood --help'`},
		{"sim unknown flag", []string{"sim", "--bogus"}, `tallywood: sim: unknown flag "--bogus"` + see("sim")},
		{"sim unknown shorthand", []string{"sim", "-x"}, `tallywood: sim: unknown flag "-x"` + see("sim")},
		{"sim flag without value", []string{"sim", "--games"}, "tallywood: sim: --games needs a value" + see("sim")},
		{"sim games not a number", []string{"sim", "--games", "ten"}, `tallywood: sim: --games "ten": not a whole number` + see("sim")},
		{"sim games beyond int64", []string{"sim", "--games", "99999999999999999999"}, `tallywood: sim: --games "99999999999999999999": out of range` + see("sim")},
		{"sim games 0", []string{"sim", "--games", "0"}, "tallywood: sim: --games 0 is outside 1..1000000000000" + see("sim")},
		{"sim games negative", []string{"sim", "--games=-3"}, "tallywood: sim: --games -3 is outside 1..1000000000000" + see("sim")},
		{"sim games max int64 (item 8)", []string{"sim", "--games", "9223372036854775807"}, "tallywood: sim: --games 9223372036854775807 is outside 1..1000000000000" + see("sim")},
		{"sim seed negative", []string{"sim", "--seed=-1"}, `tallywood: sim: --seed "-1": not a whole number ≥ 0` + see("sim")},
		{"sim quiet not a bool", []string{"sim", "--quiet=maybe"}, `tallywood: sim: --quiet "maybe": not true or false` + see("sim")},
		{"sim unknown policy", []string{"sim", "--policy", "nope"},
			`tallywood: sim: --policy: policy "nope": unknown (known: ` + known + ")" + see("sim")},
		{"sim policy parameter", []string{"sim", "--policy", "random:depth=3"},
			`tallywood: sim: --policy: policy "random:depth=3": random has no parameter "depth"` + see("sim")},
		{"sim policy not key=value", []string{"sim", "--policy", "random:depth"},
			`tallywood: sim: --policy: policy "random:depth": "depth" is not key=value` + see("sim")},
		{"sim policy twice", []string{"sim", "--policy", "greedy,Greedy"}, `tallywood: sim: --policy "greedy,Greedy": "Greedy" is given twice` + see("sim")},
		{"sim policy twice spelt apart", []string{"sim", "--policy", "mcts,mcts:c=0.7"},
			`tallywood: sim: --policy "mcts,mcts:c=0.7": "mcts" and "mcts:c=0.7" are the same` + see("sim")},
		{"sim shard K>N", []string{"sim", "--shard", "5/4"}, `tallywood: sim: --shard "5/4" is not K/N with 1 ≤ K ≤ N` + see("sim")},
		{"sim shard 0", []string{"sim", "--shard", "0/4"}, `tallywood: sim: --shard "0/4" is not K/N with 1 ≤ K ≤ N` + see("sim")},
		{"sim shard text", []string{"sim", "--shard", "half"}, `tallywood: sim: --shard "half" is not K/N with 1 ≤ K ≤ N` + see("sim")},
		{"sim mode", []string{"sim", "--mode", "easy"}, `tallywood: sim: --mode "easy" is not normal, hard or both` + see("sim")},
		{"sim mode in a list", []string{"sim", "--mode", "normal,easy"}, `tallywood: sim: --mode "normal,easy": "easy" is not normal, hard or both` + see("sim")},
		{"sim mode twice", []string{"sim", "--mode", "hard,HARD"}, `tallywood: sim: --mode "hard,HARD": "HARD" is given twice` + see("sim")},
		{"sim mode empty item", []string{"sim", "--mode", "normal,"}, `tallywood: sim: --mode "normal,": empty item in the list` + see("sim")},
		{"sim mode with a newline (item 17)", []string{"sim", "--mode", "hard\nnormal"}, `tallywood: sim: --mode "hard\nnormal" is not normal, hard or both` + see("sim")},
		{"sim format", []string{"sim", "--format", "xml"}, `tallywood: sim: --format "xml" is not table, json, csv or html` + see("sim")},
		{"sim seats out xml", []string{"sim", "--seats", "2", "--format", "xml"},
			`tallywood: sim: --format "xml" is not table, json, csv or html` + see("sim")},
		{"sim format contradicts out", []string{"sim", "--format", "table", "--out", filepath.Join(dir, "r.json")},
			`tallywood: sim: --format "table" contradicts --out "` + filepath.Join(dir, "r.json") + `" (a .json file): drop --format or change the extension` + see("sim")},
		{"sim wide without table", []string{"sim", "--wide", "--format", "json"}, "tallywood: sim: --wide only matters with --format table" + see("sim")},
		{"sim politician", []string{"sim", "--politician", "nobody"},
			`tallywood: sim: --politician "nobody" is not a politician (` + politicians + ", random, all)" + see("sim")},
		{"sim politician twice", []string{"sim", "--politician", "all,Moderate"},
			`tallywood: sim: --politician "all,Moderate": all already holds every politician` + see("sim")},
		{"sim politician twice by case", []string{"sim", "--politician", "moderate,Moderate"},
			`tallywood: sim: --politician "moderate,Moderate": "Moderate" is given twice` + see("sim")},
		{"sim workers", []string{"sim", "--workers", "0"}, "tallywood: sim: --workers 0: must be at least 1" + see("sim")},
		{"sim argument", []string{"sim", "extra"}, `tallywood: sim: unexpected argument "extra"` + see("sim")},
		{"sim argument with a newline (item 17)", []string{"sim", "ex\ntra"}, `tallywood: sim: unexpected argument "ex\ntra"` + see("sim")},
		{"sim rules unreadable", []string{"sim", "--rules", missing},
			"tallywood: sim: --rules: rules file " + missing + ": no such file or directory"},
		{"sim rules invalid", []string{"sim", "--rules", invalid},
			"tallywood: sim: --rules: " + invalid + ": rules: cubes_per_district: 99 is out of range 1..20"},
		{"sim rules malformed", []string{"sim", "--rules", malformed},
			"tallywood: sim: --rules: " + malformed + ": rules: version: line 1, column 14: number is not a valid string"},

		// sim --seats: games of 2–4 players.
		{"sim seats 5", []string{"sim", "--seats", "5"}, "tallywood: sim: --seats 5 is outside 1..4" + see("sim")},
		{"sim seats 0", []string{"sim", "--seats", "0"}, "tallywood: sim: --seats 0 is outside 1..4" + see("sim")},
		{"sim seats with mode", []string{"sim", "--seats", "3", "--mode", "hard"},
			"tallywood: sim: --mode only matters with the solo game (--seats 1)" + see("sim")},
		{"sim seats with politician", []string{"sim", "--seats", "2", "--politician", "all"},
			"tallywood: sim: --politician only matters with the solo game (--seats 1)" + see("sim")},
		{"sim seats lineup too short", []string{"sim", "--seats", "3", "--policy", "greedy,random"},
			`tallywood: sim: --policy "greedy,random" names 2 policies for --seats 3: give one for every seat, or one per seat` + see("sim")},
		{"sim seats unknown policy", []string{"sim", "--seats", "2", "--policy", "random,nope"},
			`tallywood: sim: --policy: policy "nope": unknown (known: ` + known + ")" + see("sim")},

		{"compare seats with the same rules", []string{"compare", "--seats", "3"},
			"tallywood: compare: arms A and B play by the same rules: at a table they differ only in their rules; set --a-/--b-rules or -set" + see("compare")},
		{"compare seats with a mode", []string{"compare", "--seats", "2", "--b-mode", "hard"},
			"tallywood: compare: --b-mode only matters with the solo game (--seats 1)" + see("compare")},
		{"compare seats with a sequential test", []string{"compare", "--seats", "2", "--b-set", "track.max=14", "--sprt-delta", "0.02"},
			"tallywood: compare: --sprt-delta only matters with the solo game (--seats 1)" + see("compare")},
		{"compare seats 9", []string{"compare", "--seats", "9"}, "tallywood: compare: --seats 9 is outside 1..4" + see("compare")},

		// --out refused before the run.
		{"sim out a directory", []string{"sim", "--out", dir}, `tallywood: sim: --out "` + dir + `" is a directory` + see("sim")},
		{"sim out in a missing directory", []string{"sim", "--out", filepath.Join(dir, "no", "x.json")},
			`tallywood: sim: --out "` + filepath.Join(dir, "no", "x.json") + `": directory "` + filepath.Join(dir, "no") + `" does not exist` + see("sim")},
		{"sim out below a file", []string{"sim", "--out", filepath.Join(notDir, "x.json")},
			`tallywood: sim: --out "` + filepath.Join(notDir, "x.json") + `": not a directory` + see("sim")},
		{"sim out with a newline (item 17)", []string{"sim", "--out", dir + "/a\nb/x.csv"},
			`tallywood: sim: --out "` + dir + `/a\nb/x.csv": directory "` + dir + `/a\nb" does not exist` + see("sim")},

		// merge: shards that are not of one run, or not consistent (items 7, 9).
		{"merge different runs", []string{"merge", shardA, shardB},
			"tallywood: merge: " + shardB + ": seed 2 differs from 1 in " + shardA + ": shards of different runs"},
		{"merge same shard twice", []string{"merge", shardA, sameShard},
			"tallywood: merge: " + sameShard + ": shard 1/2 is already in " + shardA},
		{"merge not a result", []string{"merge", shardA, invalid},
			"tallywood: merge: " + invalid + `: not a tallywood result: no "kind" field`},
		{"merge negative losses", []string{"merge", shardA, negative},
			"tallywood: merge: " + negative + ": cell 1 (normal/random/random): losses -10 differs from counts (10)"},
		{"merge concatenated shards", []string{"merge", concatenated},
			"tallywood: merge: " + concatenated + ": not a tallywood sim result: data after the result at byte " + fmt.Sprint(len(data)) + " (concatenated results?)"},
		{"merge huge file (item 13)", []string{"merge", huge}, "tallywood: merge: " + huge + ": larger than 32 MiB, the most this file can be"},
		{"merge other version", []string{"merge", shardA, otherVersion},
			"tallywood: merge: " + otherVersion + `: tallywood_version "v0.0.1 ` + deal.Version() + `" differs from "` + deal.Version() + `" in ` + shardA +
				": rerun the shard with one build, or merge anyway with --allow-mixed-versions"},
		{"merge missing file", []string{"merge", shardA, missing}, "tallywood: merge: open " + missing + ": no such file or directory"},
		{"merge a study with a solo shard", []string{"merge", tableA, shardA},
			"tallywood: merge: " + shardA + ": a sim result, " + tableA + " a table result: merge shards of one run"},
		{"merge studies of other lineups", []string{"merge", tableA, tableOther},
			"tallywood: merge: " + tableOther + ": lineup random,random,random differs from random,random in " + tableA + ": shards of different runs"},
		{"merge no files", []string{"merge"}, "tallywood: merge: no result files given" + see("merge")},
		{"merge format", []string{"merge", "--format", "jsonl", shardA}, `tallywood: merge: --format "jsonl" is not table, json, csv or html` + see("merge")},
		{"merge out csv format json", []string{"merge", "--format", "json", "--out", filepath.Join(dir, "m.csv"), shardA},
			`tallywood: merge: --format "json" contradicts --out "` + filepath.Join(dir, "m.csv") + `" (a .csv file): drop --format or change the extension` + see("merge")},

		// trace, rules, scenario, policies, version, completion, help.
		{"trace mode", []string{"trace", "--mode", "easy"}, `tallywood: trace: --mode "easy" is not normal or hard` + see("trace")},
		{"trace format", []string{"trace", "--format", "json"}, `tallywood: trace: --format "json" is not text or jsonl` + see("trace")},
		{"trace game beyond sim's (item 8)", []string{"trace", "--game", "18446744073709551615"},
			"tallywood: trace: --game 18446744073709551615 is outside 0..999999999999" + see("trace")},
		{"trace two policies", []string{"trace", "--policy", "greedy,random"}, `tallywood: trace: --policy "greedy,random": one policy` + see("trace")},
		{"trace two politicians", []string{"trace", "--politician", "moderate,populist"}, `tallywood: trace: --politician "moderate,populist": one politician` + see("trace")},
		{"trace argument", []string{"trace", "x"}, `tallywood: trace: unexpected argument "x"` + see("trace")},
		{"rules unknown subcommand", []string{"rules", "frob"}, `tallywood: rules: unknown subcommand "frob" (dump, script, check, diff, export or import)` + see("rules")},
		{"rules dump argument", []string{"rules", "dump", "x"}, `tallywood: rules: dump takes no argument, not "x"` + see("rules")},
		{"rules check without file", []string{"rules", "check"}, "tallywood: rules: check takes one FILE, not 0 arguments" + see("rules")},
		{"rules check invalid", []string{"rules", "check", invalid}, "tallywood: " + invalid + ": rules: cubes_per_district: 99 is out of range 1..20"},
		{"rules unknown flag", []string{"rules", "--frob"}, `tallywood: rules: unknown flag "--frob"` + see("rules")},
		{"scenario unknown subcommand", []string{"scenario", "frob"}, `tallywood: scenario: unknown subcommand "frob" (run or setup)` + see("scenario")},
		{"scenario run without file", []string{"scenario", "run"}, "tallywood: scenario: run needs at least one FILE" + see("scenario")},
		{"policies argument", []string{"policies", "x"}, `tallywood: policies: unexpected argument "x"` + see("policies")},
		{"version argument", []string{"version", "x"}, `tallywood: version: unexpected argument "x"` + see("version")},
		{"completion shell", []string{"completion", "csh"}, `tallywood: completion: unknown shell "csh" (bash, zsh or fish)` + see("completion")},
		{"completion no shell", []string{"completion"}, "tallywood: completion: want one shell (bash, zsh or fish), not 0 arguments" + see("completion")},
		{"play mode", []string{"play", "--mode", "easy"}, `tallywood: play: --mode "easy" is not normal or hard` + see("play")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tt.name, " ", "-"))
			args := tt.args
			if args[0] == "sim" || args[0] == "compare" {
				args = append([]string{args[0], "--quiet"}, args[1:]...)
				if !slices.Contains(args, "--out") {
					args = append([]string{args[0], "--out", out}, args[1:]...)
				}
			}
			if args[0] == "merge" && !slices.Contains(args, "--out") {
				args = append([]string{"merge", "--out", out}, args[1:]...)
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
	t.Logf("%d bad inputs", len(tests))
}

// untimedJSON strips the timing fields of a sim result.
func untimedJSON(t *testing.T, data []byte) []byte {
	t.Helper()
	r, err := sim.DecodeAs[*sim.Result](data)
	if err != nil {
		t.Fatal(err)
	}
	r.GamesPerSecond, r.ElapsedSeconds = 0, 0
	for i := range r.Cells {
		r.Cells[i].GamesPerSecond, r.Cells[i].ElapsedSeconds = 0, 0
	}
	return sim.Encode(r)
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
	code, merged, errs := runCLI(t, append([]string{"merge", "--format", "json"}, files...)...)
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
			for _, s := range []string{"WIN RATE [95% CI]", "| normal | random | drawn ", "| hard   | random | drawn ", "Where games are won and lost", "| Yellow "} {
				if !strings.Contains(out, s) {
					t.Errorf("table lacks %q:\n%s", s, out)
				}
			}
		}},
		{"csv", func(t *testing.T, out string) {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 3 || !strings.HasPrefix(lines[0], "mode,policy,politician,games,wins,draws,losses,win_rate,") {
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
	r, err := sim.DecodeAs[*sim.Result]([]byte(out))
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

// TestDistinctExecPolicies: two exec specs of different commands are two
// policies, in a --policy list and as compare's arms (they were
// refused as "the same"); the same command twice still is one.
func TestDistinctExecPolicies(t *testing.T) {
	specs, err := parsePolicies("policy", "exec:sh a.sh,exec:sh b.sh,exec:sh 'c,d.sh'")
	if err != nil || len(specs) != 3 {
		t.Fatalf("got %d specs, %v", len(specs), err)
	}
	if specs[0].String() == specs[1].String() || specs[2].String() != "exec:sh 'c,d.sh'" {
		t.Errorf("specs %q, %q, %q", specs[0], specs[1], specs[2])
	}
	if _, err := parsePolicies("policy", "exec:sh 'a\u202e.sh'"); err == nil || !strings.Contains(err.Error(), "holds U+202E, a control or hidden character") {
		t.Errorf("a hidden character in a spec: %v", err)
	}
	if _, err := parsePolicies("policy", "exec:sh a.sh,exec:sh a.sh"); err == nil || !strings.Contains(err.Error(), "is given twice") {
		t.Errorf("the same command twice: %v", err)
	}
	// The arms are checked before --out, whose directory does not exist.
	out := filepath.Join(t.TempDir(), "none", "r.json")
	for _, b := range []string{"exec:sh b.sh", "exec:sh a.sh"} {
		_, _, stderr := runCLI(t, "compare", "--a-policy", "exec:sh a.sh", "--b-policy", b, "--games", "1", "--out", out)
		if same := strings.Contains(stderr, "arms A and B are the same"); same != (b == "exec:sh a.sh") {
			t.Errorf("--b-policy %q: %s", b, stderr)
		}
	}
}

func TestProgressLine(t *testing.T) {
	got := progressLine(250, 1000, 5e9, 15)
	want := "[=======                       ]  25% 250/1000 games  50 games/s  ETA 0:15\033[K"
	if got != want {
		t.Errorf("progressLine = %q, want %q", got, want)
	}
}

// TestCompareSeats: compare --seats writes a comparison of two rule sets
// at a table whose arms are the two studies sim --seats plays.
func TestCompareSeats(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "c.json")
	if code, _, errs := runCLI(t, "compare", "--seats", "2", "--policy", "random", "--b-set", "track.max=14", "--games", "30", "--out", out, "--quiet"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res sim.SeatsCompareResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if res.Kind != sim.KindSeatsCompare || res.Deals != 30 || res.A.Name != "reference" || res.B.Overrides[0] != "track.max=14" {
		t.Fatalf("kind %q, %d deals, arms %q and %v", res.Kind, res.Deals, res.A.Name, res.B.Overrides)
	}
	for k, set := range [][]string{nil, {"--set", "track.max=14"}} {
		p := filepath.Join(dir, fmt.Sprintf("s%d.json", k))
		args := append([]string{"sim", "--seats", "2", "--policy", "random", "--games", "30", "--out", p, "--quiet"}, set...)
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		b, _ := os.ReadFile(p)
		var study sim.SeatsResult
		if err := json.Unmarshal(b, &study); err != nil {
			t.Fatal(err)
		}
		arm := res.Initiative[0].A
		if k == 1 {
			arm = res.Initiative[0].B
		}
		if arm != study.Initiative[0] {
			t.Errorf("arm %d: %+v, want the study's %+v", k, arm, study.Initiative[0])
		}
	}
}

// TestHeaderCountsHeldGames: the header of a result counts
// the games it holds, so a merge of shards 3 and 5 of 8 of 800 games per
// cell says 200 of 800, not "800 games per cell"; so does a study of
// several players of its deals.
func TestHeaderCountsHeldGames(t *testing.T) {
	dir := t.TempDir()
	shard := func(args ...string) string {
		p := filepath.Join(dir, strings.ReplaceAll(strings.Join(args, ""), "/", "-")+".json")
		if code, _, errs := runCLI(t, append([]string{"sim", "--quiet", "--out", p}, args...)...); code != exitOK {
			t.Fatalf("sim %v: %s", args, errs)
		}
		return p
	}
	solo := []string{"--games", "800", "--policy", "random", "--mode", "normal", "--shard"}
	seats := []string{"--seats", "3", "--games", "80", "--policy", "random", "--shard"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"merge", shard(append(solo, "3/8")...), shard(append(solo, "5/8")...)}, "\nseed 1, 200 of 800 games per cell (shards 3+5/8); "},
		{[]string{"merge", shard(append(solo, "3/8")...)}, "\nseed 1, 100 of 800 games per cell (shard 3/8); "},
		{[]string{"sim", "--games", "80", "--policy", "random", "--mode", "normal", "--quiet"}, "\nseed 1, 80 games per cell; "},
		{[]string{"merge", shard(append(seats, "2/4")...), shard(append(seats, "4/4")...)}, "\nseed 1, 3 players without the Opposition, 40 of 80 deals (shards 2+4/4) × 3 seatings\n"},
		{[]string{"sim", "--seats", "3", "--games", "8", "--policy", "random", "--quiet"}, "\nseed 1, 3 players without the Opposition, 8 deals × 3 seatings = 24 games\n"},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != exitOK || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, stderr %q: want %q in\n%s", tc.args[:2], code, errs, tc.want, out)
		}
	}
}

// TestSeatsTextWidth: sim --seats's text fits 100 characters
// (it was 129), and --wide adds the columns the rates sum up.
func TestSeatsTextWidth(t *testing.T) {
	args := []string{"sim", "--seats", "4", "--policy", "greedy,pollster,builder,random", "--games", "10", "--quiet"}
	code, narrow, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i, l := range strings.Split(narrow, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d characters: %s", i+1, n, l)
		}
	}
	code, wide, errs := runCLI(t, append(args, "--wide")...)
	if code != exitOK {
		t.Fatalf("--wide: exit %d: %s", code, errs)
	}
	for _, col := range []string{"| WINS ", "| SHARED ", "| MEAN VOTES "} {
		if strings.Contains(narrow, col) || !strings.Contains(wide, col) {
			t.Errorf("column %q: want it with --wide only", col)
		}
	}
}

// TestSeatsCompareTextWidth: compare --seats's text fits 100
// characters (its footnote was 118).
func TestSeatsCompareTextWidth(t *testing.T) {
	code, out, errs := runCLI(t, "compare", "--seats", "3", "--policy", "greedy,builder,random", "--games", "4",
		"--b-set", "actions.campaign_polling=3", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line %d is %d characters: %s", i+1, n, l)
		}
	}
}
