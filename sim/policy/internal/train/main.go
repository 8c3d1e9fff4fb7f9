// Command train makes the weights of the learned score
// (sim/policy/value.json). It plays the games of a search player on a data
// seed and, at every decision the player makes, records each option's
// result as the learned player would score it (policy.Afterstates) and the
// share of the search's visits that option got. It then fits the net, a
// correction added to the hand-weighted score, so that the softmax of the
// corrected scores over a decision's options matches the search's visits,
// sharpened (cross-entropy, Adam): a one-step lookahead that ranks options
// as the search does, at the cost of one evaluation per option (expert
// iteration's policy target, on afterstates). Each fit is made -candidates
// times from other initial weights, and the one whose learned player does
// best in selection games is kept. With -iterate it then plays games of
// the search guided by the best net so far (-iterate-spec, e.g.
// mcts:iters=100,prior=16), adds their decisions and fits again, keeping
// a round only if it plays better. It reports, on games of another seed,
// how often the kept net picks the search's choice, against the hand
// score's, and writes the weights file, which records the command, the
// data seed, the rules and the policies.
//
//	go run ./sim/policy/internal/train -rules mine.json -out mine-weights.json 2000xmcts:iters=400
//
// (make weights has the shipped file's command.) The same arguments give
// the same file byte for byte, whatever the number of workers: games are
// played in parallel but kept by index, and the gradient of a batch is
// summed in a fixed order.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/mix"
	"tallywood/sim/policy/internal/progress"
)

func main() {
	o, err := parseOptions(os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case err != nil:
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(2)
	}
	if !o.quiet {
		o.progress = os.Stderr
	}
	start := time.Now()
	net, report, err := run(o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Print(report)
	fmt.Printf("took %s\n", time.Since(start).Round(time.Second))
	if o.out != "" {
		if err := os.WriteFile(o.out, net.Encode(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
	}
}

// parseOptions reads the command line args: every flag range-checked,
// the mix and the search of -iterate parsed and the rules read, all
// before any game, so that a bad flag costs no training (-hidden 100000
// panicked after seconds of games, a NaN learning rate ran the whole
// training to fail at the end).
func parseOptions(args []string, stderr io.Writer) (options, error) {
	o := options{}
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Uint64Var(&o.seed, "seed", 8000, "master seed of the training games")
	fs.Uint64Var(&o.heldout, "heldout", 8001, "master seed of the held-out games")
	fs.IntVar(&o.heldoutGames, "heldout-games", 300, "held-out games, played by the first policy of the mix")
	fs.StringVar(&o.out, "out", "", "write the weights to this file (default: report only)")
	fs.StringVar(&o.rulesFile, "rules", "", "rules file to train for (default: the reference rules)")
	fs.IntVar(&o.workers, "workers", 2, "parallel games and gradient halves")
	fs.IntVar(&o.hidden, "hidden", 32, fmt.Sprintf("hidden units, 0 to %d (0: a linear value)", policy.MaxHidden))
	fs.IntVar(&o.epochs, "epochs", 6, "passes over the data per fit")
	fs.IntVar(&o.candidates, "candidates", 4, "fits per round, from different initial weights; the best in the selection games is kept")
	fs.IntVar(&o.selectGames, "select-games", 2000, "selection games per candidate, played by the learned player")
	fs.Uint64Var(&o.selectSeed, "select-seed", 8003, "master seed of the selection games")
	fs.IntVar(&o.iterate, "iterate", 1, "rounds of expert iteration (0: none): games of -iterate-spec guided by the best net so far, each followed by a refit")
	fs.IntVar(&o.iterGames, "iterate-games", 3000, "games per -iterate round")
	fs.StringVar(&o.iterSpecText, "iterate-spec", "mcts:iters=100,prior=16", "the search of the -iterate rounds, guided by the net just fitted")
	fs.Float64Var(&o.lr, "lr", 0.001, "Adam's step size, above 0 and at most 1")
	fs.Float64Var(&o.decay, "decay", 0.0001, "weight decay per step, relative to the step size, 0 to 1")
	fs.Float64Var(&o.sharpen, "sharpen", 20, fmt.Sprintf("targets: the search's visit shares raised to this power, above 0 and at most %d, renormalised (1: the shares; large: its choice)", maxSharpen))
	fs.BoolVar(&o.quiet, "quiet", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: train [flags] NxSPEC...   (e.g. 6000xmcts:iters=100)")
		fs.PrintDefaults()
	}
	// The flags may stand among the mix too: make weights writes -out
	// after it, and the shipped file's command is run with -out after it.
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	var specs []string
	for rest := fs.Args(); len(rest) > 0; rest = fs.Args() {
		specs = append(specs, rest[0])
		if err := fs.Parse(rest[1:]); err != nil {
			return o, err
		}
	}
	if err := o.check(); err != nil {
		return o, err
	}
	items, err := mix.Parse(specs)
	if err != nil {
		return o, err
	}
	o.mix = items
	if o.iterSpec, err = policy.Parse(o.iterSpecText); err != nil {
		return o, fmt.Errorf("-iterate-spec: %v", err)
	}
	o.command = command(o, specs)
	o.rules = engine.Reference()
	if o.rulesFile != "" {
		if o.rules, err = engine.LoadFile(o.rulesFile); err != nil {
			return o, err
		}
	}
	// A script the rules name is compiled before any game is played.
	if err := script.Check(o.rules); err != nil {
		return o, err
	}
	return o, nil
}

// The bounds of the training's flags: counts of games at most maxGames,
// of passes, fits and rounds at most maxRepeats, workers at most
// maxWorkers (more are idle), sharpening at most maxSharpen (the shares
// are the search's choice well before).
const (
	maxGames   = 10_000_000
	maxRepeats = 1000
	maxWorkers = 1024
	maxSharpen = 1000
)

// check range-checks the flags: whole counts within their bounds, the
// rates finite and within theirs (Adam's step at most 1, a decay of the
// weights by at most the whole of them per step).
func (o *options) check() error {
	for _, c := range []struct {
		flag      string
		v, lo, hi int
	}{
		{"hidden", o.hidden, 0, policy.MaxHidden},
		{"workers", o.workers, 1, maxWorkers},
		{"epochs", o.epochs, 1, maxRepeats},
		{"candidates", o.candidates, 1, maxRepeats},
		{"select-games", o.selectGames, 1, maxGames},
		{"heldout-games", o.heldoutGames, 1, maxGames},
		{"iterate", o.iterate, 0, maxRepeats},
		{"iterate-games", o.iterGames, 1, maxGames},
	} {
		if c.v < c.lo || c.v > c.hi {
			return fmt.Errorf("-%s %d: want %d to %d", c.flag, c.v, c.lo, c.hi)
		}
	}
	for _, c := range []struct {
		flag   string
		v      float64
		lo, hi float64
		open   bool // lo itself is refused
	}{
		{"lr", o.lr, 0, 1, true},
		{"decay", o.decay, 0, 1, false},
		{"sharpen", o.sharpen, 0, maxSharpen, true},
	} {
		// NaN fails every comparison.
		if !(c.v >= c.lo && c.v <= c.hi) || c.open && c.v == c.lo {
			want := fmt.Sprintf("from %g to %g", c.lo, c.hi)
			if c.open {
				want = fmt.Sprintf("above %g and at most %g", c.lo, c.hi)
			}
			return fmt.Errorf("-%s %v: want a number %s", c.flag, c.v, want)
		}
	}
	return nil
}

type options struct {
	mix                []mix.Item
	seed, heldout      uint64
	candidates         int
	selectGames        int
	selectSeed         uint64
	heldoutGames       int
	out, rulesFile     string
	rules              *engine.Rules
	workers, hidden    int
	epochs             int
	iterate, iterGames int
	iterSpecText       string
	iterSpec           policy.Spec
	lr, decay, sharpen float64
	quiet              bool
	command            string
	progress           io.Writer // nil: silent
}

// command is the command line that trains the same weights: every flag
// that changes them, none that does not (-out, -workers, -quiet).
func command(o options, mix []string) string {
	parts := []string{"go run ./sim/policy/internal/train",
		fmt.Sprintf("-seed %d -heldout %d -heldout-games %d", o.seed, o.heldout, o.heldoutGames),
		fmt.Sprintf("-hidden %d -epochs %d -lr %g -decay %g -sharpen %g", o.hidden, o.epochs, o.lr, o.decay, o.sharpen),
		fmt.Sprintf("-candidates %d -select-games %d -select-seed %d", o.candidates, o.selectGames, o.selectSeed)}
	if o.iterate > 0 {
		parts = append(parts, fmt.Sprintf("-iterate %d -iterate-games %d -iterate-spec %s", o.iterate, o.iterGames, o.iterSpec))
	}
	if o.rulesFile != "" {
		parts = append(parts, "-rules "+o.rulesFile)
	}
	return strings.Join(append(parts, mix...), " ")
}

// data holds decisions: the rows of decision k are first[k] to
// first[k+1]-1, one per option, each with the net's inputs at the
// option's result, the hand-weighted score there, whether the game is
// over there (the net does not correct a final margin), and the share of
// the search's visits the option got.
type data struct {
	x     []float32
	hand  []float32
	over  []bool
	pi    []float32
	first []int32
	games int
	// margins are the games' final margins, and score their wins plus
	// half their draws.
	margins []float32
	score   float64
}

func (d *data) decisions() int { return len(d.first) }

// rows returns decision k's rows.
func (d *data) rows(k int) (int, int) {
	end := len(d.pi)
	if k+1 < len(d.first) {
		end = int(d.first[k+1])
	}
	return int(d.first[k]), end
}

func (d *data) append(e *data) {
	off := int32(len(d.pi))
	for _, f := range e.first {
		d.first = append(d.first, f+off)
	}
	d.x = append(d.x, e.x...)
	d.hand = append(d.hand, e.hand...)
	d.over = append(d.over, e.over...)
	d.pi = append(d.pi, e.pi...)
	d.games += e.games
	d.margins = append(d.margins, e.margins...)
	d.score += e.score
}

// visitor is a search that tells how it spread its visits over the
// options of the decision it last chose at (policy.MCTS).
type visitor interface {
	Visits(legal []engine.Option, out []float64)
}

// run plays, fits, iterates and measures.
func run(o options) (*policy.Net, string, error) {
	var specs []string
	var jobs []job
	for j, m := range o.mix {
		specs = append(specs, m.Spec.String())
		for i := range m.Games {
			jobs = append(jobs, job{newPolicy: m.Spec.New, stream: uint64(j), i: i})
		}
	}
	train, err := collect(o, jobs, o.seed, "games")
	if err != nil {
		return nil, "", err
	}
	net, netMargin, sel := best(o, train, 0, nil, math.Inf(-1))
	for it := 1; it <= o.iterate; it++ {
		guided, err := o.iterSpec.WithNet(net)
		if err != nil {
			return nil, "", err
		}
		specs = append(specs, fmt.Sprintf("%s guided by round %d's net", o.iterSpec, it-1))
		var more []job
		for i := range o.iterGames {
			more = append(more, job{newPolicy: guided, stream: uint64(len(o.mix) + it - 1), i: i})
		}
		d, err := collect(o, more, o.seed, fmt.Sprintf("round %d games", it))
		if err != nil {
			return nil, "", err
		}
		train.append(d)
		var said string
		net, netMargin, said = best(o, train, it, net, netMargin)
		sel += said
	}
	first := o.mix[0].Spec
	var hold []job
	for i := range o.heldoutGames {
		hold = append(hold, job{newPolicy: first.New, stream: 0, i: i})
	}
	held, err := collect(o, hold, o.heldout, "held-out games")
	if err != nil {
		return nil, "", err
	}
	rep := heldOutReport(net, held, first.String())
	rep.text = sel + rep.text
	net.Meta = policy.NetMeta{
		Command: o.command, DataSeed: o.seed, Rules: o.rules.Name, RulesHash: o.rules.Hash,
		Policies: specs, Games: train.games, Positions: len(train.pi), HeldOut: rep.summary,
	}
	// The file's own encoding is what the hash names.
	net, err = policy.ParseNet(net.Encode())
	if err != nil {
		return nil, "", err
	}
	return net, rep.text, nil
}

// best fits o.candidates nets on d (each from its own initial weights
// and order) and returns the one whose learned player scores best in
// o.selectGames games on the selection seed, by mean margin, unless top,
// the best of the rounds before (at topMargin), does better: fits of the
// same data can play several points apart, more than their held-out
// agreement with the search shows, and a round that does not improve is
// not kept. It says how each candidate did.
func best(o options, d *data, round int, top *policy.Net, topMargin float64) (*policy.Net, float64, string) {
	var b strings.Builder
	for c := range max(1, o.candidates) {
		n := fit(o, d, round, c)
		if o.candidates <= 1 {
			return n, 0, ""
		}
		var jobs []job
		for i := range o.selectGames {
			jobs = append(jobs, job{newPolicy: func() policy.Policy { return policy.NewLearned(n, 1) }, i: i})
		}
		games, err := collect(o, jobs, o.selectSeed, fmt.Sprintf("selection games of fit %d.%d", round, c))
		if err != nil {
			panic("train: " + err.Error()) // the learned player plays legally
		}
		sum := 0.0
		for _, m := range games.margins {
			sum += float64(m)
		}
		mean := sum / float64(len(games.margins))
		fmt.Fprintf(&b, "fit %d, candidate %d: %d selection games on seed %d: score %.1f%%, mean margin %+.2f\n",
			round, c, games.games, o.selectSeed, 100*games.score/float64(games.games), mean)
		if mean > topMargin {
			top, topMargin = n, mean
		}
	}
	return top, topMargin, b.String()
}

// job is one game to play: game i of a policy's stream, on
// deal.GameSeed(master, stream<<32|i), Normal for even i and Hard for odd,
// the politician drawn as `sim --politician random` does.
type job struct {
	newPolicy func() policy.Policy
	stream    uint64
	i         int
}

// addTarget records the search's visits of the decision's options (or,
// for a player that is not a search, its choice) as shares.
func addTarget(d *data, p policy.Policy, legal []engine.Option, chosen engine.Option, visits []float64, sharpen float64) {
	visits = visits[:len(legal)]
	if v, ok := p.(visitor); ok {
		v.Visits(legal, visits)
	} else {
		for i := range legal {
			visits[i] = 0
			if legal[i] == chosen {
				visits[i] = 1
			}
		}
	}
	// Shares sharpened: a search's visits spread over options it tried
	// and rejected; the power moves the target towards its choice. Shares
	// are taken relative to the most visited, so the power cannot
	// underflow them all.
	top := 0.0
	for _, v := range visits {
		top = max(top, v)
	}
	total := 0.0
	for i, v := range visits {
		visits[i] = math.Pow(v/top, sharpen)
		total += visits[i]
	}
	for _, v := range visits {
		d.pi = append(d.pi, float32(v/total))
	}
}

// collect plays the jobs and returns their decisions, in job order.
func collect(o options, jobs []job, master uint64, what string) (*data, error) {
	per := make([]data, len(jobs))
	bar := progress.New(o.progress, what, len(jobs))
	var next atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var firstErr error
	for range max(1, o.workers) {
		wg.Go(func() {
			buf := make([]engine.Option, 0, engine.MaxOptions)
			var g engine.Game
			var x [policy.NetInputs]float32
			visits := make([]float64, engine.MaxOptions)
			after := policy.NewAfterstates()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(jobs) {
					return
				}
				jb := jobs[k]
				p := jb.newPolicy()
				seed := deal.GameSeed(master, jb.stream<<32|uint64(jb.i))
				solo := deal.Solo{Mode: engine.Mode(jb.i % 2), Politician: deal.RandomPoliticianIndex}
				if err := solo.Deal(&g, o.rules, seed); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				p.Reset(seed)
				after.Reset(seed)
				d := &per[k]
				for !g.Over() {
					legal := g.Legal(buf[:0])
					record := len(legal) >= 2 && g.Decision().Seat == 0
					if record {
						// Each hands out the options in its own order:
						// rows go by the option's index.
						at := len(d.pi)
						d.first = append(d.first, int32(at))
						d.x = append(d.x, make([]float32, len(legal)*policy.NetInputs)...)
						d.hand = append(d.hand, make([]float32, len(legal))...)
						d.over = append(d.over, make([]bool, len(legal))...)
						after.Each(&g, legal, func(i int, c *engine.Game) {
							h, over := policy.ScoreInputs(c, 0, &x)
							copy(d.x[(at+i)*policy.NetInputs:], x[:])
							d.hand[at+i], d.over[at+i] = float32(h), over
						})
					}
					chosen := p.Choose(&g, legal)
					if record {
						addTarget(d, p, legal, chosen, visits, o.sharpen)
					}
					if err := g.Apply(chosen); err != nil {
						errOnce.Do(func() { firstErr = err })
						return
					}
				}
				d.games = 1
				m := g.Result.Margin()
				d.margins = append(d.margins, float32(m))
				switch {
				case m > 0:
					d.score = 1
				case m == 0:
					d.score = 0.5
				}
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
	for k := range per {
		out.append(&per[k])
	}
	return out, nil
}
