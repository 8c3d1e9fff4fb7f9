package sim

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

const tol = 5e-5 // published values have four decimals

func TestWilson(t *testing.T) {
	tests := []struct {
		name   string
		k, n   int64
		lo, hi float64
	}{
		// Newcombe 1998 (single proportion), method 3 worked examples.
		{"Newcombe 81/263", 81, 263, 0.2553, 0.3662},
		{"Newcombe 15/148", 15, 148, 0.0624, 0.1605},
		{"0/10", 0, 10, 0, 0.2775},
		{"5/10", 5, 10, 0.2366, 0.7634},
		{"10/10", 10, 10, 0.7225, 1},
		{"no games", 0, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Wilson(tt.k, tt.n)
			if !scalar.EqualWithinAbs(got.Lo, tt.lo, tol) || !scalar.EqualWithinAbs(got.Hi, tt.hi, tol) {
				t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], want [%.4f, %.4f]", tt.k, tt.n, got.Lo, got.Hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestMeanInterval(t *testing.T) {
	tests := []struct {
		name            string
		xs              []int64
		mean, lo, hi    float64
		wantDegenerated bool
	}{
		// 1..10: mean 5.5, s = 3.02765, t(0.975, 9) = 2.262157.
		{name: "1..10", xs: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, mean: 5.5, lo: 3.334149, hi: 7.665851},
		// −3, 5: mean 1, s = 5.656854, t(0.975, 1) = 12.7062.
		{name: "two", xs: []int64{-3, 5}, mean: 1, lo: -49.82482, hi: 51.82482},
		{name: "constant", xs: []int64{4, 4, 4}, mean: 4, lo: 4, hi: 4},
		{name: "one", xs: []int64{7}, mean: 7, lo: 7, hi: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sum, sq int64
			for _, x := range tt.xs {
				sum += x
				sq += x * x
			}
			mean, ci := MeanInterval(int64(len(tt.xs)), sum, sq)
			if !scalar.EqualWithinAbs(mean, tt.mean, 1e-9) || !scalar.EqualWithinAbs(ci.Lo, tt.lo, 1e-4) || !scalar.EqualWithinAbs(ci.Hi, tt.hi, 1e-4) {
				t.Errorf("got %.6f [%.6f, %.6f], want %.6f [%.6f, %.6f]", mean, ci.Lo, ci.Hi, tt.mean, tt.lo, tt.hi)
			}
		})
	}
}

func TestNewcombe(t *testing.T) {
	// Tables in Newcombe's notation: a both, b first only, c second only,
	// d neither; the difference is first − second. Paired puts arm B
	// first, so a table (a, b, c, d) is Paired{Both: a, BOnly: b, AOnly: c, Neither: d}.
	tests := []struct {
		name         string
		a, b, c, d   int64
		diff, lo, hi float64
	}{
		// Newcombe 1998 (paired), Table II example (a), method 10.
		{"Newcombe 36/12/2/0", 36, 12, 2, 0, 0.2, 0.0569, 0.3404},
		// Fagerland, Lydersen & Laake (2017) §8, Cavo et al. 2012 data:
		// estimate −0.0621, 95% CI −0.1186 to −0.0046.
		{"Cavo 59/6/16/80", 59, 6, 16, 80, -0.0621, -0.1186, -0.0046},
		// Bentur et al. 2009 (same chapter): 1/1/7/12.
		{"Bentur 1/1/7/12", 1, 1, 7, 12, -0.2857, -0.5069, -0.0256},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Paired{Both: tt.a, BOnly: tt.b, AOnly: tt.c, Neither: tt.d}
			got := Newcombe(p)
			if !scalar.EqualWithinAbs(p.Diff(), tt.diff, tol) {
				t.Errorf("diff = %.5f, want %.4f", p.Diff(), tt.diff)
			}
			if !scalar.EqualWithinAbs(got.Lo, tt.lo, tol) || !scalar.EqualWithinAbs(got.Hi, tt.hi, tol) {
				t.Errorf("Newcombe = [%.5f, %.5f], want [%.4f, %.4f]", got.Lo, got.Hi, tt.lo, tt.hi)
			}
		})
	}
}

func TestMcNemar(t *testing.T) {
	tests := []struct {
		name         string
		aOnly, bOnly int64
		p            float64
	}{
		// Exact two-sided: 2·P(X ≤ min) for X ~ Binomial(aOnly+bOnly, ½).
		{"6 vs 16", 16, 6, 0.052478790283203125},
		{"12 vs 2", 12, 2, 0.012939453125},
		{"3 vs 0", 3, 0, 0.25},
		{"5 vs 5", 5, 5, 1},
		{"none", 0, 0, 1},
		{"40 vs 60", 40, 60, 0.05688793364098079},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := McNemar(Paired{AOnly: tt.aOnly, BOnly: tt.bOnly, Both: 7, Neither: 11})
			if !scalar.EqualWithinAbsOrRel(got, tt.p, 1e-9, 1e-9) {
				t.Errorf("McNemar = %.12g, want %.12g", got, tt.p)
			}
		})
	}
}

func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}.Bounds()
	if !scalar.EqualWithinAbs(lo, -math.Log(19), 1e-12) || !scalar.EqualWithinAbs(hi, math.Log(19), 1e-12) {
		t.Errorf("bounds = %g, %g, want ∓log 19", lo, hi)
	}
}

// TestSPRTSequences feeds synthetic paired sequences one pair at a time
// and checks the decision and when it is made.
func TestSPRTSequences(t *testing.T) {
	s := SPRT{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}
	tests := []struct {
		name string
		next func(i int) int // +1: only B won, −1: only A won, 0: tie
		want Hypothesis
		at   int64 // the pair after which it decides
	}{
		// Only B wins: H0's best fit is (½, 0, ½), H1's (0.51, 0, 0.49),
		// so the LLR grows by log(0.51/0.5) a pair: log 19 / 0.0198 → 149.
		{"B always", func(int) int { return 1 }, AcceptH1, 149},
		// Only ties: H1 must give 0.02 to B-only, LLR = n·log 0.98 → 146.
		{"ties", func(int) int { return 0 }, AcceptH0, 146},
		// Only A wins: H0 fits (½, 0, ½), H1 at best (0.51, 0, 0.49), so
		// the LLR falls by log(0.49/0.5) a pair, as fast as for ties.
		{"A always", func(int) int { return -1 }, AcceptH0, 146},
		// B wins one pair in ten more than A: a difference of 0.1, far
		// above P1.
		{"B +10%", func(i int) int {
			if i%10 == 0 {
				return 1
			}
			return 0
		}, AcceptH1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Paired
			var got Hypothesis
			var n int64
			for i := range 100000 {
				switch tt.next(i) {
				case 1:
					p.BOnly++
				case -1:
					p.AOnly++
				default:
					p.Neither++
				}
				if got, _ = s.Decide(p); got != Undecided {
					n = p.N()
					break
				}
			}
			if got != tt.want {
				t.Fatalf("decision %v, want %v", got, tt.want)
			}
			if tt.at > 0 && n != tt.at {
				t.Errorf("decided after %d pairs, want %d", n, tt.at)
			}
			if n == 0 {
				t.Errorf("no decision")
			}
		})
	}
}

func TestTrinomialLogLik(t *testing.T) {
	// Unconstrained-like case: δ equal to the observed difference gives
	// the plain multinomial maximum.
	got := trinomialLogLik(30, 50, 20, 0.1)
	want := 30*math.Log(0.3) + 50*math.Log(0.5) + 20*math.Log(0.2)
	if !scalar.EqualWithinAbs(got, want, 1e-9) {
		t.Errorf("loglik = %.12g, want %.12g", got, want)
	}
}
