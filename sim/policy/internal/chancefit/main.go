// Command chancefit makes the win-chance model (sim/policy/chance.json)
// and checks it. It plays games of each skill level named (LEVEL=GAMES)
// on a data seed, Normal and Hard alternately, the politician drawn as
// `sim --politician random` does, and records the win chance's inputs at
// a share (-keep) of the points of each game's arc (policy.Arc: every
// decision of the player and the start of every Opposition turn), with
// the game's outcome (a win 1, a draw ½). It fits one network per level
// to them (logistic loss, Adam), measures each on held-out games of
// another seed (the Brier score against the base rate's, and a table of
// predicted against observed by tenths) and writes the file, which
// records the command, the data seed, the rules and the held-out scores.
//
//	go run ./sim/policy/internal/chancefit -rules mine.json -out mine-chance.json casual=20000 skilled=20000
//
// (make chance has the shipped file's command.) With -check it plays no
// training games: it measures the model of -model (default: the shipped
// one) on held-out games and, at -check-positions positions sampled from
// them, compares its chance with the mean outcome of -continuations
// games continued from the position by the same level, each from a copy
// determinized from the player's view (make chance-check). The same
// arguments give the same output byte for byte, whatever the number of
// workers: games are played in parallel and kept by index, and the fit
// runs on one goroutine in a fixed order.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/progress"
)

func main() {
	o := options{}
	flag.Uint64Var(&o.seed, "seed", 12000, "master seed of the training games")
	flag.Uint64Var(&o.heldout, "heldout", 12001, "master seed of the held-out games")
	flag.IntVar(&o.heldoutGames, "heldout-games", 2000, "held-out games per level")
	flag.Float64Var(&o.keep, "keep", 0.25, "share of each game's points kept for the fit")
	flag.IntVar(&o.hidden, "hidden", 32, "hidden units (0: logistic regression)")
	flag.IntVar(&o.epochs, "epochs", 6, "passes over the data")
	flag.Float64Var(&o.lr, "lr", 0.002, "Adam's step size")
	flag.IntVar(&o.batch, "batch", 256, "positions per step")
	flag.Float64Var(&o.calib, "calib", 0.2, "share of each level's games (the last) kept out of the fit, to scale its output so that its chances are calibrated")
	flag.BoolVar(&o.pooled, "pooled", false, "fit one network on every level's games together, used for each level (to measure against one per level)")
	flag.StringVar(&o.out, "out", "", "write the model to this file (default: report only)")
	flag.StringVar(&o.rulesFile, "rules", "", "rules file to train for (default: the reference rules)")
	flag.IntVar(&o.workers, "workers", 2, "parallel games")
	flag.BoolVar(&o.check, "check", false, "measure the model of -model instead of training: calibration and continuations")
	flag.StringVar(&o.model, "model", "", "with -check: the win-chance file (default: the shipped one)")
	flag.IntVar(&o.checkPositions, "check-positions", 300, "with -check: positions per level the continuations start from")
	flag.IntVar(&o.continuations, "continuations", 100, "games continued from each position of the interval's measure and of the check")
	flag.Uint64Var(&o.intervalSeed, "interval-seed", 12003, "master seed of the games whose positions measure the chance's interval")
	flag.IntVar(&o.intervalPositions, "interval-positions", 6000, "positions per level that measure the chance's interval")
	flag.Uint64Var(&o.checkSeed, "check-seed", 12002, "with -check: master seed of the continuations' positions")
	flag.BoolVar(&o.quiet, "quiet", false, "no progress")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: chancefit [flags] LEVEL=GAMES...   (e.g. casual=20000 skilled=20000)\n       chancefit -check [flags] LEVEL...")
		flag.PrintDefaults()
	}
	args := parseArgs()
	var err error
	if o.levels, err = parseLevels(args, !o.check); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	o.rules = engine.Reference()
	if o.rulesFile != "" {
		if o.rules, err = engine.LoadFile(o.rulesFile); err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(2)
		}
	}
	// A script the rules name is compiled before any game is played.
	if err := script.Check(o.rules); err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(2)
	}
	o.command = command(o, args)
	if !o.quiet {
		o.progress = os.Stderr
	}
	start := time.Now()
	if o.check {
		var m *policy.ChanceModel
		if o.model != "" {
			data, err := os.ReadFile(o.model)
			if err == nil {
				m, err = policy.ParseChance(data)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "chancefit:", err)
				os.Exit(2)
			}
		} else {
			m = policy.ShippedChance()
		}
		rep, _, err := checkModel(o, m)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(1)
		}
		fmt.Print(rep)
		fmt.Fprintf(os.Stderr, "took %s\n", time.Since(start).Round(time.Second))
		return
	}
	m, rep, err := train(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "chancefit:", err)
		os.Exit(1)
	}
	fmt.Print(rep)
	fmt.Fprintf(os.Stderr, "took %s\n", time.Since(start).Round(time.Second))
	if o.out != "" {
		if err := os.WriteFile(o.out, m.Encode(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "chancefit:", err)
			os.Exit(1)
		}
	}
}

type level struct {
	name  string
	spec  policy.Spec
	games int
}

type options struct {
	levels                []level
	seed, heldout         uint64
	heldoutGames          int
	keep                  float64
	hidden, epochs, batch int
	lr, calib             float64
	pooled                bool
	out, rulesFile, model string
	rules                 *engine.Rules
	workers               int
	check                 bool
	checkPositions        int
	continuations         int
	checkSeed             uint64
	intervalSeed          uint64
	intervalPositions     int
	quiet                 bool
	command               string
	progress              io.Writer
}

// validate refuses seeds that would measure the model on what fitted it
// and budgets that measure nothing.
func (o options) validate() error {
	switch {
	case o.continuations < 2:
		return fmt.Errorf("-continuations %d: want at least 2", o.continuations)
	case o.intervalPositions < 100:
		return fmt.Errorf("-interval-positions %d: want at least 100", o.intervalPositions)
	case o.checkPositions < 1:
		return fmt.Errorf("-check-positions %d: want at least 1", o.checkPositions)
	}
	seeds := map[uint64]string{o.seed: "-seed"}
	for _, s := range []struct {
		name string
		v    uint64
	}{{"-heldout", o.heldout}, {"-interval-seed", o.intervalSeed}, {"-check-seed", o.checkSeed}} {
		if other, ok := seeds[s.v]; ok {
			return fmt.Errorf("%s and %s are both %d: each measure needs games of its own", other, s.name, s.v)
		}
		seeds[s.v] = s.name
	}
	return nil
}

// parseLevels reads LEVEL=GAMES arguments (LEVEL alone when the games
// are not needed: -check), at least one, each a skill level once.
func parseLevels(args []string, needGames bool) ([]level, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no levels: give LEVEL=GAMES arguments, e.g. casual=20000")
	}
	var out []level
	for _, a := range args {
		name, n, ok := strings.Cut(a, "=")
		games, err := strconv.Atoi(n)
		if needGames && (!ok || err != nil || games < 1) {
			return nil, fmt.Errorf("%q: want LEVEL=GAMES with GAMES ≥ 1, e.g. casual=20000", a)
		}
		sp, err := policy.Parse(name)
		if err != nil || sp.Level != name {
			return nil, fmt.Errorf("%q: %s is not a skill level", a, name)
		}
		if slices.ContainsFunc(out, func(l level) bool { return l.name == name }) {
			return nil, fmt.Errorf("%q: level %s twice", a, name)
		}
		out = append(out, level{name, sp, games})
	}
	return out, nil
}

// parseArgs parses the flags wherever they are among the levels (make
// chance writes -out after them) and returns the levels.
func parseArgs() []string {
	flag.Parse()
	var args []string
	for rest := flag.Args(); len(rest) > 0; rest = flag.Args() {
		args = append(args, rest[0])
		flag.CommandLine.Parse(rest[1:]) // ExitOnError
	}
	return args
}

// command is the command line that trains the same model: every flag
// that changes it, none that does not (-out, -workers, -quiet).
func command(o options, args []string) string {
	parts := []string{"go run ./sim/policy/internal/chancefit",
		fmt.Sprintf("-seed %d -heldout %d -heldout-games %d -keep %g", o.seed, o.heldout, o.heldoutGames, o.keep),
		fmt.Sprintf("-hidden %d -epochs %d -lr %g -batch %d -calib %g", o.hidden, o.epochs, o.lr, o.batch, o.calib),
		fmt.Sprintf("-interval-seed %d -interval-positions %d -continuations %d", o.intervalSeed, o.intervalPositions, o.continuations)}
	if o.pooled {
		parts = append(parts, "-pooled")
	}
	if o.rulesFile != "" {
		parts = append(parts, "-rules "+o.rulesFile)
	}
	return strings.Join(append(parts, args...), " ")
}

// data are positions: each one's inputs, its game's outcome and game.
type data struct {
	x     []float32
	y     []float32
	kind  []uint8 // policy.ChanceKind
	game  []int32
	games int
	wins  float64 // the games' outcomes added up
}

func (d *data) len() int { return len(d.y) }

func (d *data) append(e *data) {
	off := int32(d.games)
	d.x = append(d.x, e.x...)
	d.y = append(d.y, e.y...)
	d.kind = append(d.kind, e.kind...)
	for _, g := range e.game {
		d.game = append(d.game, g+off)
	}
	d.games += e.games
	d.wins += e.wins
}

// collect plays games 0..n−1 of level l's stream on master, keeping each
// arc point with probability keep, and returns their positions in game
// order.
func collect(o options, l level, stream uint64, master uint64, n int, keep float64) (*data, error) {
	// The rules' own Opposition: the built-in one or the script they name.
	opp, err := script.For(o.rules)
	if err != nil {
		return nil, err
	}
	per := make([]data, n)
	bar := progress.New(o.progress, fmt.Sprintf("%s games on seed %d", l.name, master), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var firstErr error
	for range max(1, o.workers) {
		wg.Go(func() {
			var g engine.Game
			var x [policy.NetInputs]float32
			var rng rand.PCG
			pol := l.spec.New()
			arc := policy.NewArc(nil, 1)
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				d := &per[i]
				seed := deal.GameSeed(master, stream<<32|uint64(i))
				rng.Seed(seed, deal.StreamChanceFit)
				arc.Record = func(g *engine.Game) {
					if keep < 1 && float64(rng.Uint64()>>11)/(1<<53) >= keep {
						return
					}
					policy.ChanceInputs(g, &x)
					d.x = append(d.x, x[:]...)
					d.kind = append(d.kind, uint8(policy.ChanceKind(g)))
				}
				arc.Start(&g, seed)
				solo := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex, Opposition: arc.Opposition(opp)}
				if err := policy.PlaySoloWatched(&g, o.rules, seed, solo, pol, nil, arc); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				arc.End(&g)
				y := float32(policy.OutcomeScore(&g))
				for range len(d.x) / policy.NetInputs {
					d.y = append(d.y, y)
					d.game = append(d.game, 0)
				}
				d.games, d.wins = 1, float64(y)
				bar.Add(1)
			}
		})
	}
	wg.Wait()
	bar.Done()
	if firstErr != nil {
		return nil, firstErr
	}
	out := &data{}
	for i := range per {
		out.append(&per[i])
	}
	return out, nil
}

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
		knee := fitKnee(wc, cals[k])
		wc.SetKnee(knee)
		fmt.Fprintf(&b, "%s: output scaled by %.3f, shifted by %+.3f, stretched by %.3f above %.0f%% on %d calibration games\n",
			l.name, a, c, knee.Slope, 100*sigmoid(float64(knee.At)), cals[k].games)
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

// split parts d at game cut: the positions of the games before it, and
// of the others.
func (d *data) split(cut int) (*data, *data) {
	a, b := &data{}, &data{}
	const k = policy.NetInputs
	for r := range d.len() {
		part := a
		if int(d.game[r]) >= cut {
			part = b
		}
		part.x = append(part.x, d.x[r*k:r*k+k]...)
		part.y = append(part.y, d.y[r])
		part.kind = append(part.kind, d.kind[r])
		part.game = append(part.game, d.game[r])
	}
	// Games and wins count whole games: every game has positions.
	for g := range d.games {
		part := a
		if g >= cut {
			part = b
		}
		part.games++
	}
	a.wins, b.wins = sumGames(a), sumGames(b)
	return a, b
}

// sumGames is the outcomes of d's games added up, from their positions.
func sumGames(d *data) float64 {
	seen := map[int32]bool{}
	s := 0.0
	for r, g := range d.game {
		if !seen[g] {
			seen[g] = true
			s += float64(d.y[r])
		}
	}
	return s
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

// scaleLogit fits a and c so that sigmoid(a·z + c), z the chance's logit,
// is calibrated on the positions of cal (logistic loss, Newton's method
// from a = 1, c = 0), and folds them into the output layer (Platt 1999's
// scaling, on a part of the games the net was not fitted on). A net fitted
// on many positions of few games is too sure of itself; this undoes it.
// Then each kind of point's bias is shifted on the same games
// (kindShifts).
func scaleLogit(wc *policy.WinChance, cal *data) (a, c float64) {
	a = 1
	if cal.len() == 0 {
		return 1, 0
	}
	z := logits(wc, cal)
	for range 50 {
		var ga, gc, haa, hac, hcc float64
		for r, zr := range z {
			p := sigmoid(a*zr + c)
			e, w := p-float64(cal.y[r]), p*(1-p)
			ga += e * zr
			gc += e
			haa += w * zr * zr
			hac += w * zr
			hcc += w
		}
		det := haa*hcc - hac*hac
		if det <= 0 {
			break
		}
		da, dc := (hcc*ga-hac*gc)/det, (haa*gc-hac*ga)/det
		a, c = a-da, c-dc
		if math.Abs(da)+math.Abs(dc) < 1e-10 {
			break
		}
	}
	shift := kindShifts(z, a, c, cal)
	n, bias := wc.Net(), wc.Bias()
	for i := range n.W2 {
		n.W2[i] = float32(a * float64(n.W2[i]))
	}
	n.B2 = float32(a*float64(n.B2) + c)
	for i := range bias {
		bias[i] = float32(a*float64(bias[i]) + shift[i])
	}
	return a, c
}

// logits is wc's logit at each position of cal: its net's output plus
// the position's kind bias (no knee: the knee is fitted on them).
func logits(wc *policy.WinChance, cal *data) []float64 {
	const k = policy.NetInputs
	n, bias := wc.Net(), wc.Bias()
	hid := make([]float32, policy.MaxHidden)
	z := make([]float64, cal.len())
	for r := range z {
		z[r] = float64(n.Forward((*[k]float32)(cal.x[r*k:r*k+k]), hid) + bias[cal.kind[r]])
	}
	return z
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// kindShifts fits, for each kind of point, the shift s of the scaled
// logit a·z + c that makes the mean chance at that kind's points of cal
// their mean outcome (Newton's method on the logistic loss, a and c held).
// An arc's step from one kind of point to the next is a decision's or the
// Opposition's effect; a chance a point too high at one kind and a point
// too low at the next, added over a game's fourteen turns, would read as
// a large effect of a decision kind that is the model's alone.
func kindShifts(z []float64, a, c float64, cal *data) [policy.ChanceKinds]float64 {
	var shift [policy.ChanceKinds]float64
	for range 50 {
		var g, h [policy.ChanceKinds]float64
		for r, zr := range z {
			k := cal.kind[r]
			p := sigmoid(a*zr + c + shift[k])
			g[k] += p - float64(cal.y[r])
			h[k] += p * (1 - p)
		}
		moved := 0.0
		for k := range shift {
			if h[k] > 0 {
				d := g[k] / h[k]
				shift[k] -= d
				moved += math.Abs(d)
			}
		}
		if moved < 1e-10 {
			break
		}
	}
	return shift
}

// kneeAts are the chances a knee may be at: 60% to 90%.
var kneeAts = []float64{0.6, 0.7, 0.8, 0.9}

// maxKneeSlope bounds the knee's slope: a level that rarely gets above
// the knee (novice: 135 of 316,000 held-out positions above 70%) would
// otherwise fit a near step to its few calibration positions there (a
// slope of 16 above 70%), turning 71% into 97%.
const maxKneeSlope = 4

// fitKnee fits the knee of wc (policy.Knee) on the calibration games
// cal, after Platt scaling: at each of kneeAts the slope of the greatest
// likelihood (Newton's method), and of those the knee of the greatest.
// Platt scaling is fitted mostly on the many low chances; it left
// casual's highest tenth 2.7 points too low on held-out games, and a
// straight line in the logit cannot lift that tenth without the others.
func fitKnee(wc *policy.WinChance, cal *data) policy.Knee {
	z := logits(wc, cal)
	var best policy.Knee
	bestLL := math.Inf(-1)
	for _, p := range kneeAts {
		at := math.Log(p / (1 - p))
		slope := 0.0
		for range 50 {
			var g, h float64
			for r, zr := range z {
				u := max(0, zr-at)
				q := sigmoid(zr + slope*u)
				g += (q - float64(cal.y[r])) * u
				h += q * (1 - q) * u * u
			}
			if h == 0 {
				break
			}
			d := g / h
			slope = min(max(slope-d, -0.5), maxKneeSlope) // -0.5 keeps the stretched logit growing
			if math.Abs(d) < 1e-10 {
				break
			}
		}
		var ll float64
		for r, zr := range z {
			q := min(max(sigmoid(zr+slope*max(0, zr-at)), 1e-12), 1-1e-12)
			y := float64(cal.y[r])
			ll += y*math.Log(q) + (1-y)*math.Log(1-q)
		}
		if ll > bestLL {
			bestLL, best = ll, policy.Knee{At: float32(at), Slope: float32(slope)}
		}
	}
	return best
}

// fit trains a net on d: logistic loss of the outcome, Adam. Initial
// weights and the order of the positions come from a generator seeded by
// the data seed and k.
func fit(o options, d *data, k int, level string) *policy.WinChance {
	rng := rand.New(rand.NewPCG(o.seed, deal.StreamChanceFit+uint64(k)+1))
	n := newNet(o.hidden, rng)
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

// newNet returns a net of hidden rectified units (He initialisation) and
// a small output layer: it starts near a chance of ½.
func newNet(hidden int, rng *rand.Rand) *policy.Net {
	n := &policy.Net{Hidden: hidden, Scale: 1}
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
		n.W2[i] = float32(rng.NormFloat64() * s2 * 0.1)
	}
	return n
}

// trainer runs Adam on a net's weights, flattened into one vector.
type trainer struct {
	net  *policy.Net
	lr   float64
	m, v []float64
	g    []float64
	t    int
	flat []*float32
	hid  []float32
	bias *[policy.ChanceKinds]float32
	// kb is where the kind biases' gradient starts in g.
	kb int
}

func newTrainer(n *policy.Net, bias *[policy.ChanceKinds]float32, lr float64) *trainer {
	tr := &trainer{net: n, lr: lr, hid: make([]float32, policy.MaxHidden), bias: bias}
	for _, part := range [][]float32{n.W1, n.B1, n.W2} {
		for i := range part {
			tr.flat = append(tr.flat, &part[i])
		}
	}
	tr.flat = append(tr.flat, &n.B2)
	tr.kb = len(tr.flat)
	for i := range bias {
		tr.flat = append(tr.flat, &bias[i])
	}
	k := len(tr.flat)
	tr.m, tr.v, tr.g = make([]float64, k), make([]float64, k), make([]float64, k)
	return tr
}

// step takes one Adam step on the mean logistic loss of the batch.
func (tr *trainer) step(d *data, idx []int32) {
	n := tr.net
	g := tr.g
	clear(g)
	const k = policy.NetInputs
	nW1, H := len(n.W1), n.Hidden
	for _, r := range idx {
		x := d.x[int(r)*k : int(r)*k+k]
		kind := int(d.kind[r])
		z := float64(n.Forward((*[k]float32)(x), tr.hid) + tr.bias[kind])
		e := sigmoid(z) - float64(d.y[r]) // d loss / d z
		g[tr.kb+kind] += e
		if H == 0 {
			for i, v := range x {
				g[i] += e * float64(v)
			}
			g[tr.kb-1] += e
			continue
		}
		for u := range H {
			a := tr.hid[u]
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
		g[tr.kb-1] += e
	}
	tr.t++
	const b1, b2, eps = 0.9, 0.999, 1e-8
	c1 := 1 - math.Pow(b1, float64(tr.t))
	c2 := 1 - math.Pow(b2, float64(tr.t))
	inv := 1 / float64(len(idx))
	for i, w := range tr.flat {
		gi := g[i] * inv
		tr.m[i] = b1*tr.m[i] + (1-b1)*gi
		tr.v[i] = b2*tr.v[i] + (1-b2)*gi*gi
		*w -= float32(tr.lr * (tr.m[i] / c1) / (math.Sqrt(tr.v[i]/c2) + eps))
	}
}

// bins is how many bins of predicted chance the calibration table has.
const bins = 10

// tolerance is how far, in chance, a bin's observed outcome may be from
// its mean prediction.
const tolerance = 0.02

// measure scores the win chance c on the held-out positions d: its Brier
// score, the base rate's (a constant chance of base), its log loss, and a
// table by tenths of predicted chance: positions, games, mean predicted,
// observed, and their difference with its 95% interval. Positions of one
// game share its outcome, so the interval treats a game as the unit (the
// variance of the mean difference is the sum over games of their summed
// differences squared, over the positions squared); a bin has enough
// games when that interval is within ±tolerance, and only then is its
// difference held to ±tolerance.
func measure(c *policy.WinChance, d *data, base float64) (policy.ChanceLevelScore, [bins]binRow) {
	const k = policy.NetInputs
	var brier, baseBrier, logLoss float64
	var n [bins]int
	var sumP, sumY [bins]float64
	games := [bins]map[int32]float64{}
	for i := range games {
		games[i] = map[int32]float64{}
	}
	for r := range d.len() {
		p := c.OfInputs((*[k]float32)(d.x[r*k:r*k+k]), int(d.kind[r]))
		y := float64(d.y[r])
		brier += (p - y) * (p - y)
		baseBrier += (base - y) * (base - y)
		pc := min(max(p, 1e-12), 1-1e-12)
		logLoss -= y*math.Log(pc) + (1-y)*math.Log(1-pc)
		bin := min(int(p*bins), bins-1)
		n[bin]++
		sumP[bin] += p
		sumY[bin] += y
		games[bin][d.game[r]] += y - p
	}
	m := float64(max(1, d.len()))
	sc := policy.ChanceLevelScore{Level: c.Level, Games: d.games, Positions: d.len(), Brier: brier / m, BaseBrier: baseBrier / m, LogLoss: logLoss / m}
	var rows [bins]binRow
	for i := range bins {
		r := &rows[i]
		r.positions, r.games = n[i], len(games[i])
		if n[i] == 0 {
			continue
		}
		r.predicted, r.observed = sumP[i]/float64(n[i]), sumY[i]/float64(n[i])
		var v float64
		for _, x := range games[i] {
			v += x * x
		}
		r.half = 1.96 * math.Sqrt(v) / float64(n[i])
	}
	return sc, rows
}

// binRow is a bin of the calibration table: its positions and games, the
// mean prediction and outcome, and the half-width of the 95% interval of
// their difference.
type binRow struct {
	positions, games          int
	predicted, observed, half float64
}

// enough says whether the bin's interval is within ±tolerance, and ok
// whether its difference is then within ±tolerance too.
func (r binRow) enough() bool { return r.positions > 0 && r.half <= tolerance }
func (r binRow) ok() bool     { return !r.enough() || math.Abs(r.observed-r.predicted) <= tolerance }

// binTable writes the calibration table.
func binTable(rows [bins]binRow) string {
	var b strings.Builder
	b.WriteString("| predicted | positions | games | mean predicted | observed | observed − predicted [95% CI] | within ±2 |\n|---|---|---|---|---|---|---|\n")
	for i, r := range rows {
		if r.positions == 0 {
			fmt.Fprintf(&b, "| %d–%d%% | 0 | 0 | | | | |\n", 10*i, 10*i+10)
			continue
		}
		verdict := "too few games"
		switch {
		case r.enough() && r.ok():
			verdict = "yes"
		case r.enough():
			verdict = "NO"
		}
		d := r.observed - r.predicted
		fmt.Fprintf(&b, "| %d–%d%% | %d | %d | %.1f%% | %.1f%% | %+.1f [%+.1f, %+.1f] | %s |\n", 10*i, 10*i+10, r.positions, r.games,
			100*r.predicted, 100*r.observed, 100*d, 100*(d-r.half), 100*(d+r.half), verdict)
	}
	return b.String()
}
