package sim

import (
	"fmt"

	"tallywood/engine"
)

// MarginLimit bounds the margin histogram: margins from −MarginLimit to
// +MarginLimit get a bin each (one vote wide); anything beyond lands in
// the edge bin and is counted in Counts.Clamped. The reference rules give
// margins well inside ±200; the engine's Max constants keep any valid
// rules file's total votes far below this limit.
const MarginLimit = 1024

// NumMarginBins is the number of bins of the margin histogram.
const NumMarginBins = 2*MarginLimit + 1

// DistrictCounts are the per-District sums of one cell.
type DistrictCounts struct {
	PlayerShares     int64 `json:"player_shares"`
	OppositionShares int64 `json:"opposition_shares"`
	PlayerVotes      int64 `json:"player_votes"`
	OppositionVotes  int64 `json:"opposition_votes"`
	PlayerAhead      int64 `json:"player_ahead"`     // games the player out-voted the Opposition there
	OppositionAhead  int64 `json:"opposition_ahead"` // games the Opposition out-voted the player there
}

// Counts are the mergeable statistics of one cell: integer counts and sums
// and a fixed-bin histogram. Adding games in any order, or merging Counts
// of disjoint game sets in any order, gives the same value, which is what
// makes results independent of the number of workers and shards exact.
type Counts struct {
	Games, Wins, Draws, Losses int64
	MarginSum, MarginSumSq     int64
	PlayerVotes, OppVotes      int64
	Districts                  [engine.NumDistricts]DistrictCounts
	FallbackOther              int64 // I-10: unable in the connected District
	FallbackBoth               int64 // I-10: unable in both
	GamesWithFallback          int64
	Clamped                    int64 // margins outside ±MarginLimit
	Hist                       [NumMarginBins]int64
}

// Add records the result of a finished game.
func (c *Counts) Add(g *engine.Game) {
	opp := &g.Seats[1]
	c.addResult(&g.Result, opp.FallbackOther, opp.FallbackBoth)
}

// addResult records a game's Final Tally and the Opposition's fallbacks.
func (c *Counts) addResult(r *engine.Result, fbOther, fbBoth int16) {
	c.Games++
	switch r.Outcome {
	case engine.Win:
		c.Wins++
	case engine.Draw:
		c.Draws++
	default:
		c.Losses++
	}
	m := int64(r.Margin())
	c.MarginSum += m
	c.MarginSumSq += m * m
	c.PlayerVotes += int64(r.Total[0])
	c.OppVotes += int64(r.Total[1])
	for d := range c.Districts {
		dt := &r.Districts[d]
		dc := &c.Districts[d]
		dc.PlayerShares += int64(dt.Shares[0])
		dc.OppositionShares += int64(dt.Shares[1])
		dc.PlayerVotes += int64(dt.SeatVotes[0])
		dc.OppositionVotes += int64(dt.SeatVotes[1])
		switch {
		case dt.SeatVotes[0] > dt.SeatVotes[1]:
			dc.PlayerAhead++
		case dt.SeatVotes[0] < dt.SeatVotes[1]:
			dc.OppositionAhead++
		}
	}
	c.FallbackOther += int64(fbOther)
	c.FallbackBoth += int64(fbBoth)
	if fbOther > 0 || fbBoth > 0 {
		c.GamesWithFallback++
	}
	bin := m + MarginLimit
	if bin < 0 || bin >= NumMarginBins {
		c.Clamped++
		bin = min(max(bin, 0), NumMarginBins-1)
	}
	c.Hist[bin]++
}

// Merge adds the counts of o (a disjoint set of games) to c.
func (c *Counts) Merge(o *Counts) {
	c.Games += o.Games
	c.Wins += o.Wins
	c.Draws += o.Draws
	c.Losses += o.Losses
	c.MarginSum += o.MarginSum
	c.MarginSumSq += o.MarginSumSq
	c.PlayerVotes += o.PlayerVotes
	c.OppVotes += o.OppVotes
	for d := range c.Districts {
		a, b := &c.Districts[d], &o.Districts[d]
		a.PlayerShares += b.PlayerShares
		a.OppositionShares += b.OppositionShares
		a.PlayerVotes += b.PlayerVotes
		a.OppositionVotes += b.OppositionVotes
		a.PlayerAhead += b.PlayerAhead
		a.OppositionAhead += b.OppositionAhead
	}
	c.FallbackOther += o.FallbackOther
	c.FallbackBoth += o.FallbackBoth
	c.GamesWithFallback += o.GamesWithFallback
	c.Clamped += o.Clamped
	for i := range c.Hist {
		c.Hist[i] += o.Hist[i]
	}
}

// Quantile returns the q-quantile (0 < q ≤ 1) of the margins: the
// smallest margin m such that at least ⌈q·games⌉ games had a margin ≤ m
// (the inverse of the empirical distribution function). With no games it
// is 0.
func (c *Counts) Quantile(q float64) int {
	if c.Games == 0 {
		return 0
	}
	need := int64(q * float64(c.Games))
	if float64(need) < q*float64(c.Games) {
		need++
	}
	need = max(need, 1)
	var cum int64
	for i, n := range c.Hist {
		cum += n
		if cum >= need {
			return i - MarginLimit
		}
	}
	return MarginLimit
}

// histJSON is the histogram as stored in JSON: the counts from the first
// to the last non-empty bin, Lo being the margin of the first.
type histJSON struct {
	Lo     int     `json:"lo"`
	Counts []int64 `json:"counts"`
}

func (c *Counts) histJSON() histJSON {
	first, last := -1, -1
	for i, n := range c.Hist {
		if n != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return histJSON{Counts: []int64{}}
	}
	return histJSON{Lo: first - MarginLimit, Counts: append([]int64(nil), c.Hist[first:last+1]...)}
}

func (c *Counts) setHist(h histJSON) error {
	c.Hist = [NumMarginBins]int64{}
	if len(h.Counts) == 0 {
		return nil
	}
	first := h.Lo + MarginLimit
	if first < 0 || first+len(h.Counts) > NumMarginBins {
		return fmt.Errorf("margin histogram from %d with %d bins is outside ±%d", h.Lo, len(h.Counts), MarginLimit)
	}
	copy(c.Hist[first:], h.Counts)
	return nil
}
