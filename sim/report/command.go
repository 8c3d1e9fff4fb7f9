package report

import (
	"slices"
	"strings"

	"tallywood/engine"
)

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_.,:=/+@.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.,:=/+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// commandLine joins args (the program's arguments, without its name) into
// the command line that reproduces a result.
func commandLine(args []string) string {
	parts := []string{"tallywood"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// rulesArgs are the flags that make rules of the given hash: --set for
// each override, and, unless the overrides applied to the reference set
// give that hash, the rules flag with a placeholder file name (results
// do not record the file's name; the report shows the hash).
func rulesArgs(rulesFlag, setFlag, placeholder, hash string, overrides []string) []string {
	var args []string
	for _, o := range overrides {
		args = append(args, setFlag, o)
	}
	r := engine.Reference()
	as := make([]engine.Assignment, 0, len(overrides))
	for _, o := range overrides {
		a, err := engine.ParseAssignment(o)
		if err != nil {
			return append([]string{rulesFlag, placeholder}, args...)
		}
		as = append(as, a)
	}
	if len(as) > 0 {
		var err error
		if r, err = r.With(as...); err != nil {
			return append([]string{rulesFlag, placeholder}, args...)
		}
	}
	if r.Hash != hash {
		return append([]string{rulesFlag, placeholder}, args...)
	}
	return args
}

// uniq appends s to list unless it is there.
func uniq(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
