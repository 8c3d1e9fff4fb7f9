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
// each once. A race screens every change on a first block of games,
// plays on only the changes still open, in looks of doubling size,
// stopping each once it is negligible (within the tolerance) or flagged as
// an effect, then confirms the flagged ones on fresh seeds: the games go
// where the answer is not yet clear, and what the words claim rests on
// games no selection looked at.
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
// confirmation, on fresh seeds, decides, over the changes flagged.
const flagLevel = 0.001

// flagShare: a race flags a change only when its estimate is at least
// this share of the tolerance, so that the confirmation plays the changes
// that may be of the tolerance's size, not every small one the race shows
// real.
const flagShare = 0.75

// settlePower is the chance with which "the games it would take" would
// settle an answer, if the difference and its spread stay as measured.
const settlePower = 0.8

// raceLooks is how many looks a race may take: the screen and five
// doublings, up to 32 times the screen's games on one change.
const raceLooks = 6

// raceDrop is the level of the interval by which a race stops playing an
// open change that is probably within the tolerance (hopeless).
const raceDrop = 0.2

// hopeless reports whether a race stops playing an open change with the
// pairs p: it is probably within the tolerance (its interval at level
// raceDrop lies inside it: a one-sided chance of raceDrop/2 that a change
// at the tolerance's edge is stopped so at a look), and settling it
// would take more games than the race's last look, most. Such a change is
// no claim (it stays open: not enough games); the race spends its games
// where a change may be an effect of the tolerance's size, or where an
// answer is near.
func hopeless(p *PairCounts, f scanFamily, most int64) bool {
	return scoreInterval(p, raceDrop).Against(-f.tol, f.tol) == stats.Inside && pairsToSettle(p, f.alpha, f.tol) > most
}

// raceShare is the part of a cell's budget its screen and race may spend
// together; the rest, with what they left, is the confirmation's.
const raceShare = 0.65

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
// their pairs so far: negligible when the interval at level alpha lies
// within ±tol; else an effect when flagged; else open. A race flags by
// Benjamini–Hochberg at ScreenFDR over the changes not negligible (the
// confirmation decides what they are); a fixed scan, which has no
// confirmation, when the interval excludes 0.
func lookDecisions(pairs []*PairCounts, alpha, tol float64, design SensitivityDesign) []ScanDecision {
	out := make([]ScanDecision, len(pairs))
	for i, p := range pairs {
		ci := scoreInterval(p, alpha)
		switch {
		case ci.Against(-tol, tol) == stats.Inside:
			out[i] = ScanNegligible
		case design == DesignFixed && ci.Excludes(0):
			out[i] = ScanEffect
		case design == DesignRace && math.Abs(p.scoreMean()) >= flagShare*tol && scoreInterval(p, flagLevel).Excludes(0):
			out[i] = ScanEffect
		}
	}
	return out
}

// scanFamily is what a scan's decisions need of its result: the level of
// its intervals (over every change it played alone, at every look), its
// tolerance, its design and how many looks it may take.
type scanFamily struct {
	alpha, tol float64
	design     SensitivityDesign
	looks      int
}

// family is the scan's family of intervals: their level and tolerance.
func (r *SensitivityResult) family() scanFamily {
	m := 0
	for i := range r.Cells {
		for _, ch := range r.Cells[i].Changes {
			if len(ch.Looks) > 0 {
				m++ // a change a race's screen did not choose is no test
			}
		}
	}
	looks := 1
	if r.Design == DesignRace {
		looks = r.MaxLooks
	}
	return scanFamily{alpha: scanLevel(m, looks), tol: cmp.Or(r.Tolerance, DefaultTolerance), design: r.Design, looks: looks}
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
		for k, d := range lookDecisions(pairs, f.alpha, f.tol, f.design) {
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

// gamesToSettle is about how many games in all an answer at level alpha
// would take to settle, with a chance of settlePower if the difference
// mean and its spread sd (of one game) stay as measured: to exclude 0, or
// to lie within ±tol, whichever needs fewer (stats.SampleSize). At most
// MaxGames.
func gamesToSettle(mean, sd, alpha, tol float64) int64 {
	n := min(stats.SampleSize(sd, math.Abs(mean), alpha, 1-settlePower), stats.SampleSize(sd, tol-math.Abs(mean), alpha, 1-settlePower))
	return int64(min(n, MaxGames))
}

// pairsToSettle is gamesToSettle for the paired score differences p.
func pairsToSettle(p *PairCounts, alpha, tol float64) int64 {
	m := p.scoreHalves()
	return gamesToSettle(m.Mean()/2, math.Sqrt(m.Variance())/2, alpha, tol)
}

// confirmGames is how many games the confirmation plays on each change
// the race flagged, over every cell: what each needs for its interval
// at the confirmation's level to exclude 0 with a chance of settlePower if
// its difference is three quarters of the race's estimate (which the
// selection flatters) and its spread the same, at least the screen's and
// at most 32 times the games per change; then scaled, up to four times or
// down, so that together they spend budget (each change's games and the
// base's, the most of a cell's), at least one game each.
func confirmGames(flagged [][]*PairCounts, screen, perChange, budget int64) [][]int64 {
	var n int
	for _, c := range flagged {
		n += len(c)
	}
	alpha := confirmLevel(n)
	out := make([][]int64, len(flagged))
	var cost int64
	for i, c := range flagged {
		out[i] = make([]int64, len(c))
		var most int64
		for j, p := range c {
			m := p.scoreHalves()
			want := stats.SampleSize(math.Sqrt(m.Variance())/2, 0.75*math.Abs(m.Mean()/2), alpha, 1-settlePower)
			out[i][j] = int64(max(float64(screen), min(want, float64(32*perChange))))
			cost += out[i][j]
			most = max(most, out[i][j])
		}
		cost += most
	}
	if cost > 0 {
		scale := min(4, float64(budget)/float64(cost))
		for i := range out {
			for j := range out[i] {
				out[i][j] = max(1, int64(float64(out[i][j])*scale))
			}
		}
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
// cell has many changes), then every cell's race on the changes its
// screen selects, then the confirmation of what the races flagged, on
// seeds of master seed out.ConfirmSeed. valid says whether a group of a
// cell's changes may be played together (the rules accept them). An error
// stops it where it is, with the counts so far.
func raceCells(out *SensitivityResult, perChange int64, valid func(c int, arm []int) bool, play scanPlay) error {
	left := make([]int64, len(out.Cells)) // each cell's budget not yet spent
	raced := make([][]int, len(out.Cells))
	m := 0
	for ci := range out.Cells {
		c := &out.Cells[ci]
		left[ci] = scanBudget(perChange, len(c.Changes))
		spent, err := screenCell(c, ci, out.Seed, perChange, func(arm []int) bool { return valid(ci, arm) }, play)
		left[ci] -= spent
		if err != nil {
			return err
		}
		raced[ci] = c.raceSet(out.FirstLook, left[ci], cmp.Or(out.Tolerance, DefaultTolerance))
		m += len(raced[ci])
	}
	f := out.family()
	f.alpha = scanLevel(m, f.looks) // the family is what the screens chose to race
	var confirmBudget int64
	flagged := make([][]int, len(out.Cells))
	for ci := range out.Cells {
		c := &out.Cells[ci]
		race := left[ci] - int64((1-raceShare)*float64(scanBudget(perChange, len(c.Changes))))
		spent, err := raceCell(c, ci, raced[ci], f, out.FirstLook, race, out.Seed, play)
		left[ci] -= spent
		confirmBudget += left[ci]
		if err != nil {
			return err
		}
		decisions, err := f.replay(c)
		if err != nil {
			return err
		}
		for j, d := range decisions {
			if d == ScanEffect {
				flagged[ci] = append(flagged[ci], j)
			}
		}
	}
	pairs := make([][]*PairCounts, len(out.Cells))
	for ci, js := range flagged {
		for _, j := range js {
			pairs[ci] = append(pairs[ci], out.Cells[ci].Changes[j].last())
		}
	}
	games := confirmGames(pairs, out.FirstLook, perChange, confirmBudget)
	for ci, js := range flagged {
		if len(js) == 0 {
			continue
		}
		if err := confirmCell(&out.Cells[ci], ci, js, games[ci], out.ConfirmSeed, play); err != nil {
			return err
		}
	}
	return nil
}

// raceCell plays one cell's race on the changes js: each on the first
// look's games (after the screen's seeds), then look after look the
// changes still open on games doubling in number, while the next look
// fits in budget. It returns the games it played.
func raceCell(c *SensitivityCell, ci int, js []int, f scanFamily, first, budget int64, seed uint64, play scanPlay) (int64, error) {
	off := c.Screen.seeds()
	open := js
	var spent, from int64
	for l := 0; l < f.looks && len(open) > 0; l++ {
		to := lookGames(first, l)
		// When the look does not fit for every open change, it plays
		// those nearest a decision (the largest |difference| for its
		// spread) that fit, the base with them.
		if l > 0 {
			fits := (budget-spent)/(to-from) - 1
			if fits < 1 {
				break
			}
			if int64(len(open)) > fits {
				slices.SortStableFunc(open, func(a, b int) int { return cmp.Compare(promise(c.Changes[b].last()), promise(c.Changes[a].last())) })
				open = open[:fits]
				slices.Sort(open)
			}
		}
		cost := (to - from) * int64(1+len(open))
		base, pairs, err := play(ci, singles(open), seed, off+from, off+to)
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
		var still []int
		for k, d := range lookDecisions(look, f.alpha, f.tol, f.design) {
			if d == ScanOpen && !hopeless(look[k], f, lookGames(first, f.looks-1)) {
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
