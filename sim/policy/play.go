package policy

import (
	"fmt"

	"tallywood/engine"
)

// Play runs g to its end with p making every player decision. buf is the
// caller's scratch for the legal options (nil: one is allocated). A
// policy that returns an option not in the legal list is an error; a
// Fallible policy that fails ends the game with a *FailedError.
func Play(g *engine.Game, p Policy, buf []engine.Option) error {
	if cap(buf) < engine.MaxOptions {
		buf = make([]engine.Option, 0, engine.MaxOptions)
	}
	f, fallible := p.(Fallible)
	for !g.Over() {
		legal := g.Legal(buf[:0])
		o := p.Choose(g, legal)
		if fallible {
			if err := f.Err(); err != nil {
				return &FailedError{Err: err}
			}
		}
		if err := g.Apply(o); err != nil {
			return fmt.Errorf("policy: round %d, %s decision: %w", g.Round+1, g.Pending, err)
		}
	}
	if fallible {
		f.End(g)
	}
	return nil
}
