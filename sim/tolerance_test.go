package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"tallywood/sim/stats"
)

// The calibration studies of the words that mean "within the designer's
// tolerance": tune's "reached", sweep's "meets", compare's fixed-size
// "within" and sensitivity's "negligible". Each is simulated on the games
// of real tables (testdata/pairs-*.txt, testdata/sensitivity-changes.txt)
// moved so that the truth is where the study needs it: at the
// tolerance's edge, where the word must be false at most at its stated
// rate, and inside, where it must get likelier with more games. Their
// seeds are the project's 14000–14999 (PCG streams 14010–14019). The
// rates are logged (go test -tags calibration -v -run Calibration ./sim)
// and docs/balance.md reports them.

// winGames plays n games of a side of the real table g whose win rate is
// moved to w: a game is a real one (its side at random), and then a loss
// becomes a win, or a win a loss, at random, so that the chance of a win
// is w and draws stay as real. It returns the wins.
func winGames(rng *rand.Rand, g *gamePairs, w0, draws, w float64, n int64) int64 {
	var wins int64
	for range n {
		ma, mb := g.draw(rng)
		if rng.IntN(2) == 0 {
			ma = mb
		}
		o := outcomeOf(ma)
		switch {
		case w > w0 && o == outLoss && rng.Float64() < (w-w0)/(1-w0-draws):
			o = outWin
		case w < w0 && o == outWin && rng.Float64() < (w0-w)/w0:
			o = outLoss
		}
		if o == outWin {
			wins++
		}
	}
	return wins
}

// tableRates are the win and draw rates of a side of g.
func tableRates(g *gamePairs) (w, d float64) {
	var prev int64
	for i, c := range g.cum {
		k := float64(c - prev)
		prev = c
		for _, m := range []int16{g.ma[i], g.mb[i]} {
			switch outcomeOf(int(m)) {
			case outWin:
				w += k
			case outDraw:
				d += k
			}
		}
	}
	total := 2 * float64(g.cum[len(g.cum)-1])
	return w / total, d / total
}

// targetWithin is how often every one of k targets (all true at truth)
// reads within target ± DefaultTolerance after n games each, over reps,
// and how often any does: tune's rule (the confirmation's interval
// simultaneous over the targets), or sweep's when sweep is set (every
// value's interval simultaneous over the values).
func targetWithin(rng *rand.Rand, g *gamePairs, k int, truth, target float64, n int64, reps int, sweep bool) (all, any float64) {
	w0, draws := tableRates(g)
	var nAll, nAny int
	for range reps {
		within := 0
		if sweep {
			points := make([]SweepPointResult, k)
			for i := range points {
				points[i].Values = []string{fmt.Sprint(i + 1)}
				points[i].Result.Games = n
				points[i].Result.Wins = winGames(rng, g, w0, draws, truth, n)
			}
			alpha := simultaneous(points)
			for _, p := range points {
				ci := stats.Interval{Lo: p.WinCISimultaneous[0], Hi: p.WinCISimultaneous[1]}
				if a, _ := targetAnswer(ci, p.Result.Wins, n, alpha, target, DefaultTolerance); a == TargetWithin {
					within++
				}
			}
		} else {
			alpha := stats.BonferroniLevel(0.05, k)
			for range k {
				wins := winGames(rng, g, w0, draws, truth, n)
				if a, _ := targetAnswer(stats.ClopperPearson(wins, n, alpha), wins, n, alpha, target, DefaultTolerance); a == TargetWithin {
					within++
				}
			}
		}
		if within == k {
			nAll++
		}
		if within > 0 {
			nAny++
		}
	}
	return float64(nAll) / float64(reps), float64(nAny) / float64(reps)
}

// TestTargetWordsCalibration: tune's "reached" and sweep's "meets" are
// false at most at the stated rate when the truth is at the tolerance's
// edge, and likelier with more games when it is inside. The games are
// greedy's on Normal and on Hard (pairs-normalhard, either side at
// random), their win rate moved to a 25 % target ± 2 points. At the edge
// (27 % and 23 %), with 1, 2 or 3 targets or values all there, the chance
// that any reads within must be at most the stated 5 % plus 3 standard
// errors (each edge's one-sided test is at most 2.5 %, the interval being
// exact): the audit found 69 % at 1,000 games. Inside
// (the target itself, and 1 point off), the chance that all read within
// must grow with the games, 1,000 → 4,000 → 16,000, to at least 90 % at
// 16,000 on the target. 1,000 runs each (300 with -short).
func TestTargetWordsCalibration(t *testing.T) {
	calibrationStudy(t)
	reps := 1000
	if testing.Short() {
		reps = 300
	}
	g := loadGamePairs(t, "normalhard")
	rng := rand.New(rand.NewPCG(14010, 1))
	const target = 0.25
	tol := DefaultTolerance
	for _, word := range []struct {
		name  string
		sweep bool
	}{{"tune reached", false}, {"sweep meets", true}} {
		for _, k := range []int{1, 2, 3} {
			for _, edge := range []float64{target + tol, target - tol} {
				for _, n := range []int64{1000, 5000} {
					_, any := targetWithin(rng, g, k, edge, target, n, reps, word.sweep)
					limit := 0.05 + 3*math.Sqrt(0.05*0.95/float64(reps))
					t.Logf("%s, %d at %.0f%% (edge), %d games: any within %.4f of %d runs", word.name, k, 100*edge, n, any, reps)
					if any > limit {
						t.Errorf("%s, %d at the edge %.2f, %d games: within in %.4f of runs, above %.4f", word.name, k, edge, n, any, limit)
					}
				}
			}
			for _, truth := range []float64{target, target + tol/2} {
				prev := -1.0
				for _, n := range []int64{1000, 4000, 16000} {
					all, _ := targetWithin(rng, g, k, truth, target, n, reps, word.sweep)
					t.Logf("%s, %d at %.0f%% (inside), %d games: all within %.4f of %d runs", word.name, k, 100*truth, n, all, reps)
					if all < prev {
						t.Errorf("%s, %d at %.3f: within in %.4f of runs at %d games, %.4f with fewer", word.name, k, truth, all, n, prev)
					}
					prev = all
				}
				if truth == target && prev < 0.9 {
					t.Errorf("%s, %d on the target: within in %.4f of runs at 16,000 games, want 0.9 or more", word.name, k, prev)
				}
			}
		}
	}
}

// TestSmallTargetCalibration: sweep's "meets" and tune's "reached" hold
// their 5 % at small targets and few games, where Wilson's interval did
// not (issue 42: a 2.2 % target met at its edge in 9.0 % of runs of 250
// games, 2.5 % in 6.4 % of 300, 3 % in 4.9 % of 400). For targets of 1 to
// 50 % and 100 to 50,000 games, 1 or 3 targets (tune) or swept values
// (sweep) all at the same edge of target ± 2 points (the lower edge only
// where it is above 0), the wins drawn binomially: the chance that any
// reads within must be at most 5 %. The exact interval promises at most
// 2.5 % (one edge), so with 1,000 runs (300 with -short) a rate above 5 %
// is a broken promise, not chance. Seeds: PCG stream 14012.
func TestSmallTargetCalibration(t *testing.T) {
	calibrationStudy(t)
	reps := 1000
	if testing.Short() {
		reps = 300
	}
	rng := rand.New(rand.NewPCG(14012, 1))
	tol := DefaultTolerance
	worst := 0.0
	for _, target := range []float64{0.01, 0.022, 0.025, 0.03, 0.05, 0.1, 0.25, 0.5} {
		for _, n := range []int64{100, 250, 300, 400, 1000, 5000, 50000} {
			for _, edge := range []float64{target - tol, target + tol} {
				if edge <= 0 {
					continue
				}
				draw := distuv.Binomial{N: float64(n), P: edge, Src: rng}
				for _, k := range []int{1, 3} {
					for _, sweep := range []bool{false, true} {
						any := 0
						for range reps {
							points := make([]SweepPointResult, k)
							for i := range points {
								points[i].Values = []string{fmt.Sprint(i + 1)}
								points[i].Result.Games = n
								points[i].Result.Wins = int64(draw.Rand())
							}
							within := false
							if sweep {
								alpha := simultaneous(points)
								for _, p := range points {
									ci := stats.Interval{Lo: p.WinCISimultaneous[0], Hi: p.WinCISimultaneous[1]}
									if a, _ := targetAnswer(ci, p.Result.Wins, n, alpha, target, tol); a == TargetWithin {
										within = true
									}
								}
							} else {
								// tune's rule (TuneResult.derive).
								alpha := stats.BonferroniLevel(0.05, k)
								for _, p := range points {
									wins := p.Result.Wins
									if a, _ := targetAnswer(stats.ClopperPearson(wins, n, alpha), wins, n, alpha, target, tol); a == TargetWithin {
										within = true
									}
								}
							}
							if within {
								any++
							}
						}
						rate := float64(any) / float64(reps)
						worst = max(worst, rate)
						name := map[bool]string{false: "tune reached", true: "sweep meets"}[sweep]
						if rate > 0.05 {
							t.Errorf("%s, %d at the edge %.1f%% of a %.1f%% target, %d games: within in %.4f of %d runs, above 0.05", name, k, 100*edge, 100*target, n, rate, reps)
						}
						if k == 1 && !sweep {
							t.Logf("target %.1f%%, edge %.1f%%, %d games: one target reached in %.4f of %d runs", 100*target, 100*edge, n, rate, reps)
						}
					}
				}
			}
		}
	}
	t.Logf("small targets: the most often any read within at an edge, over every case: %.4f of %d runs", worst, reps)
}

// tilted is a real change made to differ by mean mu exactly: its shares
// made symmetric (mean 0, the spread and the share of seeds that differ
// kept), then a share mu/2 of the seeds lost by one point moved to won by
// one (or, with too few of those, mu of the seeds that do not differ).
func tilted(c plantedChange, mu float64) plantedChange {
	p := c.p
	p[0], p[4] = (p[0]+p[4])/2, (p[0]+p[4])/2
	p[1], p[3] = (p[1]+p[3])/2, (p[1]+p[3])/2
	from, to, x := 0, 4, math.Abs(mu)/2
	if p[0] < x {
		from, x = 2, math.Abs(mu)
	}
	if mu < 0 {
		to = 0
		if from == 0 {
			from = 4
		}
	}
	p[from] -= x
	p[to] += x
	return plantedChange{c.path, p}
}

// shiftedPairs plays n pairs of the real table g made exchangeable (no
// difference), then moved by mu in score: a share |mu| of the pairs is
// replaced by a real pair with one side won and the other lost, the
// change's side the winner when mu > 0.
func shiftedPairs(rng *rand.Rand, g *gamePairs, mu float64, n int) PairCounts {
	var p PairCounts
	for range n {
		ma, mb := g.draw(rng)
		if rng.IntN(2) == 0 {
			ma, mb = mb, ma
		}
		if rng.Float64() < math.Abs(mu) {
			for outcomeOf(ma) == outcomeOf(mb) || outcomeOf(ma) == outDraw || outcomeOf(mb) == outDraw {
				ma, mb = g.draw(rng)
			}
			if (mb > ma) != (mu > 0) {
				ma, mb = mb, ma
			}
		}
		addPair(&p, outcomeOf(ma), outcomeOf(mb), mb-ma)
	}
	return p
}

// TestCompareWithinCalibration: compare's fixed-size "within" is false at
// most at its stated rate when every cell's true score difference is at
// the tolerance's edge (±2 points), and likelier with more pairs when it
// is 0. The pairs are real (the three tables of testdata, exchangeable),
// moved to the edge by real pairs of a win and a loss. At the edge, with
// 1, 2 or 4 cells, the chance that any cell reads within must be at most
// 2.5 % plus 3 standard errors (the rule's two one-sided tests at 5 % over
// the family); with no difference, the chance that every cell reads
// within must grow with the pairs, 1,000 → 4,000 → 16,000. 1,000 runs
// (300 with -short).
func TestCompareWithinCalibration(t *testing.T) {
	calibrationStudy(t)
	reps := 1000
	if testing.Short() {
		reps = 300
	}
	rng := rand.New(rand.NewPCG(14011, 1))
	tol := DefaultTolerance
	for _, name := range []string{"div3", "normalhard", "builder"} {
		g := loadGamePairs(t, name)
		for _, cells := range []int{1, 2, 4} {
			for _, n := range []int{1000, 5000} {
				for _, edge := range []float64{tol, -tol} {
					any := 0
					for range reps {
						pairs := make([]PairCounts, cells)
						for i := range pairs {
							pairs[i] = shiftedPairs(rng, g, edge, n)
						}
						for _, c := range FixedVerdicts(pairs, VerdictLevel, tol).Cells {
							if c.Verdict == InZone {
								any++
								break
							}
						}
					}
					rate := float64(any) / float64(reps)
					limit := 0.025 + 3*math.Sqrt(0.025*0.975/float64(reps))
					t.Logf("compare within, %s, %d cells at %+.0f points (edge), %d pairs: any within %.4f of %d runs", name, cells, 100*edge, n, rate, reps)
					if rate > limit {
						t.Errorf("%s, %d cells at %+.2f, %d pairs: within in %.4f of runs, above %.4f", name, cells, edge, n, rate, limit)
					}
				}
			}
			prev := -1.0
			for _, n := range []int{1000, 4000, 16000} {
				all := 0
				for range reps / 4 {
					pairs := make([]PairCounts, cells)
					for i := range pairs {
						pairs[i] = shiftedPairs(rng, g, 0, n)
					}
					k := 0
					for _, c := range FixedVerdicts(pairs, VerdictLevel, tol).Cells {
						if c.Verdict == InZone {
							k++
						}
					}
					if k == cells {
						all++
					}
				}
				rate := float64(all) / float64(reps/4)
				t.Logf("compare within, %s, %d cells at 0 (inside), %d pairs: all within %.4f of %d runs", name, cells, n, rate, reps/4)
				if rate < prev {
					t.Errorf("%s, %d cells with no difference: within in %.4f of runs at %d pairs, %.4f with fewer", name, cells, rate, n, prev)
				}
				prev = rate
			}
		}
	}
}

// scanWords races a cell of the changes cs, a budget of perChange games a
// change, on master seed seed (and seed+1 for the confirmation), a group
// differing from the base on at most differs of the seeds, and returns
// each change's verdict.
func scanWords(t *testing.T, cs []plantedChange, differs divergence, perChange int64, seed uint64) []Verdict {
	r := plantedRace(t, [][]plantedChange{cs}, differs, perChange, seed)
	out := make([]Verdict, len(cs))
	for j, ch := range r.Cells[0].Changes {
		out[j] = ch.Verdict
	}
	return out
}

// skilledGroupDiffers is groupDiffers for the skilled player on Normal:
// the share of seeds on which two unrelated deals differ, 1 − Σ p², from
// its base in testdata/sensitivity-changes.txt (1028 won, 88 drawn, 884
// lost of 2000). For casual that bound is 37 %, 2 points above what its
// screen measured (groupDiffers), so it errs on the noisy side.
const skilledGroupDiffers = 0.54

// plantedScans races runs scans of the real changes scanned made inert
// but for five planted at each of sizes (alternately easier and harder),
// the default budget, from master seed seed, and reports how often a
// planted change of each size was found (easier or harder, the right way)
// and the share of scans that called any planted change negligible.
func plantedScans(t *testing.T, scanned []plantedChange, differs divergence, sizes []float64, runs int, seed uint64) (found map[float64]float64, negligible float64) {
	planted := make([]plantedChange, len(scanned))
	for j, c := range scanned {
		planted[j] = tilted(c, 0)
	}
	truth := map[int]float64{}
	stride := len(scanned) / (5 * len(sizes))
	for i := range 5 * len(sizes) {
		mu := sizes[i/5]
		if i%2 == 1 {
			mu = -mu
		}
		j := 7 + stride*i
		planted[j], truth[j] = tilted(scanned[j], mu), mu
	}
	hits := map[float64]int{}
	wrong := 0
	for range runs {
		vs := scanWords(t, planted, differs, 2000, seed)
		seed += 2
		called := false
		for j, mu := range truth {
			switch {
			case vs[j] == ScoreEasier && mu > 0, vs[j] == ScoreHarder && mu < 0:
				hits[math.Abs(mu)]++
			case vs[j] == InZone:
				called = true
			}
		}
		if called {
			wrong++
		}
	}
	found = map[float64]float64{}
	for size, n := range hits {
		found[size] = float64(n) / float64(5*runs)
	}
	return found, float64(wrong) / float64(runs)
}

// TestNegligibleCalibration: sensitivity's "negligible" is false at most
// at its stated rate when changes are at the tolerance's edge, and
// likelier with more games when they are inside; and the default scan's
// planted cases. The changes are the 215 of a real casual scan of Normal
// (testdata/sensitivity-changes.txt: their shares of seeds that differ),
// each moved to a known difference (tilted):
//
//   - at the edge: every change at +2 or −2 points (alternately): the
//     chance that any is called negligible must be at most 5 % plus 3
//     standard errors (200 scans, 60 with -short);
//   - inside: every change at 0: the share called negligible must grow
//     with the games a change, 500 → 2,000 → 8,000;
//   - planted: the scan's own changes at 0 but for five at ±2 and five
//     at ±3 points: how often each planted change is found (easier or
//     harder, the right way: at least 80 % and 90 % of chances, where
//     tallywood-sensitivity/2's race found 53 % and 84 %), and that a scan
//     calls any of them negligible at most at the stated rate (5 % plus 3
//     standard errors: the 2-point ones are at the edge); and the same
//     with the skilled player's 215 changes, five at ±3 and five at ±4
//     (a 3-point change found in at least 75 % of chances).
func TestNegligibleCalibration(t *testing.T) {
	calibrationStudy(t)
	reps := 200
	if testing.Short() {
		reps = 60
	}
	scanned := loadRealChanges(t)["normal"]
	tol := DefaultTolerance
	edge := make([]plantedChange, len(scanned))
	inside := make([]plantedChange, len(scanned))
	for j, c := range scanned {
		mu := tol
		if j%2 == 1 {
			mu = -tol
		}
		edge[j], inside[j] = tilted(c, mu), tilted(c, 0)
	}
	seed := uint64(14100)
	wrong := 0
	for range reps {
		for _, v := range scanWords(t, edge, sameDivergence(groupDiffers), 2000, seed) {
			if v == InZone {
				wrong++
				break
			}
		}
		seed += 2
	}
	rate := float64(wrong) / float64(reps)
	limit := SensitivityLevel + 3*math.Sqrt(SensitivityLevel*(1-SensitivityLevel)/float64(reps))
	t.Logf("negligible, %d changes at ±2 points (edge), 2000 games a change: any negligible in %.4f of %d scans", len(edge), rate, reps)
	if rate > limit {
		t.Errorf("changes at the edge called negligible in %.4f of scans, above %.4f", rate, limit)
	}
	prev := -1.0
	for _, n := range []int64{500, 2000, 8000} {
		called := 0
		runs := max(reps/10, 5)
		for range runs {
			for _, v := range scanWords(t, inside, sameDivergence(groupDiffers), n, seed) {
				if v == InZone {
					called++
				}
			}
			seed += 2
		}
		share := float64(called) / float64(runs*len(inside))
		t.Logf("negligible, %d changes at 0 (inside), %d games a change: %.4f called negligible (%d scans)", len(inside), n, share, runs)
		if share < prev {
			t.Errorf("changes at 0 called negligible: %.4f at %d games a change, %.4f with fewer", share, n, prev)
		}
		prev = share
	}
	runs := max(reps/4, 10)
	found, rate := plantedScans(t, scanned, sameDivergence(groupDiffers), []float64{0.02, 0.03}, runs, seed)
	for _, size := range []float64{0.02, 0.03} {
		t.Logf("planted, casual: a change of %.0f points among %d at 0 found in %.4f of %d (2000 games a change)", 100*size, len(scanned), found[size], 5*runs)
	}
	limit = SensitivityLevel + 3*math.Sqrt(SensitivityLevel*(1-SensitivityLevel)/float64(runs))
	t.Logf("planted, casual: any planted change called negligible in %.4f of %d scans", rate, runs)
	if rate > limit {
		t.Errorf("casual: a planted change of 2 or 3 points called negligible in %.4f of %d scans, above %.4f", rate, runs, limit)
	}
	if found[0.02] < 0.8 || found[0.03] < 0.9 {
		t.Errorf("casual: planted changes of 2 and 3 points found in %.4f and %.4f of chances, below 0.8 and 0.9", found[0.02], found[0.03])
	}
	skilled := loadRealChanges(t)["skilled-normal"]
	found, rate = plantedScans(t, skilled, sameDivergence(skilledGroupDiffers), []float64{0.03, 0.04}, runs, seed+1000)
	for _, size := range []float64{0.03, 0.04} {
		t.Logf("planted, skilled: a change of %.0f points among %d at 0 found in %.4f of %d (2000 games a change)", 100*size, len(skilled), found[size], 5*runs)
	}
	t.Logf("planted, skilled: any planted change called negligible in %.4f of %d scans", rate, runs)
	if rate > limit {
		t.Errorf("skilled: a planted change of 3 or 4 points called negligible in %.4f of %d scans, above %.4f", rate, runs, limit)
	}
	if found[0.03] < 0.75 {
		t.Errorf("skilled: a planted change of 3 points found in %.4f of chances, below 0.75", found[0.03])
	}
}

// TestScanOnRealSizes: the default scan where the changes are as large as
// a real scan measured them, many of them effects, not a few planted
// among inert ones: a budget that cannot confirm every likely effect.
// Each cell of testdata/sensitivity-changes.txt (casual on Normal and on
// Hard, skilled on Normal) is raced as measured (each change's truth is
// its measured shares), ten scans each (four with -short). No scan may
// call a change easier or harder against its truth, or negligible when
// it is beyond the tolerance, more often than the stated 5 % plus 3
// standard errors; the share found of each size is logged (docs/balance.md
// prints it).
func TestScanOnRealSizes(t *testing.T) {
	calibrationStudy(t)
	runs := 10
	if testing.Short() {
		runs = 4
	}
	bins := []float64{0.01, 0.02, 0.03, 0.05, 1}
	for mode, differs := range map[string]float64{"normal": groupDiffers, "hard": groupDiffers, "skilled-normal": skilledGroupDiffers} {
		changes := loadRealChanges(t)[mode]
		n := make([]int, len(bins)-1)
		found := make([]int, len(bins)-1)
		wrong := 0
		seed := uint64(14500)
		for range runs {
			vs := scanWords(t, changes, sameDivergence(differs), 2000, seed)
			seed += 2
			bad := false
			for j, c := range changes {
				mu := c.mean()
				right := vs[j] == ScoreEasier && mu > 0 || vs[j] == ScoreHarder && mu < 0
				if vs[j] == ScoreEasier && mu <= 0 || vs[j] == ScoreHarder && mu >= 0 || vs[j] == InZone && math.Abs(mu) > DefaultTolerance {
					bad = true
				}
				for b := range n {
					if math.Abs(mu) >= bins[b] && math.Abs(mu) < bins[b+1] {
						n[b]++
						if right {
							found[b]++
						}
					}
				}
			}
			if bad {
				wrong++
			}
		}
		for b := range n {
			t.Logf("%s: changes of %.0f–%.0f points: %d a scan, %.2f found", mode, 100*bins[b], 100*bins[b+1], n[b]/runs, float64(found[b])/float64(max(1, n[b])))
		}
		limit := SensitivityLevel + 3*math.Sqrt(SensitivityLevel*(1-SensitivityLevel)/float64(runs))
		if rate := float64(wrong) / float64(runs); rate > limit {
			t.Errorf("%s: %d of %d scans made a claim against the truth, above %.4f", mode, wrong, runs, limit)
		}
	}
}

// TestScanUnderMeasuredSpread: the default scan's planted cases of
// TestNegligibleCalibration (casual, Normal: five changes at ±2 and five
// at ±3 points among the 215 real ones at 0) under the spread of groups
// the real scan measured (measuredDivergence: groups of sixteen differ on
// 35 % of seeds on average, 10 % of them on 56 % or more), where
// TestNegligibleCalibration's groups all differ on 35 %. Noisier groups
// make a noisier screen: how often each planted change is found is
// logged with its interval (docs/balance.md states these rates), and a
// scan must still call a planted change negligible at most at the stated
// rate (5 % plus 3 standard errors). 100 scans (40 with -short), master
// seeds 14700 on.
func TestScanUnderMeasuredSpread(t *testing.T) {
	calibrationStudy(t)
	runs := 100
	if testing.Short() {
		runs = 40
	}
	found, rate := plantedScans(t, loadRealChanges(t)["normal"], measuredDivergence, []float64{0.02, 0.03}, runs, 14700)
	for _, size := range []float64{0.02, 0.03} {
		n := int64(5 * runs)
		ci := stats.Wilson(int64(math.Round(found[size]*float64(n))), n, 0.05)
		t.Logf("planted under the measured spread, casual: a change of %.0f points among 215 at 0 found in %.4f [%.4f, %.4f] of %d (2000 games a change)", 100*size, found[size], ci.Lo, ci.Hi, n)
	}
	limit := SensitivityLevel + 3*math.Sqrt(SensitivityLevel*(1-SensitivityLevel)/float64(runs))
	t.Logf("planted under the measured spread, casual: any planted change called negligible in %.4f of %d scans", rate, runs)
	if rate > limit {
		t.Errorf("a planted change of 2 or 3 points called negligible in %.4f of %d scans, above %.4f", rate, runs, limit)
	}
}
