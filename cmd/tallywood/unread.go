package main

import (
	"fmt"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

// unreadRules is the warning compare prints before playing when the arms
// differ only in rules fields that none of the games played reads (issue
// 23: a change to difficulties.hard.* compared at --mode normal, or to a
// Solo card at --seats 3, played every game and reported no difference):
// each changed field and why it cannot matter, or "" when some can.
// reads says whether the games played read a field of scope s, and
// played names them.
func unreadRules(a, b *engine.Rules, reads func(s engine.Scope) bool, played string) string {
	diffs := engine.Diff(a, b)
	if len(diffs) == 0 {
		return ""
	}
	var why []string
	for _, d := range diffs {
		s, err := engine.ReadBy(d.Path)
		if err != nil || reads(s) {
			return ""
		}
		why = append(why, fmt.Sprintf("  %s is read by %s (%s)", d.Path, s.Who(), s.Why))
	}
	return fmt.Sprintf("tallywood: compare: warning: no changed rules field can affect %s: every difference will be 0\n%s\n",
		played, strings.Join(why, "\n"))
}

// unreadSolo is unreadRules for the cells of a solo comparison: it warns
// only when the arms play alike in every cell but for the rules, and no
// cell's difficulty reads a changed field.
func unreadSolo(cfg *sim.CompareConfig) string {
	modes := map[engine.Mode]bool{}
	var names []string
	for _, c := range cfg.Cells {
		if c.A.Mode != c.B.Mode || c.A.Policy.String() != c.B.Policy.String() || c.A.Politician != c.B.Politician {
			return ""
		}
		if !modes[c.A.Mode] {
			names = append(names, c.A.Mode.String())
		}
		modes[c.A.Mode] = true
	}
	reads := func(s engine.Scope) bool {
		for m := range modes {
			if s.ReadsSolo(m) {
				return true
			}
		}
		return false
	}
	return unreadRules(cfg.A.Rules, cfg.B.Rules, reads, "the solo games played (--mode "+strings.Join(names, ",")+")")
}

// unreadSeats is unreadRules for compare --seats N: a game without the
// Opposition.
func unreadSeats(a, b *engine.Rules, seats int) string {
	return unreadRules(a, b, func(s engine.Scope) bool { return s.Seats }, fmt.Sprintf("the games of %d players (--seats %d, no Opposition)", seats, seats))
}
