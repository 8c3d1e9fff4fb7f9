package stats_test

import (
	"fmt"

	"tallywood/sim/stats"
)

// Student's sleep data (R's ?sleep), the extra hours of sleep of ten
// patients under two drugs, in tenths of an hour.
var (
	drug1 = []int64{7, -16, -2, -12, -1, 34, 37, 8, 0, 20}
	drug2 = []int64{19, 8, 11, 1, -1, 44, 55, 16, 46, 34}
)

// The paired t-test of the package's sketch: the differences of the same
// patients under the two drugs (R's t.test(..., paired = TRUE) gives the
// same mean, interval and p-value).
func Example_pairedT() {
	var m stats.Moments
	for i := range drug1 {
		m.Add(drug1[i] - drug2[i])
	}
	ci := m.MeanInterval(0.05)
	fmt.Printf("%.2f h [%.4f, %.4f], p = %.4g\n", m.Mean()/10, ci.Lo/10, ci.Hi/10, m.TTest())
	// Output: -1.58 h [-2.4599, -0.7001], p = 0.002833
}

// A win rate of 81 in 263 games (Newcombe's worked example) with its
// Wilson 95 % interval.
func ExampleWilson() {
	ci := stats.Wilson(81, 263, 0.05)
	fmt.Printf("%.1f%% [%.1f%%, %.1f%%]\n", 100*81.0/263, 100*ci.Lo, 100*ci.Hi)
	// Output: 30.8% [25.5%, 36.6%]
}

// The sleep data as two independent groups: Welch's test does not assume
// equal variances (R's t.test default).
func ExampleWelch() {
	var a, b stats.Moments
	for i := range drug1 {
		a.Add(drug1[i])
		b.Add(drug2[i])
	}
	diff, ci, p := stats.Welch(a, b, 0.05)
	fmt.Printf("%.2f h [%.4f, %.4f], p = %.4g\n", diff/10, ci.Lo/10, ci.Hi/10, p)
	// Output: -1.58 h [-3.3655, 0.2055], p = 0.07939
}

// Holm's adjustment of four cells' p-values: only the smallest stays
// below 0.05. Bonferroni's multiplies each by four.
func ExampleHolm() {
	ps := []float64{0.01, 0.04, 0.03, 0.005}
	fmt.Println(stats.Holm(ps))
	fmt.Println(stats.Bonferroni(ps))
	// Output:
	// [0.03 0.06 0.06 0.02]
	// [0.04 0.16 0.12 0.02]
}

// A family of two tests with simultaneous intervals: each at 2.5 %, so
// both intervals hold at once with 95 % confidence.
func ExampleMeanTests() {
	var sleep, noise stats.Moments
	for i := range drug1 {
		sleep.Add(drug1[i] - drug2[i])
		noise.Add(int64(i%3 - 1))
	}
	for _, t := range stats.MeanTests([]stats.Moments{sleep, noise}, 0.05) {
		fmt.Printf("%.2f [%.2f, %.2f] p %.3f adjusted %.3f rejected %v\n", t.Mean, t.CI.Lo, t.CI.Hi, t.P, t.PAdj, t.Rejected)
	}
	// Output:
	// -15.80 [-26.24, -5.36] p 0.003 adjusted 0.006 rejected true
	// -0.10 [-0.84, 0.64] p 0.726 adjusted 1.000 rejected false
}

// Equivalence: are the two drugs within ±3 hours of each other? Both
// one-sided tests reject at 5 % (p below 0.05), so yes; within ±1.5
// hours, no (the mean difference, −1.58 hours, is not even inside).
func ExampleMoments_TOST() {
	var m stats.Moments
	for i := range drug1 {
		m.Add(drug1[i] - drug2[i])
	}
	fmt.Printf("±3 h: p = %.4f\n", m.TOST(-30, 30))
	fmt.Printf("±1.5 h: p = %.4f\n", m.TOST(-15, 15))
	// Output:
	// ±3 h: p = 0.0027
	// ±1.5 h: p = 0.5792
}

// A three-outcome sequential test of paired games (win 1, draw ½) with an
// indifference zone of ±2 points: B wins one seed in ten more than A
// (a difference of 10 points), and the test decides "up" (B better by
// about 2 points or more) once +Delta's ratio reaches its upper bound;
// −Delta's test has decided for no difference.
func ExampleSequential() {
	test := stats.Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}
	st := test.Start()
	var pairs stats.Pentanomial // pairs[k]: seeds on which B − A = (k − 2)/2
	for i := 1; ; i++ {
		if i%10 == 0 {
			pairs[4]++ // B won, A lost
		} else {
			pairs[2]++ // the same result
		}
		if d := st.Update(pairs.LLR); d != stats.Undecided {
			lo, hi := test.Bounds()
			fmt.Printf("%v after %d pairs; bounds %.3f, %.3f; ratios %.3f\n", d, i, lo, hi, st.LLRs())
			return
		}
	}
	// Output: up after 149 pairs; bounds -2.944, 2.944; ratios [2.951 -2.950]
}

// Where a win rate measured at five settings, 500 games each, meets 30 %,
// by intervals simultaneous over the five: between the settings 3 and 4,
// whose intervals lie on either side of it.
func ExampleFindCrossing() {
	var points []stats.CurvePoint
	for x, wins := range []int64{60, 90, 120, 200, 240} {
		points = append(points, stats.CurvePoint{X: float64(x + 1), Estimate: float64(wins) / 500,
			CI: stats.Wilson(wins, 500, stats.BonferroniLevel(0.05, 5))})
	}
	for _, r := range stats.FindCrossing(points, 0.3).Regions {
		fmt.Printf("%d settings hold it; nearest below %g, above %g\n", len(r.In), points[r.Below].X, points[r.Above].X)
	}
	// Output: 0 settings hold it; nearest below 3, above 4
}

// A median from a histogram of margins, bins from −2 to +2.
func ExampleHistQuantile() {
	hist := []int64{1, 3, 2, 3, 1}
	fmt.Println(stats.HistQuantile(hist, 0.5) - 2)
	// Output: 0
}

// Is a rule change within ±2 points of score? Of 1000 paired games, 31
// differ: 23 B's way, 8 A's. The score interval at 95 % excludes 0 (B is
// easier) but reaches past +2 points, so whether the change is within
// ±2 points cannot be told yet; of 4000 games with the same shares it
// lies inside ±2 (each one-sided test at 2.5 %: Schuirmann's two).
func ExamplePentanomial_ScoreInterval() {
	for _, pairs := range []stats.Pentanomial{{3, 5, 969, 9, 14}, {12, 20, 3876, 36, 56}} { // B − A = −1, −½, 0, +½, +1
		m := pairs.Moments()
		ci := pairs.ScoreInterval(0.05)
		fmt.Printf("%d games: %+.2f points [%+.2f, %+.2f]: %v ±2 points; excludes 0: %v\n",
			m.N, 100*m.Mean()/2, 100*ci.Lo, 100*ci.Hi, ci.Against(-0.02, 0.02), ci.Excludes(0))
	}
	// Output:
	// 1000 games: +1.30 points [+0.45, +2.33]: straddles ±2 points; excludes 0: true
	// 4000 games: +1.30 points [+0.88, +1.77]: inside ±2 points; excludes 0: true
}

// Four deals played by two players (a win 2, a draw 1, a loss 0 in
// halves): the deal explains most of a game's score, since both players
// win the same deals.
func ExampleTwoWay_RowShare() {
	var t stats.TwoWay
	for _, row := range [][]int64{{2, 2}, {0, 0}, {2, 1}, {0, 0}, {2, 2}, {0, 1}} {
		t.AddRow(row)
	}
	share, ci := t.RowShare(0.05)
	fmt.Printf("%.2f [%.2f, %.2f]\n", share, ci.Lo, ci.Hi)
	// Output: 0.80 [0.11, 0.97]
}

// Five wins in twelve games: the maximum-likelihood win chance and its
// likelihood-ratio 95 % interval, from the log-likelihood on a grid.
func ExampleLikelihoodInterval() {
	xs := make([]float64, 1001)
	ll := make([]float64, len(xs))
	for i := range xs {
		xs[i] = float64(i) / 1000
		ll[i] = stats.BinomialLogLik(5, 12, xs[i])
	}
	fit, _ := stats.LikelihoodInterval(xs, ll, 0.05)
	fmt.Printf("%.3f [%.3f, %.3f]\n", fit.X, fit.CI.Lo, fit.CI.Hi)
	// Output: 0.417 [0.175, 0.691]
}

// Sums read from a file are checked before a variance is taken from
// them: 50 paired differences of at most 100 votes cannot sum to −2000
// with squares summing to 100 (the variance would be negative).
func ExampleMoments_Possible() {
	read := stats.Moments{N: 50, Sum: -2000, SumSq: 100}
	fmt.Println(read.Possible(100))
	read.SumSq = 80000 // every difference −40
	fmt.Println(read.Possible(100))
	// Output:
	// false
	// true
}
