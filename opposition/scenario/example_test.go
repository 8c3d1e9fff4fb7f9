package scenario_test

import (
	"fmt"
	"strings"

	"tallywood/opposition/scenario"
)

// A scenario of testdata/scenarios: the Opposition unable to take an
// action in either District (I-10); its trace says what it did instead,
// and every expected fact holds.
func ExampleLoad() {
	s, err := scenario.Load("../../testdata/scenarios/fallback-unable-in-both.json")
	if err != nil {
		fmt.Println(err) // malformed: the error names the field
		return
	}
	res := s.Run()
	for _, line := range strings.Split(res.Trace, "\n") {
		if strings.Contains(line, "unable in") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	for _, d := range res.Diffs {
		fmt.Println(d)
	}
	fmt.Println("pass:", res.Pass())
	// Output:
	// Opposition: unable in Red (connected) → Assistant to Blue (not connected), Research tried there (I-10)
	// Opposition: unable in Blue too → Assistant back to Red, gains 1 Money + 1 Popularity (I-10)
	// pass: true
}
