package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/netfit"
)

// TestGradMatchesFiniteDifferences: grad's derivative is the loss it
// claims, the summed logistic loss of each position's outcome (a win 1,
// a draw ½) against the chance of its logit, the net's output plus its
// kind's bias: netfit's gradient check, for every weight and kind bias
// of small nets with random weights, on random positions (zero inputs
// among them, every kind of point), each component against its central
// difference. The linear net and a rectified layer of 6 units are checked.
func TestGradMatchesFiniteDifferences(t *testing.T) {
	const k = policy.NetInputs
	for _, hidden := range []int{0, 6} {
		rng := rand.New(rand.NewPCG(30, uint64(hidden)))
		n := netfit.New(hidden, 1, 1, rng)
		for _, p := range netfit.Weights(n) {
			*p = float32(rng.NormFloat64() * 0.2)
		}
		bias := new([policy.ChanceKinds]float32)
		for i := range bias {
			bias[i] = float32(rng.NormFloat64() * 0.2)
		}
		d := &data{}
		for r := range 4 * policy.ChanceKinds {
			for range k {
				v := float32(0)
				if rng.IntN(3) > 0 {
					v = float32(rng.NormFloat64())
				}
				d.x = append(d.x, v)
			}
			d.y = append(d.y, float32(rng.IntN(3))/2)
			d.kind = append(d.kind, uint8(r%policy.ChanceKinds))
		}
		tr := newTrainer(n, bias, 0)
		idx := make([]int32, d.len())
		for i := range idx {
			idx[i] = int32(i)
		}
		tr.grad(d, idx)
		weights := netfit.Weights(n)
		for i := range bias {
			weights = append(weights, &bias[i])
		}
		loss := func(w []float64) float64 {
			var s float64
			for r := range d.len() {
				z := netfit.Output(hidden, w[:tr.kb], d.x[r*k:r*k+k]) + w[tr.kb+int(d.kind[r])]
				y := float64(d.y[r])
				s -= y*math.Log(sigmoid(z)) + (1-y)*math.Log(1-sigmoid(z))
			}
			return s
		}
		groups := append(netfit.Groups(n), netfit.Group{Name: "kind biases", N: policy.ChanceKinds})
		for _, msg := range netfit.CheckGradient(tr.g, weights, groups, loss) {
			t.Errorf("hidden %d: %s", hidden, msg)
		}
	}
}
