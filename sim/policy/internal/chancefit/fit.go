package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/netfit"
	"tallywood/sim/policy/internal/progress"
)

// The fit: a net per level (or one pooled) on the logistic loss of the
// outcome, by netfit's Adam, then calibrated (calibration.go) and
// measured on held-out games.

// train plays, fits and measures every level.
func train(o options) (*policy.ChanceModel, string, error) {
	var b strings.Builder
	meta := policy.ChanceMeta{Command: o.command, DataSeed: o.seed, Rules: o.rules.Name, RulesHash: o.rules.Hash}
	var chances []*policy.WinChance
	sets := make([]*data, len(o.levels))
	for k, l := range o.levels {
		d, err := collect(o, l, uint64(k), o.seed, l.games, o.keep)
		if err != nil {
			return nil, "", err
		}
		sets[k] = d
		meta.Levels = append(meta.Levels, policy.ChanceLevelMeta{Level: l.name, Spec: l.spec.String(), Games: d.games, Positions: d.len(), BaseRate: d.wins / float64(d.games)})
	}
	fits, cals := make([]*data, len(sets)), make([]*data, len(sets))
	for k, d := range sets {
		fits[k], cals[k] = d.split(o.levels[k].games - int(o.calib*float64(o.levels[k].games)))
	}
	var pooled *pooledFit
	if o.pooled {
		all := &data{}
		for _, d := range fits {
			all.append(d)
		}
		wc := fit(o, all, 0, "pooled")
		pooled = &pooledFit{net: wc.Net(), bias: wc.Bias()}
	}
	for k, l := range o.levels {
		var wc *policy.WinChance
		if pooled != nil {
			wc = policy.NewWinChance(l.name, clone(pooled.net), new([policy.ChanceKinds]float32))
			*wc.Bias() = *pooled.bias
		} else {
			wc = fit(o, fits[k], k, l.name)
		}
		a, c := scaleLogit(wc, cals[k])
		// The knee's slope, fitted on the few high chances of the -calib
		// games alone (6,000 for casual), lifted casual's 70–90% by 2 to 5
		// points too many on fresh seeds (issue 42): -knee-games fits it on
		// games of its own, as many as asked.
		kneeData := cals[k]
		if o.kneeGames > 0 {
			var err error
			if kneeData, err = collect(o, l, uint64(k), o.kneeSeed, o.kneeGames, o.keep); err != nil {
				return nil, "", err
			}
		}
		knee := fitKnee(wc, kneeData)
		wc.SetKnee(knee)
		fmt.Fprintf(&b, "%s: output scaled by %.3f, shifted by %+.3f on %d calibration games, stretched by %.3f above %.0f%% on %d games\n",
			l.name, a, c, cals[k].games, knee.Slope, 100*sigmoid(float64(knee.At)), kneeData.games)
		iv, text, err := intervals(o, l, uint64(k), wc)
		if err != nil {
			return nil, "", err
		}
		wc.SetInterval(iv)
		b.WriteString(text)
		chances = append(chances, wc)
		held, err := collect(o, l, uint64(k), o.heldout, min(o.heldoutGames, max(1, l.games/4)), 1)
		if err != nil {
			return nil, "", err
		}
		base := sets[k].wins / float64(sets[k].games)
		sc, rows := measure(wc, held, base)
		table := binTable(rows)
		meta.HeldOut = append(meta.HeldOut, sc)
		fmt.Fprintf(&b, "%s (%s): %d training games, %d positions; held out: %d games on seed %d, %d positions\n",
			l.name, l.spec, sets[k].games, sets[k].len(), held.games, o.heldout, held.len())
		fmt.Fprintf(&b, "Brier %.4f (the base rate %.3f's: %.4f), log loss %.4f\n%s\n", sc.Brier, base, sc.BaseBrier, sc.LogLoss, table)
	}
	m := policy.NewChanceModel(meta, chances)
	// The file's own encoding is what the hash names.
	m, err := policy.ParseChance(m.Encode())
	if err != nil {
		return nil, "", err
	}
	return m, b.String(), nil
}

// clone is a copy of n that scaleLogit may change.
func clone(n *policy.Net) *policy.Net {
	c := *n
	c.W1, c.B1, c.W2 = slices.Clone(n.W1), slices.Clone(n.B1), slices.Clone(n.W2)
	return &c
}

// pooledFit is the net fitted on every level's games (-pooled), and its
// kind biases.
type pooledFit struct {
	net  *policy.Net
	bias *[policy.ChanceKinds]float32
}

// fit trains a net on d: logistic loss of the outcome, Adam. Initial
// weights and the order of the positions come from a generator seeded by
// the data seed and k.
func fit(o options, d *data, k int, level string) *policy.WinChance {
	rng := rand.New(rand.NewPCG(o.seed, deal.StreamChanceFit+uint64(k)+1))
	// A small output layer: the net starts near a chance of ½.
	n := netfit.New(o.hidden, 1, 0.1, rng)
	bias := new([policy.ChanceKinds]float32)
	tr := newTrainer(n, bias, o.lr)
	order := make([]int32, d.len())
	for i := range order {
		order[i] = int32(i)
	}
	steps := o.epochs * ((len(order) + o.batch - 1) / o.batch)
	bar := progress.New(o.progress, fmt.Sprintf("fit %d (%d positions)", k, d.len()), steps)
	for range o.epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for b := 0; b < len(order); b += o.batch {
			tr.step(d, order[b:min(b+o.batch, len(order))])
			bar.Add(1)
		}
	}
	bar.Done()
	return policy.NewWinChance(level, n, bias)
}

// trainer runs Adam on a net's weights and its kind biases, one vector.
type trainer struct {
	net  *policy.Net
	bias *[policy.ChanceKinds]float32
	adam *netfit.Adam
	g    []float64
	hid  []float32
	// kb is where the kind biases' gradient starts in g, after the net's.
	kb int
}

func newTrainer(n *policy.Net, bias *[policy.ChanceKinds]float32, lr float64) *trainer {
	w := netfit.Weights(n)
	kb := len(w)
	for i := range bias {
		w = append(w, &bias[i])
	}
	return &trainer{net: n, bias: bias, adam: netfit.NewAdam(w, lr), g: make([]float64, len(w)), hid: make([]float32, policy.MaxHidden), kb: kb}
}

// step takes one Adam step on the mean logistic loss of the batch.
func (tr *trainer) step(d *data, idx []int32) {
	tr.grad(d, idx)
	tr.adam.Step(tr.g, len(idx))
}

// grad sums into tr.g the gradient of the logistic loss of the outcome
// at the positions idx of d.
func (tr *trainer) grad(d *data, idx []int32) {
	n := tr.net
	g := tr.g
	clear(g)
	const k = policy.NetInputs
	for _, r := range idx {
		x := d.x[int(r)*k : int(r)*k+k]
		kind := int(d.kind[r])
		z := float64(n.Forward((*[k]float32)(x), tr.hid) + tr.bias[kind])
		e := sigmoid(z) - float64(d.y[r]) // d loss / d z
		g[tr.kb+kind] += e
		netfit.Backward(n, x, tr.hid, e, g[:tr.kb])
	}
}
