package policy

import "tallywood/sim/deal"

func init() {
	add(entry{
		name:    "learned",
		summary: "one-step lookahead: the option whose result the learned score rates best (value.json, trained for the reference rules: under others, measure it or retrain, docs/policies.md)",
		params: []param{
			{"samples", "1", "determinizations each option is scored on (1..64)", intIn(1, 64)},
			weightsParam,
		},
		build: func(p map[string]string) (func() Policy, error) {
			n, err := pinnedNet(p["weights"])
			if err != nil {
				return nil, err
			}
			return learnedWith(p, n), nil
		},
		withNet: learnedWith,
	})
}

func learnedWith(p map[string]string, n *Net) func() Policy {
	samples := atoi(p, "samples")
	return func() Policy { return NewLearned(n, samples) }
}

// NewLearned returns the learned player: greedy's one-step lookahead,
// with its handling of hidden information, scoring each option's result
// by the hand-weighted score corrected by the net n (netEval).
func NewLearned(n *Net, samples int) *Greedy {
	p := NewGreedy(samples)
	p.net, p.stream = n, deal.StreamLearned
	return p
}

// usesNet reports whether spec s scores by the learned value.
func usesNet(s Spec) bool {
	switch s.Name {
	case "learned", "dial":
		return true
	case "mcts":
		return s.Params["prior"] != "0"
	}
	return false
}
