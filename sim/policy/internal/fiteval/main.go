// Command fiteval fits the calibration of policy.Eval: a least-squares
// regression of the final margin on Eval's features, one for each number
// of your turns left, from the positions of self-play games of several
// policies. It plays the fitting games on one data seed and as many
// held-out games on another, reports the held-out error (bias and RMSE at
// the start of every round, and by turns left), and writes the weights as
// Go source (sim/policy/calibration.go). The same arguments give the same
// file byte for byte, whatever the number of workers.
//
//	go run ./sim/policy/internal/fiteval -seed 7000 -heldout 7001 \
//	    -out sim/policy/calibration.go 3000xgreedy 1000xpollster 1000xbuilder 300xmcts:iters=100
//
// No policy chooses by Eval: they all choose by the hand-weighted score
// (policy.HandEval, EvalWith), so the games, and the fit, do not depend on
// the calibration being replaced (TestPoliciesDoNotChooseByEval in
// sim/policy).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/mix"
)

func main() {
	seed := flag.Uint64("seed", 7000, "master seed of the fitting games")
	heldout := flag.Uint64("heldout", 7001, "master seed of the held-out games")
	out := flag.String("out", "", "write the calibration as Go source to this file (default: report only)")
	workers := flag.Int("workers", 2, "parallel games")
	ridge := flag.Float64("ridge", 1, "ridge penalty on the feature weights (not the intercepts)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: fiteval [flags] NxSPEC...   (e.g. 3000xgreedy 300xmcts:iters=100)")
		flag.PrintDefaults()
	}
	flag.Parse()
	items, err := mix.Parse(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "fiteval:", err)
		os.Exit(2)
	}
	cmd := "go run ./sim/policy/internal/fiteval " + strings.Join(os.Args[1:], " ")
	if err := run(os.Stdout, items, *seed, *heldout, *workers, *ridge, *out, cmd); err != nil {
		fmt.Fprintln(os.Stderr, "fiteval:", err)
		os.Exit(1)
	}
}

// row is one position: its stage, features, and whether it is the first
// decision of a round (and which).
type row struct {
	f          [policy.NumFeatures]float64
	stage      int
	roundStart int // round number from 1 at a round's first decision, else 0
	handEval   float64
}

// game is one played game's positions and final margin.
type game struct {
	policy int // index into the mix
	rows   []row
	margin float64
}

// collect plays the games of the mix on master seed master: game i of
// policy j on deal.GameSeed(master, j<<32|i), Normal for even i and Hard
// for odd, the politician drawn as `sim --politician random` does.
func collect(mix []mix.Item, master uint64, workers int) ([]game, error) {
	type job struct{ j, i int }
	var jobs []job
	for j, m := range mix {
		for i := range m.Games {
			jobs = append(jobs, job{j, i})
		}
	}
	out := make([]game, len(jobs))
	r := engine.Reference()
	var next atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var firstErr error
	for range max(1, workers) {
		wg.Go(func() {
			pols := make([]policy.Policy, len(mix))
			buf := make([]engine.Option, 0, engine.MaxOptions)
			var g engine.Game
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					return
				}
				jb := jobs[k]
				if pols[jb.j] == nil {
					pols[jb.j] = mix[jb.j].Spec.New()
				}
				p := pols[jb.j]
				seed := deal.GameSeed(master, uint64(jb.j)<<32|uint64(jb.i))
				solo := deal.Solo{Mode: engine.Mode(jb.i % 2), Politician: deal.RandomPoliticianIndex}
				if err := solo.Deal(&g, r, seed); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				p.Reset(seed)
				gm := game{policy: jb.j}
				lastRound := -1
				for !g.Over() {
					legal := g.Legal(buf[:0])
					if g.Decision().Seat == 0 {
						f, st := policy.Features(&g)
						rs := 0
						if g.Phase == engine.PhaseStrategy && int(g.Round) != lastRound {
							lastRound = int(g.Round)
							rs = lastRound + 1
						}
						gm.rows = append(gm.rows, row{f: f, stage: st, roundStart: rs, handEval: policy.HandEval(&g)})
					}
					if err := g.Apply(p.Choose(&g, legal)); err != nil {
						errOnce.Do(func() { firstErr = err })
						return
					}
				}
				gm.margin = float64(g.Result.Margin())
				out[k] = gm
			}
		})
	}
	wg.Wait()
	return out, firstErr
}

// fit solves, for every stage, the ridge regression of the final margin
// on the features with an unpenalised intercept. Sums run over the games
// in order, so the result does not depend on the workers.
func fit(games []game, ridge float64) policy.Calibration {
	const n = policy.NumFeatures + 1
	var xtx [policy.NumStages][n][n]float64
	var xty [policy.NumStages][n]float64
	for _, gm := range games {
		for _, r := range gm.rows {
			s := r.stage
			x := design(r.f)
			for a := range n {
				xty[s][a] += x[a] * gm.margin
				for b := range n {
					xtx[s][a][b] += x[a] * x[b]
				}
			}
		}
	}
	var c policy.Calibration
	for s := range policy.NumStages {
		for a := 1; a < n; a++ {
			xtx[s][a][a] += ridge
		}
		beta := solve(xtx[s], xty[s])
		c.Intercept[s] = beta[0]
		copy(c.Coef[s][:], beta[1:])
	}
	return c
}

func design(f [policy.NumFeatures]float64) [policy.NumFeatures + 1]float64 {
	var x [policy.NumFeatures + 1]float64
	x[0] = 1
	copy(x[1:], f[:])
	return x
}

// solve solves a x = b by Gaussian elimination with partial pivoting (the
// system is small and, with the ridge, well conditioned). A stage without
// data leaves its weights at zero.
func solve(a [policy.NumFeatures + 1][policy.NumFeatures + 1]float64, b [policy.NumFeatures + 1]float64) [policy.NumFeatures + 1]float64 {
	const n = policy.NumFeatures + 1
	var x [n]float64
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if a[p][c] == 0 {
			return x
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			k := a[r][c] / a[c][c]
			for j := c; j < n; j++ {
				a[r][j] -= k * a[c][j]
			}
			b[r] -= k * b[c]
		}
	}
	for c := n - 1; c >= 0; c-- {
		v := b[c]
		for j := c + 1; j < n; j++ {
			v -= a[c][j] * x[j]
		}
		x[c] = v / a[c][c]
	}
	return x
}

// errStat accumulates the error of an estimate.
type errStat struct{ n, sum, sq float64 }

func (e *errStat) add(d float64) { e.n++; e.sum += d; e.sq += d * d }
func (e errStat) bias() float64  { return e.sum / e.n }
func (e errStat) rmse() float64  { return math.Sqrt(e.sq / e.n) }

// heldOut measures the calibration c (and the hand-weighted score, for
// comparison) on games it was not fitted to.
type heldOut struct {
	byStage              [policy.NumStages]errStat
	byRound, handByRound map[int]*errStat
	byRoundPolicy        map[[2]int]*errStat
	rounds               []int
}

func measure(c *policy.Calibration, games []game) heldOut {
	h := heldOut{byRound: map[int]*errStat{}, handByRound: map[int]*errStat{}, byRoundPolicy: map[[2]int]*errStat{}}
	get := func(m map[int]*errStat, k int) *errStat {
		if m[k] == nil {
			m[k] = &errStat{}
			h.rounds = append(h.rounds, k)
		}
		return m[k]
	}
	for _, gm := range games {
		for _, r := range gm.rows {
			d := c.Estimate(r.f, r.stage) - gm.margin
			h.byStage[r.stage].add(d)
			if r.roundStart > 0 {
				get(h.byRound, r.roundStart).add(d)
				if h.handByRound[r.roundStart] == nil {
					h.handByRound[r.roundStart] = &errStat{}
				}
				h.handByRound[r.roundStart].add(r.handEval - gm.margin)
				k := [2]int{r.roundStart, gm.policy}
				if h.byRoundPolicy[k] == nil {
					h.byRoundPolicy[k] = &errStat{}
				}
				h.byRoundPolicy[k].add(d)
			}
		}
	}
	return h
}

func run(w io.Writer, mix []mix.Item, seed, heldSeed uint64, workers int, ridge float64, out, cmd string) error {
	train, err := collect(mix, seed, workers)
	if err != nil {
		return err
	}
	c := fit(train, ridge)
	test, err := collect(mix, heldSeed, workers)
	if err != nil {
		return err
	}
	h := measure(&c, test)
	for s := range policy.NumStages {
		c.RMSE[s] = round3(h.byStage[s].rmse())
	}
	report(w, mix, &h)
	if out == "" {
		return nil
	}
	src, err := source(&c, cmd)
	if err != nil {
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

func round3(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

func report(w io.Writer, mix []mix.Item, h *heldOut) {
	fmt.Fprintln(w, "Held-out error of Eval (estimate − final margin), in votes")
	fmt.Fprint(w, "\nAt the first decision of each round:\n\n")
	fmt.Fprintln(w, "| round | positions | bias | RMSE | hand-weighted score: bias | RMSE |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for r := 1; r <= len(h.byRound); r++ {
		e, hd := h.byRound[r], h.handByRound[r]
		if e == nil {
			continue
		}
		fmt.Fprintf(w, "| %d | %.0f | %+.2f | %.2f | %+.2f | %.2f |\n", r, e.n, e.bias(), e.rmse(), hd.bias(), hd.rmse())
	}
	fmt.Fprint(w, "\nBias at the first decision of each round, by policy:\n\n")
	fmt.Fprint(w, "| round |")
	for _, m := range mix {
		fmt.Fprintf(w, " %s |", m.Spec)
	}
	fmt.Fprint(w, "\n|---|")
	for range mix {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprintln(w)
	for r := 1; r <= len(h.byRound); r++ {
		fmt.Fprintf(w, "| %d |", r)
		for j := range mix {
			if e := h.byRoundPolicy[[2]int{r, j}]; e != nil {
				fmt.Fprintf(w, " %+.2f |", e.bias())
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "\nBy stage (all positions):\n\n")
	fmt.Fprintln(w, "| your turns left | phase | positions | bias | RMSE |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for s := policy.NumStages - 1; s >= 0; s-- {
		if e := h.byStage[s]; e.n > 0 {
			fmt.Fprintf(w, "| %d | %s | %.0f | %+.2f | %.2f |\n", s/3, phase(s), e.n, e.bias(), e.rmse())
		}
	}
}

// phase names a stage's kind of position (see policy.NumStages).
func phase(stage int) string {
	return [3]string{"other", "turn start", "in turn"}[stage%3]
}

// source writes the calibration as the Go file of package policy.
func source(c *policy.Calibration, cmd string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by fiteval; DO NOT EDIT.\n// %s\n\npackage policy\n\n", cmd)
	fmt.Fprintln(&b, "// calibration weighs Eval's features, by stage (see Eval and Stage).")
	fmt.Fprintln(&b, "var calibration = Calibration{")
	fmt.Fprintln(&b, "Intercept: [NumStages]float64{")
	for s := range policy.NumStages {
		fmt.Fprintf(&b, "%s, // %d turns left, %s\n", num(c.Intercept[s]), s/3, phase(s))
	}
	fmt.Fprintln(&b, "},")
	fmt.Fprintf(&b, "// %s\n", strings.Join(policy.FeatureNames[:], ", "))
	fmt.Fprintln(&b, "Coef: [NumStages][NumFeatures]float64{")
	for s := range policy.NumStages {
		b.WriteString("{")
		for k := range policy.NumFeatures {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(num(c.Coef[s][k]))
		}
		fmt.Fprintf(&b, "}, // %d turns left, %s\n", s/3, phase(s))
	}
	fmt.Fprintln(&b, "},")
	fmt.Fprintln(&b, "RMSE: [NumStages]float64{")
	for s := range policy.NumStages {
		fmt.Fprintf(&b, "%s, // %d turns left, %s\n", num(c.RMSE[s]), s/3, phase(s))
	}
	fmt.Fprintln(&b, "},\n}")
	return format.Source(b.Bytes())
}

// num writes a weight with 6 significant digits, enough for an estimate
// in votes and stable to read.
func num(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
