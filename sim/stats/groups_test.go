package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGroupEffects: planted additive effects measured only in groups of
// eight are found within their standard errors, an item in no group has
// none, and two items always together cannot be told apart.
func TestGroupEffects(t *testing.T) {
	const k, g, parts, reps = 64, 8, 40, 30
	rng := rand.New(rand.NewPCG(14003, 1))
	truth := make([]float64, k)
	for i := range truth {
		truth[i] = float64(rng.IntN(7) - 3) // −3 … 3
	}
	var groups [][]int
	var ms []Moments
	for range parts {
		perm := rng.Perm(k - 1) // item k−1 is in no group
		for s := 0; s < k-1; s += g {
			items := perm[s:min(s+g, k-1)]
			var m Moments
			sum := 0.0
			for _, i := range items {
				sum += truth[i]
			}
			for range reps {
				m.Add(int64(math.Round(sum + 4*rng.NormFloat64())))
			}
			groups, ms = append(groups, items), append(ms, m)
		}
	}
	est, se, err := GroupEffects(k, groups, ms)
	if err != nil {
		t.Fatal(err)
	}
	far := 0
	for i := range k - 1 {
		if math.Abs(est[i]-truth[i]) > 3*se[i] {
			far++
		}
		if se[i] <= 0 || se[i] > 1 {
			t.Errorf("item %d: standard error %g", i, se[i])
		}
	}
	if far > 1 {
		t.Errorf("%d of %d estimates more than 3 standard errors from their effect", far, k-1)
	}
	if !math.IsInf(se[k-1], 1) || est[k-1] != 0 {
		t.Errorf("an item in no group: %g ± %g", est[k-1], se[k-1])
	}
	if _, _, err := GroupEffects(3, [][]int{{0, 1}, {0, 1, 2}}, []Moments{{N: 2, Sum: 2, SumSq: 2}, {N: 2, Sum: 4, SumSq: 8}}); err == nil {
		t.Error("items 0 and 1, always together, told apart")
	}
}
