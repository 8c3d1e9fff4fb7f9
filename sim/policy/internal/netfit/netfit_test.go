package netfit

import (
	"math"
	"math/rand/v2"
	"testing"

	"tallywood/sim/policy"
)

// TestBackwardMatchesFiniteDifferences: Backward's hand-written
// back-propagation is the derivative of the net's output. The loss is a
// weighted sum of the outputs at random rows (zero inputs, which Forward
// skips, among them), each row's weight its e; for every weight of small
// nets with random weights, the summed gradient must equal the central
// difference (CheckGradient). The linear net and rectified layers of 4 and
// 6 units are checked: Forward takes the units four at a time, then one by
// one. Output, the check's float64 net, is checked against Forward first.
func TestBackwardMatchesFiniteDifferences(t *testing.T) {
	const k = policy.NetInputs
	for _, hidden := range []int{0, 4, 6} {
		rng := rand.New(rand.NewPCG(29, uint64(hidden)))
		n := randomNet(rng, hidden)
		rows, es := randomRows(rng, 12), make([]float64, 12)
		weights := Weights(n)
		g := make([]float64, len(weights))
		hid := make([]float32, policy.MaxHidden)
		for r := range es {
			es[r] = rng.NormFloat64()
			x := rows[r*k : r*k+k]
			n.Forward((*[k]float32)(x), hid)
			Backward(n, x, hid, es[r], g)
		}
		w := make([]float64, len(weights))
		for i, p := range weights {
			w[i] = float64(*p)
		}
		for r := range es {
			x := rows[r*k : r*k+k]
			got, want := Output(hidden, w, x), float64(n.Forward((*[k]float32)(x), hid))
			if math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
				t.Fatalf("hidden %d, row %d: Output %.8f, Forward %.8f", hidden, r, got, want)
			}
		}
		loss := func(w []float64) float64 {
			var s float64
			for r, e := range es {
				s += e * Output(hidden, w, rows[r*k:r*k+k])
			}
			return s
		}
		for _, msg := range CheckGradient(g, weights, Groups(n), loss) {
			t.Errorf("hidden %d: %s", hidden, msg)
		}
	}
}

// TestCheckGradientFindsAWrongTerm: the check fails a gradient with one
// wrong term, and a group whose weights do not move the loss.
func TestCheckGradientFindsAWrongTerm(t *testing.T) {
	ws := []float32{1, 2, 3}
	weights := []*float32{&ws[0], &ws[1], &ws[2]}
	loss := func(w []float64) float64 { return w[0]*w[0] + 3*w[1] }
	groups := []Group{{"a", 2}, {"b", 1}}
	if msgs := CheckGradient([]float64{2, 3, 0}, weights, groups, loss); len(msgs) != 1 {
		t.Errorf("the right gradient: %q, want only b's unmoved loss", msgs)
	}
	if msgs := CheckGradient([]float64{2, 2.5, 0}, weights, groups, loss); len(msgs) != 2 {
		t.Errorf("a wrong term: %q, want it and b's unmoved loss", msgs)
	}
}

// TestAdam: the first step moves each weight by about the step size
// against its gradient's sign, whatever the gradient's size (Adam's
// moments are the gradient's, bias-corrected); decoupled decay shrinks a
// weight with no gradient by lr·decay of itself a step, and NewAdam
// decays nothing.
func TestAdam(t *testing.T) {
	ws := []float32{1, 1, 1}
	a := NewAdam([]*float32{&ws[0], &ws[1], &ws[2]}, 0.01)
	a.Step([]float64{4, -0.02, 0}, 2)
	for i, want := range []float32{0.99, 1.01, 1} {
		if math.Abs(float64(ws[i]-want)) > 1e-6 {
			t.Errorf("weight %d after a step: %g, want %g", i, ws[i], want)
		}
	}
	w := float32(2)
	d := NewAdamW([]*float32{&w}, 0.01, 0.5)
	d.Step([]float64{0}, 1)
	if want := float32(2 - 0.01*0.5*2); w != want {
		t.Errorf("decayed weight %g, want %g", w, want)
	}
}

// randomNet returns a net of hidden units with random weights.
func randomNet(rng *rand.Rand, hidden int) *policy.Net {
	n := New(hidden, 1, 1, rng)
	for _, p := range Weights(n) {
		*p = float32(rng.NormFloat64() * 0.2)
	}
	return n
}

// randomRows returns rows of inputs, a third of them 0.
func randomRows(rng *rand.Rand, rows int) []float32 {
	x := make([]float32, rows*policy.NetInputs)
	for i := range x {
		if rng.IntN(3) > 0 {
			x[i] = float32(rng.NormFloat64())
		}
	}
	return x
}
