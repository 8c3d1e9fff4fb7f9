package policy

import (
	"tallywood/engine"
	"tallywood/sim/deal"
)

// The style heuristics are greedy players with a plan: the same one-step
// lookahead (and the same care for hidden information), with Eval weighted
// towards the plan and a bias for the options that carry it out. Designers
// compare them to see whether the difficulty depends on how one plays.

func init() {
	add(entry{
		name:    "pollster",
		summary: "plays for polling and Vote Shares: Campaign, Celebrity, Research first",
		build: func(map[string]string) (func() Policy, error) {
			return func() Policy { return NewPollster() }, nil
		},
	})
	add(entry{
		name:    "builder",
		summary: "plays for Strength: Public Works, majorities and round rewards, blocking the Opposition",
		build: func(map[string]string) (func() Policy, error) {
			return func() Policy { return NewBuilder() }, nil
		},
	})
}

// NewPollster returns the pollster: polling counts extra, Strength and
// blocking nothing; Campaign, Celebrity and Research are preferred and
// the Plaza avoided.
func NewPollster() *Greedy {
	w := DefaultWeights
	w.Polling = 0.6
	w.Strength = 0
	w.Majority = 0.3
	return &Greedy{w: w, samples: 1, stream: deal.StreamPollster, bias: pollsterBias}
}

func pollsterBias(g *engine.Game, o engine.Option) float64 {
	switch o.Kind {
	case engine.OptCampaign:
		return 2
	case engine.OptCelebrity, engine.OptResearch:
		return 1.5
	case engine.OptPublicWorks:
		return -3
	case engine.OptRegion:
		if o.A == engine.Plaza {
			return -2
		}
	case engine.OptDraw:
		if engine.Action(o.A) == engine.PublicWorks {
			return -1
		}
		return 0.5
	}
	return 0
}

// NewBuilder returns the builder: Strength on Public Works, the Round
// card's majorities and blocking the Opposition count extra; Public Works
// is preferred.
func NewBuilder() *Greedy {
	w := DefaultWeights
	w.Strength = 2
	w.Majority = 1.4
	w.Block = 1
	w.Polling = 0
	return &Greedy{w: w, samples: 1, stream: deal.StreamBuilder, bias: builderBias}
}

func builderBias(g *engine.Game, o engine.Option) float64 {
	switch o.Kind {
	case engine.OptPublicWorks:
		return 2 + float64(o.B)
	case engine.OptFundraise:
		return 0.5
	case engine.OptCampaign:
		return -1
	case engine.OptDraw:
		if engine.Action(o.A) == engine.PublicWorks {
			return 1
		}
	}
	return 0
}
