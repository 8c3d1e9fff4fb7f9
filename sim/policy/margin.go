package policy

import (
	"math"

	"tallywood/engine"
)

// dist is the calc of District d.
func (e *evaluator) dist(d int8) *districtCalc {
	if c := e.calc[d]; c != nil {
		return c
	}
	return &e.own[d]
}

// districtKey is all a District's margin depends on (with the rules and
// Weights.Progress): both sides' polling and fixed Vote Shares (icons,
// token and majority shares), whether there are turns left for progress
// to count, and the District's votes (as bits, so that equal keys mean
// the same bits). It is packed into two words, as districtOf compares
// keys a few times per District per evaluation.
type districtKey struct {
	sides uint64 // polling, you then the Opposition, fixed shares likewise, a byte each; bit 32: turns left
	votes uint64
}

func makeDistrictKey(poll, fixed [2]int8, live bool, votes float64) districtKey {
	k := districtKey{votes: math.Float64bits(votes)}
	k.sides = uint64(uint8(poll[0])) | uint64(uint8(poll[1]))<<8 | uint64(uint8(fixed[0]))<<16 | uint64(uint8(fixed[1]))<<24
	if live {
		k.sides |= 1 << 32
	}
	return k
}

// districtCalc is one District's margin as it stands and, worked out on
// demand, the changes pollingValue and shareValue ask for. All of it is
// a function of its key alone, so one calc serves every position with
// that key: the results of a decision's options mostly change one
// District, or none.
type districtCalc struct {
	key         districtKey
	poll, fixed [2]int8 // as in the key, you first
	base        float64 // the margin as it stands
	// The fractional shares of both, and the shares of today's polling,
	// that base was worked out from (pollingValue changes one side).
	sBase, oBase float64
	at           [2]int8
	// gain caches pollingValue, you first: gain[i][n] for n below
	// cachedGains, valid when gainOK[i] has bit n; share caches shareValue
	// likewise.
	gain    [2][cachedGains]float64
	gainOK  [2]uint8
	share   [2]float64
	shareOK [2]bool
}

// cachedGains bounds the polling gains a districtCalc keeps: 0 to 4,
// which hold the gains of the reference set's actions, abilities and
// rewards (Campaign 2, Celebrity 1 to 3 by tier, Research 1 and a bonus
// or two, a card's +1 Polling, the Round cards' 1 and the Opposition's
// Plaza advance of 3; C-13, C-15, I-14). A larger one is worked out each
// time. At most 8, the bits of gainOK.
const cachedGains = 5

// newDistrict works out c, the calc of d for key k: district at today's
// polling, without its share differences (both 0: adding them would not
// change a bit of the result).
func (e *evaluator) newDistrict(c *districtCalc, d int8, k districtKey, poll, fixed [2]int8) {
	*c = districtCalc{key: k, poll: poll, fixed: fixed}
	s := float64(fixed[0]) + e.progress(poll[0])
	o := float64(fixed[1]) + e.progress(poll[1])
	c.sBase, c.oBase = s, o
	c.at[0], c.at[1] = e.r.SharesAt(poll[0]), e.r.SharesAt(poll[1])
	c.base = e.margin(d, s, o)
}

// progress is the fractional Vote Share of a tracker at p: its share icons
// reached plus the way to the next one, scaled by Progress while there is
// time to get there.
func (e *evaluator) progress(p int8) float64 {
	if e.turns == 0 {
		return 0
	}
	return e.w.Progress * e.tab.frac[p]
}

// district is your margin in d with your polling at pMe and the
// Opposition's at pOpp, plus extra fixed shares.
func (e *evaluator) district(d int8, pMe, pOpp int8, extraMe, extraOpp float64) float64 {
	r, c := e.r, e.dist(d)
	dMe := float64(r.SharesAt(pMe) - r.SharesAt(c.poll[0]))
	dOpp := float64(r.SharesAt(pOpp) - r.SharesAt(c.poll[1]))
	s := float64(c.fixed[0]) + dMe + extraMe + e.progress(pMe)
	o := float64(c.fixed[1]) + dOpp + extraOpp + e.progress(pOpp)
	return e.margin(d, s, o)
}

// margin is your margin in d with fractional shares s against o.
func (e *evaluator) margin(d int8, s, o float64) float64 {
	if s+o <= 0 {
		return 0
	}
	return e.votes[d] * (s - o) / (s + o)
}

// pollingValue is the change of your margin when you (or, with opp, the
// Opposition) gain n polling in d.
func (e *evaluator) pollingValue(d int8, n int8, opp bool) float64 {
	i := 0
	if opp {
		i = 1
	}
	c := e.dist(d)
	if n >= 0 && n < cachedGains && c.gainOK[i]&(1<<n) != 0 {
		return c.gain[i][n]
	}
	// district with one side's polling moved: the other side's fractional
	// shares are those of base (its share difference is 0, which adds
	// nothing to a single bit).
	var v float64
	p := po2(c.poll[i], n, e.r)
	x := float64(c.fixed[i]) + float64(e.r.SharesAt(p)-c.at[i]) + e.progress(p)
	if opp {
		v = e.margin(d, c.sBase, x) - c.base
	} else {
		v = e.margin(d, x, c.oBase) - c.base
	}
	if n >= 0 && n < cachedGains {
		c.gain[i][n], c.gainOK[i] = v, c.gainOK[i]|1<<n
	}
	return v
}

func po2(p, n int8, r *engine.Rules) int8 { return min(r.TrackMax, p+n) }

// shareValue is the change of your margin when you (or, with opp, the
// Opposition) gain one more fixed share in d.
func (e *evaluator) shareValue(d int8, opp bool) float64 {
	c := e.dist(d)
	i := 0
	if opp {
		i = 1
	}
	if !c.shareOK[i] {
		pm, po := c.poll[0], c.poll[1]
		if opp {
			c.share[i] = e.district(d, pm, po, 0, 1) - c.base
		} else {
			c.share[i] = e.district(d, pm, po, 1, 0) - c.base
		}
		c.shareOK[i] = true
	}
	return c.share[i]
}
