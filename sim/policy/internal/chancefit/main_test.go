package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

var regen = flag.Bool("regen", false, "rerun the command recorded in sim/policy/chance.json and compare (tens of minutes)")

func smallOptions(t *testing.T, seed uint64, workers int) options {
	t.Helper()
	levels, err := parseLevels([]string{"casual=12", "novice=8"}, true)
	if err != nil {
		t.Fatal(err)
	}
	return options{levels: levels, seed: seed, heldout: seed + 1, heldoutGames: 4, keep: 0.3, hidden: 8, epochs: 2, lr: 0.01, batch: 64,
		calib: 0.25, rules: engine.Reference(), workers: workers, checkPositions: 3, continuations: 2, checkSeed: seed + 2, intervalSeed: seed + 3, intervalPositions: 20, kneeSeed: seed + 4, kneeGames: 6, command: "go run ./sim/policy/internal/chancefit test"}
}

// TestFitReproduces: the whole pipeline (games, fits, held-out scores,
// the file) on a small budget gives the same file byte for byte with one
// worker or two; another data seed gives another model. The file is one
// the players read, naming how it was made; the check runs on it.
func TestFitReproduces(t *testing.T) {
	a, repA, err := train(smallOptions(t, 31, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, repB, err := train(smallOptions(t, 31, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Encode(), b.Encode()) || repA != repB {
		t.Errorf("seed 31 fitted different models with 1 and 2 workers")
	}
	c, _, err := train(smallOptions(t, 32, 2))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Encode(), c.Encode()) {
		t.Error("seeds 31 and 32 fitted the same model")
	}
	m, err := policy.ParseChance(a.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if meta := m.Meta; meta.DataSeed != 31 || meta.RulesHash != engine.Reference().Hash || len(meta.Levels) != 2 || meta.Levels[0].Games != 12 || len(meta.HeldOut) != 2 {
		t.Errorf("metadata %+v", meta)
	}
	if !strings.Contains(repA, "| predicted | positions |") || !strings.Contains(repA, "casual: the chance's 95% interval, from 20 positions") {
		t.Errorf("no calibration table or interval:\n%s", repA)
	}
	// Too few positions for a stage of its own: every stage gets the
	// 95th percentile of them all, which is not 0 (the chance is no
	// exact outcome).
	wc, err := m.For("casual")
	if err != nil {
		t.Fatal(err)
	}
	var g engine.Game
	if err := (deal.Solo{Opposition: opposition.Solo{}}).Deal(&g, engine.Reference(), 5); err != nil {
		t.Fatal(err)
	}
	if h, ok := wc.Interval(&g); !ok || !(h > 0 && h <= 1) {
		t.Errorf("interval %v, %t", h, ok)
	}
	rep, _, err := checkModel(smallOptions(t, 31, 2), m)
	if err != nil || !strings.Contains(rep, "continuation check: 3 positions") || !strings.Contains(rep, "within the model's 95% interval") {
		t.Errorf("check: %v\n%s", err, rep)
	}
}

// TestSeedsApart: the trainer refuses a seed given to two measures (the
// model would be measured on what fitted it), and budgets that measure
// nothing.
func TestSeedsApart(t *testing.T) {
	ok := smallOptions(t, 31, 1)
	ok.intervalPositions = 100
	if err := ok.validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flag  string // the error names it
		forge func(o *options)
	}{
		{"-interval-seed", func(o *options) { o.intervalSeed = o.seed }},
		{"-check-seed", func(o *options) { o.checkSeed = o.heldout }},
		{"-heldout", func(o *options) { o.heldout = o.intervalSeed }},
		{"-knee-seed", func(o *options) { o.kneeSeed = o.heldout }},
		{"-continuations", func(o *options) { o.continuations = 1 }},
		{"-interval-positions", func(o *options) { o.intervalPositions = 99 }},
	} {
		o := ok
		c.forge(&o)
		if err := o.validate(); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%s: error %v", c.flag, err)
		}
	}
}

// TestParseLevels: LEVEL=GAMES arguments, each a skill level once.
func TestParseLevels(t *testing.T) {
	for _, args := range [][]string{nil, {"casual"}, {"casual=0"}, {"greedy=10"}, {"casual=5", "casual=6"}} {
		if _, err := parseLevels(args, true); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
	if _, err := parseLevels([]string{"casual", "skilled"}, false); err != nil {
		t.Errorf("levels without games for -check: %v", err)
	}
}

// TestShippedModelRegenerates reruns the command recorded in chance.json
// and compares the result byte for byte (with -regen; it takes as long as
// the recorded training did).
func TestShippedModelRegenerates(t *testing.T) {
	if !*regen {
		t.Skip("-regen reruns the full training")
	}
	cmd := strings.Fields(policy.ShippedChance().Meta.Command)
	out := filepath.Join(t.TempDir(), "chance.json")
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
	if !bytes.Equal(got, policy.ShippedChance().Encode()) {
		t.Error("the recorded command fitted another model than chance.json's")
	}
}

// TestMakefileTrainsTheShippedModel: make chance runs the command
// recorded in chance.json, so the shipped model can be made again.
func TestMakefileTrainsTheShippedModel(t *testing.T) {
	mk, err := os.ReadFile("../../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if want := policy.ShippedChance().Meta.Command + " -out sim/policy/chance.json"; !strings.Contains(string(mk), "\t"+want+"\n") {
		t.Errorf("the Makefile's chance target is not %q", want)
	}
}
