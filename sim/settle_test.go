package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"tallywood/sim/stats"
)

// tableShares are the shares of the paired score differences of the real
// table g (planted as Pentanomial counts them), made exchangeable (no
// difference) by tilted.
func tableShares(g *gamePairs) plantedChange {
	var c plantedChange
	var prev int64
	for i, n := range g.cum {
		a, b := outcomeOf(int(g.ma[i])), outcomeOf(int(g.mb[i]))
		// outWin 0, outDraw 1, outLoss 2: the difference in halves is a − b.
		c.p[2+a-b] += float64(n - prev)
		prev = n
	}
	for k := range c.p {
		c.p[k] /= float64(prev)
	}
	return tilted(c, 0)
}

// drawPairs plays n pairs of the change c, drawn at once (multinomially):
// only their score differences (the pentanomial counts) are played.
func drawPairs(rng *rand.Rand, c plantedChange, n int64) PairCounts {
	p := PairCounts{Games: n}
	left, mass := float64(n), 1.0
	for k, q := range c.p {
		m := left
		if k < len(c.p)-1 && mass > 0 && left > 0 {
			m = distuv.Binomial{N: left, P: min(1, q/mass), Src: rng}.Rand()
		}
		p.Cross[crossOf[k][0]][crossOf[k][1]] += int64(m)
		left -= m
		mass -= q
	}
	return p
}

// scoreSettled reports whether the score of the pairs p is settled by a
// comparison of tests hypotheses at VerdictLevel: its interval excludes 0
// or lies within ±tol (FixedVerdicts).
func scoreSettled(p *PairCounts, tests int, tol float64) bool {
	s := stats.Pentanomial(p.Pentanomial()).FamilyTest(VerdictLevel, tests)
	return s.Rejected || s.CI.Against(-tol, tol) == stats.Inside
}

// plugInBand is the old games_to_settle of a win rate est of sd against
// target ± tol: as if est were the truth. The reference the study
// reports the new sizing's rates beside.
func plugInBand(est, sd, alpha, target, tol float64) int64 {
	return int64(min(stats.SampleSize(sd, math.Abs(tol-math.Abs(est-target)), alpha, 1-settlePower), MaxGames))
}

// settleRate logs and checks one case's rate: settled of runs fresh runs
// of games_to_settle settled, which must be settlePower less 3 standard
// errors at least where asserted.
func settleRate(t *testing.T, name string, oldSettled, settled, runs int, asserted bool) {
	t.Helper()
	if runs == 0 {
		t.Logf("%s: no first run unsettled", name)
		return
	}
	ci := stats.Wilson(int64(settled), int64(runs), 0.05)
	oci := stats.Wilson(int64(oldSettled), int64(runs), 0.05)
	rate, old := float64(settled)/float64(runs), float64(oldSettled)/float64(runs)
	t.Logf("%s: %d first runs unsettled; fresh runs of games_to_settle settled %.3f [%.3f, %.3f], of the plug-in's %.3f [%.3f, %.3f]", name, runs, rate, ci.Lo, ci.Hi, old, oci.Lo, oci.Hi)
	if limit := settlePower - 3*math.Sqrt(settlePower*(1-settlePower)/float64(runs)); asserted && rate < limit {
		t.Errorf("%s: fresh runs of games_to_settle settled %.4f of %d, below %.4f", name, rate, runs, limit)
	}
}

// TestSettleCalibration: games_to_settle keeps its promise after a small
// first run: a fresh run of that many games settles the answer in at
// least 80 % of chances, on average over the first runs that left it
// unsettled (issue 42: the plug-in's, which took the first run's estimate
// for the truth, settled 53–66 % after 300 pairs). Each case draws 1,000
// first runs of 300 (pairs or games; 300 runs with -short), sizes
// games_to_settle on each that is unsettled, draws one fresh run of that
// size, and counts how often it settles; the rate must be at least 80 %
// less 3 standard errors of a rate of 80 % over those runs. The plug-in's
// rate on the same first runs is logged beside it.
//
//   - compare and sensitivity (pairsToSettle): the paired score
//     differences of the three real tables of testdata (their spreads:
//     the pairs that differ), each moved to a true difference of 0 to 5
//     points (tilted), read as one cell (2 tests) and as one of four (8);
//     settled: the score interval excludes 0 or lies within ±2 points;
//   - sweep and tune (targetAnswer): a true win rate at a target of 10,
//     30 or 50 %, 1 point inside the band, or 1 to 3 points beyond its
//     edge, the wins drawn binomially, read by the exact interval at
//     95 %; settled: the interval lies within target ± 2 points or wholly
//     beyond. At the edge itself no number of games settles it (the
//     interval holds the edge); 1 point beyond it a first run of 300
//     cannot tell the truth from the edge, and fresh runs settled in
//     73–83 % of chances (the plug-in's: 52–62 %): logged, not asserted.
//
// Seeds: PCG stream 14013.
func TestSettleCalibration(t *testing.T) {
	calibrationStudy(t)
	runs := 1000
	if testing.Short() {
		runs = 300
	}
	const first = 300
	rng := rand.New(rand.NewPCG(14013, 1))
	tol := DefaultTolerance
	for _, name := range []string{"div3", "normalhard", "builder"} {
		base := tableShares(loadGamePairs(t, name))
		for _, mu := range []float64{0, 0.01, 0.02, 0.03, 0.04, 0.05} {
			c := tilted(base, mu)
			for _, tests := range []int{2, 8} {
				alpha := stats.BonferroniLevel(VerdictLevel, tests)
				n, settled, oldSettled := 0, 0, 0
				for range runs {
					p := drawPairs(rng, c, first)
					if scoreSettled(&p, tests, tol) {
						continue
					}
					n++
					fresh := drawPairs(rng, c, pairsToSettle(&p, alpha, tol))
					if scoreSettled(&fresh, tests, tol) {
						settled++
					}
					fresh = drawPairs(rng, c, raceSettle(&p, alpha, tol))
					if scoreSettled(&fresh, tests, tol) {
						oldSettled++
					}
				}
				settleRate(t, fmt.Sprintf("compare, %s, truth %+.0f points, %d tests", name, 100*mu, tests), oldSettled, settled, n, true)
			}
		}
	}
	const alpha = 0.05
	for _, target := range []float64{0.1, 0.3, 0.5} {
		for _, off := range []float64{0, 0.01, 0.03, 0.035, 0.04, 0.05} {
			// 1 point beyond the edge is logged, not asserted: the known
			// limit (see above).
			asserted := off != 0.03
			w := target + off
			n, settled, oldSettled := 0, 0, 0
			draw := func(games int64) int64 {
				return int64(distuv.Binomial{N: float64(games), P: w, Src: rng}.Rand())
			}
			answer := func(wins, games int64) (TargetAnswer, int64) {
				return targetAnswer(stats.ClopperPearson(wins, games, alpha), wins, games, alpha, target, tol)
			}
			for range runs {
				wins := draw(first)
				a, games := answer(wins, first)
				if a != TargetUnsettled {
					continue
				}
				n++
				if a, _ := answer(draw(games), games); a != TargetUnsettled {
					settled++
				}
				est := min(max(ratio(wins, first), 0.5/first), 1-0.5/first)
				old := plugInBand(est, math.Sqrt(est*(1-est)), alpha, target, tol)
				if a, _ := answer(draw(old), old); a != TargetUnsettled {
					oldSettled++
				}
			}
			settleRate(t, fmt.Sprintf("target %.0f%%, truth %.1f%%", 100*target, 100*w), oldSettled, settled, n, asserted)
		}
	}
}
