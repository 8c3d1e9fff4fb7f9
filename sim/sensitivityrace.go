package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"tallywood/sim/stats"
)

// The testing of a sensitivity scan's changes: given the changes a cell
// plays (sensitivity.go plans them), how many games each gets and what
// they say. A fixed scan plays every change on the same games and reads
// each once. A race screens every change on a first block of games, then
// hunts the changes the screen finds likely to reach the tolerance, alone,
// in looks of doubling size, stopping each once it is negligible (within
// the tolerance), flagged as an effect or probably small; then, with what
// the hunt leaves beyond the confirmation's needs, settles the other
// changes the same way; then confirms the flagged ones on fresh seeds:
// the games go where an effect of the tolerance's size may be, then where
// an answer is near, and what the words claim rests on games no
// selection looked at.
//
// Every decision is a function of the counts stored, so derive recomputes
// the race and check verifies that each change was played exactly as far
// as its decisions say.

// SensitivityDesign is how a scan tests its changes.
type SensitivityDesign int8

const (
	// DesignFixed plays every change on the scan's games and reads each
	// once: a verdict rests on the interval simultaneous over every change.
	// It shards like any fixed-size study.
	DesignFixed SensitivityDesign = iota
	// DesignRace screens, races and confirms (the file's comment).
	DesignRace
)

// String is the design's name in the JSON and on the command line.
func (d SensitivityDesign) String() string {
	if d == DesignRace {
		return "race"
	}
	return "fixed"
}

// MarshalText writes the design by its name.
func (d SensitivityDesign) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a design's name.
func (d *SensitivityDesign) UnmarshalText(b []byte) error {
	for _, v := range []SensitivityDesign{DesignFixed, DesignRace} {
		if string(b) == v.String() {
			*d = v
			return nil
		}
	}
	return fmt.Errorf("sim: %q is not a sensitivity design (race or fixed)", b)
}

// ScanDecision is what a scan decided of a change at its last look.
type ScanDecision int8

const (
	// ScanOpen: neither negligible nor an effect when the looks or the
	// budget ran out.
	ScanOpen ScanDecision = iota
	// ScanNegligible: the change's interval lies within ±tolerance.
	ScanNegligible
	// ScanEffect: a race flagged the change for its confirmation (the
	// screen's false discovery rate), or a fixed scan's interval excludes
	// 0.
	ScanEffect
)

var scanDecisionNames = [...]string{ScanOpen: "open", ScanNegligible: "negligible", ScanEffect: "effect"}

// String is the decision's name in the JSON.
func (d ScanDecision) String() string {
	if d < 0 || int(d) >= len(scanDecisionNames) {
		return fmt.Sprintf("ScanDecision(%d)", int8(d))
	}
	return scanDecisionNames[d]
}

// MarshalText writes the decision by its name.
func (d ScanDecision) MarshalText() ([]byte, error) {
	if d < 0 || int(d) >= len(scanDecisionNames) {
		return nil, fmt.Errorf("sim: no scan decision %d", int8(d))
	}
	return []byte(scanDecisionNames[d]), nil
}

// UnmarshalText reads a decision's name.
func (d *ScanDecision) UnmarshalText(b []byte) error {
	for i, w := range scanDecisionNames {
		if w == string(b) {
			*d = ScanDecision(i)
			return nil
		}
	}
	return fmt.Errorf("sim: %q is not a scan decision", b)
}

// SensitivityLevel is the level of a scan's words: with every change
// within the tolerance the chance that any is called easier or harder is
// at most 5 %, and with any at or beyond it the chance that it is called
// negligible is at most 5 %.
const SensitivityLevel = 0.05

// flagLevel is the level of the interval by which a race flags a change
// for its confirmation: a flag only spends confirmation games, and the
// confirmation, on fresh seeds, decides, over the changes flagged. So it
// is loose: a change of the tolerance's size whose race cannot yet tell
// it from 0 at a stricter level is still confirmed (measured in
// TestNegligibleCalibration's simulation: the race of
// tallywood-sensitivity/2, which flagged at 0.001, found a 2-point change
// among 215 in 53 % of chances). A race states the level it flagged at
// (FlagLevel).
const flagLevel = 0.02

// flagLevelV2 is the level a tallywood-sensitivity/2 race flagged at; it
// stated none.
const flagLevelV2 = 0.001

// flagShare: a race flags a change only when its estimate is at least
// this share of the tolerance, so that the confirmation plays the changes
// that may be of the tolerance's size, not every small one the race shows
// real.
const flagShare = 0.75

// confirmPower is the chance with which the confirmation's games would
// find a flagged change of the size confirmNeed assumes: the confirmation,
// not the race, decides whether a change is found.
const confirmPower = 0.9

// raceLooks is how many looks a race may take: the screen and five
// doublings, up to 32 times the screen's games on one change.
const raceLooks = 6

// raceDrop is the level of the interval by which a race's hunt stops
// playing an open change that is probably within the tolerance: a
// one-sided chance of raceDrop/2 at a look that a change at the
// tolerance's edge is stopped so.
const raceDrop = 0.05

// hopeless reports whether a race stops playing an open change with the
// pairs p, when settling it would take more than most games: hunting
// (the changes its screen found likely to reach the tolerance; most is
// the next look's games), also only when the change is probably within
// the tolerance (its interval at level raceDrop lies inside it);
// settling (the others, with what the hunt left; most is the race's last
// look's games), whatever its interval. Such a change is no claim (it
// stays open: not enough games); the race spends its games where a change
// may be an effect of the tolerance's size, or where an answer is near.
func hopeless(p *PairCounts, f scanFamily, settling bool, most int64) bool {
	if !settling && scoreInterval(p, raceDrop).Against(-f.tol, f.tol) != stats.Inside {
		return false
	}
	return raceSettle(p, f.alpha, f.tol) > most
}

// huntShare is the part of a cell's budget its hunt may spend, with what
// its screen's first round (screenShare) did not: a cell without a
// screen hunts in both parts. The rest, with what the hunt left, is the
// settling's and the confirmation's. Measured on the simulations of
// TestNegligibleCalibration and TestScanOnRealSizes: the hunt, the
// screen's second round and the confirmation compete for games; a hunt
// of about a third does well both where few changes matter and where
// many do.
const huntShare = 0.35

// raceFirstLook is the games of a race's first look, for a budget of
// games per change on average: a quarter of them.
func raceFirstLook(games int64) int64 { return max(1, games/4) }

// lookGames is the games a race's look l (0: the first) has played on a
// change: the first look's doubled l times.
func lookGames(first int64, l int) int64 { return first << l }

// scanLevel is the level of each interval a scan reads, over changes
// changes of every cell and looks looks (Bonferroni): with them all, the
// chance that any interval misses its change's difference is at most
// SensitivityLevel.
func scanLevel(changes, looks int) float64 {
	return stats.BonferroniLevel(SensitivityLevel, max(1, changes*looks))
}

// scoreInterval is the score interval of the paired score differences p
// at level alpha (stats.Pentanomial.ScoreInterval).
func scoreInterval(p *PairCounts, alpha float64) stats.Interval {
	return stats.Pentanomial(p.Pentanomial()).ScoreInterval(alpha)
}

// lookDecisions decides the changes of one cell open at one look, from
// their pairs so far: negligible when the interval at f's level lies
// within ±tolerance; else an effect when flagged; else open. A race flags
// a change whose difference is at least flagShare of the tolerance and
// whose interval at f's flag level excludes 0 (the confirmation decides
// what it is); a fixed scan, which has no confirmation, when the interval
// excludes 0.
func (f scanFamily) lookDecisions(pairs []*PairCounts) []ScanDecision {
	out := make([]ScanDecision, len(pairs))
	for i, p := range pairs {
		ci := scoreInterval(p, f.alpha)
		switch {
		case ci.Against(-f.tol, f.tol) == stats.Inside:
			out[i] = ScanNegligible
		case f.design == DesignFixed && ci.Excludes(0):
			out[i] = ScanEffect
		case f.design == DesignRace && math.Abs(p.scoreMean()) >= flagShare*f.tol && scoreInterval(p, f.flag).Excludes(0):
			out[i] = ScanEffect
		}
	}
	return out
}

// scanFamily is what a scan's decisions need of its result: the level of
// its intervals (over every change it may play alone, at every look), its
// tolerance, its design, how many looks it may take and the level at
// which a race flags.
type scanFamily struct {
	alpha, tol, flag float64
	design           SensitivityDesign
	changes, looks   int // the intervals: changes × looks
}

// family is the scan's family of intervals: their level and tolerance.
// A race's family is every change of every cell, whether its screen
// chose it or not, so that the race may choose what to play as it goes;
// a tallywood-sensitivity/2 race (no FlagLevel) chose before its first
// look, and its family was the changes it played.
func (r *SensitivityResult) family() scanFamily {
	m := 0
	for i := range r.Cells {
		for _, ch := range r.Cells[i].Changes {
			if len(ch.Looks) > 0 || r.FlagLevel > 0 {
				m++
			}
		}
	}
	looks := 1
	if r.Design == DesignRace {
		looks = r.MaxLooks
	}
	return scanFamily{alpha: scanLevel(m, looks), tol: cmp.Or(r.Tolerance, DefaultTolerance), flag: cmp.Or(r.FlagLevel, flagLevelV2),
		design: r.Design, changes: m, looks: looks}
}

// replay decides the changes of cell c look by look, as the race did:
// at each look the changes that reached it, and each change's decision at
// its last. It returns the decisions and, if a change went on past a
// look that decided it (a result the race did not write), an error.
func (f scanFamily) replay(c *SensitivityCell) ([]ScanDecision, error) {
	out := make([]ScanDecision, len(c.Changes))
	for l := 0; ; l++ {
		var at []int
		var pairs []*PairCounts
		for j := range c.Changes {
			if len(c.Changes[j].Looks) > l {
				at = append(at, j)
				pairs = append(pairs, &c.Changes[j].Looks[l])
			}
		}
		if len(at) == 0 {
			return out, nil // a change with no look (a screen left it out) is open
		}
		for k, d := range f.lookDecisions(pairs) {
			j := at[k]
			if d != ScanOpen && len(c.Changes[j].Looks) > l+1 {
				return nil, fmt.Errorf("change %d (%s): played past look %d, which found it %s", j+1, c.Changes[j].Path, l+1, d)
			}
			out[j] = d
		}
	}
}

// confirmLevel is the level of each confirmation interval, over the
// changes confirmed in every cell (Bonferroni).
func confirmLevel(confirmed int) float64 {
	return stats.BonferroniLevel(SensitivityLevel, max(1, confirmed))
}

// verdictOf is a change's verdict from its interval ci: negligible
// (InZone) when it lies within ±tol, else easier or harder when it
// excludes 0, else not enough games.
func verdictOf(ci stats.Interval, tol float64) Verdict {
	switch {
	case ci.Against(-tol, tol) == stats.Inside:
		return InZone
	case ci.Lo > 0:
		return ScoreEasier
	case ci.Hi < 0:
		return ScoreHarder
	}
	return NotEnoughGames
}

// confirmNeed is how many games the confirmation would play on a change
// the race flagged, with pairs p, in a family of n changes confirmed:
// what its interval at the confirmation's level needs to exclude 0 with a
// chance of confirmPower if its difference is the tolerance tol, or three
// quarters of the race's estimate (which the selection flatters) if that
// is larger, and its spread the same; at least the race's first look
// first and at most 32 times the games per change.
func confirmNeed(p *PairCounts, n int, first, perChange int64, tol float64) int64 {
	m := p.scoreHalves()
	want := stats.SampleSize(math.Sqrt(m.Variance())/2, max(tol, 0.75*math.Abs(m.Mean()/2)), confirmLevel(n), 1-confirmPower)
	return int64(max(float64(first), min(want, float64(32*perChange))))
}

// confirmCost is what confirming every change the race flagged (pairs,
// by cell) would cost each cell: their needs and their base's.
func confirmCost(pairs [][]*PairCounts, first, perChange int64, tol float64) []int64 {
	n := 0
	for _, c := range pairs {
		n += len(c)
	}
	cost := make([]int64, len(pairs))
	for ci, c := range pairs {
		var most int64
		for _, p := range c {
			g := confirmNeed(p, n, first, perChange, tol)
			cost[ci], most = cost[ci]+g, max(most, g)
		}
		cost[ci] += most
	}
	return cost
}

// confirmGames is how many games the confirmation plays on each change
// the race flagged (pairs, by cell), 0 for a change it does not confirm.
// It confirms the changes whose needs (confirmNeed, in a family of as
// many as it confirms) fit in budget with their bases' (a cell's base
// plays its largest need), the largest race estimate first; then scales
// their games up, at most four times, so that together they spend
// budget. A flagged change it does not confirm ends as not enough games:
// when a scan has more likely effects than its budget can confirm, it
// confirms the largest, the top of its ranking.
func confirmGames(pairs [][]*PairCounts, first, perChange int64, tol float64, budget int64) [][]int64 {
	type flag struct{ ci, k int }
	var all []flag
	for ci, c := range pairs {
		for k := range c {
			all = append(all, flag{ci, k})
		}
	}
	slices.SortStableFunc(all, func(a, b flag) int {
		return cmp.Compare(math.Abs(pairs[b.ci][b.k].scoreMean()), math.Abs(pairs[a.ci][a.k].scoreMean()))
	})
	out := make([][]int64, len(pairs))
	for ci := range pairs {
		out[ci] = make([]int64, len(pairs[ci]))
	}
	for n := len(all); n > 0; {
		need := func(f flag) int64 { return confirmNeed(pairs[f.ci][f.k], n, first, perChange, tol) }
		most := make([]int64, len(pairs))
		var cost int64
		var take []flag
		for _, f := range all {
			g := need(f)
			if extra := g + max(0, g-most[f.ci]); cost+extra <= budget {
				cost, most[f.ci], take = cost+extra, max(most[f.ci], g), append(take, f)
			}
			if len(take) == n {
				break
			}
		}
		if len(take) < n {
			n = len(take) // a smaller family needs fewer games each
			continue
		}
		scale := min(4, float64(budget)/float64(max(1, cost)))
		for _, f := range take {
			out[f.ci][f.k] = max(1, int64(float64(need(f))*scale))
		}
		break
	}
	return out
}

// scanPlay plays, in cell c, the base rules and each arm, a set of the
// cell's changes applied together (by index into its plan: one change,
// or a screen's group), on the games from .. to−1 of master seed master:
// what they add to the base's counts and to each arm's pairs against the
// base. Sensitivity plays real games; the tests, changes of planted
// effect.
type scanPlay func(c int, arms [][]int, master uint64, from, to int64) (base Counts, pairs []PairCounts, err error)

// singles are the arms of the changes js played alone.
func singles(js []int) [][]int {
	arms := make([][]int, len(js))
	for k, j := range js {
		arms[k] = []int{j}
	}
	return arms
}

// scanBudget is what a scan of perChange games per change may play on a
// cell of changes changes: perChange on each change and on the base, as a
// fixed scan plays.
func scanBudget(perChange int64, changes int) int64 { return perChange * int64(1+changes) }

// raceCells plays a race on the cells of out (each with its changes, no
// counts), perChange games per change on average, and fills in every
// count: first every cell's screen (screenCell: a group screen when the
// cell has many changes); then every cell's hunt, a race on the changes
// its screen finds likely to reach the tolerance, in huntShare of its
// budget; then every cell's settling, a race on its other changes, in
// half of what the hunt left beyond the confirmation's needs (the other
// half is for changes the settling flags, and for more power); then the
// confirmation of what the races flagged, on seeds of
// master seed out.ConfirmSeed. valid says whether a group of a cell's
// changes may be played together (the rules accept them). An error stops
// it where it is, with the counts so far.
func raceCells(out *SensitivityResult, perChange int64, valid func(c int, arm []int) bool, play scanPlay) error {
	tol := cmp.Or(out.Tolerance, DefaultTolerance)
	left := make([]int64, len(out.Cells))     // each cell's budget not yet spent
	screened := make([]int64, len(out.Cells)) // and what its screen spent
	hunt := make([][]int, len(out.Cells))
	settle := make([][]int, len(out.Cells))
	for ci := range out.Cells {
		c := &out.Cells[ci]
		left[ci] = scanBudget(perChange, len(c.Changes))
		var err error
		screened[ci], err = screenCell(c, ci, out.Seed, perChange, tol, func(arm []int) bool { return valid(ci, arm) }, play)
		left[ci] -= screened[ci]
		if err != nil {
			return err
		}
		hunt[ci], settle[ci] = c.raceSets(out.FirstLook, left[ci], tol)
	}
	f := out.family()
	last := lookGames(out.FirstLook, f.looks-1)
	for ci := range out.Cells {
		c := &out.Cells[ci]
		b := float64(scanBudget(perChange, len(c.Changes)))
		race := min(left[ci], int64(max(huntShare*b, (screenShare+huntShare)*b-float64(screened[ci]))))
		spent, err := raceCell(c, ci, hunt[ci], f, false, race, out, c.Screen.seeds(), play)
		left[ci] -= spent
		if err != nil {
			return err
		}
	}
	_, pairs, err := out.flagged(f)
	if err != nil {
		return err
	}
	cost := confirmCost(pairs, out.FirstLook, perChange, tol)
	for ci := range out.Cells {
		c := &out.Cells[ci]
		// The settling plays the seeds after any look of the hunt's.
		spent, err := raceCell(c, ci, settle[ci], f, true, (left[ci]-cost[ci])/2, out, c.Screen.seeds()+last, play)
		left[ci] -= spent
		if err != nil {
			return err
		}
	}
	flagged, pairs, err := out.flagged(f)
	if err != nil {
		return err
	}
	var budget int64
	for ci := range out.Cells {
		budget += left[ci]
	}
	games := confirmGames(pairs, out.FirstLook, perChange, tol, budget)
	for ci, js := range flagged {
		var confirmed []int
		var n []int64
		for k, j := range js {
			if games[ci][k] > 0 {
				confirmed, n = append(confirmed, j), append(n, games[ci][k])
			}
		}
		if len(confirmed) == 0 {
			continue
		}
		if err := confirmCell(&out.Cells[ci], ci, confirmed, n, out.ConfirmSeed, play); err != nil {
			return err
		}
	}
	return nil
}

// flagged is, for each cell of r, the changes its race flagged for the
// confirmation (by index) and their pairs at their last look.
func (r *SensitivityResult) flagged(f scanFamily) (js [][]int, pairs [][]*PairCounts, err error) {
	js, pairs = make([][]int, len(r.Cells)), make([][]*PairCounts, len(r.Cells))
	for ci := range r.Cells {
		c := &r.Cells[ci]
		decisions, err := f.replay(c)
		if err != nil {
			return nil, nil, err
		}
		for j, d := range decisions {
			if d == ScanEffect {
				js[ci] = append(js[ci], j)
				pairs[ci] = append(pairs[ci], c.Changes[j].last())
			}
		}
	}
	return js, pairs, nil
}

// raceCell plays one of a cell's races, its hunt or its settling (as
// settling says), on the changes js, in their order of priority: each on
// the first look's games (from seed off of the scan's), then look after
// look the changes still open on games doubling in number, while the
// next look fits in budget. It returns the games it played.
func raceCell(c *SensitivityCell, ci int, js []int, f scanFamily, settling bool, budget int64, r *SensitivityResult, off int64, play scanPlay) (int64, error) {
	first := r.FirstLook
	open := slices.Clone(js)
	var spent, from int64
	for l := 0; l < f.looks && len(open) > 0; l++ {
		to := lookGames(first, l)
		// When the look does not fit for every open change, it plays
		// those first in js at the first look, and later those nearest a
		// decision (the largest |difference| for its spread) that fit,
		// the base with them.
		fits := (budget-spent)/(to-from) - 1
		if fits < 1 {
			break
		}
		if int64(len(open)) > fits {
			if l > 0 {
				slices.SortStableFunc(open, func(a, b int) int { return cmp.Compare(promise(c.Changes[b].last()), promise(c.Changes[a].last())) })
			}
			open = open[:fits]
		}
		slices.Sort(open)
		cost := (to - from) * int64(1+len(open))
		base, pairs, err := play(ci, singles(open), r.Seed, off+from, off+to)
		if pairs == nil {
			return spent, err
		}
		c.Base.Counts.Merge(&base)
		spent += cost
		look := make([]*PairCounts, len(open))
		for k, j := range open {
			ch := &c.Changes[j]
			next := PairCounts{}
			if len(ch.Looks) > 0 {
				next = ch.Looks[len(ch.Looks)-1]
			}
			next.Merge(&pairs[k])
			ch.Looks = append(ch.Looks, next)
			look[k] = &ch.Looks[l]
		}
		if err != nil {
			return spent, err
		}
		most := lookGames(first, f.looks-1) // what hopeless weighs settling against
		if !settling {
			most = lookGames(first, l+1)
		}
		var still []int
		for k, d := range f.lookDecisions(look) {
			if d == ScanOpen && !hopeless(look[k], f, settling, most) {
				still = append(still, open[k])
			}
		}
		open, from = still, to
	}
	return spent, nil
}

// promise is how near a decision a change's pairs p are: its |mean
// score difference| in standard errors.
func promise(p *PairCounts) float64 {
	m := p.scoreHalves()
	if m.N < 2 {
		return 0
	}
	return math.Abs(m.Mean()) / math.Sqrt(m.Variance()/float64(m.N)+1e-12)
}

// confirmCell plays the confirmation of the flagged changes js of cell c
// on seeds master, change js[k] on games[k] games, in stages: all of them
// up to the fewest games, then those that need more, and so on, the base
// on every game.
func confirmCell(c *SensitivityCell, ci int, js []int, games []int64, master uint64, play scanPlay) error {
	order := make([]int, len(js))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(games[a], games[b]) })
	c.ConfirmBase = &Cell{labels: c.labels}
	for _, j := range js {
		c.Changes[j].Confirm = &PairCounts{}
	}
	var from int64
	for k := range order {
		to := games[order[k]]
		if to <= from {
			continue
		}
		var changes []int
		for _, o := range order[k:] {
			changes = append(changes, js[o])
		}
		base, pairs, err := play(ci, singles(changes), master, from, to)
		if pairs == nil {
			return err
		}
		c.ConfirmBase.Counts.Merge(&base)
		for i, j := range changes {
			c.Changes[j].Confirm.Merge(&pairs[i])
		}
		if err != nil {
			return err
		}
		from = to
	}
	return nil
}
