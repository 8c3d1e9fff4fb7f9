package policy

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
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
		{"scale too large", strings.Replace(good, `"scale": 10`, `"scale": 2000`, 1), "scale 2000, want a positive number up to 1024"},
		// A bias of 3.4e38 passed as finite: every score overflowed, the
		// guided search panicked and learned: lost every game.
		{"huge bias", withWeight(t, "b1", 1, 3.4e38), "b1[1] is 3.4e+38, outside ±65536"},
		{"huge weight", withWeight(t, "w1", 7, -1e6), "w1[7] is -1e+06, outside ±65536"},
		{"huge output weight", withWeight(t, "w2", 0, 1e20), "w2[0] is 1e+20, outside ±65536"},
		{"hidden too large", strings.Replace(good, `"hidden": `, `"hidden": 9`, 1), "hidden"},
		{"too large", good + strings.Repeat(" ", MaxNetFile), "bytes, more than"},
		// Accepted before, as result files are not.
		{"data after the object", good + `{"format": "x"}`, "data after the JSON object"},
		{"an escape in the meta", strings.Replace(good, `"rules": "reference"`, `"rules": "reference\u001b[2J"`, 1), `meta: "reference\x1b[2J" holds U+001B`},
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

// withWeight is the shipped weights file with weight i of part (w1, b1,
// w2) set to v.
func withWeight(t testing.TB, part string, i int, v float32) string {
	t.Helper()
	n := *ShippedNet
	w := map[string][]float32{"w1": n.W1, "b1": n.B1, "w2": n.W2}[part]
	w = append([]float32(nil), w...)
	w[i] = v
	switch part {
	case "w1":
		n.W1 = w
	case "b1":
		n.B1 = w
	default:
		n.W2 = w
	}
	return string(n.Encode())
}

// TestNetBoundsCannotOverflow: with every weight and bias at ±MaxNetWeight,
// the scale at MaxNetScale and every input at ±maxNetInput, the largest
// hidden unit, output and score are far within float32 (the arithmetic
// MaxNetWeight's comment makes); and the inputs of real games are far
// within maxNetInput.
func TestNetBoundsCannotOverflow(t *testing.T) {
	hidden := float64(MaxNetWeight) * (1 + NetInputs*maxNetInput)
	out := MaxNetWeight * (1 + MaxHidden*hidden)
	if score := out * MaxNetScale; score >= math.MaxFloat32/(1<<40) {
		t.Errorf("the largest score %g is not far within float32", score)
	}
	var most float32
	for seed := range uint64(20) {
		g := newGame(t, seed, engine.Mode(seed%2))
		p := &checkedNet{Policy: NewLearned(ShippedNet, 1), n: ShippedNet, t: t}
		p.Reset(seed)
		if err := Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
		most = max(most, p.most)
	}
	if most > maxNetInput/(1<<10) {
		t.Errorf("an input of %g, not far within ±%d", most, maxNetInput)
	}
}

// checkedNet is a policy that, before it chooses, scores every option by
// the learned score of net n and fails the test when one is not finite;
// it keeps the largest input it saw.
type checkedNet struct {
	Policy
	n    *Net
	t    testing.TB
	most float32
}

func (c *checkedNet) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	var x [NetInputs]float32
	for _, o := range legal {
		kid := *g
		if err := kid.Apply(o); err != nil {
			c.t.Fatal(err)
		}
		if kid.Over() {
			continue
		}
		hand, _ := ScoreInputs(&kid, g.Decision().Seat, &x)
		if v := hand + c.n.Value(&x); math.IsNaN(v) || math.IsInf(v, 0) {
			c.t.Fatalf("option %v scores %v", o, v)
		}
		for _, v := range x {
			c.most = max(c.most, v, -v)
		}
	}
	return c.Policy.Choose(g, legal)
}

// FuzzNetGame: any weights file the loader accepts plays a whole game,
// as the learned player and as the guided search's prior, with every
// option's score finite (a bias of 3.4e38 passed the loader and crashed
// the search). The fuzzer sets one weight, bias or the scale of the
// shipped weights to any float32.
func FuzzNetGame(f *testing.F) {
	f.Add(uint16(32*NetInputs+1), float32(3.4e38)) // b1[1]
	f.Add(uint16(32*NetInputs+1), float32(MaxNetWeight))
	f.Add(uint16(0), float32(-MaxNetWeight))
	f.Add(uint16(32*NetInputs+32+5), float32(math.Inf(1))) // w2[5]
	f.Add(uint16(32*NetInputs+64), float32(MaxNetWeight))  // b2
	f.Add(uint16(32*NetInputs+65), float32(MaxNetScale))   // scale
	f.Add(uint16(32*NetInputs+65), float32(math.NaN()))
	guided, err := Parse("mcts:iters=8,prior=16")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, at uint16, v float32) {
		n := *ShippedNet
		w1, b1, w2 := slices.Clone(n.W1), slices.Clone(n.B1), slices.Clone(n.W2)
		n.W1, n.B1, n.W2 = w1, b1, w2
		flat := slices.Concat(w1, b1, w2)
		switch i := int(at) % (len(flat) + 2); {
		case i < len(w1):
			w1[i] = v
		case i < len(w1)+len(b1):
			b1[i-len(w1)] = v
		case i < len(flat):
			w2[i-len(w1)-len(b1)] = v
		case i == len(flat):
			n.B2 = v
		default:
			n.Scale = v
		}
		net, err := ParseNet(n.Encode())
		if err != nil {
			return
		}
		search, err := guided.WithNet(net)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Policy{NewLearned(net, 1), search()} {
			g := newGame(t, 3, engine.Hard)
			c := &checkedNet{Policy: p, n: net, t: t}
			c.Reset(3)
			if err := Play(g, c, nil); err != nil || !g.Over() {
				t.Fatalf("game not played to its end: %v", err)
			}
		}
	})
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
	ref := PlayedRules(engine.Reference())
	if n := WeightsNote("skilled", ref); !strings.Contains(n, ShippedNet.Hash()) || strings.Contains(n, "not these") {
		t.Errorf("skilled under the reference rules: %q", n)
	}
	if n := WeightsNote("mcts:iters=5,prior=2", RulesPlayed{Hash: "0e17ed8512b8"}); !strings.Contains(n, "not these") {
		t.Errorf("other rules: %q", n)
	}
	for _, spec := range []string{"greedy", "mcts:iters=5", "nonsense"} {
		if n := WeightsNote(spec, ref); n != "" {
			t.Errorf("%s: %q, want no note", spec, n)
		}
	}
	// Under rules whose Opposition is a script, the note names it and gives
	// the one command that retrains the weights for those rules, with -rules
	// and -out before the policies (which end the trainer's flags).
	n := WeightsNote("skilled", RulesPlayed{Hash: "0e17ed8512b8", File: "designs/mine.json", Automaton: "mine.star"})
	want := "whose Opposition is the script mine.star, not the one it was trained against: measure it, or retrain it for them with " +
		"go run ./sim/policy/internal/train -rules designs/mine.json -out mine-value.json -seed 8000 "
	if !strings.Contains(n, want) || !strings.HasSuffix(n, "2000xmcts:iters=400 (docs/policies.md)") {
		t.Errorf("scripted rules: %q", n)
	}
}
