package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"tallywood/sim/deal"
)

// The measurement that chose tune's search (docs/balance.md, "How tune
// searches"): successive halving against NTBEA (Lucas, Liu and
// Perez-Liebana 2018, as TAG implements it: 1-tuples, 2-tuples and the
// N-tuple, UCB over 50 mutated neighbours) on problems whose answer is
// known, at the same budget of games. A problem's win rates are known
// functions of the values and each game is a coin with that probability,
// drawn from the seed block and game index, so that candidates meet the
// same games (common random numbers) as tune's real games do. Run it with
// TALLYWOOD_MEASURE=1 go test ./sim/ -run TestTuneSearchMeasure -v.

type tuneProblem struct {
	name  string
	space [][]int
	base  []int
	rates []float64
	p     func(x []int) []float64
}

func span(lo, hi int) []int {
	var vs []int
	for v := lo; v <= hi; v++ {
		vs = append(vs, v)
	}
	return vs
}

func tuneProblems() []tuneProblem {
	eight := make([][]int, 8)
	for i := range eight {
		eight[i] = span(0, 6)
	}
	return []tuneProblem{
		{"one field, one target", [][]int{span(1, 9)}, []int{3}, []float64{0.30},
			func(x []int) []float64 { return []float64{0.05 + 0.05*float64(x[0])} }},
		{"three fields, two targets", [][]int{span(0, 6), span(0, 6), span(0, 6)}, []int{3, 3, 3}, []float64{0.45, 0.25},
			func(x []int) []float64 {
				a, b, c := float64(x[0]), float64(x[1]), float64(x[2])
				return []float64{0.25 + 0.04*a - 0.03*b + 0.01*c, 0.15 + 0.03*a - 0.01*b - 0.03*c + 0.02*b*c/6}
			}},
		{"eight fields (two matter), two targets", eight, []int{3, 3, 3, 3, 3, 3, 3, 3}, []float64{0.35, 0.25},
			func(x []int) []float64 {
				return []float64{0.2 + 0.05*float64(x[0]), 0.1 + 0.04*float64(x[1]) + 0.01*float64(x[0]) + 0.002*float64(x[5])}
			}},
	}
}

// trueObjective is the objective at x without noise.
func (pr tuneProblem) trueObjective(x []int) float64 {
	var s float64
	for t, p := range pr.p(x) {
		s += (p - pr.rates[t]) * (p - pr.rates[t])
	}
	return s
}

// optimum is the least true objective over the grid (by enumeration).
func (pr tuneProblem) optimum() float64 {
	best := math.Inf(1)
	x := make([]int, len(pr.space))
	var walk func(k int)
	walk = func(k int) {
		if k == len(x) {
			best = min(best, pr.trueObjective(x))
			return
		}
		for _, v := range pr.space[k] {
			x[k] = v
			walk(k + 1)
		}
	}
	walk(0)
	return best
}

// evaluator plays block games per target on blocks [from, to) of seed,
// counting into *used.
func (pr tuneProblem) evaluator(seed uint64, block int64, used *int64) tuneEvaluator {
	return func(x []int, from, to int) ([]int64, []int64, error) {
		ps := pr.p(x)
		games, wins := make([]int64, len(ps)), make([]int64, len(ps))
		for k := from; k < to; k++ {
			for t, p := range ps {
				for j := range block {
					u := deal.GameSeed(deal.GameSeed(seed, uint64(k)), uint64(j)*8+uint64(t))
					if float64(u>>11)/(1<<53) < p {
						wins[t]++
					}
					games[t]++
				}
			}
		}
		for _, g := range games {
			*used += g
		}
		return games, wins, nil
	}
}

// ntbea is NTBEA with budget games: each evaluation plays block games per
// target on a block of its own (the noisy fitness NTBEA is made for), and
// the answer is the evaluated point the model rates best.
func ntbea(pr tuneProblem, seed uint64, budget, block int64, k float64) []int {
	rng := rand.New(rand.NewPCG(seed, 1))
	d := len(pr.space)
	// tuples: every 1-tuple, every 2-tuple and the N-tuple.
	var tuples [][]int
	for i := range d {
		tuples = append(tuples, []int{i})
	}
	for i := range d {
		for j := i + 1; j < d; j++ {
			tuples = append(tuples, []int{i, j})
		}
	}
	if d > 2 {
		tuples = append(tuples, span(0, d-1))
	}
	type stat struct {
		n   int
		sum float64
	}
	tables := make([]map[string]*stat, len(tuples))
	for i := range tables {
		tables[i] = map[string]*stat{}
	}
	key := func(tp []int, x []int) string {
		parts := make([]int, len(tp))
		for i, k := range tp {
			parts[i] = x[k]
		}
		return fmt.Sprint(parts)
	}
	var used, evals int64
	estimate := func(x []int, explore bool) float64 {
		var s float64
		var total int64 = evals + 1
		for i, tp := range tuples {
			st := tables[i][key(tp, x)]
			if st == nil {
				if explore {
					s += 1e6 // an untried value: try it first
				}
				continue
			}
			s += st.sum / float64(st.n)
			if explore {
				s += k * math.Sqrt(math.Log(float64(total))/float64(st.n))
			}
		}
		return s / float64(len(tuples))
	}
	x := slices.Clone(pr.base)
	var seen [][]int
	for used+block*int64(len(pr.rates)) <= budget {
		g, w, _ := pr.evaluator(seed, block, &used)(x, int(evals), int(evals)+1)
		evals++
		c := candidate{games: g, wins: w}
		f := -c.objective(tuneGoal{rates: pr.rates})
		for i, tp := range tuples {
			kk := key(tp, x)
			if tables[i][kk] == nil {
				tables[i][kk] = &stat{}
			}
			tables[i][kk].n++
			tables[i][kk].sum += f
		}
		if !slices.ContainsFunc(seen, func(y []int) bool { return slices.Equal(x, y) }) {
			seen = append(seen, slices.Clone(x))
		}
		var next []int
		bestV := math.Inf(-1)
		for range 50 {
			y := slices.Clone(x)
			mutated := false
			for !mutated {
				for i := range d {
					if rng.Float64() < 1/float64(d) {
						y[i] = pr.space[i][rng.IntN(len(pr.space[i]))]
						mutated = mutated || y[i] != x[i]
					}
				}
			}
			if v := estimate(y, true); v > bestV {
				bestV, next = v, y
			}
		}
		x = next
	}
	best, bestV := seen[0], math.Inf(-1)
	for _, y := range seen {
		if v := estimate(y, false); v > bestV {
			best, bestV = y, v
		}
	}
	return best
}

// TestTuneSearchMeasure prints, per problem and method, the mean regret
// (true objective of the answer minus the optimum) over 20 seeds at a
// budget of 200,000 games, and how often the answer's true win rates lie
// within 0.02 of every target.
func TestTuneSearchMeasure(t *testing.T) {
	if os.Getenv("TALLYWOOD_MEASURE") == "" {
		t.Skip("a measurement: TALLYWOOD_MEASURE=1 to run it")
	}
	const budget, seeds = 200_000, 20
	for _, pr := range tuneProblems() {
		opt := pr.optimum()
		methods := []struct {
			name   string
			answer func(seed uint64) []int
		}{
			{"successive halving (tune: 128 candidates)", func(seed uint64) []int {
				n, block, err := halvingPlan(budget, len(pr.rates), gridSize(pr.space))
				if err != nil {
					t.Fatal(err)
				}
				var used int64
				cands, best, err := halving(sampleCandidates(pr.space, pr.base, n, rand.New(rand.NewPCG(seed, 0x74756e65))), tuneGoal{rates: pr.rates}, pr.evaluator(seed, block, &used), nil)
				if err != nil || used > budget {
					t.Fatalf("halving: %v, %d games of %d", err, used, budget)
				}
				return cands[best].x
			}},
			{"successive halving, 256 candidates", func(seed uint64) []int { return halvingWith(t, pr, seed, budget, 256) }},
			{"successive halving, 64 candidates", func(seed uint64) []int { return halvingWith(t, pr, seed, budget, 64) }},
			{"NTBEA, 100 games/eval, k=0.05", func(seed uint64) []int { return ntbea(pr, seed, budget, 100, 0.05) }},
			{"NTBEA, 100 games/eval, k=0.01", func(seed uint64) []int { return ntbea(pr, seed, budget, 100, 0.01) }},
			{"NTBEA, 400 games/eval, k=0.05", func(seed uint64) []int { return ntbea(pr, seed, budget, 400, 0.05) }},
			{"NTBEA, 400 games/eval, k=0.2", func(seed uint64) []int { return ntbea(pr, seed, budget, 400, 0.2) }},
		}
		for _, m := range methods {
			var regret float64
			near := 0
			for s := range uint64(seeds) {
				x := m.answer(9800 + s)
				regret += pr.trueObjective(x) - opt
				ok := true
				for i, p := range pr.p(x) {
					ok = ok && math.Abs(p-pr.rates[i]) <= 0.02
				}
				if ok {
					near++
				}
			}
			t.Logf("%-40s %-32s mean regret %.5f  within 0.02 of every target: %d/%d", pr.name, m.name, regret/seeds, near, seeds)
		}
	}
}

// halvingWith is successive halving starting from at most n candidates,
// with the largest block the budget allows.
func halvingWith(t *testing.T, pr tuneProblem, seed uint64, budget int64, n int) []int {
	if g := gridSize(pr.space); g < int64(n) {
		n = int(g)
	}
	block := budget / (halvingBlocks(n) * int64(len(pr.rates)))
	var used int64
	cands, best, err := halving(sampleCandidates(pr.space, pr.base, n, rand.New(rand.NewPCG(seed, 0x74756e65))), tuneGoal{rates: pr.rates}, pr.evaluator(seed, block, &used), nil)
	if err != nil || used > budget {
		t.Fatalf("halving: %v, %d games of %d", err, used, budget)
	}
	return cands[best].x
}

// TestHalvingPlan: the plan fits the budget, plays every point of a
// small grid, and refuses a budget too small for one block each.
func TestHalvingPlan(t *testing.T) {
	for _, tt := range []struct {
		budget  int64
		targets int
		grid    int64
		n       int
		block   int64
	}{
		{200_000, 2, 0, 128, 173}, // 576 blocks of 2 targets: 128 + 64·1 + 32·2 + ...
		{200_000, 2, 9, 9, 2777},  // every one of 9: 36 blocks
		{2400, 1, 4, 4, 300},      // 4 + 2 + 2 blocks
		{150, 1, 2, 2, 50},        // 2 + 1 blocks of the least block
	} {
		n, block, err := halvingPlan(tt.budget, tt.targets, tt.grid)
		if err != nil || n != tt.n || block != tt.block {
			t.Errorf("halvingPlan(%d, %d, %d) = %d, %d, %v; want %d, %d", tt.budget, tt.targets, tt.grid, n, block, err, tt.n, tt.block)
		}
	}
	if _, _, err := halvingPlan(149, 1, 2); err == nil {
		t.Error("a budget below one block per candidate was accepted")
	}
}
