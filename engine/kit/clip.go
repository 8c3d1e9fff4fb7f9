package kit

import (
	"fmt"
	"unicode/utf8"
)

// maxShown is the most bytes of a text from outside (a flag's value, a
// path) that an error message repeats; Clip keeps clipHead of a longer one.
const (
	maxShown = 200
	clipHead = 64
)

// Clip is s to repeat in a one-line message: s itself, or, when longer
// than a message should repeat, its first bytes and how long it was
// ("aaaa…(100002 bytes)"), cut at a character's start.
func Clip(s string) string {
	if len(s) <= maxShown {
		return s
	}
	head := clipHead
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:head], len(s))
}
