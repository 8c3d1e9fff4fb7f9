package policy

import (
	"io"

	"tallywood/engine"
)

// Param documents one parameter of a policy registered with Register, for
// Describe.
type Param struct{ Name, Default, Help string }

// Register adds a policy defined outside this package (sim/policy/exec)
// to the specs Parse reads. parse gets everything after "NAME:" (empty
// for a bare NAME) and returns the whole Spec; Parse prefixes its errors
// with the spec string. Call it from an init function.
func Register(name, summary string, params []Param, parse func(rest string) (Spec, error)) {
	e := entry{name: name, summary: summary, raw: parse}
	for _, p := range params {
		e.params = append(e.params, param{name: p.Name, def: p.Default, help: p.Help})
	}
	add(e)
}

// Fallible is a Policy that can fail during a game, such as a program
// speaking the exec protocol that crashes, hangs or answers nonsense, and
// that is told when a game ends. Play asks Err after every Choose.
type Fallible interface {
	Policy
	// Err is why the last Choose has no answer, or nil. The option Choose
	// returned with a non-nil Err is not played.
	Err() error
	// End tells the policy that g is over (g.Result holds the tally).
	End(g *engine.Game)
}

// FailedError is Play's error when a Fallible policy failed, or a scripted
// Opposition did (Err is then an *engine.OppositionError): the game has no
// outcome, and a harness counts it as failed, never as lost.
type FailedError struct{ Err error }

func (e *FailedError) Error() string { return e.Err.Error() }
func (e *FailedError) Unwrap() error { return e.Err }

// Close releases what p holds (the exec policy's program) when p is an
// io.Closer; other policies hold nothing.
func Close(p Policy) error {
	if c, ok := p.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
