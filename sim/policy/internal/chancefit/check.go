package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/progress"
	"tallywood/sim/stats"
)

// levelCheck is the check of one level: its held-out scores and
// calibration table, and the continuation check.
type levelCheck struct {
	score policy.ChanceLevelScore
	rows  [bins]binRow
	// starts is the table at the turns' starts alone: the chances trace
	// and play show and the arc's fan reads.
	starts [bins]binRow
	cont   contResult
}

// checkModel measures m for every level named: the calibration table and
// Brier score on held-out games, and the continuation check.
func checkModel(o options, m *policy.ChanceModel) (string, []levelCheck, error) {
	var b strings.Builder
	var out []levelCheck
	fmt.Fprintf(&b, "%s\n", m.Note(policy.PlayedRules(o.rules)))
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
		_, lc.starts = measure(c, turnStarts(held), base)
		fmt.Fprintf(&b, "\nat the turns' starts alone (yours and the Opposition's: the chances trace and play show, the arc's fan reads):\n%s", binTable(lc.starts))
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

// sample plays n games of level l on master (stream's), stops each at a
// point drawn uniformly from its decisions, and plays o.continuations
// games from each such position by the same level, each from a copy
// determinized from the player's view: the positions, with c's chance,
// and the continuations' mean outcome at each. The continuations are the
// truth the chance estimates.
func sample(o options, l level, stream, master uint64, n int, c *policy.WinChance, what string) ([]position, []float64, error) {
	pos := make([]position, n)
	var buf [engine.MaxOptions]engine.Option
	for i := range pos {
		seed := deal.GameSeed(master, stream<<32|uint64(i))
		var rng rand.PCG
		rng.Seed(seed, deal.StreamChanceFit)
		var g engine.Game
		solo := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex}
		// First count the game's decisions, then stop at a random one.
		var count countWatch
		if err := policy.PlaySoloWatched(&g, o.rules, seed, solo, l.spec.New(), buf[:0], &count); err != nil {
			return nil, nil, err
		}
		stop := int(rng.Uint64() % uint64(count.n))
		pol := l.spec.New()
		pol.Reset(seed)
		if err := solo.Deal(&g, o.rules, seed); err != nil {
			return nil, nil, err
		}
		for k := 0; k < stop; k++ {
			legal := g.Legal(buf[:0])
			if err := g.Apply(pol.Choose(&g, legal)); err != nil {
				return nil, nil, err
			}
		}
		pos[i] = position{g: g, chance: c.Of(&g), seed: seed}
	}
	bar := progress.New(o.progress, fmt.Sprintf("%s %s", l.name, what), len(pos)*o.continuations)
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
		return nil, nil, firstErr
	}
	means := make([]float64, len(pos))
	for i := range sums {
		means[i] = sums[i] / float64(o.continuations)
	}
	return pos, means, nil
}

// minSlotPositions is the fewest positions a stage of the game
// (policy.ChanceSlot) needs for its own interval; a stage with fewer, or
// none (a round or turn the rules do not have), gets the widest interval
// of the others (with no other, the 95th percentile of every position's).
const minSlotPositions = 30

// intervals measures c's interval: at o.intervalPositions positions of
// games on o.intervalSeed, the 95th percentile, by stage of the game, of
// the distance between c's chance and the continuations' mean outcome.
// The distance includes the continuations' own noise, so the interval is
// the one the continuation check, with as many continuations, should
// find 95% of its positions within.
func intervals(o options, l level, stream uint64, c *policy.WinChance) (*[policy.ChanceSlots]float32, string, error) {
	pos, means, err := sample(o, l, stream, o.intervalSeed, o.intervalPositions, c, "interval")
	if err != nil {
		return nil, "", err
	}
	var dist [policy.ChanceSlots][]float64
	all := make([]float64, len(pos))
	for i := range pos {
		s := policy.ChanceSlot(&pos[i].g)
		all[i] = math.Abs(pos[i].chance - means[i])
		dist[s] = append(dist[s], all[i])
	}
	iv := new([policy.ChanceSlots]float32)
	widest, measured := float32(0), false
	for s, d := range dist {
		if len(d) < minSlotPositions {
			continue
		}
		iv[s] = percentile95(d)
		widest, measured = max(widest, iv[s]), true
	}
	if !measured {
		widest = percentile95(all)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the chance's 95%% interval, from %d positions of games on seed %d, %d continuations each (half-width in points, by round and turn; \"end\": past the turns)\n",
		l.name, len(pos), o.intervalSeed, o.continuations)
	for r := range engine.MaxRounds {
		line := ""
		for t := range policy.ChanceTurnSlots {
			s := r*policy.ChanceTurnSlots + t
			if len(dist[s]) < minSlotPositions {
				continue
			}
			name := fmt.Sprintf("turn %d", t+1)
			if t == policy.ChanceTurnSlots-1 {
				name = "end"
			}
			line += fmt.Sprintf("  %s ±%.1f (%d)", name, 100*iv[s], len(dist[s]))
		}
		if line != "" {
			fmt.Fprintf(&b, "round %d:%s\n", r+1, line)
		}
	}
	fmt.Fprintf(&b, "other stages (fewer than %d positions): ±%.1f, the widest\n", minSlotPositions, 100*widest)
	for s, d := range dist {
		if len(d) < minSlotPositions {
			iv[s] = widest
		}
	}
	return iv, b.String(), nil
}

// percentile95 is the 95th percentile of d (sorting it): the smallest
// value at least 95% of d is at or below.
func percentile95(d []float64) float32 {
	slices.Sort(d)
	return float32(stat.Quantile(0.95, stat.Empirical, d, nil))
}

// continuations is the continuation check: at o.checkPositions positions
// of games on o.checkSeed, how often the continuations' mean outcome is
// within the model's 95% interval (its claim of how close it is), how
// often the model's chance is within the continuations' own 95% interval
// (how close it is, against their noise), and the mean and spread of
// their difference, by round.
func continuations(o options, l level, stream uint64, c *policy.WinChance) (contResult, error) {
	pos, means, err := sample(o, l, stream, o.checkSeed, o.checkPositions, c, "continuations")
	if err != nil {
		return contResult{}, err
	}
	var inside, covered, n int
	var sumD, sumD2, noise, width float64
	type byRound struct {
		n, inside, covered int
		sumD, sumD2        float64
		sumP, sumObs       float64
	}
	var rounds [engine.MaxRounds]byRound
	for i := range pos {
		// The continuations' mean outcome and its 95% interval (normal,
		// with the variance of outcomes of that mean, floored so that a
		// mean of 0 or 1 still has one).
		mu := means[i]
		se := math.Sqrt(max(mu*(1-mu), 0.25/float64(o.continuations)) / float64(o.continuations))
		d := pos[i].chance - mu
		half, _ := c.Interval(&pos[i].g)
		noise += mu * (1 - mu) / float64(o.continuations)
		width += half
		n++
		sumD += d
		sumD2 += d * d
		r := &rounds[pos[i].g.Round]
		r.n++
		r.sumD += d
		r.sumD2 += d * d
		r.sumP += pos[i].chance
		r.sumObs += mu
		if math.Abs(d) <= 1.96*se {
			inside++
			r.inside++
		}
		if math.Abs(d) <= half {
			covered++
			r.covered++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\ncontinuation check: %d positions of %d held-out games on seed %d (one each, at a random decision), %d games continued from each by %s, determinized from the player's view\n",
		n, n, o.checkSeed, o.continuations, l.name)
	if _, ok := c.Interval(&pos[0].g); ok {
		ci := stats.Wilson(int64(covered), int64(n), 0.05)
		fmt.Fprintf(&b, "within the model's 95%% interval (mean half-width %.1f points): %d of %d (%.1f%% [%.1f%%, %.1f%%])\n",
			100*width/float64(n), covered, n, 100*float64(covered)/float64(n), 100*ci.Lo, 100*ci.Hi)
	} else {
		b.WriteString("the model has no interval (a tallywood-winchance/1 file)\n")
	}
	meanD := sumD / float64(n)
	sdD := math.Sqrt(max(0, sumD2/float64(n)-meanD*meanD) / float64(max(1, n-1)))
	fmt.Fprintf(&b, "model within the continuations' 95%% interval: %d of %d (%.1f%%); model − continuations: mean %+.2f points [%+.2f, %+.2f], RMS %.2f points (the continuations' own noise alone: %.2f)\n",
		inside, n, 100*float64(inside)/float64(n), 100*meanD, 100*(meanD-1.96*sdD), 100*(meanD+1.96*sdD), 100*math.Sqrt(sumD2/float64(n)), 100*math.Sqrt(noise/float64(n)))
	b.WriteString("| round | positions | within the model's interval | model within the continuations' | mean model | mean continuations | mean difference | RMS difference |\n|---|---|---|---|---|---|---|---|\n")
	for r, x := range rounds {
		if x.n == 0 {
			continue
		}
		k := float64(x.n)
		fmt.Fprintf(&b, "| %d | %d | %d | %d | %.1f%% | %.1f%% | %+.2f | %.2f |\n", r+1, x.n, x.covered, x.inside, 100*x.sumP/k, 100*x.sumObs/k,
			100*x.sumD/k, 100*math.Sqrt(x.sumD2/k))
	}
	return contResult{text: b.String(), inside: inside, covered: covered, positions: n, mean: meanD}, nil
}

// contResult is the continuation check: its report, how many positions
// had the model's chance within the continuations' interval, how many had
// the continuations' mean within the model's, of how many, and the mean
// of model − continuations.
type contResult struct {
	text                       string
	inside, covered, positions int
	mean                       float64
}

// countWatch counts a game's decisions.
type countWatch struct{ n int }

func (c *countWatch) Decided(*engine.Game, engine.Option) { c.n++ }
