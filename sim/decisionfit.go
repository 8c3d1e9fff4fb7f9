package sim

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"tallywood/engine"
	"tallywood/sim/policy"
)

// The test of fit of a tester's decisions under the dial at their fitted
// skill. The fit from decisions finds the skill at which the dial would
// most likely have decided as the tester did; it does not say that the
// dial at any skill decides so. A person plays in their own style: good
// at some kinds of decision and careless at others, which no one
// temperature of the dial's softmax gives (the recovery study's greedy
// decides like the dial at 0.06 and wins like it at 0.4). The test asks,
// kind of decision by kind (card, column, row, …), whether the decisions
// agree with the dial's at the fitted skill as often as the dial's would:
//
//   - below skill 1, per kind, two sums over its decisions: the learned
//     score of the option taken less its expectation under the dial's
//     softmax (how well the tester chose), and whether it took the option
//     the learned score rates best less the chance the dial does (how
//     often it agreed). Their covariance under the dial gives a χ² form
//     per kind, summed over the kinds: Rao's score test of one
//     temperature for every kind against one per kind (the first sum is
//     the softmax's score in its inverse temperature), with the
//     agreement's part beside it;
//   - from 1 up, per kind, the decisions where the learned score's best
//     and the search's pick differ: the share that took the search's
//     pick against the dial's chance skill − 1.
//
// One degree of freedom is spent on the fitted skill. The statistic is
// read against χ², and the level at which a tester is called off the
// dial (DecisionTestLevel) was set by simulation so that the dial's own
// testers are flagged in at most 5% of panels (TestCalibrationOffDial,
// docs/calibration.md).

// DecisionTestLevel is the p-value below which a tester's decisions are
// found not to fit the dial. Set by simulation: on pilot seeds
// (13800–13802, 40 panels of 30 games each of the dial at 0.25, 0.5 and
// 0.75) the dial's own panels fell below 5% in 6 of 120 and below 1% in
// 2, the χ² reading a little generous at small p; the testers off the
// dial (greedy, pollster, builder, 12 panels each, seeds 13803–13805)
// reached statistics of 1,900–2,700 on 19 degrees of freedom, where
// 0.001 asks 43. So the level is 0.001, far below 5%, at no cost in
// power; TestCalibrationOffDial checks both on other seeds.
const DecisionTestLevel = 0.001

// minKindDecisions is the fewest decisions a kind is tested alone with:
// the kinds with fewer are tested together, as "other", so that every
// part of the statistic sums enough decisions to be near normal.
const minKindDecisions = 30

// DecisionTest is the test of fit of a tester's decisions under the dial
// at their fitted skill.
type DecisionTest struct {
	// Skill is where the dial is tested: the decisions' fitted skill.
	Skill     float64 `json:"skill"`
	Statistic float64 `json:"statistic"`
	DF        int     `json:"df"`
	P         float64 `json:"p"`
	// Kinds are the parts of the statistic, by decision kind.
	Kinds []KindTest `json:"kinds"`
}

// KindTest is one decision kind's part of a test of fit (or "other",
// the kinds with few decisions together).
type KindTest struct {
	Kind string `json:"kind"`
	// Decisions the part reads: below 1 every decision with a choice,
	// from 1 up those where the learned score's best and the search's
	// pick differ.
	Decisions int64 `json:"decisions"`
	// Agree counts the decisions that took the dial's choice (below 1 the
	// learned score's best, from 1 up the search's pick), Expected how
	// many the dial at the fitted skill would take.
	Agree     int64   `json:"agree"`
	Expected  float64 `json:"expected"`
	Statistic float64 `json:"statistic"`
}

// OffDial reports whether the test finds the decisions unlike the dial's.
func (t *DecisionTest) OffDial() bool { return t != nil && t.P < DecisionTestLevel }

// numKinds bounds the decision kinds, indexed by engine.DecisionKind.
const numKinds = int(engine.DecInitiative) + 1

// kindSums are what one kind's decisions give the test, summed: at each
// grid skill below 1 the score test's sums, from 1 up the counts.
type kindSums struct {
	decisions, agree int64 // with a choice; of them, the learned score's best
	// At each grid skill below 1, under the dial's softmax: u the score
	// taken less its expectation, a the agreement less its chance, vxx,
	// vaa and vxa their variances and covariance, p the chance of the
	// best.
	u, a, vxx, vaa, vxa, p [fitBelow]float64
	// From 1 up: the decisions that took the best only, the search's
	// pick only.
	bestOnly, searchOnly int64
}

// decisionSums are a tester's (or a game's) kindSums by kind, allocated
// as kinds are met.
type decisionSums [numKinds]*kindSums

// add adds one decision of kind k: scores the learned scores, chosen
// the option taken, best the learned score's, search the search's pick
// (−1: not searched).
func (s *decisionSums) add(k engine.DecisionKind, scores []float64, chosen, best, search int) {
	ks := s[k]
	if ks == nil {
		ks = new(kindSums)
		s[k] = ks
	}
	ks.decisions++
	if chosen == best {
		ks.agree++
	}
	switch {
	case chosen == best && chosen != search:
		ks.bestOnly++
	case chosen == search && chosen != best:
		ks.searchOnly++
	}
	xc, xb := scores[chosen], scores[best]
	top := xb
	for g := range fitBelow {
		tau := policy.DialSkill(fitSkill(g)).Tau
		// The softmax's moments of the score and its chance of the best.
		var w, ex, exx float64
		for _, x := range scores {
			e := 1.0
			if !math.IsInf(tau, 1) {
				e = math.Exp((x - top) / tau)
			}
			w += e
			ex += e * x
			exx += e * x * x
		}
		pb := 1 / w // the best's weight is exp(0), or 1 as every one's at 0
		ex, exx = ex/w, exx/w
		agree := 0.0
		if chosen == best {
			agree = 1
		}
		ks.u[g] += xc - ex
		ks.a[g] += agree - pb
		ks.vxx[g] += max(exx-ex*ex, 0)
		ks.vaa[g] += pb * (1 - pb)
		ks.vxa[g] += pb * (xb - ex)
		ks.p[g] += pb
	}
}

// addAll adds o's sums into s.
func (s *decisionSums) addAll(o *decisionSums) {
	for k, os := range o {
		if os == nil {
			continue
		}
		if s[k] == nil {
			s[k] = new(kindSums)
		}
		s[k].addSums(os)
	}
}

// addSums adds os into ks.
func (ks *kindSums) addSums(os *kindSums) {
	ks.decisions += os.decisions
	ks.agree += os.agree
	ks.bestOnly += os.bestOnly
	ks.searchOnly += os.searchOnly
	for g := range fitBelow {
		ks.u[g] += os.u[g]
		ks.a[g] += os.a[g]
		ks.vxx[g] += os.vxx[g]
		ks.vaa[g] += os.vaa[g]
		ks.vxa[g] += os.vxa[g]
		ks.p[g] += os.p[g]
	}
}

// test is the test of fit of the decisions summed in s at skill, the
// decisions' fitted skill; nil with no decision.
func (s *decisionSums) test(skill float64) *DecisionTest {
	// The kinds with enough decisions alone, the others together.
	type part struct {
		name string
		ks   kindSums
	}
	var parts []part
	var other part
	other.name = "other"
	upper := skill >= 1
	for k, ks := range s {
		if ks == nil {
			continue
		}
		n := ks.decisions
		if upper {
			n = ks.bestOnly + ks.searchOnly
		}
		if n >= minKindDecisions {
			parts = append(parts, part{name: engine.DecisionKind(k).String(), ks: *ks})
			continue
		}
		other.ks.addSums(ks)
	}
	if n := other.ks.decisions; upper && other.ks.bestOnly+other.ks.searchOnly > 0 || !upper && n > 0 {
		parts = append(parts, other)
	}
	if len(parts) == 0 {
		return nil
	}
	t := &DecisionTest{Skill: skill}
	dims := 0
	g := min(int(math.Round(skill/FitStep)), fitBelow-1)
	for _, pt := range parts {
		ks := &pt.ks
		kt := KindTest{Kind: pt.name}
		var stat float64
		var d int
		if upper {
			m := min(skill, policy.MaxSkill) - 1
			n := ks.bestOnly + ks.searchOnly
			kt.Decisions, kt.Agree, kt.Expected = n, ks.searchOnly, m*float64(n)
			if v := float64(n) * m * (1 - m); v > 0 {
				stat, d = square(float64(ks.searchOnly)-kt.Expected)/v, 1
			}
		} else {
			kt.Decisions, kt.Agree, kt.Expected = ks.decisions, ks.agree, ks.p[g]
			stat, d = quadForm(ks.u[g], ks.a[g], ks.vxx[g], ks.vaa[g], ks.vxa[g])
		}
		kt.Statistic = stat
		t.Statistic += stat
		dims += d
		t.Kinds = append(t.Kinds, kt)
	}
	// One degree of freedom is the fitted skill's.
	t.DF = max(dims-1, 0)
	t.P = 1
	if t.DF > 0 {
		t.P = distuv.ChiSquared{K: float64(t.DF)}.Survival(t.Statistic)
	}
	return t
}

// quadForm is the χ² form of the two sums u and a with variances vxx and
// vaa and covariance vxa, and its degrees of freedom: two, one when the
// two sums are (nearly) one (a kind of two options a decision, where the
// score taken is the agreement scaled), none when neither varies.
func quadForm(u, a, vxx, vaa, vxa float64) (float64, int) {
	const tiny = 1e-9
	switch {
	case vxx <= tiny && vaa <= tiny:
		return 0, 0
	case vxx <= tiny:
		return a * a / vaa, 1
	case vaa <= tiny:
		return u * u / vxx, 1
	}
	det := vxx*vaa - vxa*vxa
	if det <= 0.01*vxx*vaa {
		return u * u / vxx, 1
	}
	return (vaa*u*u - 2*vxa*u*a + vxx*a*a) / det, 2
}

func square(x float64) float64 { return x * x }
