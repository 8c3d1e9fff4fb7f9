package policy

import (
	"errors"
	"fmt"

	"tallywood/engine"
	"tallywood/sim/deal"
)

// PlaySolo deals the solo game of game seed gameSeed as d says into g and
// plays it to its end with p, reset to its own stream of the game seed,
// making every decision of the player: the game that trace narrates and
// every solo study plays for that seed. A game d cannot deal is a
// *DealError; the other errors are Play's.
func PlaySolo(g *engine.Game, r *engine.Rules, gameSeed uint64, d deal.Solo, p Policy, buf []engine.Option) error {
	return PlaySoloWatched(g, r, gameSeed, d, p, buf, nil)
}

// PlaySoloWatched is PlaySolo telling w (if not nil) of every decision
// before it is applied.
func PlaySoloWatched(g *engine.Game, r *engine.Rules, gameSeed uint64, d deal.Solo, p Policy, buf []engine.Option, w Watcher) (err error) {
	// The Opposition may take the first turn as the game is dealt (Hard).
	defer failedOpposition(&err)
	defer engine.CatchOpposition(&err)
	p.Reset(gameSeed)
	if err := d.Deal(g, r, gameSeed); err != nil {
		return &DealError{Err: err}
	}
	return PlayWatched(g, p, buf, w)
}

// A Watcher is told of every decision of a game played by PlayWatched:
// the game, and the option chosen, before it is applied. It must not
// change the game.
type Watcher interface {
	Decided(g *engine.Game, o engine.Option)
}

// failedOpposition makes a scripted Opposition's error (caught by
// engine.CatchOpposition, in the game or in a policy's lookahead) the
// game's failure: a *FailedError, counted by --max-errors like a failed
// policy, never a loss.
func failedOpposition(err *error) {
	if *err == nil {
		return // before the targets of errors.As, which escape
	}
	var oe *engine.OppositionError
	var failed *FailedError
	if errors.As(*err, &oe) && !errors.As(*err, &failed) {
		*err = &FailedError{Err: *err}
	}
}

// DealError is PlaySolo's error for a game that cannot be dealt (a
// Politician or difficulty the rules do not have): the caller's mistake,
// not the policy's.
type DealError struct{ Err error }

func (e *DealError) Error() string { return e.Err.Error() }
func (e *DealError) Unwrap() error { return e.Err }

// Play runs g to its end with p making every player decision. buf is the
// caller's scratch for the legal options (nil: one is allocated). A
// policy that returns an option not in the legal list is an error; a
// Fallible policy that fails, or a scripted Opposition's error, ends the
// game with a *FailedError.
func Play(g *engine.Game, p Policy, buf []engine.Option) error { return PlayWatched(g, p, buf, nil) }

// PlayWatched is Play telling w (if not nil) of every decision before it
// is applied.
func PlayWatched(g *engine.Game, p Policy, buf []engine.Option, w Watcher) (err error) {
	defer failedOpposition(&err)
	defer engine.CatchOpposition(&err)
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
		if w != nil && g.IsLegal(o) {
			w.Decided(g, o)
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
