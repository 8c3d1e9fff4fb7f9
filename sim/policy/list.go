package policy

import (
	"fmt"
	"strings"

	"tallywood/engine"
)

// A list of policies, as --policy takes it, is specs separated by commas.
// A spec's own parameters are separated by commas too
// ("mcts:iters=400,rollout=greedy"), so a piece that is key=value without
// a name (no ':' before the '=') continues the spec before it; and a
// comma inside quotes belongs to an exec command (docs/protocol.md:
// exec:prog 'a,b').

// ParseList reads a list of policy specs: each item of SplitList, its
// name ignoring case (its parameters are passed as given). A list may
// name a policy twice (a lineup of players). The error is Parse's, or
// names an item that holds a control or hidden character.
func ParseList(s string) ([]Spec, error) {
	items := SplitList(s)
	specs := make([]Spec, len(items))
	for i, p := range items {
		p = strings.TrimSpace(p)
		// A spec labels results, which refuse to be read back with a
		// control or hidden character.
		if r, ok := engine.Hidden(p); ok {
			return nil, fmt.Errorf("%q holds %U, a control or hidden character (a policy spec is one line, shown as written)", p, r)
		}
		name, params, hasParams := strings.Cut(p, ":")
		p = strings.ToLower(name)
		if hasParams {
			p += ":" + params
		}
		spec, err := Parse(p)
		if err != nil {
			return nil, err
		}
		specs[i] = spec
	}
	return specs, nil
}

// SplitList splits a list of policy specs into its items, as written:
// they join back to s with commas.
func SplitList(s string) []string {
	var out []string
	for _, p := range splitOutsideQuotes(s) {
		eq := strings.Index(p, "=")
		colon := strings.Index(p, ":")
		if len(out) > 0 && eq >= 0 && (colon < 0 || colon > eq) {
			out[len(out)-1] += "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// splitOutsideQuotes splits s at the commas outside quotes (NextComma).
func splitOutsideQuotes(s string) []string {
	var out []string
	for {
		i := NextComma(s)
		out = append(out, s[:i])
		if i == len(s) {
			return out
		}
		s = s[i+1:]
	}
}

// NextComma returns the index of the first comma of s outside quotes, or
// len(s), quoting as an exec command line is read (sim/policy/exec):
// '...' literally, "..." with \" and \\ escaped, and a backslash outside
// single quotes escaping the next character. A list splits there, and an
// exec spec's command ends there.
func NextComma(s string) int {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == 0 && c == ',':
			return i
		case c == '\\' && quote != '\'':
			i++
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case c == quote:
			quote = 0
		}
	}
	return len(s)
}
