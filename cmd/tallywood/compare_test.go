package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/report"
)

// TestCompareSweepBadInput: every bad input of compare and sweep is one
// line naming the flag, exit 2, nothing written.
func TestCompareSweepBadInput(t *testing.T) {
	dir := t.TempDir()
	invalid, _ := badRulesFiles(t, dir)
	known := strings.Join(policy.Names(), ", ")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"same arms", []string{"compare"},
			"tallywood: compare: arms A and B are the same: set one of --a-/--b-rules, -set, -mode, -policy or -politician"},
		{"same arms by spelling", []string{"compare", "--a-policy", "mcts", "--b-policy", "mcts:c=0.7"},
			"tallywood: compare: arms A and B are the same: set one of --a-/--b-rules, -set, -mode, -policy or -politician"},
		{"sprt one number", []string{"compare", "--b-mode", "hard", "--sprt", "0.02"},
			`tallywood: compare: --sprt "0.02" is not P0,P1: two different finite differences B − A between -1 and 1`},
		{"sprt margin NaN", []string{"compare", "--b-mode", "hard", "--sprt", "0,NaN", "--sprt-on", "margin"},
			`tallywood: compare: --sprt "0,NaN" is not P0,P1: two different finite differences B − A`},
		{"sprt NaN", []string{"compare", "--b-mode", "hard", "--sprt", "NaN,0.02"},
			`tallywood: compare: --sprt "NaN,0.02" is not P0,P1: two different finite differences B − A between -1 and 1`},
		{"sprt Inf", []string{"compare", "--b-mode", "hard", "--sprt", "0,+Inf"},
			`tallywood: compare: --sprt "0,+Inf" is not P0,P1: two different finite differences B − A between -1 and 1`},
		{"sprt-delta NaN", []string{"compare", "--b-mode", "hard", "--sprt-delta", "NaN"},
			"tallywood: compare: --sprt-delta NaN: not a finite number"},
		{"sprt-delta 1", []string{"compare", "--b-mode", "hard", "--sprt-delta", "1"},
			"tallywood: compare: --sprt-delta 1 is not above 0 and below 1"},
		{"sprt-delta 0", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0"},
			"tallywood: compare: --sprt-delta 0 is not above 0 and below 1"},
		{"sprt-delta 0 on the margin", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0", "--sprt-on", "margin"},
			"tallywood: compare: --sprt-delta 0 is not above 0 and below +Inf"},
		{"sprt both", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0.02", "--sprt", "0,0.02"},
			"tallywood: compare: --sprt-delta and --sprt: give one sequential test"},
		{"sprt-on", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0.02", "--sprt-on", "votes"},
			`tallywood: compare: --sprt-on "votes" is not score or margin`},
		{"alpha", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0.02", "--alpha", "0.7"},
			"tallywood: compare: --alpha 0.7 is not between 0 and 0.5"},
		{"beta", []string{"compare", "--b-mode", "hard", "--sprt", "0,0.02", "--beta", "0.5"},
			"tallywood: compare: --beta 0.5 is not between 0 and 0.5"},
		{"sprt-delta margin", []string{"compare", "--b-mode", "hard", "--sprt-delta", "-3", "--sprt-on", "margin"},
			"tallywood: compare: --sprt-delta -3 is not above 0 and below +Inf"},
		{"beta Inf", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0.02", "--beta", "Inf"},
			"tallywood: compare: --beta +Inf: not a finite number"},
		{"alpha alone", []string{"compare", "--b-mode", "hard", "--alpha", "0.01"},
			"tallywood: compare: --alpha needs --sprt-delta or --sprt"},
		{"sprt with shard", []string{"compare", "--b-mode", "hard", "--sprt-delta", "0.02", "--shard", "1/2"},
			"tallywood: compare: --shard: a sequential test needs every game in order; drop --shard or the test"},
		{"arm rules", []string{"compare", "--b-rules", invalid},
			"tallywood: compare: --b-rules: " + invalid + ": rules: cubes_per_district: 99 is out of range 1..20"},
		{"arm set path", []string{"compare", "--b-set", "difficulties.hard.bonus_divisr=3"},
			`tallywood: compare: --b-set: rules: set difficulties.hard.bonus_divisr=3: difficulties.hard has no field "bonus_divisr" (nearest: bonus_divisor)`},
		// What labels a result must read back from it.
		{"arm name bidi", []string{"compare", "--b-mode", "hard", "--a-name", "old\u202e"},
			`tallywood: compare: arm A's name "old\u202e" (--a-name, or its rules file's base name) holds U+202E, a control or hidden character (it names the arm on one line)`},
		{"arm set newline", []string{"compare", "--b-set", "notes=a\nb"},
			`tallywood: compare: --b-set: rules: set "notes=a\nb": holds U+000A, a control or hidden character (an assignment is one line, shown as written)`},
		{"arm policy", []string{"compare", "--a-policy", "nope"},
			`tallywood: compare: --a-policy: policy "nope": unknown (known: ` + known + ")"},
		{"policy twice", []string{"compare", "--policy", "greedy,GREEDY", "--b-mode", "hard"},
			`tallywood: compare: --policy "greedy,GREEDY": "GREEDY" is given twice`},
		{"mode twice", []string{"compare", "--mode", "hard,Hard"},
			`tallywood: compare: --mode "hard,Hard": "Hard" is given twice`},
		{"mode unknown", []string{"compare", "--mode", "normal,easy"},
			`tallywood: compare: --mode "normal,easy": "easy" is not normal, hard or both`},
		{"mode list with arm mode", []string{"compare", "--mode", "normal,hard", "--b-mode", "hard"},
			`tallywood: compare: --mode "normal,hard": one value, since an arm flag sets the mode`},
		{"politician twice", []string{"compare", "--politician", "starlet,Starlet", "--b-mode", "hard"},
			`tallywood: compare: --politician "starlet,Starlet": "Starlet" is given twice`},
		{"games 0", []string{"compare", "--games", "0"}, "tallywood: compare: --games 0 is outside 1..1000000000000"},
		{"games huge", []string{"compare", "--b-mode", "hard", "--games", "9223372036854775807"},
			"tallywood: compare: --games 9223372036854775807 is outside 1..1000000000000"},
		{"format", []string{"compare", "--b-mode", "hard", "--format", "svg"}, `tallywood: compare: --format "svg" is not table, json, csv or html`},
		{"sweep no set", []string{"sweep"}, "tallywood: sweep: no --set PATH=VALUES given"},
		{"sweep bad range", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=4..2"},
			`tallywood: sweep: --set: "difficulties.hard.bonus_divisor=4..2": range "4..2" is not A..B with integers A ≤ B`},
		{"sweep value twice", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1..3,2"},
			`tallywood: sweep: --set: "difficulties.hard.bonus_divisor=1..3,2": value 2 given twice`},
		{"sweep bad value", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,x"},
			`tallywood: sweep: --set: rules: set difficulties.hard.bonus_divisor=x: difficulties.hard.bonus_divisor: "x" is not a valid whole number`},
		{"sweep bad path", []string{"sweep", "--set", "difficulties.hard.bonus=1"},
			`tallywood: sweep: --set: rules: set difficulties.hard.bonus=1: difficulties.hard has no field "bonus" (nearest: bonus_divisor, bonus_rounding)`},
		{"sweep target NaN", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,2", "--target", "NaN"},
			"tallywood: sweep: --target NaN: a win rate above 0 and below 1"},
		{"sweep target two sets", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,2", "--set", "cubes_per_district=9,10", "--target", "0.4"},
			"tallywood: sweep: --target needs exactly one --set"},
		{"sweep games huge", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,2", "--games", "9223372036854775807"},
			"tallywood: sweep: --games 9223372036854775807 is outside 1..1000000000000"},
		{"sweep too many points", []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1..40", "--set", "cubes_per_district=1..40"},
			"tallywood: sweep: --set: 1600 or more points: at most 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+strings.ReplaceAll(tt.name, " ", "-"))
			code, stdout, stderr := runCLI(t, append(append([]string{}, tt.args...), "--quiet", "--out", out)...)
			if code != exitBadArgs {
				t.Errorf("exit %d, want %d", code, exitBadArgs)
			}
			want := tt.want
			if !strings.Contains(want, ": rules: cubes_per_district") {
				// A usage error points to the help; a bad file does not.
				want += "; see 'tallywood " + tt.args[0] + " --help'"
			}
			if got := strings.TrimSuffix(stderr, "\n"); got != want {
				t.Errorf("stderr\n%s\nwant\n%s", got, want)
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

// TestCompareFindsHardOnlyChange: with the default
// difficulties, a change to Hard's bonus divisor reads "easier" on Hard,
// in the JSON and in words; the Normal cell, which cannot read it, is not
// played, and the result says why.
func TestCompareFindsHardOnlyChange(t *testing.T) {
	games := "1500"
	if testing.Short() {
		games = "800" // still clear on seed 1; the race detector runs this too
	}
	code, out, errs := runCLI(t, "compare", "--b-set", "difficulties.hard.bonus_divisor=3", "--policy", "greedy", "--games", games,
		"--a-name", "old", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r sim.CompareResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind != "compare" || r.A.Name != "old" || r.B.Name != "reference [difficulties.hard.bonus_divisor=3]" ||
		len(r.B.Overrides) != 1 || r.CellsTested != 1 || len(r.Cells) != 1 || len(r.Changes) != 1 {
		t.Fatalf("header %+v %+v, %d cells, changes %+v", r.A, r.B, len(r.Cells), r.Changes)
	}
	if len(r.Skipped) != 1 || r.Skipped[0].Mode != "normal" {
		t.Errorf("skipped %+v, want Normal", r.Skipped)
	}
	if v := r.Cells[0].Verdict; r.Cells[0].A.Mode != "hard" || v != sim.ScoreEasier {
		t.Errorf("Hard: %s", v)
	}
	r.B.Name = "mine"
	var b bytes.Buffer
	if err := report.Text(&b, report.Source{Study: &r}, report.TextOptions{Wide: true}); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, s := range []string{"B = mine (rules ", "seed 1", "verdicts at the 5% level over all 2 tests, a score and a margin per cell",
		"B differs from A in:\n  difficulties.hard.bonus_divisor: 2 → 3\n",
		"Not played: Normal, casual: its game reads none of the changes", "points easier than old at Hard for a casual player (win rate ",
		"pairs (A's result → B's): W→W"} {
		if !strings.Contains(table, s) {
			t.Errorf("table lacks %q:\n%s", s, table)
		}
	}
}

// TestCompareArmsDifferAndSameWarning: what differs is said with the
// result, on stdout (with --quiet too); arms that play identically but
// differ in name are warned about.
func TestCompareArmsDifferAndSameWarning(t *testing.T) {
	code, out, errs := runCLI(t, "compare", "--policy", "random", "--mode", "normal", "--b-mode", "hard", "--games", "10", "--quiet")
	if code != exitOK || !strings.Contains(out, "B differs from A in:\n  difficulty: Normal → Hard\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	// --b-set takes a card by its id, and the arms' difference
	// names it so.
	code, out, errs = runCLI(t, "compare", "--policy", "random", "--games", "10", "--b-set", "solo_cards[S-13].left_action=Celebrity", "--quiet")
	if code != exitOK || !strings.Contains(out, "B differs from A in:\n  solo_cards[S-13].left_action: Research → Celebrity\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, _, errs = runCLI(t, "compare", "--policy", "random", "--games", "10", "--b-name", "copy", "--quiet")
	if code != exitOK || errs != "tallywood: compare: warning: arms A and B play identically (same rules content, difficulty, policy and politician): every difference will be 0\n" {
		t.Errorf("exit %d, stderr:\n%s", code, errs)
	}
}

// TestCompareSequentialInWords: the random policy never wins, so both
// one-sided tests (each at α/2) decide for no difference after 148 ties,
// and the line in words gives the test's answer (it gave the
// fixed-size rule's "no clear difference"). Without --wide no line is
// wider than 100 columns.
func TestCompareSequentialInWords(t *testing.T) {
	args := []string{"compare", "--policy", "random", "--mode", "normal", "--b-mode", "hard", "--sprt-delta", "0.02", "--quiet"}
	code, out, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	code, out, errs = runCLI(t, append(args, "--wide")...)
	if code != exitOK {
		t.Fatalf("--wide: exit %d: %s", code, errs)
	}
	for _, s := range []string{
		"sequential test on the score, zone ±2 points, α = 0.05 (0.025 a one-sided test), β = 0.05: B is within ±2 points of A: no difference fits the games better than ±2 points (after 148 pairs)",
		"estimates above: biased by the stop",
		"Hard against Normal for the player random: within ±2 points (sequential test) (win rate 0.0% → 0.0%",
		"a cell with a sequential test takes its verdict from that test instead, at α = 0.05 over all the cells",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
}

// untimed strips the timing fields of a compare or sweep result.
func untimed(t *testing.T, data []byte) []byte {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			delete(x, "games_per_second")
			delete(x, "elapsed_seconds")
			for _, y := range x {
				strip(y)
			}
		case []any:
			for _, y := range x {
				strip(y)
			}
		}
	}
	strip(v)
	b, _ := json.Marshal(v)
	return b
}

// TestCompareSweepWorkersAndShards: compare and sweep give the same result
// for any --workers and for shards merged with `merge`.
func TestCompareSweepWorkersAndShards(t *testing.T) {
	dir := t.TempDir()
	games := "131"
	if testing.Short() {
		games = "47" // the race detector runs this too
	}
	for _, cmd := range [][]string{
		{"compare", "--policy", "random,greedy", "--mode", "normal", "--b-mode", "hard", "--games", games, "--seed", "4"},
		{"sweep", "--set", "difficulties.hard.bonus_divisor=1..3", "--mode", "hard", "--games", games, "--seed", "4", "--target", "0.1"},
	} {
		t.Run(cmd[0], func(t *testing.T) {
			want := sameForWorkers(t, cmd, "1", "2", "3")
			var files []string
			for k := 1; k <= 3; k++ {
				f := filepath.Join(dir, fmt.Sprintf("%s-%d.json", cmd[0], k))
				files = append(files, f)
				if code, _, errs := runCLI(t, append(cmd, "--shard", fmt.Sprintf("%d/3", k), "--format", "json", "--out", f, "--quiet")...); code != exitOK {
					t.Fatalf("shard %d: exit %d: %s", k, code, errs)
				}
			}
			code, out, errs := runCLI(t, append([]string{"merge", "--format", "json"}, files...)...)
			if code != exitOK {
				t.Fatalf("merge: exit %d: %s", code, errs)
			}
			if got := untimed(t, []byte(out)); !bytes.Equal(got, want) {
				t.Errorf("merged shards differ from the whole run:\n%s\nwant\n%s", got, want)
			}
			if code, out, errs := runCLI(t, append([]string{"merge", "--format", "table"}, files...)...); code != exitOK || !strings.Contains(out, "seed 4") {
				t.Errorf("merge table: exit %d: %s\n%s", code, errs, out)
			}
		})
	}
}

// TestSeatsWorkers: a study of several players and a comparison at a
// table give the same result for --workers 1 and 3 (80 deals: five chunks
// of deals, so three workers do play side by side).
func TestSeatsWorkers(t *testing.T) {
	deals := "80"
	if testing.Short() {
		deals = "40" // the race detector runs this too
	}
	for _, cmd := range [][]string{
		{"sim", "--seats", "3", "--policy", "greedy,random,random", "--games", deals, "--seed", "4"},
		{"compare", "--seats", "3", "--policy", "greedy,random,random", "--b-set", "track.max=14", "--games", deals, "--seed", "4"},
	} {
		t.Run(cmd[0], func(t *testing.T) { sameForWorkers(t, cmd, "1", "3") })
	}
}

// sameForWorkers runs cmd with each --workers of workers, reports a JSON
// result that differs (timing aside) from the first's, and returns that.
func sameForWorkers(t *testing.T, cmd []string, workers ...string) []byte {
	t.Helper()
	var want []byte
	for _, w := range workers {
		code, out, errs := runCLI(t, append(cmd, "--workers", w, "--format", "json", "--quiet")...)
		if code != exitOK {
			t.Fatalf("--workers %s: exit %d: %s", w, code, errs)
		}
		got := untimed(t, []byte(out))
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("--workers %s differs from --workers %s:\n%s\nwant\n%s", w, workers[0], got, want)
		}
	}
	return want
}

// TestSweepOutputs: the table, JSON and CSV of one sweep agree, the seed
// and where the win rate meets the target are printed, in 100 columns.
func TestSweepOutputs(t *testing.T) {
	args := []string{"sweep", "--set", "difficulties.hard.bonus_divisor=1,3", "--mode", "hard", "--games", "200", "--target", "0.1", "--quiet"}
	code, table, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"seed 1, 200 games", "swept: difficulties.hard.bonus_divisor\n", "| bonus_divisor |",
		"the win rate may meet 10.0% at difficulties.hard.bonus_divisor: ", "meets 10.0% ±2 points at no swept value",
		"Target: each swept value's"} {
		if !strings.Contains(table, s) {
			t.Errorf("table lacks %q:\n%s", s, table)
		}
	}
	for _, l := range strings.Split(table, "\n") {
		if utf8.RuneCountInString(l) > 100 {
			t.Errorf("a line of %d columns: %s", utf8.RuneCountInString(l), l)
		}
	}
	if code, _, errs := runCLI(t, append(args, "--wide", "--format", "json")...); code == exitOK || !strings.Contains(errs, "--wide only matters with --format table") {
		t.Errorf("--wide with json: exit %d: %s", code, errs)
	}
	code, csvOut, errs := runCLI(t, append(args, "--format", "csv")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(csvOut), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "mode,policy,politician,difficulties.hard.bonus_divisor,is_base,games,") ||
		!strings.HasPrefix(lines[1], "hard,casual,random,base,true,200,") || !strings.HasPrefix(lines[3], "hard,casual,random,3,false,200,") {
		t.Errorf("csv:\n%s", csvOut)
	}
	code, js, errs := runCLI(t, append(args, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r, err := sim.DecodeAs[*sim.SweepResult]([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind != "sweep" || r.Seed != 1 || len(r.Cells) != 1 || len(r.Cells[0].Points) != 2 || r.Cells[0].Crossing == nil {
		t.Errorf("json: %+v", r)
	}
}
