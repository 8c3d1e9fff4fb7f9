package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim/policy"
)

// The help of --chance and --chance-level, one meaning in every command.
const (
	chanceUsage      = "show your win chance at the start of every turn, big swings marked (play: and after each option in the hint)"
	chanceLevelUsage = "the skill `LEVEL` whose play the win chance assumes from each point on (default: the policy's own level; play: skilled)"
)

// winChance is the shipped model's win chance of level, or, with level
// "", of the level spec plays.
func winChance(spec policy.Spec, level string) (*policy.WinChance, error) {
	if level == "" {
		l, ok := policy.LevelOf(spec)
		if !ok {
			return nil, fmt.Errorf("--policy %s is no skill level: name the level whose win chance to show with --chance-level", spec.Label)
		}
		level = l
	}
	c, err := policy.ShippedChance().For(level)
	if err != nil {
		return nil, fmt.Errorf("--chance-level: %v", err)
	}
	return c, nil
}

// swingLine marks the game's rank-th biggest change of win chance in the
// block of the turn that made it (issue 42: under the next turn's header
// it read as that turn's): the change, from the chance at the turn's
// start to the next turn's (or the outcome).
func swingLine(rank int, from, to float64) string {
	which := "biggest"
	if rank > 1 {
		which = engine.Ordinal(rank) + " biggest"
	}
	return fmt.Sprintf("  This turn made the %s swing of the game: your win chance %s, %.0f%% → %.0f%%", which, changeText(to-from), 100*from, 100*to)
}

// chanceLine is the narration's line of the win chance at the start of a
// turn: the chance, its interval, and its change over the turn just
// played, by (empty: the first turn).
func chanceLine(level string, tc policy.TurnChance, by string) string {
	line := fmt.Sprintf("  Your win chance (as %s plays on): %.0f%%%s", level, 100*tc.Chance, play.IntervalText(tc.Chance, tc.Interval))
	if by == "" {
		return line
	}
	return fmt.Sprintf("%s, %s over %s", line, changeText(tc.Change), by)
}

// turnWho names the turn that starts at a point of kind k, as the
// narration marks the change it made.
func turnWho(k policy.ArcKind) string {
	if k == policy.ArcOpposition {
		return "the Opposition's turn just played"
	}
	return "your turn just played"
}

// changeText is a change of chance in points: +3, -12, or ±0.
func changeText(x float64) string {
	if math.Round(100*x) == 0 {
		return "±0"
	}
	return fmt.Sprintf("%+.0f", 100*x)
}

// chanceJSON is the JSON line of the win chance at the start of a turn
// (or at the end), written before that turn's events.
func chanceJSON(round int8, level string, tc policy.TurnChance) []byte {
	type line struct {
		Round  int     `json:"round"`
		Kind   string  `json:"kind"`
		Level  string  `json:"level"`
		Chance float64 `json:"chance"`
		Change float64 `json:"change"`
		// The half-width of the chance's 95% interval; absent at the end
		// and for a model without intervals.
		Interval float64 `json:"interval,omitempty"`
		Swing    int     `json:"swing,omitempty"`
	}
	b, err := json.Marshal(line{Round: int(round) + 1, Kind: "win_chance", Level: level,
		Chance: round4(tc.Chance), Change: round4(tc.Change), Interval: round4(tc.Interval), Swing: tc.Swing})
	if err != nil {
		panic("tallywood: " + err.Error()) // plain numbers and strings
	}
	return b
}

func round4(x float64) float64 {
	v, _ := json.Number(strings.TrimRight(fmt.Sprintf("%.4f", x), "0")).Float64()
	return v
}
