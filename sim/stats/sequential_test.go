package stats

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestSequentialBounds(t *testing.T) {
	// Wald 1945: A = (1 − β)/α and B = β/(1 − α); α = β = 0.05 gives ±log 19.
	lo, hi := Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}.Bounds()
	if !scalar.EqualWithinAbs(lo, -math.Log(19), 1e-12) || !scalar.EqualWithinAbs(hi, math.Log(19), 1e-12) {
		t.Errorf("bounds = %g, %g, want ∓log 19", lo, hi)
	}
	lo, hi = Sequential{Delta: 0.02, Alpha: 0.01, Beta: 0.1}.Bounds()
	if !scalar.EqualWithinAbs(lo, math.Log(0.1/0.99), 1e-12) || !scalar.EqualWithinAbs(hi, math.Log(90), 1e-12) {
		t.Errorf("bounds = %g, %g, want log(0.1/0.99), log 90", lo, hi)
	}
}

func TestSequentialForFamily(t *testing.T) {
	tests := []struct {
		s    Sequential
		m    int
		want float64
	}{
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}, 1, 0.025}, // two sides
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}, 5, 0.005},
		{Sequential{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}, 5, 0.01},
	}
	for _, tt := range tests {
		got := tt.s.ForFamily(tt.m)
		if !scalar.EqualWithinAbs(got.Alpha, tt.want, 1e-15) || got.Beta != tt.s.Beta || got.Delta != tt.s.Delta {
			t.Errorf("%+v.ForFamily(%d) = %+v, want Alpha %g", tt.s, tt.m, got, tt.want)
		}
	}
}

func TestSequentialValidate(t *testing.T) {
	tests := []struct {
		s     Sequential
		limit float64
		param Param
		want  string
	}{
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}, 1, 0, ""},
		{Sequential{Delta: math.NaN(), Alpha: 0.05, Beta: 0.05}, 1, ParamDelta, "delta NaN is not above 0 and below 1"},
		{Sequential{Delta: 1, Alpha: 0.05, Beta: 0.05}, 1, ParamDelta, "delta 1 is not above 0 and below 1"},
		{Sequential{Delta: 3, Alpha: 0.05, Beta: 0.05}, math.Inf(1), 0, ""},
		{Sequential{Delta: math.Inf(1), Alpha: 0.05, Beta: 0.05}, math.Inf(1), ParamDelta, "delta +Inf is not above 0 and below +Inf"},
		{Sequential{Delta: 0.02, Alpha: 0.5, Beta: 0.05}, 1, ParamAlpha, "alpha 0.5 is not between 0 and 0.5"},
		{Sequential{Delta: 0.02, Alpha: 0.05, Beta: math.NaN()}, 1, ParamBeta, "beta NaN is not between 0 and 0.5"},
		{Sequential{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}, 1, 0, ""},
		{Sequential{P0: 0, P1: 0, Alpha: 0.05, Beta: 0.05}, 1, ParamP0P1, "P0 0, P1 0 are not two different finite differences"},
		{Sequential{P0: math.NaN(), P1: 0.02, Alpha: 0.05, Beta: 0.05}, 1, ParamP0P1, "P0 NaN, P1 0.02 are not two different finite differences"},
		{Sequential{P0: 0, P1: 1, Alpha: 0.05, Beta: 0.05}, 1, ParamP0P1, "P0 0, P1 1 are not two different finite differences"},
	}
	for _, tt := range tests {
		err := tt.s.Validate(tt.limit)
		got := ""
		if err != nil {
			got = err.Error()
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param != tt.param {
				t.Errorf("%+v: error %#v, want a *ParamError of %v", tt.s, err, tt.param)
			}
		}
		if got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestPentanomialLogLik(t *testing.T) {
	// A mean equal to the observed one gives the plain multinomial
	// maximum: 30 of +1, 50 of 0, 20 of −1 have mean 0.1.
	got := Pentanomial{20, 0, 50, 0, 30}.LogLik(0.1)
	want := 30*math.Log(0.3) + 50*math.Log(0.5) + 20*math.Log(0.2)
	if !scalar.EqualWithinAbs(got, want, 1e-9) {
		t.Errorf("loglik = %.12g, want %.12g", got, want)
	}
	// Ties only, mean 0.02: the missing 2 % go to +1.
	if got, want := (Pentanomial{0, 0, 100, 0, 0}).LogLik(0.02), 100*math.Log(0.98); !scalar.EqualWithinAbs(got, want, 1e-9) {
		t.Errorf("ties: loglik = %.12g, want %.12g", got, want)
	}
	if got := (Pentanomial{}).LLR(0, 0.02); got != 0 {
		t.Errorf("no pairs: LLR %g, want 0", got)
	}
}

func TestPentanomialMoments(t *testing.T) {
	// Two pairs at −½, one at 0, one at +1: in halves −1, −1, 0, 2.
	if got, want := (Pentanomial{0, 2, 1, 0, 1}).Moments(), momentsOf(-1, -1, 0, 2); got != want {
		t.Errorf("moments %+v, want %+v", got, want)
	}
}

func TestNormalLLR(t *testing.T) {
	tests := []struct {
		name     string
		xs       []int64
		mu0, mu1 float64
		want     float64
	}{
		// 3, −1: mean 1, variance 4 (over n); with σ² = 4 known the
		// ratio is Σ(2x − 1)/(2σ²) = (4 − 2)/8.
		{"two", []int64{3, -1}, 0, 1, 0.25},
		{"two, reversed", []int64{3, -1}, 1, 0, -0.25},
		{"constant nearer mu1", []int64{1, 1}, 0, 1, math.Inf(1)},
		{"constant nearer mu0", []int64{0, 0}, 0, 1, math.Inf(-1)},
		{"constant between", []int64{1, 1}, 0, 2, 0},
		{"none", nil, 0, 1, 0},
	}
	for _, tt := range tests {
		if got := NormalLLR(momentsOf(tt.xs...), tt.mu0, tt.mu1); !scalar.EqualWithinAbs(got, tt.want, 1e-12) && got != tt.want {
			t.Errorf("%s: %g, want %g", tt.name, got, tt.want)
		}
	}
}

// TestSequentialSequences feeds synthetic paired sequences one pair at a
// time and checks the decision and when it is made.
func TestSequentialSequences(t *testing.T) {
	two := Sequential{P0: 0, P1: 0.02, Alpha: 0.05, Beta: 0.05}
	three := Sequential{Delta: 0.02, Alpha: 0.05, Beta: 0.05}
	pent := func(n *Pentanomial) func(mu0, mu1 float64) float64 { return n.LLR }
	tests := []struct {
		name string
		test Sequential
		next func(i int) int // the pair's difference in halves, −2 … 2
		want Decision
		at   int64 // the pair after which it decides; 0: any
	}{
		// Only B wins: P0's best fit is (½, 0, ½) on ±1, P1's (0.51, 0,
		// 0.49), so the LLR grows by log(0.51/0.5) a pair: log 19 / 0.0198 → 149.
		{"two: B always", two, func(int) int { return 2 }, ForP1, 149},
		// Only ties: P1 must give 0.02 to +1, LLR = n·log 0.98 → 146.
		{"two: ties", two, func(int) int { return 0 }, ForP0, 146},
		{"two: A always", two, func(int) int { return -2 }, ForP0, 146},
		// Three outcomes, only ties: both one-sided tests decide for 0
		// after 146 pairs.
		{"three: ties", three, func(int) int { return 0 }, Within, 146},
		{"three: B always", three, func(int) int { return 1 }, Up, 0},
		{"three: A always", three, func(int) int { return -1 }, Down, 0},
		// B wins one pair in ten: 10 points, far above 2.
		{"three: B +10 points", three, func(i int) int {
			if i%10 == 0 {
				return 2
			}
			return 0
		}, Up, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n Pentanomial
			st := tt.test.Start()
			got := Undecided
			for i := range 100000 {
				n[tt.next(i)+2]++
				if got = st.Update(pent(&n)); got != Undecided {
					break
				}
			}
			pairs := n.Moments().N
			if got != tt.want {
				t.Fatalf("decision %v after %d pairs, want %v", got, pairs, tt.want)
			}
			if tt.at > 0 && pairs != tt.at {
				t.Errorf("decided after %d pairs, want %d", pairs, tt.at)
			}
		})
	}
}

// TestSequentialState: a one-sided test that has decided keeps its
// decision and its ratio, and the ratios stay finite.
func TestSequentialState(t *testing.T) {
	st := Sequential{Delta: 1, Alpha: 0.05, Beta: 0.05}.Start()
	asked := 0
	// +Delta's test meets its lower bound, −Delta's nothing yet.
	d := st.Update(func(mu0, mu1 float64) float64 {
		asked++
		if mu1 > 0 {
			return -10
		}
		return 0
	})
	if d != Undecided || asked != 2 {
		t.Fatalf("decision %v after asking %d, want undecided after 2", d, asked)
	}
	d = st.Update(func(mu0, mu1 float64) float64 {
		asked++
		if mu1 > 0 {
			t.Error("a decided side is asked again")
		}
		return math.Inf(-1)
	})
	if d != Within || asked != 3 {
		t.Errorf("decision %v after asking %d, want within after 3", d, asked)
	}
	if got := st.LLRs(); got[0] != -10 || got[1] != -1e300 {
		t.Errorf("LLRs %v, want [-10 -1e300]", got)
	}
}
