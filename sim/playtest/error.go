package playtest

import (
	"fmt"

	"tallywood/engine"
)

// Error is a fault in a file at a line (0: the file as a whole).
type Error struct {
	File string
	Line int
	Err  error
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// checkText refuses a text that would print as something else (a control
// or hidden character) or is longer than max bytes.
func checkText(field, s string, max int) error {
	if len(s) > max {
		return fmt.Errorf("%s: %d bytes, more than %d", field, len(s), max)
	}
	if r, bad := engine.Hidden(s); bad {
		return fmt.Errorf("%s: %q holds %U, a control or hidden character", field, s, r)
	}
	return nil
}
