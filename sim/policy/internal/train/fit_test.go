package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/netfit"
)

// TestGradMatchesFiniteDifferences: grad's derivative is the loss it
// claims, the summed cross-entropy between each decision's visit shares
// and the softmax of its corrected scores: netfit's gradient check, for
// every weight of small nets with random weights, on random decisions
// (zero inputs, which Forward skips, and rows where the game is over,
// which the net does not score, among them), each component against its
// central difference. The linear net and rectified layers of 4 and 6
// units are checked.
func TestGradMatchesFiniteDifferences(t *testing.T) {
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
		loss := func(w []float64) float64 { return lossAt(hidden, w, d) }
		for _, msg := range netfit.CheckGradient(b.g, netfit.Weights(n), netfit.Groups(n), loss) {
			t.Errorf("hidden %d: %s", hidden, msg)
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
				out = netfit.Output(hidden, w, d.x[r*k:r*k+k])
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
