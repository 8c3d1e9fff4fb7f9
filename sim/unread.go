package sim

import (
	"fmt"
	"slices"
	"strings"

	"tallywood/engine"
)

// UnreadWarning says, before c plays, when its arms differ only in rules
// fields that none of its games reads (a change to difficulties.hard.*
// compared at --mode normal would play every game for a difference that
// cannot be anything but 0): each changed field and why it cannot matter,
// or "" when some change can. It warns only when the arms play alike in
// every cell but for the rules, and no cell's difficulty reads a changed
// field.
func (c *CompareConfig) UnreadWarning() string {
	modes := map[engine.Mode]bool{}
	var names []string
	for _, p := range c.Cells {
		if !p.alike() {
			return ""
		}
		if !modes[p.A.Mode] {
			names = append(names, p.A.Mode.String())
		}
		modes[p.A.Mode] = true
	}
	reads := func(s engine.Scope) bool {
		for m := range modes {
			if s.ReadsSolo(m) {
				return true
			}
		}
		return false
	}
	return unreadWarning(engine.Unread(c.A.Rules, c.B.Rules, reads), "the solo games played (--mode "+strings.Join(names, ",")+")")
}

// TableUnreadWarning is UnreadWarning for a comparison of rules a and b
// at a table of players (compare --seats): a game without the Opposition.
func TableUnreadWarning(a, b *engine.Rules, players int) string {
	fields := engine.Unread(a, b, func(s engine.Scope) bool { return s.Seats })
	return unreadWarning(fields, fmt.Sprintf("the games of %d players (--seats %d, no Opposition)", players, players))
}

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

// alike reports whether both arms of the cell play the same difficulty,
// policy and politician: the arms differ there only in their rules.
func (p ComparePair) alike() bool {
	return p.A.Mode == p.B.Mode && p.A.Policy.String() == p.B.Policy.String() && p.A.Politician == p.B.Politician
}

// SweepUnreadWarning says, before a sweep plays, which cells' games read
// none of the swept fields params (a sweep of difficulties.normal.* at
// --mode hard): every point of such a cell plays the base's games, and
// its answer is none. "" when every cell reads one.
func SweepUnreadWarning(params []string, cells []CellSpec) string {
	var modes []string
	for _, c := range cells {
		m := c.Mode.String()
		if !readsAny(params, m) && !slices.Contains(modes, m) {
			modes = append(modes, m)
		}
	}
	if len(modes) == 0 {
		return ""
	}
	why := make([]string, 0, len(params))
	for _, p := range params {
		if s, err := engine.ReadBy(p); err == nil {
			why = append(why, fmt.Sprintf("  %s is read by %s (%s)", p, s.Who(), s.Why))
		}
	}
	return fmt.Sprintf("the solo games at --mode %s read none of the swept fields: every value will play the base's games there\n%s",
		strings.Join(modes, ","), strings.Join(why, "\n"))
}
