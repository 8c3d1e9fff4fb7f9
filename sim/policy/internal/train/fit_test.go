package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"tallywood/sim/policy"
)

// TestGradMatchesFiniteDifferences: grad's hand-written back-propagation
// is the derivative of the loss it claims, the summed cross-entropy
// between each decision's visit shares and the softmax of its corrected
// scores. For every weight of small nets with random weights, on random
// decisions (zero inputs, which Forward skips, and rows where the game is
// over, which the net does not score, among them), grad's component must
// equal the central difference of the loss over a step of 1e-6, within
// 1e-4 (relative above 1). The linear net and rectified layers of 4 and
// 6 units are checked: Forward takes the units four at a time, then one
// by one.
//
// The loss is computed in float64 from float64 copies of the weights
// (lossAt), since over so small a step the float32 Forward would round
// the difference away; lossAt's net is checked against Forward. With that
// step a difference crosses a rectifier's kink, where the derivative
// jumps, for about one weight in 10^5; the seeds are fixed, and none does.
// Measured, grad is within 1e-6 of the differences: the tolerance leaves
// room for float32 rounding elsewhere, and each wrong term tried (a
// dropped bias, the mask or a factor of the chain rule) is off by far more.
func TestGradMatchesFiniteDifferences(t *testing.T) {
	const step, tol = 1e-6, 1e-4
	for _, hidden := range []int{0, 4, 6} {
		rng := rand.New(rand.NewPCG(28, uint64(hidden)))
		d := randomDecisions(rng, 8)
		n := randomNet(rng, hidden)
		tr := newTrainer(n, 0, 0)
		idx := make([]int32, d.decisions())
		for i := range idx {
			idx[i] = int32(i)
		}
		b := &tr.halves[0]
		tr.grad(d, idx, b)

		w := make([]float64, len(tr.flat))
		for i, p := range tr.flat {
			w[i] = float64(*p)
		}
		checkForward(t, n, w, d)
		// The weights' groups, in grad's order, each of which must have
		// some gradient, lest the check pass on zeros.
		groups := []struct {
			name string
			n    int
		}{{"W1", len(n.W1)}, {"B1", len(n.B1)}, {"W2", len(n.W2)}, {"B2", 1}}
		i := 0
		for _, g := range groups {
			var sum float64
			for range g.n {
				saved := w[i]
				w[i] = saved + step
				up := lossAt(hidden, w, d)
				w[i] = saved - step
				down := lossAt(hidden, w, d)
				w[i] = saved
				want := (up - down) / (2 * step)
				if got := b.g[i]; math.Abs(got-want) > tol*max(1, math.Abs(want)) {
					t.Errorf("hidden %d: %s, weight %d of the vector: gradient %.8f, central difference %.8f", hidden, g.name, i, got, want)
				}
				sum += math.Abs(want)
				i++
			}
			if g.n > 0 && sum < 1e-3 {
				t.Errorf("hidden %d: %s: the loss hardly moves with these weights (|∂| summed %.2g): the check proves nothing", hidden, g.name, sum)
			}
		}
	}
}

// randomDecisions returns decisions of 2 to 6 options with random inputs
// (a third of them 0), hand scores, game-over rows (one in six) and visit
// shares (some 0, summing to 1 over a decision).
func randomDecisions(rng *rand.Rand, decisions int) *data {
	d := &data{}
	for range decisions {
		d.first = append(d.first, int32(len(d.pi)))
		rows := 2 + rng.IntN(5)
		var shares []float64
		var total float64
		for range rows {
			for range policy.NetInputs {
				v := float32(0)
				if rng.IntN(3) > 0 {
					v = float32(rng.NormFloat64())
				}
				d.x = append(d.x, v)
			}
			d.hand = append(d.hand, float32(rng.NormFloat64()))
			d.over = append(d.over, rng.IntN(6) == 0)
			s := 0.0
			if rng.IntN(4) > 0 {
				s = rng.Float64()
			}
			shares = append(shares, s)
			total += s
		}
		if total == 0 {
			shares[0], total = 1, 1
		}
		for _, s := range shares {
			d.pi = append(d.pi, float32(s/total))
		}
	}
	return d
}

// randomNet returns a net of hidden units with random weights, small
// enough that the corrected scores stay within a few votes of the hand
// scores and the softmax is not saturated.
func randomNet(rng *rand.Rand, hidden int) *policy.Net {
	n := &policy.Net{Hidden: hidden, Scale: scale}
	norm := func(sd float64) float32 { return float32(rng.NormFloat64() * sd) }
	if hidden == 0 {
		n.W2 = make([]float32, policy.NetInputs)
	} else {
		n.W1 = make([]float32, hidden*policy.NetInputs)
		n.B1 = make([]float32, hidden)
		n.W2 = make([]float32, hidden)
	}
	for i := range n.W1 {
		n.W1[i] = norm(0.2)
	}
	for i := range n.B1 {
		n.B1[i] = norm(0.2)
	}
	for i := range n.W2 {
		n.W2[i] = norm(0.05)
	}
	n.B2 = norm(0.05)
	return n
}

// netAt is the net's output at row x in float64, from the weights w in
// grad's order: W1 (row by row), B1, W2, B2.
func netAt(hidden int, w []float64, x []float32) float64 {
	const k = policy.NetInputs
	out := w[len(w)-1]
	if hidden == 0 {
		for i, v := range x {
			out += w[i] * float64(v)
		}
		return out
	}
	b1, w2 := w[hidden*k:hidden*k+hidden], w[hidden*k+hidden:hidden*k+2*hidden]
	for u := range hidden {
		s := b1[u]
		for i, v := range x {
			s += w[u*k+i] * float64(v)
		}
		out += w2[u] * max(s, 0)
	}
	return out
}

// lossAt is the loss grad differentiates, summed over every decision of
// d, at the weights w.
func lossAt(hidden int, w []float64, d *data) float64 {
	const k = policy.NetInputs
	var loss float64
	var s []float64
	for dk := range d.decisions() {
		lo, hi := d.rows(dk)
		s = s[:0]
		top := math.Inf(-1)
		for r := lo; r < hi; r++ {
			out := 0.0
			if !d.over[r] {
				out = netAt(hidden, w, d.x[r*k:r*k+k])
			}
			s = append(s, (float64(d.hand[r])+scale*out)/temp)
			top = max(top, s[len(s)-1])
		}
		var sum float64
		for _, v := range s {
			sum += math.Exp(v - top)
		}
		logZ := top + math.Log(sum)
		for j, v := range s {
			loss -= float64(d.pi[lo+j]) * (v - logZ)
		}
	}
	return loss
}

// checkForward fails unless netAt is the net Forward computes, to float32
// precision, at every row of d.
func checkForward(t *testing.T, n *policy.Net, w []float64, d *data) {
	t.Helper()
	const k = policy.NetInputs
	hid := make([]float32, policy.MaxHidden)
	for r := range len(d.pi) {
		x := d.x[r*k : r*k+k]
		got, want := netAt(n.Hidden, w, x), float64(n.Forward((*[policy.NetInputs]float32)(x), hid))
		if math.Abs(got-want) > 1e-5*max(1, math.Abs(want)) {
			t.Fatalf("hidden %d, row %d: float64 net %.8f, Forward %.8f", n.Hidden, r, got, want)
		}
	}
}
