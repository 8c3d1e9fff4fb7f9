package exec

import (
	"fmt"
	"os"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim"
	"tallywood/sim/policy"
	"tallywood/sim/policy/exec/exectest"
)

// The test binary doubles as the players of the tests (exectest), and as
// a harness that a test can kill: "TESTBINARY fakeharness SPEC".

func TestMain(m *testing.M) {
	exectest.Main()
	if len(os.Args) == 3 && os.Args[1] == "fakeharness" {
		os.Exit(fakeHarness(os.Args[2]))
	}
	os.Exit(m.Run())
}

// fakeHarness plays one game with the exec policy of spec, as sim would,
// for a test to kill it while the program works.
func fakeHarness(spec string) int {
	sp, err := policy.Parse(spec)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 12
	}
	g, err := engine.New(engine.Reference(), 1, engine.Config{Opposition: opposition.Solo{}})
	if err != nil {
		return 13
	}
	p := sp.New()
	p.Reset(1)
	if policy.Play(g, p, nil) != nil {
		return 14
	}
	return 0
}

const faultSeed = 11

// faultGames is the games of a fault test's run: enough for several
// failures among games that do not fail (a faulty fake player fails 4 of
// the 12, 3 of the 9 short games: exectest.FailsGame), fewer under -short
// (the race run, where the fake players are race-instrumented too).
func faultGames() int64 {
	if testing.Short() {
		return 9
	}
	return 12
}

func faultConfig(t *testing.T, spec string, workers int) sim.Config {
	t.Helper()
	sp, err := policy.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Config{
		RunConfig: sim.RunConfig{Seed: faultSeed, Workers: workers, MaxErrors: faultGames()},
		Rules:     engine.Reference(), Games: faultGames(), Cells: []sim.CellSpec{{Mode: engine.Normal, Policy: sp, Politician: 0}},
	}
}
