package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// marginCase is a distribution of paired margin differences B − A (votes)
// with no difference (null, mean 0) and with a true difference of delta
// (alt, mean delta).
type marginCase struct {
	name      string
	delta     float64
	null, alt func(rng *rand.Rand) int64
	// guarded: the test is meant to hold its rates on it; the others are
	// logged to show where it does not.
	guarded bool
}

func marginCases(t testing.TB) []marginCase {
	round := func(x float64) int64 { return int64(math.Round(x)) }
	// t3 scaled to a standard deviation of 3.2 votes, like the game's.
	t3 := func(rng *rand.Rand) float64 {
		var chi float64
		for range 3 {
			x := rng.NormFloat64()
			chi += x * x
		}
		return 3.2 / math.Sqrt(3) * rng.NormFloat64() / math.Sqrt(chi/3)
	}
	// rare: noise of standard deviation sd, and a jump of size votes on a
	// share of the seeds; with both signs (half each) the mean is 0,
	// upward only it is share·size.
	rare := func(sd, share float64, size int64, bothSigns bool) func(*rand.Rand) int64 {
		return func(rng *rand.Rand) int64 {
			x := round(sd * rng.NormFloat64())
			u := rng.Float64()
			switch {
			case bothSigns && u < share/2:
				x += size
			case bothSigns && u < share:
				x -= size
			case !bothSigns && u < share:
				x += size
			}
			return x
		}
	}
	div3 := loadGamePairs(t, "div3")
	game := func(sign bool) func(*rand.Rand) int64 {
		return func(rng *rand.Rand) int64 {
			ma, mb := div3.draw(rng)
			if sign && rng.IntN(2) == 0 {
				return int64(ma - mb)
			}
			return int64(mb - ma)
		}
	}
	return []marginCase{
		{"normal, sd 3.2", 1,
			func(rng *rand.Rand) int64 { return round(3.2 * rng.NormFloat64()) },
			func(rng *rand.Rand) int64 { return round(1 + 3.2*rng.NormFloat64()) }, true},
		{"t3, sd 3.2", 1,
			func(rng *rand.Rand) int64 { return round(t3(rng)) },
			func(rng *rand.Rand) int64 { return round(1 + t3(rng)) }, true},
		{"5% of seeds ±20, sd 3", 1, rare(3, 0.05, 20, true), rare(3, 0.05, 20, false), true},
		{"5% of seeds ±20, sd 0", 1, rare(0, 0.05, 20, true), rare(0, 0.05, 20, false), true},
		{"5% of seeds ±20, sd 1", 1, rare(1, 0.05, 20, true), rare(1, 0.05, 20, false), true},
		// The game's pairs: its own mean (+1.19 votes) as delta, and with
		// random signs for no difference.
		{"game div3", div3.meanDiff(), game(true), game(false), true},
		// Rarer still: what the minimum of pairs does not guard against.
		{"1% of seeds ±100, sd 1", 1, rare(1, 0.01, 100, true), rare(1, 0.01, 100, false), false},
	}
}

// TestMarginSequentialErrorRates measures the margin test's error rates
// (--sprt-on margin, δ = 1 vote or the game's mean, α = β = 0.05) by
// simulation: normal differences, heavy-tailed ones (Student's t with 3
// degrees of freedom), a change carried by a few seeds (5 % of seeds +20
// votes, the mean δ), and the game's own paired margins. As for the
// score, "wrong" is "easier" or "harder" with no difference (nominal
// 2α) and anything but "easier" with a difference of δ (nominal β), and
// the tolerance is the nominal rate plus 0.02 plus 3 standard errors.
// Before minMarginPairs was raised from 30 to 200 the rare-change case
// answered "within" in 27 % of runs. The rates are logged (go
// test -tags calibration -v -run MarginSequential ./sim), with the cases
// beyond the guard.
func TestMarginSequentialErrorRates(t *testing.T) {
	calibrationStudy(t)
	runs := 1000
	if testing.Short() {
		runs = 150
	}
	const alpha, beta = 0.05, 0.05
	rng := rand.New(rand.NewPCG(23, 3))
	for _, mc := range marginCases(t) {
		test := &Sequential{On: OnMargin, Delta: mc.delta, Alpha: alpha, Beta: beta}
		for _, alt := range []bool{false, true} {
			draw, nominal := mc.null, 2*alpha
			if alt {
				draw, nominal = mc.alt, beta
			}
			wrong := 0
			var pairs int64
			for range runs {
				var p PairCounts
				st := test.Start()
				d := Undecided
				for d == Undecided && p.Games < 1_000_000 {
					x := draw(rng)
					p.Games++
					p.MarginDiffSum += x
					p.MarginDiffSumSq += x * x
					d = st.Update(&p)
				}
				pairs += p.Games
				if !alt && (d == Easier || d == Harder) || alt && d != Easier {
					wrong++
				}
			}
			rate := float64(wrong) / float64(runs)
			se := math.Sqrt(nominal * (1 - nominal) / float64(runs))
			t.Logf("%-22s true difference %+.2f: wrong %.3f (nominal %.2f) in %d runs, mean %d pairs",
				mc.name, map[bool]float64{false: 0, true: mc.delta}[alt], rate, nominal, runs, pairs/int64(runs))
			if mc.guarded && rate > nominal+0.02+3*se {
				t.Errorf("%s, alternative %v: error rate %.3f above %.2f", mc.name, alt, rate, nominal)
			}
		}
	}
}
