package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"tallywood/engine"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/mix"
	"tallywood/sim/policy/internal/netfit"
)

var regen = flag.Bool("regen", false, "rerun the command recorded in sim/policy/value.json and compare (tens of minutes)")

func smallOptions(t *testing.T, seed uint64, workers int) options {
	t.Helper()
	items, err := mix.Parse([]string{"6xmcts:iters=4", "4xgreedy"})
	if err != nil {
		t.Fatal(err)
	}
	guided, err := policy.Parse("mcts:iters=4,prior=1")
	if err != nil {
		t.Fatal(err)
	}
	return options{mix: items, iterSpec: guided, seed: seed, heldout: seed + 1, heldoutGames: 4, rules: engine.Reference(),
		workers: workers, hidden: 8, epochs: 2, sharpen: 20, candidates: 2, selectGames: 4, selectSeed: seed + 2, iterate: 1, iterGames: 4, lr: 0.001, command: "go run ./sim/policy/internal/train test"}
}

// TestTrainReproduces: the whole pipeline (games, fit, a round of the
// learned player's games, refit, held-out report, weights file) on a
// small budget gives the same file byte for byte with one worker or two;
// another data seed gives other weights.
func TestTrainReproduces(t *testing.T) {
	a, repA, err := run(smallOptions(t, 21, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, repB, err := run(smallOptions(t, 21, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Encode(), b.Encode()) || repA != repB {
		t.Errorf("seed 21 trained different weights with 1 and 2 workers")
	}
	c, _, err := run(smallOptions(t, 22, 2))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Encode(), c.Encode()) {
		t.Error("seeds 21 and 22 trained the same weights")
	}
	// The file is a weights file the players read, naming how it was made.
	n, err := policy.ParseNet(a.Encode())
	if err != nil {
		t.Fatal(err)
	}
	m := n.Meta
	if m.DataSeed != 21 || m.RulesHash != engine.Reference().Hash || len(m.Policies) != 3 || m.Games != 14 || !strings.Contains(m.HeldOut, "picks the search") {
		t.Errorf("metadata %+v", m)
	}
	if !strings.Contains(repA, "| learned |") {
		t.Errorf("the report has no line for the net:\n%s", repA)
	}
}

// TestFitLearnsARanking: on decisions whose search always visits the
// option with the largest first input, the hand scores being equal, the
// fitted net picks that option (a check of the gradient and the softmax).
func TestFitLearnsARanking(t *testing.T) {
	d := rankingData(3000)
	for _, hidden := range []int{0, 8} {
		n := fit(options{seed: 3, hidden: hidden, epochs: 10, lr: 0.01, workers: 2}, d, 0, 0)
		rep := heldOutReport(n, d, "test")
		if !strings.Contains(rep.text, "| learned | 9") {
			t.Errorf("hidden %d: the net does not learn to pick the largest input:\n%s", hidden, rep.text)
		}
	}
}

// rankingData is n decisions of three options each, the hand scores
// equal, whose search always visits the option with the largest first
// input.
func rankingData(n int) *data {
	d := &data{games: 1}
	const k = policy.NetInputs
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		d.first = append(d.first, int32(len(d.pi)))
		best, bestX := 0, -2.0
		for j := range 3 {
			x := make([]float32, k)
			x[0] = float32(rng.Float64()*2 - 1)
			x[3] = float32(rng.Float64())
			if float64(x[0]) > bestX {
				best, bestX = j, float64(x[0])
			}
			d.x = append(d.x, x...)
			d.hand = append(d.hand, 0)
			d.over = append(d.over, false)
		}
		for j := range 3 {
			pi := float32(0)
			if j == best {
				pi = 1
			}
			d.pi = append(d.pi, pi)
		}
	}
	return d
}

// TestRowsFollowTheOptions: each decision's rows are its options in
// legal order, aligned with the targets. On greedy's own games the hand
// score, which greedy chooses by, must pick greedy's choice nearly always
// (not always: the options that touch hidden information are scored on
// another determinization than greedy's).
func TestRowsFollowTheOptions(t *testing.T) {
	items, err := mix.Parse([]string{"30xgreedy"})
	if err != nil {
		t.Fatal(err)
	}
	o := options{mix: items, rules: engine.Reference(), workers: 2, sharpen: 1}
	var jobs []job
	for i := range 30 {
		jobs = append(jobs, job{newPolicy: items[0].Spec.New, i: i})
	}
	d, err := collect(o, jobs, 5, "games")
	if err != nil {
		t.Fatal(err)
	}
	n := netfit.New(0, scale, 0.01, nil)
	rep := heldOutReport(n, d, "greedy")
	var agree float64
	if _, err := fmt.Sscanf(rep.text[strings.Index(rep.text, "| hand-weighted (greedy) | "):], "| hand-weighted (greedy) | %f%%", &agree); err != nil || agree < 85 {
		t.Errorf("the hand score picks greedy's choice at %v%% of its decisions, want ≥ 85%%:\n%s", agree, rep.text)
	}
}

// TestShippedWeightsRegenerate reruns the command recorded in value.json
// and compares the result byte for byte (with -regen; it takes as long as
// the recorded training did).
func TestShippedWeightsRegenerate(t *testing.T) {
	if !*regen {
		t.Skip("-regen reruns the full training")
	}
	cmd := strings.Fields(policy.ShippedNet.Meta.Command)
	out := filepath.Join(t.TempDir(), "value.json")
	args := append(cmd[1:], "-out", out, "-quiet")
	c := exec.Command(cmd[0], args...)
	c.Dir = "../../../.."
	c.Stderr = os.Stderr
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, policy.ShippedNet.Encode()) {
		t.Error("the recorded command trained other weights than value.json's")
	}
}

// TestMakefileTrainsTheShippedWeights: make weights runs the command
// recorded in value.json, so the shipped weights can be made again.
func TestMakefileTrainsTheShippedWeights(t *testing.T) {
	mk, err := os.ReadFile("../../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if want := policy.ShippedNet.Meta.Command + " -out sim/policy/value.json"; !strings.Contains(string(mk), "\t"+want+"\n") {
		t.Errorf("the Makefile's weights target is not %q", want)
	}
}

// TestFlagsChecked: every flag is range-checked before any game (issue
// 31: -hidden -1 and 100000 panicked, the second after seconds of games;
// NaN, Inf or 1e308 rates ran the whole training and failed at the end;
// zero or negative counts wrote a weights file), and a FIFO as -rules is
// refused at once.
func TestFlagsChecked(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args string
		want string // "": accepted
	}{
		{"", ""},
		{"-hidden 0 -iterate 0 -decay 0 -lr 1 -sharpen 1000", ""},
		{"-hidden -1", "-hidden -1: want 0 to 256"},
		{"-hidden 100000", "-hidden 100000: want 0 to 256"},
		{"-lr NaN", "-lr NaN: want a number above 0 and at most 1"},
		{"-lr Inf", "-lr +Inf: want a number above 0 and at most 1"},
		{"-lr 1e308", "-lr 1e+308: want a number above 0 and at most 1"},
		{"-lr 0", "-lr 0: want a number above 0 and at most 1"},
		{"-decay NaN", "-decay NaN: want a number from 0 to 1"},
		{"-decay -1", "-decay -1: want a number from 0 to 1"},
		{"-sharpen NaN", "-sharpen NaN: want a number above 0 and at most 1000"},
		{"-sharpen -2", "-sharpen -2: want a number above 0 and at most 1000"},
		{"-candidates 0", "-candidates 0: want 1 to 1000"},
		{"-workers -2", "-workers -2: want 1 to 1024"},
		{"-epochs 0", "-epochs 0: want 1 to 1000"},
		{"-select-games 0", "-select-games 0: want 1 to 10000000"},
		{"-heldout-games -5", "-heldout-games -5: want 1 to 10000000"},
		{"-iterate -1", "-iterate -1: want 0 to 1000"},
		{"-iterate-games 0", "-iterate-games 0: want 1 to 10000000"},
		{"-rules " + fifo, fifo + " is a FIFO (named pipe), not a regular file"},
	} {
		args := append(strings.Fields(tt.args), "2xgreedy")
		o, err := parseOptions(args, io.Discard)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.args, err)
		case tt.want == "" && o.command == "":
			t.Errorf("%s: no command recorded", tt.args)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}

// TestFlagsAmongTheMix: a flag after the mix counts as one before it, as
// make weights and the -regen test write -out after the recorded command
// (both once failed: "-out" was read as a spec of the mix).
func TestFlagsAmongTheMix(t *testing.T) {
	before, err := parseOptions(strings.Fields("-seed 5 -hidden 8 -out x.json 2xgreedy 3xrandom"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseOptions(strings.Fields("-seed 5 2xgreedy -hidden 8 3xrandom -out x.json"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if after.command != before.command || after.hidden != 8 || after.out != "x.json" || len(after.mix) != 2 {
		t.Errorf("flags after the mix: %q (hidden %d, out %q, %d specs), before it: %q", after.command, after.hidden, after.out, len(after.mix), before.command)
	}
}

// FuzzFlags: any values of the training's number flags are refused
// before any game, or accepted and then fit a net that is a weights file
// the players read (a NaN learning rate, say, passed and failed only when
// the trained weights were written).
func FuzzFlags(f *testing.F) {
	f.Add(32, 6, 4, 0.001, 0.0001, 20.0)
	f.Add(-1, 1, 1, 0.01, 0.0, 1.0)
	f.Add(100000, 1, 1, 0.01, 0.0, 1.0)
	f.Add(8, 3, 0, math.NaN(), 0.0, 20.0)
	f.Add(8, 3, 1, 1e308, 0.0, 20.0)
	f.Add(8, 3, 1, 1.0, 1.0, 1000.0)
	f.Add(0, 2, 1, 0.5, math.Inf(1), math.NaN())
	d := rankingData(64)
	f.Fuzz(func(t *testing.T, hidden, epochs, candidates int, lr, decay, sharpen float64) {
		args := []string{"-hidden", fmt.Sprint(hidden), "-epochs", fmt.Sprint(epochs), "-candidates", fmt.Sprint(candidates),
			"-lr", fmt.Sprint(lr), "-decay", fmt.Sprint(decay), "-sharpen", fmt.Sprint(sharpen), "2xgreedy"}
		o, err := parseOptions(args, io.Discard)
		if err != nil {
			return
		}
		if o.hidden < 0 || o.hidden > policy.MaxHidden || o.epochs < 1 || o.candidates < 1 ||
			!(o.lr > 0 && o.lr <= 1) || !(o.decay >= 0 && o.decay <= 1) || !(o.sharpen > 0 && o.sharpen <= maxSharpen) {
			t.Fatalf("accepted %v", args)
		}
		o.epochs = min(o.epochs, 20) // the fit's length, not its kind, is bounded here
		n := fit(o, d, 0, 0)
		if _, err := policy.ParseNet(n.Encode()); err != nil {
			t.Fatalf("%v trained weights the players refuse: %v", args, err)
		}
	})
}
