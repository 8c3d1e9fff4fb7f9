package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy/exec/exectest"
)

// The test binary doubles as the player programs of the tests: Go fake
// players (exectest) start in milliseconds, where a Python player took
// seconds a study. With asMain in its environment it is tallywood itself,
// for the tests that need a process of its own (a shell's redirections,
// signals) without building the binary.
func TestMain(m *testing.M) {
	exectest.Main()
	if os.Getenv(asMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// asMain is the variable that makes the test binary run as tallywood.
const asMain = "TALLYWOOD_TEST_AS_MAIN"

// shell runs script with sh in dir, $TW the test binary as tallywood,
// and returns its exit code and stderr.
func shell(t *testing.T, dir, script string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asMain+"=1", "TW="+os.Args[0])
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, errb.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), errb.String()
	}
	t.Fatalf("sh -c %q: %v", script, err)
	return 0, ""
}

// TestExecPythonPlayers: the example players of docs/protocol.md
// (testdata/protocol) play through sim. The other exec tests play Go fake
// players.
func TestExecPythonPlayers(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed") // .ci/run installs it
	}
	for _, name := range []string{"random_player.py", "heuristic_player.py"} {
		path, err := filepath.Abs(filepath.Join("..", "..", "testdata", "protocol", name))
		if err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCLI(t, "sim", "--games", "2", "--mode", "normal", "--policy", "exec:python3 '"+path+"'", "--format", "json", "--quiet")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
		}
		if r, err := sim.DecodeAs[*sim.Result]([]byte(out)); err != nil || r.Cells[0].Games != 2 || r.Cells[0].Errors != 0 {
			t.Errorf("%s: result %v, %v; want 2 games and no errors", name, r, err)
		}
	}
}

// TestExecDeterministic: a random player program gives the same result
// for any --workers and for shards merged (16 games: two chunks of 8, so
// two workers, each with its own program, do play side by side).
func TestExecDeterministic(t *testing.T) {
	spec := exectest.Spec("random", "", "")
	dir := t.TempDir()
	common := []string{"--games", "16", "--mode", "normal", "--seed", "3", "--policy", spec, "--format", "json", "--quiet"}
	var want []byte
	for _, w := range []string{"1", "2"} {
		code, out, errs := runCLI(t, append([]string{"sim", "--workers", w}, common...)...)
		if code != exitOK {
			t.Fatalf("--workers %s: exit %d: %s", w, code, errs)
		}
		got := untimedJSON(t, []byte(out))
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("--workers %s differs from --workers 1:\n%s\nwant\n%s", w, got, want)
		}
	}
	var files []string
	for k := 1; k <= 2; k++ {
		f := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		files = append(files, f)
		args := append([]string{"sim", "--shard", fmt.Sprintf("%d/2", k), "--workers", "1", "--out", f}, common...)
		if code, _, errs := runCLI(t, args...); code != exitOK {
			t.Fatalf("shard %d: exit %d: %s", k, code, errs)
		}
	}
	code, merged, errs := runCLI(t, append([]string{"merge", "--format", "json"}, files...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if got := untimedJSON(t, []byte(merged)); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the single run:\n%s\nwant\n%s", got, want)
	}
	r, err := sim.DecodeAs[*sim.Result](want)
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Cells[0]; c.Games != 16 || c.Errors != 0 {
		t.Errorf("%d games, %d errors; want 16 and 0", c.Games, c.Errors)
	}
}

// TestExecReproducibleGame: trace plays one game of a random player
// program twice, in fresh programs, identically, and it is the game sim
// counted.
func TestExecReproducibleGame(t *testing.T) {
	spec := exectest.Spec("random", "", "")
	args := []string{"trace", "--seed", "9", "--game", "2", "--mode", "hard", "--policy", spec}
	code, first, errs := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, again, _ := runCLI(t, args...); again != first {
		t.Errorf("the same game traced twice differs")
	}
	code, out, errs := runCLI(t, "sim", "--games", "3", "--seed", "9", "--mode", "hard", "--policy", spec, "--workers", "1", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	r, err := sim.DecodeAs[*sim.Result]([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	// Games 0 and 1 of the run, traced, leave game 2's margin.
	sum := r.Cells[0].Counts.MarginSum
	for g := range 2 {
		_, tr, _ := runCLI(t, "trace", "--seed", "9", "--game", fmt.Sprint(g), "--mode", "hard", "--policy", spec)
		sum -= int64(traceMargin(t, tr))
	}
	if m := traceMargin(t, first); int64(m) != sum {
		t.Errorf("trace margin %+d, sim counted %+d for game 2", m, sum)
	}
}

func traceMargin(t *testing.T, trace string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^Result: you (\d+), Opposition (\d+)$`).FindStringSubmatch(trace)
	if m == nil {
		t.Fatalf("no result in the trace:\n%s", trace[max(0, len(trace)-300):])
	}
	var you, opp int
	fmt.Sscan(m[1], &you)
	fmt.Sscan(m[2], &opp)
	return you - opp
}

// TestExecMaxErrors: failed games are reported and counted apart; past
// --max-errors the run stops with a partial result and exit status 1.
func TestExecMaxErrors(t *testing.T) {
	dir := t.TempDir()
	var failing int64
	for i := range uint64(12) {
		if exectest.FailsGame(deal.GameSeed(3, i)) {
			failing++
		}
	}
	if failing == 0 {
		t.Fatal("no game of the run fails: pick another seed")
	}
	spec := exectest.Spec("crash", "", "")
	common := []string{"sim", "--games", "12", "--seed", "3", "--mode", "normal", "--policy", spec, "--workers", "1", "--format", "json", "--quiet"}

	out := filepath.Join(dir, "ok.json")
	code, _, errs := runCLI(t, append(common, "--max-errors", "100", "--out", out)...)
	if code != exitOK {
		t.Fatalf("--max-errors 100: exit %d: %s", code, errs)
	}
	line := regexp.MustCompile(`(?m)^tallywood: game \d+ failed, not scored: policy exec:'[^']+' fakeplayer crash: exec: game seed \d+, decision 5 \(round 1, \w+\): ` +
		`the program exited \(exit status 3\) before answering; its stderr ends: "fake player: crashing as asked" \[program "'[^']+' fakeplayer crash"\]$`)
	if n := len(line.FindAllString(errs, -1)); int64(n) != failing {
		t.Errorf("stderr lists %d failed games, want %d:\n%s", n, failing, errs)
	}
	r := decodeFile(t, out)
	if c := r.Cells[0]; c.Errors != failing || c.Games != 12-failing || r.Interrupted {
		t.Errorf("errors %d, games %d, interrupted %v; want %d, %d, false", c.Errors, c.Games, r.Interrupted, failing, 12-failing)
	}

	out = filepath.Join(dir, "stopped.json")
	code, _, errs = runCLI(t, append(common, "--out", out)...)
	if code != exitFailed {
		t.Errorf("--max-errors 0: exit %d, want %d", code, exitFailed)
	}
	r = decodeFile(t, out)
	want := fmt.Sprintf("tallywood: sim: too many failed games: 1 failed, --max-errors 0\n"+
		"tallywood: sim: interrupted: %q now holds a partial result (%d games, marked interrupted)\n", out, r.Cells[0].Games)
	if !strings.HasSuffix(errs, want) {
		t.Errorf("stderr %q\ndoes not end with %q", errs, want)
	}
	if !r.Interrupted || r.Cells[0].Errors != 1 {
		t.Errorf("interrupted %v, errors %d; want true, 1", r.Interrupted, r.Cells[0].Errors)
	}

	code, _, errs = runCLI(t, "sim", "--max-errors", "-1", "--policy", "random")
	if code != exitBadArgs || errs != "tallywood: sim: --max-errors -1: must be at least 0; see 'tallywood sim --help'\n" {
		t.Errorf("--max-errors -1: exit %d, stderr %q", code, errs)
	}
}

func decodeFile(t *testing.T, path string) *sim.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.DecodeAs[*sim.Result](data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEveryStudyMaxErrors: compare, sweep and both studies at a table take
// --max-errors like sim: failed games are listed on stderr and counted in
// the result's errors, the text output says how many; past --max-errors
// the study stops with a partial result and exit status 1. With seed 38
// the crashing player fails 2 of the first 4 games and the first of 2
// deals.
func TestEveryStudyMaxErrors(t *testing.T) {
	if testing.Short() {
		// One worker: nothing here for the race run (-short), and exec's
		// TestEveryStudyCountsFailures runs the studies' accounting there.
		t.Skip("plays twelve studies through programs")
	}
	spec := exectest.Spec("crash", "", "")
	for _, tt := range []struct {
		name, item string
		args       []string
		errors     func(doc map[string]any) float64 // the result's failed items
		failedLine string                           // in the table output
	}{
		{"compare", "paired game", []string{"compare", "--games", "4", "--mode", "normal", "--b-mode", "hard"},
			func(doc map[string]any) float64 { return cellErrors(doc) }, "  FAILED: %d paired games failed"},
		{"sweep", "game", []string{"sweep", "--set", "difficulties.normal.bonus_divisor=1,2", "--games", "4", "--mode", "normal"},
			func(doc map[string]any) float64 { return cellErrors(doc) }, "  FAILED: %d games failed at the base or a point"},
		{"sim --seats", "deal", []string{"sim", "--seats", "2", "--games", "2"},
			func(doc map[string]any) float64 { return doc["errors"].(float64) }, "FAILED: %d deals failed"},
		{"compare --seats", "deal", []string{"compare", "--seats", "2", "--games", "2", "--b-set", "track.max=14"},
			func(doc map[string]any) float64 { return doc["errors"].(float64) }, "FAILED: %d deals failed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			common := append(tt.args, "--seed", "38", "--policy", spec, "--workers", "1", "--quiet")
			code, out, errs := runCLI(t, append(common, "--max-errors", "100", "--format", "json")...)
			if code != exitOK {
				t.Fatalf("--max-errors 100: exit %d: %s", code, errs)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			n := tt.errors(doc)
			line := regexp.MustCompile(`(?m)^tallywood: ` + tt.item + ` \d+ failed, not scored: .*the program exited \(exit status 3\) before answering`)
			if listed := len(line.FindAllString(errs, -1)); n == 0 || float64(listed) != min(n, 10) || doc["interrupted"] != false {
				t.Errorf("%v errors, %d listed on stderr, interrupted %v; want some, each listed:\n%s", n, listed, doc["interrupted"], errs)
			}
			_, text, _ := runCLI(t, append(common, "--max-errors", "100")...)
			if want := fmt.Sprintf(tt.failedLine, int(n)); !strings.Contains(text, want) {
				t.Errorf("the table does not say %q:\n%s", want, text)
			}

			code, out, errs = runCLI(t, append(common, "--format", "json")...)
			if code != exitFailed || !strings.Contains(errs, "too many failed games: 1 failed, --max-errors 0\n") || !strings.Contains(errs, "interrupted") {
				t.Errorf("--max-errors 0: exit %d, stderr %q; want exit %d, too many failed games", code, errs, exitFailed)
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc["interrupted"] != true || tt.errors(doc) != 1 {
				t.Errorf("--max-errors 0: result %.300s (%v); want an interrupted result with 1 error", out, err)
			}

			code, _, errs = runCLI(t, append(tt.args, "--max-errors", "-1")...)
			if code != exitBadArgs || !strings.Contains(errs, "--max-errors -1: must be at least 0") {
				t.Errorf("--max-errors -1: exit %d, stderr %q", code, errs)
			}
		})
	}
}

// cellErrors is the errors of a compare or sweep result's first cell.
func cellErrors(doc map[string]any) float64 {
	return doc["cells"].([]any)[0].(map[string]any)["errors"].(float64)
}

// TestSecondInterruptKillsPlayerGroups: the second Ctrl-C exits at once,
// and kills each running player program's process group on the way: an
// exec player's children kept running (the death signal reaches the
// program only).
func TestSecondInterruptKillsPlayerGroups(t *testing.T) {
	sigs, exited := fakeSignals(t)
	ctx, release := interruptible("sim", &syncBuffer{})
	defer release()
	c := <-sigs
	children := exectest.PlayForking(t) // the program runs on, for the next game
	c <- os.Interrupt
	<-ctx.Done()
	c <- os.Interrupt
	<-exited
	// Killed, the child is a zombie until its parent, killed too, is
	// reaped and it is reparented: gone or a zombie.
	exectest.RequireGone(t, children, true)
}
