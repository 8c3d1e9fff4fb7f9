package netfit

import (
	"fmt"
	"math"

	"tallywood/sim/policy"
)

// The gradient check the trainers' tests run: a hand-written gradient
// against the central differences of its loss, computed in float64 from
// float64 copies of the weights (Output), since over so small a step the
// float32 Forward would round the difference away.

// Output is the output (before Scale) of a net of hidden units at row x,
// in float64, from its weights w in the order of Weights.
func Output(hidden int, w []float64, x []float32) float64 {
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

// A Group is a run of the weight vector, named in the check's messages.
type Group struct {
	Name string
	N    int
}

// Groups are n's weights' groups in the order of Weights: W1, B1, W2, B2.
func Groups(n *policy.Net) []Group {
	return []Group{{"W1", len(n.W1)}, {"B1", len(n.B1)}, {"W2", len(n.W2)}, {"B2", 1}}
}

// The check's step and tolerance: measured, the trainers' gradients are
// within 1e-6 of the differences, so the tolerance leaves room for float32
// rounding elsewhere, and each wrong term tried (a dropped bias, the mask
// or a factor of the chain rule) is off by far more. With that step a
// difference crosses a rectifier's kink, where the derivative jumps, for
// about one weight in 10^5: the tests' seeds are fixed, and none does.
const (
	checkStep = 1e-6
	checkTol  = 1e-4
)

// CheckGradient compares grad, the gradient of loss at weights, with
// loss's central differences over a step of checkStep at float64 copies
// of the weights: each component must be within checkTol of its
// difference (relative above 1). It returns a line for each component
// that is not, and for each group of groups (the vector's runs, in order)
// whose weights hardly move the loss, lest a check pass on zeros.
func CheckGradient(grad []float64, weights []*float32, groups []Group, loss func(w []float64) float64) []string {
	const step, tol = checkStep, checkTol
	w := make([]float64, len(weights))
	for i, p := range weights {
		w[i] = float64(*p)
	}
	var out []string
	i := 0
	for _, g := range groups {
		var sum float64
		for range g.N {
			saved := w[i]
			w[i] = saved + step
			up := loss(w)
			w[i] = saved - step
			down := loss(w)
			w[i] = saved
			want := (up - down) / (2 * step)
			if got := grad[i]; math.Abs(got-want) > tol*max(1, math.Abs(want)) {
				out = append(out, fmt.Sprintf("%s, weight %d of the vector: gradient %.8f, central difference %.8f", g.Name, i, got, want))
			}
			sum += math.Abs(want)
			i++
		}
		if g.N > 0 && sum < 1e-3 {
			out = append(out, fmt.Sprintf("%s: the loss hardly moves with these weights (|∂| summed %.2g): the check proves nothing", g.Name, sum))
		}
	}
	return out
}
