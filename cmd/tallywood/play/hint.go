package play

import (
	"fmt"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// Hint is a bot's advice for the pending decision.
type Hint struct {
	Policy string        // who advises, e.g. "greedy"
	Option engine.Option // its choice, one of the legal options
	// Margin is its estimate of your final votes minus the Opposition's
	// after its choice; valid when HasMargin. Error is the estimate's
	// typical error (root mean square, in votes; 0: not known).
	Margin    float64
	Error     float64
	HasMargin bool
}

// Hinter answers `h`. It gets a copy of the game with no recorder and must
// not keep it.
type Hinter interface {
	Hint(g *engine.Game, legal []engine.Option) (Hint, error)
}

// PolicyHinter asks a registered policy of sim/policy (by spec, e.g.
// "greedy") what it would choose.
type PolicyHinter struct{ Spec string }

// Hint asks the policy. A policy that is not registered is an error, so
// the session can say the hint is unavailable.
func (h PolicyHinter) Hint(g *engine.Game, legal []engine.Option) (Hint, error) {
	spec, err := policy.Parse(h.Spec)
	if err != nil {
		return Hint{}, err
	}
	p := spec.New()
	defer policy.Close(p)
	p.Reset(g.Seed)
	o := p.Choose(g, legal)
	// The margin is policy.Eval after the choice, on a determinized copy:
	// the choice may set chance going (a flip, a draw, the Opposition's
	// turn), and the estimate must not read the true hidden future. Eval
	// is calibrated on self-play games; EvalError is its typical error at
	// this stage of the game.
	c := *g
	c.SetRecorder(nil)
	c.Determinize(deal.HintSeed(g.Seed))
	if err := c.Apply(o); err != nil {
		return Hint{}, fmt.Errorf("%s chose %s: %v", spec.Label, g.Describe(o), err)
	}
	if !g.IsSolo() {
		// Eval estimates the margin over the Opposition: no meaning at
		// a table.
		return Hint{Policy: spec.Label, Option: o}, nil
	}
	return Hint{Policy: spec.Label, Option: o, Margin: policy.Eval(&c), Error: policy.EvalError(&c), HasMargin: true}, nil
}

// hint writes the advice for the pending decision; nums are the menu's
// numbers of legal, so the hint names the number the player types.
func (s *Session) hint(legal []engine.Option, nums []int) string {
	h := s.hinter()
	chance := s.cfg.Chance != nil && s.g.IsSolo()
	c := *s.g
	c.SetRecorder(nil)
	opts := append([]engine.Option(nil), legal...)
	adv, err := h.Hint(&c, opts)
	if err != nil {
		return fmt.Sprintf("No hint available: %v\n", err)
	}
	n := -1
	for i, o := range legal {
		if o == adv.Option {
			n = i
		}
	}
	if n < 0 {
		return fmt.Sprintf("No hint available: %s chose an option that is not legal here.\n", adv.Policy)
	}
	line := Wrap(fmt.Sprintf("Hint: %s would choose %d) %s", adv.Policy, nums[n], s.describe(adv.Option)), Width, "      ")
	if chance {
		// The chance's score, not greedy's margin: the advice and its
		// score come from one level.
		return line + "\n" + s.chanceHint(legal, nums)
	}
	if adv.HasMargin {
		line += fmt.Sprintf("\n      its estimated margin (your votes minus the Opposition's): %+.1f", adv.Margin)
		if adv.Error > 0 {
			line += fmt.Sprintf(",\n      give or take %.0f votes (its typical error at this point of the game)", adv.Error)
		}
	}
	return line + "\n"
}

// hinter is Config.Hinter or, without one, the policy of the win chance's
// level when the chance is shown (so that the advice and the chance come
// from one level), or greedy.
func (s *Session) hinter() Hinter {
	switch {
	case s.cfg.Hinter != nil:
		return s.cfg.Hinter
	case s.cfg.Chance != nil && s.g.IsSolo():
		return PolicyHinter{Spec: s.cfg.Chance.Level}
	}
	return PolicyHinter{Spec: "greedy"}
}
