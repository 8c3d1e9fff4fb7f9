package sim

import (
	"fmt"

	"tallywood/engine"
)

// Playing a seed at the base rules and at changed rules, so that each
// change is paired with the base game by game: a sweep's points and a
// sensitivity scan's changes.

// pointCounts are one worker's sums for one cell: the base games and each
// point's, and each point's pairs against the base.
type pointCounts struct {
	base   Counts
	points []Counts
	pairs  []PairCounts
	ends   PairCounts // of the points playPoints is asked to pair
}

// playPoints plays, in the cell of spec, the shard's games from ..
// from+n−1 of pool pl at base and at each of rules, and merges every
// worker's sums: each point's games and its pairs against the base, and
// with ends the pairs of point ends[1] against point ends[0]. A
// point whose rules play as the base's (equal hashes) is not played
// again: its games are the base's. A seed counts whole or not at all (a
// failed or interrupted game drops it at the base and every point), so
// that every point stays paired with the base; the pool counts the
// failed ones in the cell's errors. name names point k in a failure.
func playPoints(pl *pool[*player], base *engine.Rules, rules []*engine.Rules, name func(k int) string, spec CellSpec, from, n int64, ends *[2]int) (*pointCounts, error) {
	asBase := make([]bool, len(rules))
	played := int64(1)
	for i, r := range rules {
		asBase[i] = r.Hash == base.Hash
		if !asBase[i] {
			played++
		}
	}
	// A seed's games: the base's first, then each point's.
	type seedGame struct {
		res             engine.Result
		fbOther, fbBoth int16
	}
	nw := len(pl.players)
	seedGames := make([][]seedGame, nw)
	counts := make([]pointCounts, nw)
	for w := range nw {
		seedGames[w] = make([]seedGame, 1+len(rules))
		counts[w].points = make([]Counts, len(rules))
		counts[w].pairs = make([]PairCounts, len(rules))
	}
	err := pl.run(work{
		n: n, from: from, size: chunkFor(n, nw, chunkSize), games: played,
		play: func(w int, _ int64, seed uint64) error {
			p, gs := pl.players[w], seedGames[w]
			for k := range gs {
				r := base
				if k > 0 {
					if asBase[k-1] {
						gs[k] = gs[0] // the same play as the base: the same game
						continue
					}
					if pl.stop.Load() {
						return nil // the pool drops the seed
					}
					r = rules[k-1]
				}
				if err := p.play(r, seed, spec.Mode, spec.Policy, spec.Politician); err != nil {
					if k == 0 {
						return fmt.Errorf("base rules: %w", err)
					}
					return fmt.Errorf("%s: %w", name(k-1), err)
				}
				gs[k] = seedGame{p.g.Result, p.g.Seats[1].FallbackOther, p.g.Seats[1].FallbackBoth}
			}
			return nil
		},
		keep: func(w int, _ int64) {
			c, gs := &counts[w], seedGames[w]
			c.base.addResult(&gs[0].res, gs[0].fbOther, gs[0].fbBoth)
			for pi := range rules {
				g := &gs[1+pi]
				c.points[pi].addResult(&g.res, g.fbOther, g.fbBoth)
				c.pairs[pi].Add(&gs[0].res, &g.res)
			}
			if ends != nil {
				c.ends.Add(&gs[1+ends[0]].res, &gs[1+ends[1]].res)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	total := &counts[0]
	for w := 1; w < nw; w++ {
		total.base.Merge(&counts[w].base)
		for pi := range rules {
			total.points[pi].Merge(&counts[w].points[pi])
			total.pairs[pi].Merge(&counts[w].pairs[pi])
		}
		total.ends.Merge(&counts[w].ends)
	}
	return total, nil
}
