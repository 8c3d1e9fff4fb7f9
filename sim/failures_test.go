package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// flaky plays the first option and fails the games whose seed is a
// multiple of four at their third decision, as a crashing exec program
// would; with only set, only those of them that only picks at that
// decision.
type flaky struct {
	n    int
	err  error
	only func(g *engine.Game) bool
}

func (f *flaky) Reset(uint64) { f.n, f.err = 0, nil }
func (f *flaky) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	f.n++
	f.err = nil
	if g.Seed%4 == 0 && f.n == 3 && (f.only == nil || f.only(g)) {
		f.err = fmt.Errorf("flaky: game seed %d, decision 3: gave up", g.Seed)
	}
	return legal[0]
}
func (f *flaky) Err() error       { return f.err }
func (f *flaky) End(*engine.Game) {}

type firstOption struct{}

func (firstOption) Reset(uint64)                                               {}
func (firstOption) Choose(_ *engine.Game, legal []engine.Option) engine.Option { return legal[0] }

func flakyConfig(workers int, shard Shard, maxErrors int64) Config {
	spec := policy.Spec{Name: "flaky", Label: "flaky", New: func() policy.Policy { return &flaky{} }}
	return Config{RunConfig: RunConfig{Seed: 3, Workers: workers, Shard: shard, MaxErrors: maxErrors},
		Rules: engine.Reference(), Games: 200, Cells: []CellSpec{{Mode: engine.Hard, Policy: spec, Politician: 1}}}
}

// TestFailedGamesCountedApart: failed games are counted in errors and
// listed, the others count exactly as the same games played by a policy
// that does not fail, and the result is the same for any workers and for
// shards merged.
func TestFailedGamesCountedApart(t *testing.T) {
	res := run(t, flakyConfig(1, Shard{}, 1000))
	var want Counts
	var failing []uint64
	for i := range uint64(200) {
		seed := deal.GameSeed(3, i)
		if seed%4 == 0 {
			failing = append(failing, seed)
			continue
		}
		g, err := engine.New(engine.Reference(), seed, engine.Config{Mode: engine.Hard, Politician: 1, Opposition: opposition.Solo{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := policy.Play(g, firstOption{}, nil); err != nil {
			t.Fatal(err)
		}
		want.Add(g)
	}
	want.Errors = int64(len(failing))
	c := res.Cells[0]
	if c.Counts != want || c.Errors != want.Errors {
		t.Errorf("counts %+v\nwant %+v", c.Counts, want)
	}
	if len(c.Failures) != min(len(failing), maxFailures) {
		t.Fatalf("%d failures listed, want %d", len(c.Failures), min(len(failing), maxFailures))
	}
	for i, f := range c.Failures {
		wantMsg := fmt.Sprintf("policy flaky: flaky: game seed %d, decision 3: gave up", failing[i])
		if f.Seed != failing[i] || f.Error != wantMsg {
			t.Errorf("failure %d: %+v, want seed %d, %q", i, f, failing[i], wantMsg)
		}
	}

	whole := untimed(res)
	if got := untimed(run(t, flakyConfig(3, Shard{}, 1000))); !bytes.Equal(got, whole) {
		t.Errorf("3 workers differ from 1:\n%s\nwant\n%s", got, whole)
	}
	var shards []*Result
	for k := 1; k <= 3; k++ {
		shards = append(shards, run(t, flakyConfig(2, Shard{K: k, N: 3}, 1000)))
	}
	merged, err := mergeAs(shards, []string{"a", "b", "c"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimed(merged); !bytes.Equal(got, whole) {
		t.Errorf("merged shards differ from the single run:\n%s\nwant\n%s", got, whole)
	}
}

func TestTooManyFailedGames(t *testing.T) {
	res, err := Run(context.Background(), flakyConfig(2, Shard{}, 3))
	if !errors.Is(err, ErrTooManyFailed) || res == nil {
		t.Fatalf("error %v, result %v; want ErrTooManyFailed with a result", err, res)
	}
	c := res.Cells[0]
	if !res.Interrupted || c.Errors < 4 || c.Games+c.Errors >= 200 {
		t.Errorf("interrupted %v, %d games, %d errors: want a run stopped after the fourth failure", res.Interrupted, c.Games, c.Errors)
	}
	if !strings.HasPrefix(err.Error(), "too many failed games: ") {
		t.Errorf("error %q", err)
	}
}

// TestDecodeResultChecksErrors: a result's failed games count towards the
// games its shard plays, and must agree with its counts.
func TestDecodeResultChecksErrors(t *testing.T) {
	good := run(t, flakyConfig(1, Shard{}, 1000))
	if _, err := DecodeAs[*Result](Encode(good)); err != nil {
		t.Fatalf("a result with failed games is refused: %v", err)
	}
	tests := []struct {
		name  string
		spoil func(c *Cell)
		want  string
	}{
		{"errors not in counts", func(c *Cell) { c.Errors++ }, "errors 49 differs from counts (48)"},
		{"more errors than games", func(c *Cell) { c.Counts.Errors, c.Errors = 201, 201 }, "counts: errors 201 is outside 0..200"},
		{"one failed game lost", func(c *Cell) { c.Counts.Errors, c.Errors = 47, 47 },
			"counts: games 152 and errors 47, fewer than the 200 the shard plays, and the run was not interrupted"},
		{"more failures than kept", func(c *Cell) { c.Failures = append(c.Failures, c.Failures[0]) },
			"failures: 11 listed, more than the errors (48) or 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := *good
			r.Cells = []Cell{good.Cells[0]}
			tt.spoil(&r.Cells[0])
			_, err := DecodeAs[*Result](Encode(&r))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestMaxErrorsOverTheWholeStudy: --max-errors bounds the failed games of
// the whole study in every kind, not of each cell (sensitivity) or block
// (tune): studies whose every cell or block stays under the bound stop
// once their sum passes it, and say the study's count.
func TestMaxErrorsOverTheWholeStudy(t *testing.T) {
	flakySpec := policy.Spec{Name: "flaky", Label: "flaky", New: func() policy.Policy { return &flaky{} }}
	// Some seeds fail: 7 of a cell's 40, 14 in two.
	sens := sensitivityConfig(t, 40, "random")
	sens.Fields = []string{"actions.campaign_polling"}
	sens.Cells = []CellSpec{{Mode: engine.Hard, Policy: flakySpec, Politician: 1}, {Mode: engine.Normal, Policy: flakySpec, Politician: 1}}
	sens.MaxErrors = 10
	res, err := Sensitivity(context.Background(), sens)
	if !errors.Is(err, ErrTooManyFailed) || res == nil || !res.Interrupted {
		t.Fatalf("sensitivity: error %v, a result %t: want it stopped past 10 failed seeds of two cells", err, res != nil)
	}
	var failed int64
	for _, c := range res.Cells {
		failed += c.Errors
	}
	if want := fmt.Sprintf("too many failed games: %d failed, --max-errors 10", failed); failed <= 10 || err.Error() != want {
		t.Errorf("sensitivity: %v with %d failed in its cells, want %q", err, failed, want)
	}

	// Blocks of a few games each, every one under the bound; the search
	// plays 200 games, some failing.
	tc := tuneConfig(t, "random", 0.1, 200, 40)
	tc.Targets[0].Policy, tc.Targets[0].Politician = flakySpec, 1
	tc.MaxErrors = 15
	if _, err := Tune(context.Background(), tc); !errors.Is(err, ErrTooManyFailed) || !strings.Contains(err.Error(), "--max-errors 15") {
		t.Errorf("tune: %v, want it stopped past 15 failed games over its blocks", err)
	}
}
