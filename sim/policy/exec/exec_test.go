//go:build unix

package exec

import (
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/exec/exectest"
)

// first is the Go twin of the fake player: the first option.
type first struct{}

func (first) Reset(uint64)                                               {}
func (first) Choose(_ *engine.Game, legal []engine.Option) engine.Option { return legal[0] }

// baseline plays with first the games of a faultSeed run that a faulty
// fake player does not fail: what the run must count for them.
func baseline(t *testing.T, mode engine.Mode) (sim.Counts, []uint64) {
	t.Helper()
	var c sim.Counts
	var failing []uint64
	r := engine.Reference()
	for i := range uint64(faultGames()) {
		seed := deal.GameSeed(faultSeed, i)
		if exectest.FailsGame(seed) {
			failing = append(failing, seed)
			continue
		}
		g, err := engine.New(r, seed, engine.Config{Mode: mode, Politician: 0, Opposition: opposition.Solo{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := policy.Play(g, first{}, nil); err != nil {
			t.Fatal(err)
		}
		c.Add(g)
	}
	if len(failing) < 3 || len(failing) == int(faultGames()) {
		t.Fatalf("%d of %d games fail: the fault tests need some of each", len(failing), faultGames())
	}
	c.Errors = int64(len(failing))
	return c, failing
}

// requireNoGoroutineLeak fails unless the goroutines fall back to before.
func requireNoGoroutineLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines, %d before the run:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFaultyPlayers(t *testing.T) {
	want, failing := baseline(t, engine.Normal)
	prefix := `^policy exec:'[^']+' fakeplayer \w+ '[^']+'(,timeout=200ms)?: exec: game seed (\d+), decision 5 \(round 1, \w+\): `
	suffix := ` \[program "'[^']+' fakeplayer \w+ '[^']+'"\]$`
	tests := []struct {
		mode, opts string
		want       string // the failure's message between prefix and suffix
	}{
		{"crash", "", `the program exited \(exit status 3\) before answering; its stderr ends: "fake player: crashing as asked"`},
		{"hang", "timeout=200ms", `no answer within 200ms`},
		{"spawn", "timeout=200ms", `no answer within 200ms`},
		// This was "the program exited (signal: killed)".
		{"closeout", "", `the program closed its output before answering but did not exit within 1s; it was stopped`},
		{"garbage", "", `answer "this is not JSON" is not \{"type":"answer","id":"\.\.\."\}`},
		{"illegal", "", `answer id "nope/5/0/0" is not one of the \d+ option ids`},
		{"longline", "", `answer "x{80}"… is longer than 65536 bytes`},
		// An answer begun but not ended in time is not "no answer".
		{"slowline", "timeout=200ms", `answer "x{80}"… has no end of line after 200ms \(\d+ bytes so far\)`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			before := runtime.NumGoroutine()
			pidFile := filepath.Join(t.TempDir(), "pids")
			const workers = 2
			res, err := sim.Run(context.Background(), faultConfig(t, exectest.Spec(tt.mode, pidFile, tt.opts), workers))
			if err != nil {
				t.Fatal(err)
			}
			c := res.Cells[0]
			if c.Counts != want {
				t.Errorf("counts of the games that did not fail differ from the same games played in Go:\ngot  %+v\nwant %+v", c.Counts, want)
			}
			if c.Errors != int64(len(failing)) || c.Games != faultGames()-int64(len(failing)) || res.Interrupted {
				t.Errorf("errors %d, games %d, interrupted %v; want %d, %d, false", c.Errors, c.Games, res.Interrupted, len(failing), faultGames()-int64(len(failing)))
			}
			re := regexp.MustCompile(prefix + tt.want + suffix)
			if len(c.Failures) != len(failing) {
				t.Fatalf("%d failures listed, want %d", len(c.Failures), len(failing))
			}
			for i, f := range c.Failures {
				m := re.FindStringSubmatch(f.Error)
				if m == nil {
					t.Errorf("failure %d: %q\ndoes not match %s", i, f.Error, re)
					continue
				}
				if f.Seed != failing[i] || m[2] != strconv.FormatUint(f.Seed, 10) {
					t.Errorf("failure %d: seed %d (message: %s), want %d", i, f.Seed, m[2], failing[i])
				}
			}
			// One program per worker, and one more after each failure.
			if n := len(exectest.PIDs(t, pidFile)); n > workers+len(failing) {
				t.Errorf("%d programs started for %d workers and %d failures", n, workers, len(failing))
			}
			exectest.RequireGone(t, exectest.PIDs(t, pidFile), false)
			exectest.RequireGone(t, exectest.PIDs(t, pidFile+".child"), true)
			requireNoGoroutineLeak(t, before)
		})
	}
}

// TestNothingLeftBehind: a program that forks a child on /dev/null (which
// nothing tells the run ended) leaves nothing running after a normal run,
// in sim, compare, at a table and as trace uses a policy (the
// process group was killed only if the program had not exited within 1 s).
func TestNothingLeftBehind(t *testing.T) {
	runs := []struct {
		name string
		run  func(t *testing.T, spec string)
	}{
		{"sim", func(t *testing.T, spec string) {
			if _, err := sim.Run(context.Background(), faultConfig(t, spec, 2)); err != nil {
				t.Fatal(err)
			}
		}},
		{"compare", func(t *testing.T, spec string) {
			sp, err := policy.Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			cell := sim.CellSpec{Mode: engine.Normal, Policy: sp, Politician: 0}
			cfg := sim.CompareConfig{RunConfig: sim.RunConfig{Seed: 3, Workers: 2},
				A: sim.CompareArm{Name: "a", Rules: engine.Reference()}, B: sim.CompareArm{Name: "b", Rules: engine.Reference()},
				Cells: []sim.ComparePair{{A: cell, B: cell, Games: 4}}}
			if _, err := sim.Compare(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
		}},
		{"table", func(t *testing.T, spec string) {
			var lineup []policy.Spec
			for _, s := range []string{spec, "random"} {
				sp, err := policy.Parse(s)
				if err != nil {
					t.Fatal(err)
				}
				lineup = append(lineup, sp)
			}
			cfg := sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 5, Workers: 2}, Rules: engine.Reference(), Deals: 2, Lineup: lineup}
			if _, err := sim.RunSeats(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
		}},
		{"one game", func(t *testing.T, spec string) {
			policy.Close(exectest.PlayOne(t, spec))
		}},
	}
	for _, tt := range runs {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			pidFile := filepath.Join(t.TempDir(), "pids")
			tt.run(t, exectest.Spec("fork", pidFile, ""))
			if len(exectest.PIDs(t, pidFile+".child")) == 0 {
				t.Fatal("the program started no child")
			}
			exectest.RequireGone(t, exectest.PIDs(t, pidFile), false)
			exectest.RequireGone(t, exectest.PIDs(t, pidFile+".child"), true)
			requireNoGoroutineLeak(t, before)
		})
	}
}

// TestExitAfterEnd: a program that exits after reading each end costs no
// game: it is restarted for the next (the next game failed, by
// timing).
func TestExitAfterEnd(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pids")
	res, err := sim.Run(context.Background(), faultConfig(t, exectest.Spec("endexit", pidFile, ""), 1))
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Cells[0]; c.Errors != 0 || c.Games != faultGames() {
		t.Errorf("%d games, %d failed: %v", c.Games, c.Errors, c.Failures)
	}
	if n := len(exectest.PIDs(t, pidFile)); n < 2 {
		t.Errorf("%d programs started: the program did not exit after end", n)
	}
	exectest.RequireGone(t, exectest.PIDs(t, pidFile), false)
}

func TestHandshakeFailures(t *testing.T) {
	tests := []struct{ mode, want string }{
		{"nohello", `handshake: the program exited (exit status 4) before answering; its stderr ends: "fake player: no handshake today"`},
		{"oldproto", `handshake: the program speaks protocol 0, this harness 2`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			cfg := faultConfig(t, exectest.Spec(tt.mode, "", ""), 1)
			cfg.MaxErrors = 0
			res, err := sim.Run(context.Background(), cfg)
			if !errors.Is(err, sim.ErrTooManyFailed) || res == nil {
				t.Fatalf("error %v, result %v; want ErrTooManyFailed with a result", err, res)
			}
			c := res.Cells[0]
			if c.Errors != 1 || c.Games != 0 || !res.Interrupted {
				t.Fatalf("errors %d, games %d, interrupted %v; want 1, 0, true", c.Errors, c.Games, res.Interrupted)
			}
			seed := deal.GameSeed(faultSeed, 0)
			want := "exec: game seed " + strconv.FormatUint(seed, 10) + ", decision 1 (round 1, card): " + tt.want
			if got := c.Failures[0].Error; !strings.Contains(got, want) {
				t.Errorf("failure %q\ndoes not contain %q", got, want)
			}
		})
	}
}

func TestMaxErrorsStopsTheRun(t *testing.T) {
	cfg := faultConfig(t, exectest.Spec("crash", "", ""), 1)
	cfg.MaxErrors = 2
	res, err := sim.Run(context.Background(), cfg)
	if !errors.Is(err, sim.ErrTooManyFailed) {
		t.Fatalf("error %v, want ErrTooManyFailed", err)
	}
	if want := "too many failed games: 3 failed, --max-errors 2"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	c := res.Cells[0]
	if c.Errors != 3 || !res.Interrupted || c.Games+c.Errors >= faultGames() {
		t.Errorf("errors %d, games %d, interrupted %v: want 3 errors, the run stopped short", c.Errors, c.Games, res.Interrupted)
	}
}

// studies are the kinds of study, each playing spec (a fake player) in
// every game of faultGames() items (games, pairs, seeds, deals) on
// workers: what it returns and the items it played and failed.
var studies = []struct {
	name string
	run  func(ctx context.Context, t *testing.T, spec string, workers int) (played, failed int64, interrupted bool, err error)
}{
	{"sim", func(ctx context.Context, t *testing.T, spec string, workers int) (int64, int64, bool, error) {
		res, err := sim.Run(ctx, faultConfig(t, spec, workers))
		if res == nil {
			return 0, 0, false, err
		}
		return res.Cells[0].Games, res.Cells[0].Errors, res.Interrupted, err
	}},
	{"compare", func(ctx context.Context, t *testing.T, spec string, workers int) (int64, int64, bool, error) {
		cfg := faultConfig(t, spec, workers)
		other := cfg.Cells[0]
		other.Mode = engine.Hard
		res, err := sim.Compare(ctx, sim.CompareConfig{RunConfig: sim.RunConfig{Seed: cfg.Seed, Workers: workers, MaxErrors: cfg.MaxErrors},
			A: sim.CompareArm{Name: "a", Rules: cfg.Rules}, B: sim.CompareArm{Name: "b", Rules: cfg.Rules},
			Cells: []sim.ComparePair{{A: cfg.Cells[0], B: other, Games: cfg.Games}}})
		if res == nil {
			return 0, 0, false, err
		}
		return res.Cells[0].Games, res.Cells[0].Errors, res.Interrupted, err
	}},
	{"sweep", func(ctx context.Context, t *testing.T, spec string, workers int) (int64, int64, bool, error) {
		cfg := faultConfig(t, spec, workers)
		a := engine.Assignment{Path: "difficulties.normal.bonus_divisor", Value: "1"}
		r, err := cfg.Rules.With(a)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Sweep(ctx, sim.SweepConfig{RunConfig: sim.RunConfig{Seed: cfg.Seed, Workers: workers, MaxErrors: cfg.MaxErrors},
			Base: cfg.Rules, Params: []string{a.Path}, Points: []sim.SweepPoint{{Set: []engine.Assignment{a}, Rules: r}},
			Cells: cfg.Cells, Games: cfg.Games})
		if res == nil {
			return 0, 0, false, err
		}
		return res.Cells[0].Base.Games, res.Cells[0].Errors, res.Interrupted, err
	}},
	{"sim --seats", func(ctx context.Context, t *testing.T, spec string, workers int) (int64, int64, bool, error) {
		cfg := faultConfig(t, spec, workers)
		res, err := sim.RunSeats(ctx, sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: cfg.Seed, Workers: workers, MaxErrors: cfg.MaxErrors},
			Rules: cfg.Rules, Deals: cfg.Games, Lineup: []policy.Spec{cfg.Cells[0].Policy, cfg.Cells[0].Policy}})
		if res == nil {
			return 0, 0, false, err
		}
		return res.Counts.Deals, res.Errors, res.Interrupted, err
	}},
	{"compare --seats", func(ctx context.Context, t *testing.T, spec string, workers int) (int64, int64, bool, error) {
		cfg := faultConfig(t, spec, workers)
		other, err := cfg.Rules.With(engine.Assignment{Path: "track.max", Value: "14"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.CompareSeats(ctx, sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: cfg.Seed, Workers: workers, MaxErrors: cfg.MaxErrors},
			Deals: cfg.Games, Lineup: []policy.Spec{cfg.Cells[0].Policy, cfg.Cells[0].Policy}},
			sim.SeatsArm{Name: "a", Rules: cfg.Rules}, sim.SeatsArm{Name: "b", Rules: other})
		if res == nil {
			return 0, 0, false, err
		}
		return res.Counts.A.Deals, res.Errors, res.Interrupted, err
	}},
}

// TestCancelStopsPrograms cancels a study of every kind whose program
// hangs with no timeout to speak of: the study ends at once, counting
// nothing as failed, and every program is reaped.
func TestCancelStopsPrograms(t *testing.T) {
	for _, st := range studies {
		t.Run(st.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			pidFile := filepath.Join(t.TempDir(), "pids")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				// Cancel once the program is running and had time to get
				// stuck in its first hanging game (the study's items are
				// one chunk, one worker's, but for the table's, which
				// both workers start on).
				for len(exectest.PIDs(t, pidFile)) < 1 {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(200 * time.Millisecond)
				cancel()
			}()
			played, failed, interrupted, err := st.run(ctx, t, exectest.Spec("hang", pidFile, "timeout=1h"), 2)
			if err != nil {
				t.Fatal(err)
			}
			if failed != 0 {
				t.Errorf("%d items counted as failed: the study was cancelled, they were not played", failed)
			}
			if !interrupted || played >= faultGames() {
				t.Errorf("interrupted %v after %d items; want an interrupted study", interrupted, played)
			}
			exectest.RequireGone(t, exectest.PIDs(t, pidFile), false)
			requireNoGoroutineLeak(t, before)
		})
	}
}

// TestEveryStudyCountsFailures: a program that crashes in some games
// fails their items in every kind of study, which go on past them and
// stop past MaxErrors.
func TestEveryStudyCountsFailures(t *testing.T) {
	for _, st := range studies {
		t.Run(st.name, func(t *testing.T) {
			played, failed, interrupted, err := st.run(context.Background(), t, exectest.Spec("crash", "", ""), 1)
			if err != nil {
				t.Fatal(err)
			}
			if failed == 0 || played+failed != faultGames() || interrupted {
				t.Errorf("%d items played, %d failed, interrupted %v; want failures among %d items, all played", played, failed, interrupted, faultGames())
			}
		})
	}
}

// TestReproducibleGame plays one game twice through fresh programs and
// once more through a program that played other games before: the same
// seed gives the same game.
func TestReproducibleGame(t *testing.T) {
	sp, err := policy.Parse(exectest.Spec("first", "", ""))
	if err != nil {
		t.Fatal(err)
	}
	play := func(p policy.Policy, seed uint64) engine.Result {
		g, err := engine.New(engine.Reference(), seed, engine.Config{Mode: engine.Hard, Politician: 1, Opposition: opposition.Solo{}})
		if err != nil {
			t.Fatal(err)
		}
		p.Reset(seed)
		if err := policy.Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
		return g.Result
	}
	a, b := sp.New(), sp.New()
	defer policy.Close(a)
	defer policy.Close(b)
	want := play(a, 5)
	play(b, 6)
	if got := play(b, 5); got != want {
		t.Errorf("seed 5 after seed 6: %+v, want %+v", got, want)
	}
	if got := play(first{}, 5); got != want {
		t.Errorf("the Go twin: %+v, want %+v", got, want)
	}
}

// TestProgramDiesWithHarness kills a harness (this test binary run as
// "fakeharness") with SIGKILL while its program hangs: no Close runs, and
// the program must not outlive it.
func TestProgramDiesWithHarness(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the death signal is Linux's")
	}
	pidFile := filepath.Join(t.TempDir(), "pids")
	harness := osexec.Command(os.Args[0], "fakeharness", exectest.Spec("hangnow", pidFile, ""))
	if err := harness.Start(); err != nil {
		t.Fatal(err)
	}
	for len(exectest.PIDs(t, pidFile)) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	harness.Process.Kill()
	harness.Wait()
	exectest.RequireGone(t, exectest.PIDs(t, pidFile), true)
}

// TestTable seats a program at a table of three: it plays its seat in
// every rotation, and a deal in which the program fails is counted in the
// study's errors, its message naming the game and seat; past MaxErrors the
// study stops with ErrTooManyFailed.
func TestTable(t *testing.T) {
	before := runtime.NumGoroutine()
	pidFile := filepath.Join(t.TempDir(), "pids")
	lineup := func(mode string) []policy.Spec {
		var out []policy.Spec
		for _, s := range []string{exectest.Spec(mode, pidFile, ""), "random", "greedy"} {
			sp, err := policy.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sp)
		}
		return out
	}
	cfg := sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 5, Workers: 1}, Rules: engine.Reference(), Deals: 2, Lineup: lineup("first")}
	res, err := sim.RunSeats(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Players != 3 || res.Interrupted {
		t.Errorf("players %d, interrupted %v", res.Players, res.Interrupted)
	}
	cfg.Lineup, cfg.Deals, cfg.MaxErrors = lineup("illegal"), 12, 12
	res, err = sim.RunSeats(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^policy exec:.* in seat [123], rotation [012]: exec: game seed \d+, decision 5 \(round 1, \w+\): answer id "nope/5/0/0" is not one of the \d+ option ids`)
	if res.Errors == 0 || res.Counts.Deals+res.Errors != 12 || len(res.Failures) == 0 || !re.MatchString(res.Failures[0].Error) {
		t.Errorf("%d deals, %d errors, failures %v; want failed deals, each matching %s", res.Counts.Deals, res.Errors, res.Failures, re)
	}
	cfg.MaxErrors = 0
	if res, err = sim.RunSeats(context.Background(), cfg); !errors.Is(err, sim.ErrTooManyFailed) || res == nil || res.Errors != 1 {
		t.Errorf("MaxErrors 0: error %v, result %v; want ErrTooManyFailed with one failed deal", err, res)
	}
	exectest.RequireGone(t, exectest.PIDs(t, pidFile), false)
	requireNoGoroutineLeak(t, before)
}

// TestKillAllReachesChildren: KillAll kills every running program's
// process group, what the program started included: a second Ctrl-C exits
// without stopping the programs, and the death signal reaches each
// program only, so its children kept running.
func TestKillAllReachesChildren(t *testing.T) {
	children := exectest.PlayForking(t)
	KillAll()
	exectest.RequireGone(t, children, true)
}
