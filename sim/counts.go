package sim

import (
	"encoding/json"
	"errors"
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
	Games             int64                               `json:"games"`
	Wins              int64                               `json:"wins"`
	Draws             int64                               `json:"draws"`
	Losses            int64                               `json:"losses"`
	MarginSum         int64                               `json:"margin_sum"`
	MarginSumSq       int64                               `json:"margin_sum_sq"`
	PlayerVotes       int64                               `json:"player_votes"`
	OppVotes          int64                               `json:"opposition_votes"`
	Districts         [engine.NumDistricts]DistrictCounts `json:"districts"`
	FallbackOther     int64                               `json:"fallback_other"` // I-10: unable in the connected District
	FallbackBoth      int64                               `json:"fallback_both"`  // I-10: unable in both
	GamesWithFallback int64                               `json:"games_with_fallback"`
	Clamped           int64                               `json:"clamped"` // margins outside ±MarginLimit
	Hist              Histogram                           `json:"margin_histogram"`
	// Errors counts the games whose policy failed (Run): not in Games,
	// never scored.
	Errors int64 `json:"errors"`
}

// Histogram counts games by margin, one bin a vote from −MarginLimit.
type Histogram [NumMarginBins]int64

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
	c.Errors += o.Errors
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

// MarshalJSON writes the histogram sparsely (histJSON).
func (h Histogram) MarshalJSON() ([]byte, error) {
	first, last := -1, -1
	for i, n := range h {
		if n != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return json.Marshal(histJSON{Counts: []int64{}})
	}
	return json.Marshal(histJSON{Lo: first - MarginLimit, Counts: h[first : last+1]})
}

// UnmarshalJSON reads the sparse form, refusing bins outside ±MarginLimit.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	var j histJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*h = Histogram{}
	if len(j.Counts) == 0 {
		return nil
	}
	first := j.Lo + MarginLimit
	if first < 0 || first+len(j.Counts) > NumMarginBins {
		return fmt.Errorf("margin histogram from %d with %d bins is outside ±%d", j.Lo, len(j.Counts), MarginLimit)
	}
	copy(h[first:], j.Counts)
	return nil
}

// check verifies that counts read from a file add up.
func (c *Counts) check() error {
	var sum int64
	for _, n := range c.Hist {
		sum += n
	}
	if c.Wins+c.Draws+c.Losses != c.Games || sum != c.Games {
		return errors.New("counts do not add up to games")
	}
	return nil
}
