package kit

import (
	"fmt"
	"strings"
)

// Count writes n and a noun, in the plural unless n is 1: "1 Vote Share",
// "3 Vote Shares". Money, Popularity and Polling are uncountable.
func Count(n int, noun string) string {
	switch {
	case n == 1 || noun == "Money" || noun == "Popularity" || noun == "Polling":
		return fmt.Sprintf("%d %s", n, noun)
	case strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ey"):
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
