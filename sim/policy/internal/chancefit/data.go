package main

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/policy/internal/progress"
)

// The positions the fit and the measures read: each one's inputs, its
// kind of point and its game's outcome, played by the levels on a seed.

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

// turnStarts is d's positions at the start of a turn: the Opposition's
// (kind 0) and yours (your card to choose).
func turnStarts(d *data) *data {
	out := &data{games: d.games, wins: d.wins}
	const k = policy.NetInputs
	for r := range d.len() {
		if d.kind[r] != 0 && d.kind[r] != uint8(engine.DecCard) {
			continue
		}
		out.x = append(out.x, d.x[r*k:r*k+k]...)
		out.y = append(out.y, d.y[r])
		out.kind = append(out.kind, d.kind[r])
		out.game = append(out.game, d.game[r])
	}
	return out
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
