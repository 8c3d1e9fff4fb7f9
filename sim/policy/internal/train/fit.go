package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/netfit"
	"tallywood/sim/policy/internal/progress"
)

// scale is the net's output unit, in votes, and temp the temperature of
// the softmax over a decision's scores, in votes.
const (
	scale = 10
	temp  = 1
)

// fit trains a new net on d. Initial weights and the order of the
// decisions come from a generator seeded by the data seed, the round and
// the candidate.
func fit(o options, d *data, round, candidate int) *policy.Net {
	rng := rand.New(rand.NewPCG(o.seed, uint64(round)<<8|uint64(candidate)+deal.StreamTrain))
	// The correction starts near zero: the learned player starts as
	// greedy and moves from there.
	n := netfit.New(o.hidden, scale, 0.01, rng)
	tr := newTrainer(n, o.lr, o.decay)
	order := make([]int32, d.decisions())
	for i := range order {
		order[i] = int32(i)
	}
	const batch = 128
	steps := o.epochs * ((len(order) + batch - 1) / batch)
	bar := progress.New(o.progress, fmt.Sprintf("fit %d.%d (%d decisions)", round, candidate, d.decisions()), steps)
	for range o.epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for b := 0; b < len(order); b += batch {
			tr.step(d, order[b:min(b+batch, len(order))], o.workers)
			bar.Add(1)
		}
	}
	bar.Done()
	return n
}

// trainer runs Adam, with decoupled weight decay, on a net's weights:
// each step on the gradient of a batch, its two halves differentiated
// apart.
type trainer struct {
	net    *policy.Net
	adam   *netfit.Adam
	halves [2]gradBuf // each half batch's gradient and scratch
	g      []float64  // the batch's: the halves added in order
}

type gradBuf struct {
	g     []float64
	hid   []float32 // one row's hidden units
	acts  []float32 // the hidden units of a decision's rows
	score []float64
}

func newTrainer(n *policy.Net, lr, decay float64) *trainer {
	w := netfit.Weights(n)
	tr := &trainer{net: n, adam: netfit.NewAdamW(w, lr, decay), g: make([]float64, len(w))}
	for h := range tr.halves {
		tr.halves[h] = gradBuf{g: make([]float64, len(w)), hid: make([]float32, policy.MaxHidden)}
	}
	return tr
}

// step takes one Adam step on the mean cross-entropy of the batch's
// decisions. The batch's two halves are differentiated apart
// (concurrently with two workers) and added in order, so the step is the
// same for any number of workers.
func (tr *trainer) step(d *data, idx []int32, workers int) {
	mid := len(idx) / 2
	parts := [2][]int32{idx[:mid], idx[mid:]}
	if workers > 1 {
		var wg sync.WaitGroup
		for h := range parts {
			wg.Go(func() { tr.grad(d, parts[h], &tr.halves[h]) })
		}
		wg.Wait()
	} else {
		for h := range parts {
			tr.grad(d, parts[h], &tr.halves[h])
		}
	}
	for i := range tr.g {
		tr.g[i] = tr.halves[0].g[i] + tr.halves[1].g[i]
	}
	tr.adam.Step(tr.g, len(idx))
}

// forward is the net's output (before Scale) at row x, leaving the hidden
// units in hid: the player's own Net.Forward, so that what is trained is
// what plays.
func forward(n *policy.Net, x []float32, hid []float32) float64 {
	return float64(n.Forward((*[policy.NetInputs]float32)(x), hid))
}

// grad sums into b the gradient of the cross-entropy between each
// decision's visit shares and the softmax of its corrected scores.
func (tr *trainer) grad(d *data, idx []int32, b *gradBuf) {
	n := tr.net
	g := b.g
	clear(g)
	const k = policy.NetInputs
	H := n.Hidden
	for _, dk := range idx {
		lo, hi := d.rows(int(dk))
		b.score = b.score[:0]
		b.acts = b.acts[:0]
		for r := lo; r < hi; r++ {
			out := 0.0
			if !d.over[r] {
				out = forward(n, d.x[r*k:r*k+k], b.hid)
			}
			b.acts = append(b.acts, b.hid[:H]...)
			b.score = append(b.score, (float64(d.hand[r])+scale*out)/temp)
		}
		softmax(b.score)
		for j := range hi - lo {
			r := lo + j
			if d.over[r] {
				continue
			}
			// d CE / d out = scale/temp · (p − π)
			e := scale / temp * (b.score[j] - float64(d.pi[r]))
			netfit.Backward(n, d.x[r*k:r*k+k], b.acts[j*H:(j+1)*H], e, g)
		}
	}
}

// softmax turns s into probabilities in place.
func softmax(s []float64) {
	top := math.Inf(-1)
	for _, v := range s {
		top = max(top, v)
	}
	sum := 0.0
	for i, v := range s {
		s[i] = math.Exp(v - top)
		sum += s[i]
	}
	for i := range s {
		s[i] /= sum
	}
}

type report struct{ text, summary string }

// heldOutReport measures, on decisions the net was not trained on, how
// often the corrected score picks the search's most visited option, and
// the cross-entropy with its visit shares, against the hand score's.
func heldOutReport(n *policy.Net, d *data, spec string) report {
	const k = policy.NetInputs
	hid := make([]float32, policy.MaxHidden)
	var agreeNet, agreeHand, ceNet, ceHand float64
	var sNet, sHand []float64
	for dk := range d.decisions() {
		lo, hi := d.rows(dk)
		sNet, sHand = sNet[:0], sHand[:0]
		want := lo
		for r := lo; r < hi; r++ {
			out := 0.0
			if !d.over[r] {
				out = forward(n, d.x[r*k:r*k+k], hid)
			}
			sNet = append(sNet, (float64(d.hand[r])+scale*out)/temp)
			sHand = append(sHand, float64(d.hand[r])/temp)
			if d.pi[r] > d.pi[want] {
				want = r
			}
		}
		if argmax(sNet) == want-lo {
			agreeNet++
		}
		if argmax(sHand) == want-lo {
			agreeHand++
		}
		softmax(sNet)
		softmax(sHand)
		for j := range sNet {
			if p := float64(d.pi[lo+j]); p > 0 {
				ceNet -= p * math.Log(max(sNet[j], 1e-300))
				ceHand -= p * math.Log(max(sHand[j], 1e-300))
			}
		}
	}
	m := float64(max(1, d.decisions()))
	var b strings.Builder
	fmt.Fprintf(&b, "held-out decisions: %d games of %s, %d decisions with a choice\n", d.games, spec, d.decisions())
	fmt.Fprintf(&b, "| score | picks the search's choice | cross-entropy with its visits |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| hand-weighted (greedy) | %.1f%% | %.3f |\n", 100*agreeHand/m, ceHand/m)
	fmt.Fprintf(&b, "| learned | %.1f%% | %.3f |\n", 100*agreeNet/m, ceNet/m)
	summary := fmt.Sprintf("%d held-out games of %s: picks the search's choice at %.1f%% of %d decisions (the hand score: %.1f%%)",
		d.games, spec, 100*agreeNet/m, d.decisions(), 100*agreeHand/m)
	return report{b.String(), summary}
}

// argmax is the index of the first largest value.
func argmax(s []float64) int {
	best := 0
	for i, v := range s {
		if v > s[best] {
			best = i
		}
	}
	return best
}
