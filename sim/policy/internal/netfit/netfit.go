// Package netfit fits a policy.Net: what the two trainers share, the
// learned score's (train: the cross-entropy of a decision's options) and
// the win chance's (chancefit: the logistic loss of a game's outcome).
// It holds the initial weights (New), the weights as one vector
// (Weights), back-propagation through the net of a loss's derivative at
// its output (Backward) and Adam (NewAdam); and, for the trainers' tests,
// the gradient check (check.go). The loss is each trainer's own.
//
// Every sum is taken in a fixed order, so that the same data, seed and
// flags give the same weights byte for byte (make weights and make chance
// regenerate the shipped files).
package netfit

import (
	"math"
	"math/rand/v2"

	"tallywood/sim/policy"
)

// New returns a net of hidden rectified units with output scale scale
// (policy.Net.Scale), or a linear one with hidden 0: the rectified layer
// drawn by He initialisation, the output weights small (out times
// 1/√hidden), so that the net starts near its output bias.
func New(hidden int, scale float32, out float64, rng *rand.Rand) *policy.Net {
	n := &policy.Net{Hidden: hidden, Scale: scale}
	if hidden == 0 {
		n.W2 = make([]float32, policy.NetInputs)
		return n
	}
	n.W1 = make([]float32, hidden*policy.NetInputs)
	n.B1 = make([]float32, hidden)
	n.W2 = make([]float32, hidden)
	s1 := math.Sqrt(2.0 / policy.NetInputs)
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64() * s1)
	}
	s2 := math.Sqrt(1.0 / float64(hidden))
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64() * s2 * out)
	}
	return n
}

// Weights are n's weights as one vector, in the order of Backward's
// gradient: W1 (row by row), B1, W2, B2.
func Weights(n *policy.Net) []*float32 {
	var w []*float32
	for _, part := range [][]float32{n.W1, n.B1, n.W2} {
		for i := range part {
			w = append(w, &part[i])
		}
	}
	return append(w, &n.B2)
}

// Backward adds to g, the gradient of n's weights in the order of
// Weights, e times the derivative of n's output (before Scale) at row x,
// whose hidden units Forward left in hid: e is the loss's derivative
// with respect to that output.
func Backward(n *policy.Net, x, hid []float32, e float64, g []float64) {
	const k = policy.NetInputs
	nW1, H := len(n.W1), n.Hidden
	if H == 0 {
		for i, v := range x {
			g[i] += e * float64(v)
		}
		g[len(g)-1] += e
		return
	}
	for u := range H {
		a := hid[u]
		if a <= 0 {
			continue
		}
		g[nW1+H+u] += e * float64(a)
		back := e * float64(n.W2[u])
		g[nW1+u] += back
		row := g[u*k : u*k+k]
		for i, v := range x {
			row[i] += back * float64(v)
		}
	}
	g[len(g)-1] += e
}

// Adam runs Adam (Kingma and Ba 2015) on weights, one vector; with
// decoupled weight decay (Loshchilov and Hutter 2019) when made by
// NewAdamW.
type Adam struct {
	weights   []*float32
	lr, decay float64
	decoupled bool
	m, v      []float64
	t         int
}

// NewAdam returns Adam with step size lr on weights.
func NewAdam(weights []*float32, lr float64) *Adam {
	return &Adam{weights: weights, lr: lr, m: make([]float64, len(weights)), v: make([]float64, len(weights))}
}

// NewAdamW returns Adam with step size lr and decoupled weight decay
// decay (relative to the step size; 0 decays nothing) on weights.
func NewAdamW(weights []*float32, lr, decay float64) *Adam {
	a := NewAdam(weights, lr)
	a.decay, a.decoupled = decay, true
	return a
}

// Step takes one step on g, the gradient summed over n examples, in the
// order of the weights: the step of their mean.
func (a *Adam) Step(g []float64, n int) {
	a.t++
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	inv := 1 / float64(n)
	for i, w := range a.weights {
		gi := g[i] * inv
		a.m[i] = b1*a.m[i] + (1-b1)*gi
		a.v[i] = b2*a.v[i] + (1-b2)*gi*gi
		step := a.lr * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + eps)
		if a.decoupled {
			step += a.lr * a.decay * float64(*w)
		}
		*w -= float32(step)
	}
}
