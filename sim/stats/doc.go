// Package stats holds the statistics of tallywood's studies, on their own
// like gonum/stat: nothing in it knows of games, rules or results. Every
// figure a study derives from its counts is computed here; the kinds in
// package sim keep the counts (integer sums, so that they merge exactly)
// and call these functions on them.
//
//   - Intervals: Wilson's for a proportion; Student's t for a mean
//     (Moments.MeanInterval); Welch's for a difference of two means; the
//     score interval of the mean of paired differences on {−1, −½, 0, ½,
//     1} (Pentanomial.ScoreInterval, Wilson's for them).
//   - Tests: the t-test of a zero mean (Moments.TTest), Welch's test, the
//     score test of paired differences (Pentanomial.ScoreTest),
//     Schuirmann's two one-sided tests of equivalence (Moments.TOST, or
//     an interval against a tolerance: Interval.Against, with three
//     answers: inside, outside, straddles), the games an answer would
//     take (SampleSize), and the adjustments of a family of tests, Holm's
//     and Bonferroni's (MeanTests tests a family with simultaneous
//     intervals).
//   - Effects measured only in groups (a group screening design):
//     GroupEffects, by least squares.
//   - Moments: the count, sum and sum of squares of integer values,
//     mergeable by addition; Moments.Possible tells sums that no values
//     of a bounded size can have (sums read from a file).
//   - Sequential tests: Wald's SPRT and the three-outcome test of Sobel and
//     Wald (Sequential), with the log-likelihood ratios of a normal mean
//     (NormalLLR) and of the mean of a five-point distribution
//     (Pentanomial), as chess engines test paired games.
//   - Where a measured curve meets a target (FindCrossing), and the
//     quantiles of a histogram (HistQuantile).
//
// Every level is a two-sided error rate alpha: an interval at alpha = 0.05
// is a 95 % interval. A sketch, the paired differences of ten seeds:
//
//	var m stats.Moments
//	for _, d := range diffs {
//		m.Add(d)
//	}
//	ci := m.MeanInterval(0.05) // Student's t, 95 %
//	p := m.TTest()             // two-sided, of a zero mean
//	fmt.Println(m.Mean(), ci.Lo, ci.Hi, p)
//
// Example_pairedT runs it on Student's sleep data.
package stats
