package sim

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// Changed rules fields that no game played reads (engine.ReadBy): each
// study that plays changed rules (compare, sweep, compare at a table)
// warns of them before it plays, in these words.

// unreadWarning words the warning about fields, the changes no game
// played reads: "" when there are none.
func unreadWarning(fields []engine.FieldScope, played string) string {
	if len(fields) == 0 {
		return ""
	}
	why := make([]string, len(fields))
	for i, f := range fields {
		why[i] = fmt.Sprintf("  %s is read by %s (%s)", f.Path, f.Scope.Who(), f.Scope.Why)
	}
	return fmt.Sprintf("no changed rules field can affect %s: every difference will be 0\n%s", played, strings.Join(why, "\n"))
}

// readsAny reports whether the solo game at mode (its name) reads any of
// the fields params (engine.ReadBy); a parameter the analysis does not
// know is taken as read.
func readsAny(params []string, mode string) bool {
	m, err := engine.ParseMode(mode)
	if err != nil {
		return true
	}
	for _, p := range params {
		s, err := engine.ReadBy(p)
		if err != nil || s.ReadsSolo(m) {
			return true
		}
	}
	return false
}
