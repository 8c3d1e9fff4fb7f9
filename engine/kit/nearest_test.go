package kit

import (
	"fmt"
	"testing"
)

func TestDidYouMean(t *testing.T) {
	valid := []string{"sim", "compare", "sweep", "normal", "hard", "both", "greedy", "casual"}
	for _, c := range []struct{ name, want string }{
		{"simm", " (did you mean sim?)"},
		{"comapre", " (did you mean compare?)"},
		{"hrad", " (did you mean hard?)"},
		{"greddy", " (did you mean greedy?)"},
		{"HARD", " (did you mean hard?)"}, // a case slip
		{"xyz", ""},                       // nothing near
		{"play", ""},
	} {
		if got := DidYouMean(c.name, valid); got != c.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func ExampleNearest() {
	fmt.Println(Nearest("difficulties.hrad", []string{"difficulties.hard", "difficulties.normal", "track.max"}))
	// Output: [difficulties.hard]
}
