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

// screenShare is the part of a cell's budget its screen spends.
const screenShare = 0.25

// raceCap: a race after a screen plays at most as many changes as its
// budget gives raceCap first looks each, the likeliest to be large: the
// fewer it plays, the further it can follow each.
const raceCap = 6

// screenZ is how many standard errors a screen's estimate may be off for
// the race to play the change: the race plays a change whose estimate,
// so widened (a one-sided 95 %), reaches half the tolerance (a screen
// estimates a change among others, which can hide some of it alone).
const screenZ = 1.645

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
	rng := rand.New(rand.NewPCG(seed^uint64(cell), deal.StreamScreen))
	parts := make([][][]int, screenPartitions)
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
// or more: every partition's groups on its block of the scan's seeds
// (master seed seed), screenShare of the cell's budget of perChange games
// a change. It returns the games it played.
func screenCell(c *SensitivityCell, ci int, seed uint64, perChange int64, valid func([]int) bool, play scanPlay) (int64, error) {
	if len(c.Changes) < ScreenMinChanges {
		return 0, nil
	}
	paths := make([]string, len(c.Changes))
	for j := range c.Changes {
		paths[j] = c.Changes[j].Path
	}
	parts := screenGroups(paths, seed, ci, valid)
	var perSeed int64 // games a seed plays, over every partition
	for _, groups := range parts {
		perSeed += int64(1 + len(groups))
	}
	b := int64(screenShare * float64(scanBudget(perChange, len(c.Changes))) / float64(perSeed))
	if b < 1 {
		return 0, nil
	}
	c.Screen = &SensitivityScreen{SeedsPerPartition: b, Partitions: len(parts)}
	var spent int64
	for p, groups := range parts {
		base, pairs, err := play(ci, groups, seed, int64(p)*b, int64(p+1)*b)
		if pairs == nil {
			return spent, err
		}
		c.Base.Counts.Merge(&base)
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

// raceSet is the changes a cell's race plays, in the order of the cell:
// without a screen every one; with one, those whose screen estimate,
// widened by screenZ standard errors, reaches half the tolerance tol, the
// likeliest to be large first while their first look's games (each
// change's and the base's) fit in a third of budget. A change the screen
// could not estimate is raced.
func (c *SensitivityCell) raceSet(first, budget int64, tol float64) []int {
	est := c.screenEstimates()
	all := make([]int, len(c.Changes))
	for j := range all {
		all[j] = j
	}
	if c.Screen == nil {
		return all
	}
	reach := func(j int) float64 {
		if est == nil || est[j] == nil {
			return math.Inf(1)
		}
		return math.Abs(est[j].Diff) + screenZ*est[j].SE
	}
	var set []int
	for _, j := range all {
		if reach(j) >= tol/2 {
			set = append(set, j)
		}
	}
	slices.SortStableFunc(set, func(a, b int) int { return cmp.Compare(reach(b), reach(a)) })
	most := max(0, budget/(raceCap*first)-1)
	set = set[:min(len(set), int(most))]
	slices.Sort(set)
	return set
}
