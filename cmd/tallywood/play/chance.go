package play

import (
	"fmt"
	"math"
	"strings"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// The win chance, with Config.Chance: at the start of every turn, yours
// and the Opposition's, and at the end, the narration says your chance
// of winning as the level plays on, and how it changed since the last
// turn's start, marking a big swing; the hint gives the chance after each
// option.

// chanceMark is the win chance at a turn's start: the events logged
// before it, and the chance.
type chanceMark struct {
	event            int
	chance, interval float64 // the chance and its 95% interval's half-width
}

// bigSwing is the change of chance, in either direction, that the
// narration marks as a big swing.
const bigSwing = 0.10

// hintWorlds is how many determinized copies the hint's chances are the
// mean of.
const hintWorlds = 8

// markChance notes the win chance at g, a turn's start or the end.
func (s *Session) markChance(g *engine.Game) {
	if s.cfg.Chance == nil {
		return
	}
	half, _ := s.cfg.Chance.Interval(g)
	s.marks = append(s.marks, chanceMark{event: len(s.log.Events), chance: s.cfg.Chance.Of(g), interval: half})
}

// markTurn notes the chance when the game waits for the card of the
// person's turn, or is over.
func (s *Session) markTurn() {
	if s.g.Over() || s.g.Decision().Kind == engine.DecCard && s.g.Decision().Seat == s.me {
		s.markChance(s.g)
	}
}

// chanceLines writes the marks up to event k not yet written.
func (s *Session) chanceLines(k int) {
	for ; s.shown < len(s.marks) && s.marks[s.shown].event <= k; s.shown++ {
		m := s.marks[s.shown]
		line := fmt.Sprintf("Your win chance (as %s plays on): %.0f%%%s", s.cfg.Chance.Level, 100*m.chance, IntervalText(m.chance, m.interval))
		if s.shown > 0 {
			d := m.chance - s.marks[s.shown-1].chance
			change := fmt.Sprintf("%+.0f", 100*d)
			if math.Round(100*d) == 0 {
				change = "±0"
			}
			line += fmt.Sprintf(", %s since the last turn's start", change)
			if math.Abs(d) >= bigSwing {
				line += ": a big swing"
			}
		}
		s.printf("  %s\n", Wrap(line, Width, "      "))
	}
}

// IntervalText is the interval of chance p in a narration (play's and
// trace's), saying what it is and clipped to 0–100%: " (95% interval
// 23–59%)" for 41% with a half-width of 18 points, or nothing when there
// is none (the end, or a model without intervals).
func IntervalText(p, half float64) string {
	if math.Round(100*half) == 0 {
		return ""
	}
	lo, hi := max(0, p-half), min(1, p+half)
	return fmt.Sprintf(" (95%% interval %.0f–%.0f%%)", 100*lo, 100*hi)
}

// optionChances is the win chance after each option of legal at g: the
// mean over hintWorlds copies determinized from what you see (an option
// may set chance going: a flip, a draw, the Opposition's turn).
func optionChances(c *policy.WinChance, g *engine.Game, legal []engine.Option) []float64 {
	out := make([]float64, len(legal))
	var w, after engine.Game
	for k := range hintWorlds {
		w = *g
		w.SetRecorder(nil)
		w.Determinize(deal.HintSeed(g.Seed) + uint64(k))
		for i, o := range legal {
			after = w
			after.ApplyLegal(o)
			out[i] += c.Of(&after) / hintWorlds
		}
	}
	return out
}

// chanceHint is the hint's line of the win chance after each option.
func (s *Session) chanceHint(legal []engine.Option, nums []int) string {
	ch := optionChances(s.cfg.Chance, s.g, legal)
	parts := make([]string, len(legal))
	for i := range legal {
		parts[i] = fmt.Sprintf("%d) %.0f%%", nums[i], 100*ch[i])
	}
	return Wrap(fmt.Sprintf("      your win chance after each option (as %s plays on): %s", s.cfg.Chance.Level, strings.Join(parts, ", ")), Width, "      ") + "\n"
}
