package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// pairsOf builds pair counts from a list of (A outcome, B outcome, margin
// difference).
func pairsOf(pairs ...[3]int) PairCounts {
	var p PairCounts
	outcome := []engine.Outcome{engine.Win, engine.Draw, engine.Loss}
	for _, q := range pairs {
		a := engine.Result{Outcome: outcome[q[0]]}
		b := engine.Result{Outcome: outcome[q[1]]}
		b.Total[0] = int16(q[2])
		p.Add(&a, &b)
	}
	return p
}

func TestPairCounts(t *testing.T) {
	// A wins & B draws (−½), A loses & B wins (+1), both draw (0), A draws
	// & B loses (−½): mean score difference 0.
	p := pairsOf([3]int{0, 1, 2}, [3]int{2, 0, 4}, [3]int{1, 1, 0}, [3]int{1, 2, -2})
	if got := p.Pentanomial(); got != [5]int64{0, 2, 1, 0, 1} {
		t.Errorf("pentanomial %v, want [0 2 1 0 1]", got)
	}
	mean, _, pv := p.ScoreDiff()
	if mean != 0 || pv != 1 {
		t.Errorf("score difference %g (p %g), want 0 (p 1)", mean, pv)
	}
	if p.MarginDiffSum != 4 || p.MarginDiffSumSq != 24 {
		t.Errorf("margin sums %d, %d; want 4, 24", p.MarginDiffSum, p.MarginDiffSumSq)
	}
	q := pairsOf([3]int{2, 0, 1})
	q.Merge(&p)
	if q.Games != 5 || q.Cross[2][0] != 2 || q.check(nil, nil) != nil {
		t.Errorf("merged %+v", q)
	}
	q.Games++
	if err := q.check(nil, nil); err == nil {
		t.Error("check accepts a cross-table that does not sum to games")
	}
}

// TestSequentialSequences feeds synthetic paired sequences one pair at a
// time and checks the decision and when it is made.
func TestSequentialSequences(t *testing.T) {
	two := &Sequential{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}
	three := &Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name string
		test *Sequential
		next func(i int) [3]int // A outcome, B outcome, margin difference
		want Decision
		at   int64 // the pair after which it decides; 0: any
	}{
		// Only B wins: P0's best fit is (½, 0, ½) on ±1, P1's (0.51, 0,
		// 0.49), so the LLR grows by log(0.51/0.5) a pair: log 19 / 0.0198 → 149.
		{"two: B always", two, func(int) [3]int { return [3]int{2, 0, 0} }, NearerP1, 149},
		// Only ties: P1 must give 0.02 to +1, LLR = n·log 0.98 → 146.
		{"two: ties", two, func(int) [3]int { return [3]int{2, 2, 0} }, NearerP0, 146},
		{"two: A always", two, func(int) [3]int { return [3]int{0, 2, 0} }, NearerP0, 146},
		// Three outcomes, only ties: both one-sided tests decide for 0
		// after 146 pairs.
		{"three: ties", three, func(int) [3]int { return [3]int{1, 1, 0} }, Within, 146},
		{"three: B always", three, func(int) [3]int { return [3]int{1, 0, 0} }, Easier, 0},
		{"three: A always", three, func(int) [3]int { return [3]int{0, 1, 0} }, Harder, 0},
		// B wins one pair in ten more than A: 10 points, far above 2.
		{"three: B +10 points", three, func(i int) [3]int {
			if i%10 == 0 {
				return [3]int{2, 0, 0}
			}
			return [3]int{2, 2, 0}
		}, Easier, 0},
		// Margin: B ahead by 3 votes in alternate pairs, by −1 in the
		// others: mean +1, δ = 1 vote.
		{"margin: B +1 vote", &Sequential{On: OnMargin, Delta: 1, Alpha: 0.05, Beta: 0.05}, func(i int) [3]int {
			return [3]int{2, 2, 3 - 4*(i%2)}
		}, Easier, 0},
		// Margin differences all 0 decide "within" only after the
		// minimum number of pairs.
		{"margin: none", &Sequential{On: OnMargin, Delta: 1, Alpha: 0.05, Beta: 0.05}, func(int) [3]int {
			return [3]int{2, 2, 0}
		}, Within, minMarginPairs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p PairCounts
			st := tt.test.Start()
			got := Undecided
			for i := range 100000 {
				q := pairsOf(tt.next(i))
				p.Merge(&q)
				if got = st.Update(&p); got != Undecided {
					break
				}
			}
			if got != tt.want {
				t.Fatalf("decision %v after %d pairs, want %v", got, p.Games, tt.want)
			}
			if tt.at > 0 && p.Games != tt.at {
				t.Errorf("decided after %d pairs, want %d", p.Games, tt.at)
			}
		})
	}
}

// TestSequentialValidate: the limit of a difference is the statistic's
// (a score difference lies in (−1, 1)), and the error names the bad
// parameter as a value, not in words to be parsed.
func TestSequentialValidate(t *testing.T) {
	tests := []struct {
		s     Sequential
		param stats.Param
		want  string
	}{
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}, 0, ""},
		{Sequential{Delta: 1, Alpha: 0.05, Beta: 0.05}, stats.ParamDelta, "delta 1 is not above 0 and below 1"},
		{Sequential{On: OnMargin, Delta: 3, Alpha: 0.05, Beta: 0.05}, 0, ""},
		{Sequential{On: OnMargin, Delta: math.Inf(1), Alpha: 0.05, Beta: 0.05}, stats.ParamDelta, "delta +Inf is not above 0 and below +Inf"},
		{Sequential{Delta: 0.02, Alpha: 0.5, Beta: 0.05}, stats.ParamAlpha, "alpha 0.5 is not between 0 and 0.5"},
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: math.NaN()}, stats.ParamBeta, "beta NaN is not between 0 and 0.5"},
		{Sequential{P0: 0, P1: 1, Alpha: 0.05, Beta: 0.05}, stats.ParamP0P1, "P0 0, P1 1 are not two different finite differences"},
		{Sequential{On: OnMargin, P0: 0, P1: 1, Alpha: 0.05, Beta: 0.05}, 0, ""},
	}
	for _, tt := range tests {
		err := tt.s.Validate()
		got := ""
		if err != nil {
			got = err.Error()
			var pe *stats.ParamError
			if !errors.As(err, &pe) || pe.Param != tt.param {
				t.Errorf("%+v: error %#v, want a *stats.ParamError of %v", tt.s, err, tt.param)
			}
		}
		if got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}

// TestSequentialErrorRates measures the three-outcome test's error rates
// by simulation on synthetic paired data, at several discordance levels
// (the share of seeds on which the arms' scores differ), for the test
// compare runs in a comparison of one cell (ForCells(1): α split over the
// two sides, as --beta's help quotes it):
//
//   - with no true difference, it must say "easier" or "harder" in at most
//     about α of runs (α/2 for each side);
//   - with a true difference of +δ, it must say "within" or "harder" in at
//     most about β of runs.
//
// Wald's bounds are approximate: the ratio overshoots them by a whole
// pair, so the tolerance is the nominal rate plus a stated slack (0.02)
// plus three standard errors of the estimate. The measured rates are
// logged (go test -tags calibration -v -run ErrorRates ./sim), with how
// often the plain 95 % interval at the stop covers the true difference
// (less than 95 %: the stop is why compare labels its estimates after
// one).
func TestSequentialErrorRates(t *testing.T) {
	calibrationStudy(t)
	runs := 600
	if testing.Short() {
		runs = 60
	}
	const alpha, beta, delta = 0.05, 0.05, 0.02
	test := (&Sequential{Delta: delta, Alpha: alpha, Beta: beta}).ForCells(1)
	rng := rand.New(rand.NewPCG(9, 9))
	for _, disc := range []float64{0.03, 0.1, 0.3} {
		for _, truth := range []float64{0, delta} {
			wrong, covered := 0, 0
			var pairs int64
			for range runs {
				// Discordant pairs: B ahead with up, A ahead with down
				// (up + down = disc), a tenth of each by ½ (a draw against
				// a win or loss), the rest by 1; otherwise both the same.
				// A discordant pair is then worth 0.95 on average, so
				// up − down = truth/0.95 makes the mean difference truth
				// (with up − down = truth it was 0.95·truth, and
				// "+2 points" was +1.9).
				var p PairCounts
				st := test.Start()
				d := Undecided
				for d == Undecided && p.Games < 1_000_000 {
					u := rng.Float64()
					var q PairCounts
					switch up, down := (disc+truth/0.95)/2, (disc-truth/0.95)/2; {
					case u < up*0.9:
						q = pairsOf([3]int{2, 0, 0})
					case u < up:
						q = pairsOf([3]int{1, 0, 0})
					case u < up+down*0.9:
						q = pairsOf([3]int{0, 2, 0})
					case u < up+down:
						q = pairsOf([3]int{0, 1, 0})
					default:
						q = pairsOf([3]int{2, 2, 0})
					}
					p.Merge(&q)
					d = st.Update(&p)
				}
				pairs += p.Games
				if _, ci, _ := p.ScoreDiff(); ci.Lo <= truth && truth <= ci.Hi {
					covered++
				}
				if truth == 0 && (d == Easier || d == Harder) || truth > 0 && d != Easier {
					wrong++
				}
			}
			rate := float64(wrong) / float64(runs)
			nominal := alpha
			if truth > 0 {
				nominal = beta
			}
			se := math.Sqrt(nominal * (1 - nominal) / float64(runs))
			t.Logf("discordance %.2f, true difference %+.2f: wrong %.3f (nominal %.2f) in %d runs, mean %d pairs; the 95%% interval at the stop covered the truth in %.3f",
				disc, truth, rate, nominal, runs, pairs/int64(runs), float64(covered)/float64(runs))
			if rate > nominal+0.02+3*se {
				t.Errorf("discordance %.2f, true difference %+.2f: error rate %.3f above %.2f", disc, truth, rate, nominal)
			}
		}
	}
}
