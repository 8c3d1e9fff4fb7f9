package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"tallywood/sim/deal"
	"tallywood/sim/stats"
)

// A race's screen: a first pass over every change of a cell with many,
// in which every game informs many changes. A casual player's games
// diverge under almost any change (2–30 % of the paired games differ), so
// one change against the base is nearly as noisy as a game against
// another; a game of the base rules with sixteen changes at once is
// hardly noisier, and it measures all sixteen. So the screen deals the
// changes into groups of screenGroupSize (a random balance design,
// Satterthwaite 1959, in several partitions: every change in one group of
// each), plays every group against the base on the same seeds, and
// estimates each change by least squares over the groups it was in
// (stats.GroupEffects; group screening, Watson 1961). Its estimates are of
// a change among fifteen others, not alone, so they claim nothing: they
// choose which changes the race plays alone, where every claim is made.

// screenGroupSize is how many changes a screen's group plays at once:
// enough that a game informs many changes, few enough (a tenth of the
// fields) that the group's rules stay near the base.
const screenGroupSize = 16

// screenPartitions is how many ways a screen deals a cell's changes into
// groups: each change meets many others, so that the estimates tell them
// apart.
const screenPartitions = 64

// ScreenMinChanges is the fewest changes a cell has for a race to screen
// them: with fewer, each is raced alone from the first look.
const ScreenMinChanges = 4 * screenGroupSize

// screenRounds is how many rounds of screenPartitions partitions a screen
// may play, each on screenShare of the cell's budget.
const screenRounds = 2

// screenDense is the share of a cell's changes that a screen's first
// round must find at the tolerance or beyond for the screen to stop
// there. On the simulations of TestNegligibleCalibration and
// TestScanOnRealSizes, a first round finds 3–12 % of the changes so
// where a few are planted among inert ones (the skilled player's noisier
// games the most), and 21–40 % in the real scans of casual and skilled.
const screenDense = 0.15

// screenShare is the part of a cell's budget a screen's round spends. A
// game of the screen informs sixteen changes, a game of the race one: a
// longer screen lets the race hunt fewer changes that only the screen's
// noise made look large (planted among inert ones, a 2-point change was
// found in 79 % of chances with one round of 40 %, 92 % with two of 25 %),
// but takes games from the hunt and the confirmation when many changes
// matter.
const screenShare = 0.25

// raceCap: a race after a screen hunts at most as many changes as its
// budget gives raceCap first looks each, the likeliest to be large: the
// fewer it hunts, the further it can follow each.
const raceCap = 6

// screenZ is how many standard errors a screen's estimate may be off for
// the race to hunt the change: it hunts a change whose estimate, so
// widened, reaches the tolerance, so that a change of the tolerance's size
// escapes the hunt only when the screen underestimates it by two
// standard errors (2.3 %).
const screenZ = 2.0

// SensitivityScreen is one cell's screen: its groups and what each
// played against the base.
type SensitivityScreen struct {
	// SeedsPerPartition is how many seeds each partition plays: partition
	// p the scan's games p·SeedsPerPartition … (p+1)·SeedsPerPartition−1.
	// The race plays the games after every partition's.
	SeedsPerPartition int64         `json:"seeds_per_partition"`
	Partitions        int           `json:"partitions"`
	Groups            []ScreenGroup `json:"groups"`
}

// ScreenGroup is one group of a screen: changes played together, against
// the base on the seeds of its partition.
type ScreenGroup struct {
	Partition int        `json:"partition"`
	Changes   []int      `json:"changes"` // indexes into the cell's changes
	Pairs     PairCounts `json:"pairs_vs_base"`
}

// ScreenEstimate is a screen's estimate of a change's score difference
// (among others), its standard error, and the spread of one group's
// paired difference, which a change alone does not exceed by much: what
// "the games it would take" assumes of a change the race did not play.
type ScreenEstimate struct {
	Diff float64 `json:"diff"`
	SE   float64 `json:"se"`
	SD   float64 `json:"sd"`
}

// seeds is how many of the scan's seeds the screen played: none without
// one.
func (s *SensitivityScreen) seeds() int64 {
	if s == nil {
		return 0
	}
	return s.SeedsPerPartition * int64(s.Partitions)
}

// screenGroups deals a cell's changes into the groups of its partitions:
// each partition a shuffle of the changes dealt into groups of
// screenGroupSize, never two changes of one field in a group; a group
// whose rules valid refuses is split in halves until they are accepted
// (one change alone always is). paths are the changes' fields; seed and
// cell seed the shuffles.
func screenGroups(paths []string, seed uint64, cell int, valid func([]int) bool) [][][]int {
	// Every round's partitions, the first round's first.
	rng := rand.New(rand.NewPCG(seed^uint64(cell), deal.StreamScreen))
	parts := make([][][]int, screenRounds*screenPartitions)
	for p := range parts {
		var groups [][]int
		for _, j := range rng.Perm(len(paths)) {
			g := slices.IndexFunc(groups, func(g []int) bool {
				return len(g) < screenGroupSize && !slices.ContainsFunc(g, func(o int) bool { return paths[o] == paths[j] })
			})
			if g < 0 {
				groups = append(groups, nil)
				g = len(groups) - 1
			}
			groups[g] = append(groups[g], j)
		}
		for len(groups) > 0 {
			g := groups[0]
			groups = groups[1:]
			if len(g) > 1 && !valid(g) {
				groups = append(groups, g[:len(g)/2], g[len(g)/2:])
				continue
			}
			slices.Sort(g)
			parts[p] = append(parts[p], g)
		}
	}
	return parts
}

// screenCell plays cell c's screen, when it has ScreenMinChanges changes
// or more: each partition's groups on its block of the scan's seeds
// (master seed seed), in rounds of screenPartitions partitions, each
// round screenShare of the cell's budget of perChange games a change. It
// plays a second round only when the first found fewer than a
// screenDense share of the changes at the tolerance tol or beyond: when
// the changes that matter are few, a longer screen keeps the race from
// hunting changes that only its noise made look large; when they are
// many, the race and the confirmation need the games more. It returns
// the games it played.
func screenCell(c *SensitivityCell, ci int, seed uint64, perChange int64, tol float64, valid func([]int) bool, play scanPlay) (int64, error) {
	if len(c.Changes) < ScreenMinChanges {
		return 0, nil
	}
	paths := make([]string, len(c.Changes))
	for j := range c.Changes {
		paths[j] = c.Changes[j].Path
	}
	parts := screenGroups(paths, seed, ci, valid)
	var perSeed int64 // games a seed plays, over a round's partitions
	for _, groups := range parts[:screenPartitions] {
		perSeed += int64(1 + len(groups))
	}
	b := int64(screenShare * float64(scanBudget(perChange, len(c.Changes))) / float64(perSeed))
	if b < 1 {
		return 0, nil
	}
	c.Screen = &SensitivityScreen{SeedsPerPartition: b}
	var spent int64
	for p, groups := range parts {
		if p == screenPartitions && c.screenDense(tol) {
			break
		}
		base, pairs, err := play(ci, groups, seed, int64(p)*b, int64(p+1)*b)
		if pairs == nil {
			return spent, err
		}
		c.Base.Counts.Merge(&base)
		c.Screen.Partitions = p + 1
		spent += b * int64(1+len(groups))
		for k, g := range groups {
			c.Screen.Groups = append(c.Screen.Groups, ScreenGroup{Partition: p, Changes: g, Pairs: pairs[k]})
		}
		if err != nil {
			return spent, err
		}
	}
	return spent, nil
}

// screenDense reports whether c's screen so far finds a screenDense share
// of its changes at the tolerance tol or beyond.
func (c *SensitivityCell) screenDense(tol float64) bool {
	est := c.screenEstimates()
	n := 0
	for _, e := range est {
		if e != nil && math.Abs(e.Diff) >= tol {
			n++
		}
	}
	return float64(n) >= screenDense*float64(len(c.Changes))
}

// screenEstimates are the screen's estimate of each change of c (nil
// without a screen, or when its groups do not tell the changes apart).
func (c *SensitivityCell) screenEstimates() []*ScreenEstimate {
	if c.Screen == nil {
		return nil
	}
	groups := make([][]int, len(c.Screen.Groups))
	ms := make([]stats.Moments, len(c.Screen.Groups))
	for g := range c.Screen.Groups {
		groups[g], ms[g] = c.Screen.Groups[g].Changes, c.Screen.Groups[g].Pairs.scoreHalves()
	}
	est, se, err := stats.GroupEffects(len(c.Changes), groups, ms)
	if err != nil {
		return nil
	}
	var all stats.Moments
	for _, m := range ms {
		all.Merge(m)
	}
	sd := math.Sqrt(all.Variance()) / 2
	out := make([]*ScreenEstimate, len(c.Changes))
	for j := range out {
		if !math.IsInf(se[j], 0) {
			out[j] = &ScreenEstimate{Diff: est[j] / 2, SE: se[j] / 2, SD: sd} // from halves of a point
		}
	}
	return out
}

// raceSets are the changes a cell's race plays: those it hunts, first,
// and those it settles with the games the hunt leaves. Without a screen
// it hunts every change. With one, it hunts the changes whose screen
// estimate, widened by screenZ standard errors, reaches the tolerance tol
// (a change of the tolerance's size is hunted unless the screen
// underestimates it by screenZ standard errors), the likeliest to be
// large first while their first look's games (each change's and the
// base's) fit in a raceCap-th of budget; and settles the others, the
// likeliest to be negligible first. A change the screen could not
// estimate is hunted.
func (c *SensitivityCell) raceSets(first, budget int64, tol float64) (hunt, settle []int) {
	est := c.screenEstimates()
	all := make([]int, len(c.Changes))
	for j := range all {
		all[j] = j
	}
	if c.Screen == nil {
		return all, nil
	}
	reach := func(j int) float64 {
		if est == nil || est[j] == nil {
			return math.Inf(1)
		}
		return math.Abs(est[j].Diff) + screenZ*est[j].SE
	}
	slices.SortStableFunc(all, func(a, b int) int { return cmp.Compare(reach(b), reach(a)) })
	most := int(max(0, budget/(raceCap*first)-1))
	n := slices.IndexFunc(all, func(j int) bool { return reach(j) < tol })
	if n < 0 {
		n = len(all)
	}
	n = min(n, most)
	hunt, settle = all[:n], all[n:]
	slices.Reverse(settle)
	return hunt, settle
}
