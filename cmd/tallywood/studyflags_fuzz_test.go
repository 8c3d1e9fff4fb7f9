package main

import (
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
)

// FuzzStudyFlags feeds the parsers of tune's --target and --vary and
// sensitivity's --step arbitrary text: they never panic, and what they
// accept is within bounds (a rate in (0, 1), whole-number values the
// rules accept, a step ParseStep reads back).
func FuzzStudyFlags(f *testing.F) {
	for _, s := range []string{"normal:skilled=0.45", "hard:greedy=0.25", "normal:skilled=-0.05", "normal:mcts:iters=4=0.5", "x:y=2", "=",
		"difficulties.hard.*", "actions.campaign_polling=1..4", "solo_cards[S-13].*=0..2", "*=-5..5", "a..b",
		"2", "25%", "0", "1e400%", "-3"} {
		f.Add(s)
	}
	base := engine.Reference()
	f.Fuzz(func(t *testing.T, s string) {
		if cells, rates, relative, err := tuneTargets([]string{s}); err == nil {
			rel := relative != nil && relative[0]
			if len(cells) != 1 || len(rates) != 1 || !rel && !(rates[0] > 0 && rates[0] < 1) || rel && !(rates[0] > -1 && rates[0] < 1 && rates[0] != 0) {
				t.Fatalf("--target %q: accepted as %v, %v, relative %v", s, cells, rates, relative)
			}
		}
		if strings.Count(s, "..") <= 1 {
			if vary, err := tuneVary(base, []string{s}, false); err == nil {
				for _, v := range vary {
					if len(v.Values) == 0 || len(v.Values) > 1001 {
						t.Fatalf("--vary %q: %d values for %s", s, len(v.Values), v.Path)
					}
				}
			}
		}
		if step, err := sim.ParseStep(s); err == nil {
			if back, err := sim.ParseStep(step.String()); err != nil || back != step {
				t.Fatalf("--step %q: read as %v, which reads back as %v, %v", s, step, back, err)
			}
		}
	})
}
