package policy

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// learnedScore is the shipped learned score of g for the solo player.
func learnedScore(g *engine.Game) float64 {
	var x [NetInputs]float32
	return netEval(g, ShippedNet, engine.NoSeat, nil, &x)
}

// TestNetValueIgnoresHidden: the learned value and every one of its
// inputs are the same in worlds that differ only in what the player
// cannot see (the no-peeking rule, docs/policies.md).
func TestNetValueIgnoresHidden(t *testing.T) {
	for i, g := range positions(t) {
		var want [NetInputs]float32
		ScoreInputs(g, 0, &want)
		wantV := learnedScore(g)
		for w := range 3 {
			alt := *g
			alt.Determinize(uint64(w))
			var got [NetInputs]float32
			ScoreInputs(&alt, 0, &got)
			for k := range got {
				if got[k] != want[k] {
					t.Errorf("position %d, world %d: input %d = %v, want %v", i, w, k, got[k], want[k])
				}
			}
			if v := learnedScore(&alt); v != wantV {
				t.Errorf("position %d, world %d: value %v, want %v", i, w, v, wantV)
			}
		}
	}
}

// TestNetValueFinishedGameIsMargin: once the game is over the learned
// value is the true margin, as Eval's is.
func TestNetValueFinishedGameIsMargin(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		g := newGame(t, seed, engine.Mode(seed%2))
		p := &Random{}
		p.Reset(seed)
		if err := Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
		if got, want := learnedScore(g), float64(g.Result.Margin()); got != want {
			t.Errorf("seed %d: value %v at the end, want the margin %v", seed, got, want)
		}
	}
}

// TestNetValueAllocatesNothing: an evaluation allocates nothing, with or
// without the tables of the position before.
func TestNetValueAllocatesNothing(t *testing.T) {
	pos := positions(t)
	var x [NetInputs]float32
	var tables boardTables
	i := 0
	if n := testing.AllocsPerRun(200, func() {
		g := pos[i%len(pos)]
		tables.reset(g)
		netEval(g, ShippedNet, engine.NoSeat, &tables, &x)
		netEval(g, ShippedNet, engine.NoSeat, nil, &x)
		i++
	}); n != 0 {
		t.Errorf("%v allocations per evaluation, want 0", n)
	}
}

// TestNetValueTablesAgree: the value with the tables of the position the
// option was chosen at is the value without them, bit for bit (the
// learned player relies on the tables as greedy does).
func TestNetValueTablesAgree(t *testing.T) {
	buf := make([]engine.Option, 0, engine.MaxOptions)
	var x [NetInputs]float32
	var tables boardTables
	for i, g := range positions(t) {
		tables.reset(g)
		for _, o := range g.Legal(buf[:0]) {
			c := *g
			c.ApplyLegal(o)
			a := netEval(&c, ShippedNet, engine.NoSeat, &tables, &x)
			b := netEval(&c, ShippedNet, engine.NoSeat, nil, &x)
			if a != b {
				t.Fatalf("position %d, %s: %v with the tables, %v without", i, g.Describe(o), a, b)
			}
		}
	}
}

// TestShippedNetRoundTrips: the shipped weights file is what Encode
// writes of the net it holds, so a regeneration can be compared byte for
// byte, and its metadata names how it was made.
func TestShippedNetRoundTrips(t *testing.T) {
	if got := ShippedNet.Encode(); !bytes.Equal(got, shippedNet) {
		t.Errorf("value.json is not in Encode's form (regenerate it with its recorded command)")
	}
	m := ShippedNet.Meta
	if !strings.HasPrefix(m.Command, "go run ./sim/policy/internal/train ") || m.RulesHash != engine.Reference().Hash || len(m.Policies) == 0 || m.Games == 0 {
		t.Errorf("value.json's metadata does not say how it was made for the reference rules: %+v", m)
	}
	if len(ShippedNet.Hash()) != 12 {
		t.Errorf("Hash() = %q, want 12 hex digits", ShippedNet.Hash())
	}
}

func TestParseNetRefuses(t *testing.T) {
	good := string(ShippedNet.Encode())
	tests := []struct {
		name, file, want string
	}{
		{"not JSON", "{", "unexpected EOF"},
		{"other format", strings.Replace(good, netFormat, "tallywood-value/0", 1), `format "tallywood-value/0"`},
		{"other inputs", strings.Replace(good, `"inputs": 70`, `"inputs": 69`, 1), "69 inputs"},
		{"unknown field", strings.Replace(good, `"inputs"`, `"extra": 1, "inputs"`, 1), `unknown field "extra"`},
		{"negative scale", strings.Replace(good, `"scale": `, `"scale": -`, 1), "want a positive number"},
		{"hidden too large", strings.Replace(good, `"hidden": `, `"hidden": 9`, 1), "hidden"},
		{"too large", good + strings.Repeat(" ", MaxNetFile), "bytes, more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseNet([]byte(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "value weights: ") {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// FuzzParseNet: any bytes either fail with a "value weights:" error or
// give a net whose encoding parses back to the same net.
func FuzzParseNet(f *testing.F) {
	f.Add(shippedNet)
	f.Add([]byte(`{"format":"tallywood-value/1","inputs":70,"hidden":0,"scale":1,"meta":{},"w1":[],"b1":[],"w2":[],"b2":0}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := ParseNet(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "value weights: ") {
				t.Fatalf("error %q lacks the prefix", err)
			}
			return
		}
		m, err := ParseNet(n.Encode())
		if err != nil {
			t.Fatalf("the encoding of a parsed net does not parse: %v", err)
		}
		if !bytes.Equal(m.Encode(), n.Encode()) {
			t.Fatal("encoding is not a fixed point")
		}
	})
}

// TestWeightsParameter: weights=FILE plays other weights, the canonical
// spec pins them by hash, a changed file or one that is not a regular
// weights file is refused by name.
func TestWeightsParameter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.json")
	if err := os.WriteFile(path, ShippedNet.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"learned:weights=" + path, "mcts:iters=4,prior=1,weights=" + path} {
		sp, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if want := "weights=" + path + "@" + ShippedNet.Hash(); !strings.Contains(sp.String(), want) {
			t.Errorf("%s: canonical %q lacks %q", spec, sp.String(), want)
		}
		if again, err := Parse(sp.String()); err != nil || again.String() != sp.String() {
			t.Errorf("%s: canonical spec does not read back: %v", spec, err)
		}
		g := newGame(t, 1, engine.Normal)
		p := sp.New()
		p.Reset(1)
		if err := Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
	}
	pinned, _ := Parse("learned:weights=" + path)
	other := *ShippedNet
	other.B2 += 1
	if err := os.WriteFile(path, other.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(pinned.String()); err == nil || !strings.Contains(err.Error(), "the file has changed") {
		t.Errorf("a changed weights file: got %v", err)
	}
	for _, bad := range []struct{ spec, want string }{
		{"learned:weights=/dev/null", "not a regular file"},
		{"learned:weights=" + filepath.Join(dir, "none.json"), "no such file"},
		{"mcts:weights=" + path, "needs prior="},
	} {
		if _, err := Parse(bad.spec); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: got %v, want an error containing %q", bad.spec, err, bad.want)
		}
	}
}

// TestWeightsNote: a result names the weights a learned player used and
// says when they were trained for other rules.
func TestWeightsNote(t *testing.T) {
	ref := engine.Reference().Hash
	if n := WeightsNote("skilled", ref); !strings.Contains(n, ShippedNet.Hash()) || strings.Contains(n, "not these") {
		t.Errorf("skilled under the reference rules: %q", n)
	}
	if n := WeightsNote("mcts:iters=5,prior=2", "0e17ed8512b8"); !strings.Contains(n, "not these") {
		t.Errorf("other rules: %q", n)
	}
	for _, spec := range []string{"greedy", "mcts:iters=5", "nonsense"} {
		if n := WeightsNote(spec, ref); n != "" {
			t.Errorf("%s: %q, want no note", spec, n)
		}
	}
}
