package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/progress"
)

// levelCheck is the check of one level: its held-out scores and
// calibration table, and the continuation check.
type levelCheck struct {
	score policy.ChanceLevelScore
	rows  [bins]binRow
	cont  contResult
}

// checkModel measures m for every level named: the calibration table and
// Brier score on held-out games, and the continuation check.
func checkModel(o options, m *policy.ChanceModel) (string, []levelCheck, error) {
	var b strings.Builder
	var out []levelCheck
	fmt.Fprintf(&b, "%s\n", m.Note(o.rules.Hash))
	for k, l := range o.levels {
		c, err := m.For(l.name)
		if err != nil {
			return "", nil, err
		}
		held, err := collect(o, l, uint64(k), o.heldout, o.heldoutGames, 1)
		if err != nil {
			return "", nil, err
		}
		base := 0.5
		for _, s := range m.Meta.Levels {
			if s.Level == l.name {
				base = s.BaseRate
			}
		}
		lc := levelCheck{}
		lc.score, lc.rows = measure(c, held, base)
		fmt.Fprintf(&b, "\n%s (%s): held out: %d games on seed %d, %d positions\n", l.name, l.spec, held.games, o.heldout, held.len())
		fmt.Fprintf(&b, "Brier %.4f (the base rate %.3f's: %.4f), log loss %.4f\n%s", lc.score.Brier, base, lc.score.BaseBrier, lc.score.LogLoss, binTable(lc.rows))
		if lc.cont, err = continuations(o, l, uint64(k), c); err != nil {
			return "", nil, err
		}
		b.WriteString(lc.cont.text)
		out = append(out, lc)
	}
	return b.String(), out, nil
}

// position is a point of a held-out game the continuations start from.
type position struct {
	g      engine.Game
	chance float64
	seed   uint64
}

// continuations samples o.checkPositions positions from held-out games of
// level l (one point of each game, drawn uniformly from its arc's
// decisions) and plays o.continuations games from each by the same level,
// each from a copy determinized from the player's view; it reports how
// often the model's chance is within the 95% interval of the
// continuations' mean outcome, and the mean and spread of their
// difference, by round.
func continuations(o options, l level, stream uint64, c *policy.WinChance) (contResult, error) {
	pos := make([]position, o.checkPositions)
	var buf [engine.MaxOptions]engine.Option
	for i := range pos {
		seed := deal.GameSeed(o.checkSeed, stream<<32|uint64(i))
		var rng rand.PCG
		rng.Seed(seed, deal.StreamChanceFit)
		var g engine.Game
		solo := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex, Opposition: opposition.Solo{}}
		// First count the game's decisions, then stop at a random one.
		var count countWatch
		if err := policy.PlaySoloWatched(&g, o.rules, seed, solo, l.spec.New(), buf[:0], &count); err != nil {
			return contResult{}, err
		}
		stop := int(rng.Uint64() % uint64(count.n))
		pol := l.spec.New()
		pol.Reset(seed)
		if err := solo.Deal(&g, o.rules, seed); err != nil {
			return contResult{}, err
		}
		for k := 0; k < stop; k++ {
			legal := g.Legal(buf[:0])
			if err := g.Apply(pol.Choose(&g, legal)); err != nil {
				return contResult{}, err
			}
		}
		pos[i] = position{g: g, chance: c.Of(&g), seed: seed}
	}
	means := make([]float64, len(pos))
	bar := progress.New(o.progress, fmt.Sprintf("%s continuations", l.name), len(pos)*o.continuations)
	var next atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var firstErr error
	total := int64(len(pos) * o.continuations)
	sums := make([]float64, len(pos))
	var mu sync.Mutex
	for range max(1, o.workers) {
		wg.Go(func() {
			var g engine.Game
			var lb [engine.MaxOptions]engine.Option
			for {
				j := next.Add(1) - 1
				if j >= total {
					return
				}
				i, k := int(j)/o.continuations, uint64(int(j)%o.continuations)
				g = pos[i].g
				g.Determinize(pos[i].seed ^ (k+1)*0x9e3779b97f4a7c15)
				pol := l.spec.New()
				pol.Reset(pos[i].seed ^ (k+1)*0xc2b2ae3d27d4eb4f)
				if err := policy.Play(&g, pol, lb[:0]); err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				mu.Lock()
				sums[i] += policy.OutcomeScore(&g)
				mu.Unlock()
				bar.Add(1)
			}
		})
	}
	wg.Wait()
	bar.Done()
	if firstErr != nil {
		return contResult{}, firstErr
	}
	var inside, n int
	var sumD, sumD2, noise float64
	type byRound struct {
		n, inside    int
		sumD, sumD2  float64
		sumP, sumObs float64
	}
	var rounds [engine.MaxRounds]byRound
	for i := range pos {
		means[i] = sums[i] / float64(o.continuations)
		// The continuations' mean outcome and its 95% interval (normal,
		// with the variance of outcomes of that mean, floored so that a
		// mean of 0 or 1 still has one).
		mu := means[i]
		se := math.Sqrt(max(mu*(1-mu), 0.25/float64(o.continuations)) / float64(o.continuations))
		d := pos[i].chance - mu
		ok := math.Abs(d) <= 1.96*se
		noise += mu * (1 - mu) / float64(o.continuations)
		n++
		sumD += d
		sumD2 += d * d
		r := &rounds[pos[i].g.Round]
		r.n++
		r.sumD += d
		r.sumD2 += d * d
		r.sumP += pos[i].chance
		r.sumObs += mu
		if ok {
			inside++
			r.inside++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ncontinuation check: %d positions of %d held-out games on seed %d (one each, at a random decision), %d games continued from each by %s, determinized from the player's view\n",
		n, n, o.checkSeed, o.continuations, l.name)
	meanD := sumD / float64(n)
	sdD := math.Sqrt(max(0, sumD2/float64(n)-meanD*meanD) / float64(max(1, n-1)))
	fmt.Fprintf(&b, "within the continuations' 95%% interval: %d of %d (%.1f%%); model − continuations: mean %+.2f points [%+.2f, %+.2f], RMS %.2f points (the continuations' own noise alone: %.2f)\n",
		inside, n, 100*float64(inside)/float64(n), 100*meanD, 100*(meanD-1.96*sdD), 100*(meanD+1.96*sdD), 100*math.Sqrt(sumD2/float64(n)), 100*math.Sqrt(noise/float64(n)))
	b.WriteString("| round | positions | within | mean model | mean continuations | mean difference | RMS difference |\n|---|---|---|---|---|---|---|\n")
	for r, x := range rounds {
		if x.n == 0 {
			continue
		}
		k := float64(x.n)
		fmt.Fprintf(&b, "| %d | %d | %d | %.1f%% | %.1f%% | %+.2f | %.2f |\n", r+1, x.n, x.inside, 100*x.sumP/k, 100*x.sumObs/k,
			100*x.sumD/k, 100*math.Sqrt(x.sumD2/k))
	}
	return contResult{text: b.String(), inside: inside, positions: n, mean: meanD}, nil
}

// contResult is the continuation check: its report, how many positions
// had the model's chance within the continuations' interval, of how
// many, and the mean of model − continuations.
type contResult struct {
	text              string
	inside, positions int
	mean              float64
}

// countWatch counts a game's decisions.
type countWatch struct{ n int }

func (c *countWatch) Decided(*engine.Game, engine.Option) { c.n++ }
