package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition/script"
)

// scriptedRules is the reference set with source as its automaton.
func scriptedRules(t testing.TB, name, source string) *engine.Rules {
	t.Helper()
	r, err := engine.Reference().WithAutomaton(name, source)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// cellsOnly is a result's cells as JSON, timings left out: what two runs
// under rules of different hashes (the built-in Opposition and its
// script) must agree on.
func cellsOnly(r *Result) []byte {
	c := *r
	c.RulesID = RulesID{}
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	return untimed(&c)
}

// twinConfig is a sim of casual and skilled on Normal and Hard.
func twinConfig(t testing.TB, r *engine.Rules, games int64) Config {
	var cells []CellSpec
	for _, m := range []engine.Mode{engine.Normal, engine.Hard} {
		for _, p := range []string{"casual", "skilled"} {
			cells = append(cells, CellSpec{Mode: m, Policy: mustSpec(t, p), Politician: RandomPoliticianIndex})
		}
	}
	return Config{RunConfig: RunConfig{Seed: 39}, Rules: r, Games: games, Cells: cells}
}

// simTwin runs the same sim under the built-in Opposition and under the
// reference script, and requires the same cells, count for count.
func simTwin(t *testing.T, games int64) {
	scripted := scriptedRules(t, script.ReferenceName, script.Reference())
	want := cellsOnly(run(t, twinConfig(t, engine.Reference(), games)))
	got := cellsOnly(run(t, twinConfig(t, scripted, games)))
	if !bytes.Equal(got, want) {
		t.Errorf("the reference script's sim differs from the built-in Opposition's:\n%s\nwant\n%s", got, want)
	}
}

// TestScriptSimTwin: the reference script plays casual's and skilled's
// games on both difficulties as the built-in Opposition does (the
// 10,000-game sims are a calibration study).
func TestScriptSimTwin(t *testing.T) {
	if testing.Short() {
		t.Skip("the twin sims are not about concurrency: go test ./... plays them")
	}
	simTwin(t, 150)
}

// TestScriptSimTwinTenThousand is the twin test at full size: 10,000
// games in each of the four cells of the default sim (seed 39).
func TestScriptSimTwinTenThousand(t *testing.T) {
	calibrationStudy(t)
	simTwin(t, 10000)
}

// TestScriptDeterministic: a scripted Opposition's results are the same
// for 1 and 2 workers and for merged shards.
func TestScriptDeterministic(t *testing.T) {
	r := scriptedRules(t, script.ReferenceName, script.Reference())
	cfg := func(workers int, shard Shard) Config {
		c := testConfig(t, 201, workers, shard)
		c.Rules = r
		return c
	}
	want := untimed(run(t, cfg(1, Shard{})))
	if got := untimed(run(t, cfg(2, Shard{}))); !bytes.Equal(got, want) {
		t.Errorf("workers 2 differ from workers 1:\n%s\nwant\n%s", got, want)
	}
	var parts []*Result
	var names []string
	for k := 1; k <= 3; k++ {
		back, err := DecodeAs[*Result](Encode(run(t, cfg(1, Shard{K: k, N: 3}))))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
		names = append(names, Shard{K: k, N: 3}.String())
	}
	merged, err := mergeAs(parts, names, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimed(merged); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole run:\n%s\nwant\n%s", got, want)
	}
}

// TestScriptFailsItsGames: a script that fails in round 4 fails the games
// that reach its error, each counted as failed (not lost) with the
// script's file and line and the game; --max-errors counts them, and the
// other games stand, as the built-in Opposition plays them.
func TestScriptFailsItsGames(t *testing.T) {
	broken := strings.Replace(script.Reference(), "def block(column, connected, other):\n",
		"def block(column, connected, other):\n    if current_round() == 4 and current_turn() == 2 and mode() == \"hard\":\n        fail(\"round 4 is broken\")\n", 1)
	r := scriptedRules(t, "broken.star", broken)
	cfg := testConfig(t, 40, 2, Shard{})
	cfg.Rules = r
	cfg.MaxErrors = 1000
	res := run(t, cfg)
	normal, hard := res.Cells[0], res.Cells[1]
	if normal.Errors != 0 || normal.Games != 40 {
		t.Errorf("normal: %d games, %d errors; want 40 games, none failed", normal.Games, normal.Errors)
	}
	if hard.Errors == 0 || hard.Games+hard.Errors != 40 {
		t.Fatalf("hard: %d games, %d errors; want some of the 40 failed", hard.Games, hard.Errors)
	}
	f := hard.Failures[0]
	if !strings.Contains(f.Error, "automaton broken.star:") || !strings.Contains(f.Error, "round 4 is broken (game seed ") ||
		!strings.Contains(f.Error, ", round 4, turn 2, in turn())") {
		t.Errorf("failure: %+v", f)
	}
	// The Normal cell, which never meets the error, is the built-in
	// Opposition's.
	builtIn := testConfig(t, 40, 2, Shard{})
	want := run(t, builtIn).Cells[0].Counts
	if normal.Counts != want {
		t.Errorf("normal cell differs from the built-in Opposition's")
	}
	// Past --max-errors the run stops with ErrTooManyFailed.
	cfg.MaxErrors = 0
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("max-errors 0: %v", err)
	}
}
