package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"tallywood/engine"
	"tallywood/sim/stats"
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
// (the inverse of the empirical distribution function,
// stats.HistQuantile). With no games it is 0.
func (c *Counts) Quantile(q float64) int {
	bin := stats.HistQuantile(c.Hist[:], q)
	if bin < 0 {
		return 0
	}
	return bin - MarginLimit
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
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*h = Histogram{}
	if len(j.Counts) == 0 {
		return nil
	}
	if j.Lo < -MarginLimit || j.Lo > MarginLimit || len(j.Counts) > NumMarginBins-(j.Lo+MarginLimit) {
		return fmt.Errorf("margin histogram from %d with %d bins is outside ±%d", j.Lo, len(j.Counts), MarginLimit)
	}
	copy(h[j.Lo+MarginLimit:], j.Counts)
	return nil
}

// UnmarshalJSON reads counts, refusing a districts array that does not
// have one entry per District (a fixed-size array would silently read
// missing entries as zero and drop extra ones).
func (c *Counts) UnmarshalJSON(b []byte) error {
	type fields Counts // the same fields without this method
	var aux struct {
		fields
		Districts []DistrictCounts `json:"districts"`
	}
	if err := strictUnmarshal(b, &aux); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Say which count, without the path through aux.
			field := strings.TrimPrefix(te.Field, "fields.")
			return fmt.Errorf("counts.%s: %s is not a whole number of %s's range", field, strings.TrimPrefix(te.Value, "number "), te.Type)
		}
		return err
	}
	if len(aux.Districts) != engine.NumDistricts {
		return fmt.Errorf("districts: %d entries, want %d", len(aux.Districts), engine.NumDistricts)
	}
	*c = Counts(aux.fields)
	copy(c.Districts[:], aux.Districts)
	return nil
}

// strictUnmarshal decodes b into v refusing unknown fields: a decoder's
// DisallowUnknownFields does not reach into UnmarshalJSON methods.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// maxPerGame bounds what one game can add to a vote, share or fallback
// sum: the engine keeps each in an int16.
const maxPerGame = math.MaxInt16

// maxFieldValue bounds a number of a rules file read back from a
// result: the engine keeps each in a byte (engine.Rules), so a tune field's
// base or a sensitivity change's value of 10^15 is no field's.
const maxFieldValue = math.MaxInt16

// fieldValue reports whether v can be a rules file's number.
func fieldValue(v int) bool { return v >= -maxFieldValue && v <= maxFieldValue }

// check verifies that counts read from a file are those of some set of
// games: no negative count, outcomes and histogram that add up to games,
// margins that agree with the histogram and the vote totals, and sums one
// game at a time could reach. It names the first inconsistency.
func (c *Counts) check() error {
	n := c.Games
	if n < 0 || n > MaxGames {
		return fmt.Errorf("games %d is outside 0..%d", n, int64(MaxGames))
	}
	// Each count is at most one per game; checking that first keeps the
	// sums below from overflowing.
	for _, f := range []struct {
		name string
		v    int64
	}{{"wins", c.Wins}, {"draws", c.Draws}, {"losses", c.Losses}, {"games_with_fallback", c.GamesWithFallback}, {"clamped", c.Clamped}} {
		if f.v < 0 || f.v > n {
			return fmt.Errorf("%s %d is outside 0..games (%d)", f.name, f.v, n)
		}
	}
	// Failed games are not in games, but as many at most (Cell.validate
	// bounds them by the share where a cell has one).
	if c.Errors < 0 || c.Errors > MaxGames {
		return fmt.Errorf("errors %d is outside 0..%d", c.Errors, int64(MaxGames))
	}
	if c.Wins+c.Draws+c.Losses != n {
		return fmt.Errorf("wins %d + draws %d + losses %d = %d, not games (%d)", c.Wins, c.Draws, c.Losses, c.Wins+c.Draws+c.Losses, n)
	}
	sums := []struct {
		name string
		v    int64
	}{{"player_votes", c.PlayerVotes}, {"opposition_votes", c.OppVotes}, {"fallback_other", c.FallbackOther}, {"fallback_both", c.FallbackBoth}}
	for d, dc := range c.Districts {
		sums = append(sums, []struct {
			name string
			v    int64
		}{{fmt.Sprintf("districts[%d].player_shares", d), dc.PlayerShares},
			{fmt.Sprintf("districts[%d].opposition_shares", d), dc.OppositionShares},
			{fmt.Sprintf("districts[%d].player_votes", d), dc.PlayerVotes},
			{fmt.Sprintf("districts[%d].opposition_votes", d), dc.OppositionVotes}}...)
		if dc.PlayerAhead < 0 || dc.OppositionAhead < 0 || dc.PlayerAhead > n-dc.OppositionAhead {
			return fmt.Errorf("districts[%d]: player_ahead %d and opposition_ahead %d are not two disjoint counts of the %d games",
				d, dc.PlayerAhead, dc.OppositionAhead, n)
		}
	}
	for _, f := range sums {
		if f.v < 0 || f.v/maxPerGame > n {
			return fmt.Errorf("%s %d is outside 0..%d per game", f.name, f.v, maxPerGame)
		}
	}
	if c.GamesWithFallback > c.FallbackOther+c.FallbackBoth {
		return fmt.Errorf("games_with_fallback %d is more than the fallbacks (%d)", c.GamesWithFallback, c.FallbackOther+c.FallbackBoth)
	}
	if c.PlayerVotes-c.OppVotes != c.MarginSum {
		return fmt.Errorf("margin_sum %d is not player_votes − opposition_votes (%d)", c.MarginSum, c.PlayerVotes-c.OppVotes)
	}
	var games, sum, sumSq int64
	for i, k := range c.Hist {
		if k < 0 || k > n {
			return fmt.Errorf("margin_histogram: margin %d has %d games, outside 0..games (%d)", i-MarginLimit, k, n)
		}
		games += k
		if games > n {
			return fmt.Errorf("margin_histogram holds more than the %d games", n)
		}
		m := int64(i - MarginLimit)
		sum += k * m
		sumSq += k * m * m
	}
	if games != n {
		return fmt.Errorf("margin_histogram holds %d games, not games (%d)", games, n)
	}
	edges := c.Hist[0] + c.Hist[NumMarginBins-1]
	if c.Clamped > edges {
		return fmt.Errorf("clamped %d is more than the games in the histogram's edge bins (%d)", c.Clamped, edges)
	}
	// Unclamped, every game sits in its margin's bin: the sums follow.
	if c.Clamped == 0 && (sum != c.MarginSum || sumSq != c.MarginSumSq) {
		return fmt.Errorf("margin_sum %d and margin_sum_sq %d are not those of the histogram (%d, %d)", c.MarginSum, c.MarginSumSq, sum, sumSq)
	}
	// Clamped, the histogram does not give the sums: they must still be
	// those of some margins.
	if !(stats.Moments{N: n, Sum: c.MarginSum, SumSq: c.MarginSumSq}).Possible(maxPerGame) {
		return fmt.Errorf("margin_sum %d and margin_sum_sq %d are not the sums of %d margins within ±%d", c.MarginSum, c.MarginSumSq, n, maxPerGame)
	}
	return nil
}
