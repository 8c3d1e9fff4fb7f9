// Package mix reads the NxSPEC arguments of the commands that play a mix
// of policies to fit or train on (fiteval, train): "3000xgreedy" is 3,000
// games of greedy.
package mix

import (
	"fmt"
	"strconv"
	"strings"

	"tallywood/sim/policy"
)

// Item is one policy of a mix and its number of games.
type Item struct {
	Games int
	Spec  policy.Spec
}

// Parse reads NxSPEC arguments, at least one.
func Parse(args []string) ([]Item, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("no games: give NxSPEC arguments, e.g. 3000xgreedy")
	}
	var mix []Item
	for _, a := range args {
		n, s, ok := strings.Cut(a, "x")
		games, err := strconv.Atoi(n)
		if !ok || err != nil || games < 1 {
			return nil, fmt.Errorf("%q: want NxSPEC with N ≥ 1, e.g. 3000xgreedy", a)
		}
		sp, err := policy.Parse(s)
		if err != nil {
			return nil, err
		}
		mix = append(mix, Item{games, sp})
	}
	return mix, nil
}
