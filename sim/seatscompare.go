package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// Comparing two rule sets on studies of several players: the same deals,
// the same lineup and seatings, under rules A and under rules B. A row's
// difference is paired by deal (its score in the deal under B minus under
// A), so the deal's cards cancel out of the comparison.

// FormatSeatsCompare names the JSON document of a comparison of two rule
// sets at a table. Results before it had no format and no counts, and
// cannot be read.
//
// /2 records what the arms' rules differ in (changes); /1 reads without.
const FormatSeatsCompare = "tallywood-table-compare/2"

// KindSeatsCompare is the kind of a comparison at a table (compare
// --seats).
const KindSeatsCompare Kind = "table-compare"

func init() { registerKind(KindSeatsCompare, func() Study { return &SeatsCompareResult{} }) }

// SeatsArm is one arm of a comparison at a table: its rules and name.
type SeatsArm struct {
	Name  string
	Rules *engine.Rules
}

// PairedSums are the mergeable paired sums of one row: per deal, the
// row's wins and score (in twelfths) under B minus under A, summed and
// squared-and-summed over the deals.
type PairedSums struct {
	WinsDiff      int64 `json:"wins_diff_sum"`
	WinsDiffSq    int64 `json:"wins_diff_sum_sq"`
	Score12Diff   int64 `json:"score12_diff_sum"`
	Score12DiffSq int64 `json:"score12_diff_sum_sq"`
	Deals         int64 `json:"deals"`
}

func (p *PairedSums) add(a, b *RowCounts) {
	dw, ds := b.Wins-a.Wins, b.Score12-a.Score12
	p.WinsDiff += dw
	p.WinsDiffSq += dw * dw
	p.Score12Diff += ds
	p.Score12DiffSq += ds * ds
	p.Deals++
}

// SeatsCompareRow is one row of a comparison: the row under each arm and
// B − A with its 95 % t-interval over deals.
type SeatsCompareRow struct {
	Name                string     `json:"name"`
	A                   SeatsRow   `json:"a"`
	B                   SeatsRow   `json:"b"`
	WinRateDiff         float64    `json:"win_rate_diff"`
	WinRateDiffCI95     [2]float64 `json:"win_rate_diff_ci95"`
	MeanScoreDiff       float64    `json:"mean_score_diff"`
	MeanScoreDiffCI95   [2]float64 `json:"mean_score_diff_ci95"`
	MeanScoreDiffPValue float64    `json:"mean_score_diff_p"`
	// MeanScoreDiffPHolm is the p-value adjusted for every row of the
	// comparison (Holm), the one to read when several rows are tested.
	MeanScoreDiffPHolm float64 `json:"mean_score_diff_p_holm"`
}

// SeatsPairCounts are the mergeable sums of a comparison at a table:
// each arm's, and per row the paired sums over deals.
type SeatsPairCounts struct {
	A          SeatsCounts  `json:"a"`
	B          SeatsCounts  `json:"b"`
	Policies   []PairedSums `json:"by_policy"`
	Initiative []PairedSums `json:"by_initiative"`
}

func (t *SeatsPairCounts) merge(o *SeatsPairCounts) {
	t.A.merge(&o.A)
	t.B.merge(&o.B)
	for i := range t.Policies {
		t.Policies[i].merge(&o.Policies[i])
	}
	for i := range t.Initiative {
		t.Initiative[i].merge(&o.Initiative[i])
	}
}

// SeatsCompareResult is the output of CompareSeats.
type SeatsCompareResult struct {
	Envelope
	A       ArmInfo             `json:"a"`
	B       ArmInfo             `json:"b"`
	Changes []engine.Difference `json:"changes"` // what B's rules differ in from A's (engine.Diff)
	Deals   int64               `json:"deals"`   // before sharding, played under both arms
	Players int                 `json:"players"`
	Lineup  []string            `json:"lineup"`
	Counts  SeatsPairCounts     `json:"counts"`
	// Failed counts the deals left out because a game of theirs failed
	// (policy.FailedError, under either arm), and lists the first.
	Failed
	Policies   []SeatsCompareRow `json:"policies"`
	Initiative []SeatsCompareRow `json:"initiative"`
	// The first-seat advantage under each arm, and B − A (it is the
	// Initiative 1 row's score difference).
	FirstSeatAdvantage     [2]float64 `json:"first_seat_advantage"`
	FirstSeatAdvantageDiff float64    `json:"first_seat_advantage_diff"`
	FirstSeatDiffCI95      [2]float64 `json:"first_seat_advantage_diff_ci95"`
}

func (r *SeatsCompareResult) formats() []string {
	return []string{FormatSeatsCompare, "tallywood-table-compare/1"}
}

func (r *SeatsCompareResult) sameRun(first Study) []field {
	f := first.(*SeatsCompareResult)
	return []field{
		{"arm A", r.A.equal(f.A), r.A.text(), f.A.text()},
		{"arm B", r.B.equal(f.B), r.B.text(), f.B.text()},
		sameField("deals", r.Deals, f.Deals),
		{"lineup", slices.Equal(r.Lineup, f.Lineup), strings.Join(r.Lineup, ","), strings.Join(f.Lineup, ",")},
	}
}

// check reports a decoded comparison that no run can produce: each arm's
// counts as a study's, and paired sums over the same deals.
func (r *SeatsCompareResult) check(share func(int64) int64) error {
	if err := checkArms(&r.A, &r.B); err != nil {
		return err
	}
	if err := checkSeconds("elapsed_seconds", r.ElapsedSeconds); err != nil {
		return err
	}
	if err := checkLineup(r.Players, r.Lineup); err != nil {
		return err
	}
	n := share(r.Deals)
	c := &r.Counts
	if err := c.A.check(r.Players, r.Lineup, n, r.Errors, len(r.Failures), r.Interrupted); err != nil {
		return fmt.Errorf("counts.a: %v", err)
	}
	if err := c.B.check(r.Players, r.Lineup, n, r.Errors, len(r.Failures), r.Interrupted); err != nil {
		return fmt.Errorf("counts.b: %v", err)
	}
	if c.A.Deals != c.B.Deals {
		return fmt.Errorf("counts: arm A played %d deals, arm B %d", c.A.Deals, c.B.Deals)
	}
	if len(c.Policies) != len(c.A.Policies) || len(c.Initiative) != len(c.A.Initiative) {
		return fmt.Errorf("counts: %d and %d paired rows, want %d and %d", len(c.Policies), len(c.Initiative), len(c.A.Policies), len(c.A.Initiative))
	}
	a, b := slices.Concat(c.A.Policies, c.A.Initiative), slices.Concat(c.B.Policies, c.B.Initiative)
	for i, p := range slices.Concat(c.Policies, c.Initiative) {
		if err := p.check(&a[i], &b[i], c.A.Deals, r.Players); err != nil {
			return fmt.Errorf("counts: paired row %d: %v", i+1, err)
		}
	}
	return nil
}

// check reports paired sums over deals that no comparison of players
// can produce, or that contradict the row's counts under each arm, a and
// b: the paired sums are B's minus A's, and the squares fit the sums
// (stats.Moments.Possible) and both arms' squares of each deal's sums.
func (p *PairedSums) check(a, b *RowCounts, deals int64, players int) error {
	// A row's wins in a deal differ by at most its games in the deal, at
	// most players·players (every seat, every rotation), and its score by
	// 12 times that.
	most := int64(players * players)
	switch {
	case p.Deals != deals:
		return fmt.Errorf("%d deals, want %d", p.Deals, deals)
	case !(stats.Moments{N: deals, Sum: p.WinsDiff, SumSq: p.WinsDiffSq}).Possible(most):
		return fmt.Errorf("wins_diff_sum %d and wins_diff_sum_sq %d do not fit %d deals", p.WinsDiff, p.WinsDiffSq, deals)
	case !(stats.Moments{N: deals, Sum: p.Score12Diff, SumSq: p.Score12DiffSq}).Possible(12 * most):
		return fmt.Errorf("score12_diff_sum %d and score12_diff_sum_sq %d do not fit %d deals", p.Score12Diff, p.Score12DiffSq, deals)
	case p.WinsDiff != b.Wins-a.Wins:
		return fmt.Errorf("wins_diff_sum %d is not arm B's wins − arm A's (%d)", p.WinsDiff, b.Wins-a.Wins)
	case p.Score12Diff != b.Score12-a.Score12:
		return fmt.Errorf("score12_diff_sum %d is not arm B's score12_sum − arm A's (%d)", p.Score12Diff, b.Score12-a.Score12)
	// (y − x)² ≤ 2x² + 2y², deal by deal.
	case p.WinsDiffSq > 2*(a.DealWinsSq+b.DealWinsSq):
		return fmt.Errorf("wins_diff_sum_sq %d is more than twice the arms' deal_wins_sum_sq (%d and %d)", p.WinsDiffSq, a.DealWinsSq, b.DealWinsSq)
	case p.Score12DiffSq > 2*(a.DealScore12Sq+b.DealScore12Sq):
		return fmt.Errorf("score12_diff_sum_sq %d is more than twice the arms' deal_score12_sum_sq (%d and %d)", p.Score12DiffSq, a.DealScore12Sq, b.DealScore12Sq)
	}
	return nil
}

func (r *SeatsCompareResult) clone() Study {
	out := *r
	c := &out.Counts
	c.A, c.B = c.A.clone(), c.B.clone()
	c.Policies, c.Initiative = slices.Clone(c.Policies), slices.Clone(c.Initiative)
	out.Failures = slices.Clone(r.Failures)
	return &out
}

func (r *SeatsCompareResult) add(o Study) {
	t := o.(*SeatsCompareResult)
	r.Counts.merge(&t.Counts)
	r.Failed.add(&t.Failed)
}

// FailedItems lists the study's failed deals.
func (r *SeatsCompareResult) FailedItems() []FailedItems { return r.Failed.items() }

// Played is the deals played under both arms, of the study's.
func (r *SeatsCompareResult) Played() (n, total int64, unit string) {
	return r.Counts.A.Deals, r.Deals, "deals"
}

// derive makes the rows from the counts: each arm's, B − A paired by
// deal, Holm's adjustment over every row, and the first-seat advantage.
func (r *SeatsCompareResult) derive() {
	r.Format = FormatSeatsCompare // an older format is read into this one
	c := &r.Counts
	names, index := policyNames(r.Lineup)
	n := int64(r.Players)
	deals := c.A.Deals
	r.Policies, r.Initiative = nil, nil
	for i, name := range names {
		r.Policies = append(r.Policies, compareRow(name, &c.A.Policies[i], &c.B.Policies[i], &c.Policies[i], deals, n*seatsOf(index, i)))
	}
	for k := range r.Players {
		r.Initiative = append(r.Initiative, compareRow(fmt.Sprintf("initiative %d", k+1), &c.A.Initiative[k], &c.B.Initiative[k], &c.Initiative[k], deals, n))
	}
	var ps []float64
	for _, rows := range [][]SeatsCompareRow{r.Policies, r.Initiative} {
		for _, row := range rows {
			ps = append(ps, row.MeanScoreDiffPValue)
		}
	}
	holm := stats.Holm(ps)
	for i := range r.Policies {
		r.Policies[i].MeanScoreDiffPHolm = holm[i]
	}
	for i := range r.Initiative {
		r.Initiative[i].MeanScoreDiffPHolm = holm[len(r.Policies)+i]
	}
	fair := 1 / float64(n)
	first := r.Initiative[0]
	r.FirstSeatAdvantage = [2]float64{first.A.MeanScore - fair, first.B.MeanScore - fair}
	r.FirstSeatAdvantageDiff = first.MeanScoreDiff
	r.FirstSeatDiffCI95 = first.MeanScoreDiffCI95
	r.setTiming(c.A.Games+c.B.Games, r.ElapsedSeconds)
}

// seatsPairs are a worker's sums of a comparison.
type seatsPairs struct {
	arms       [2]SeatsCounts
	policies   []PairedSums
	initiative []PairedSums
}

// CompareSeats plays cfg's deals under the rules of arms a and b (cfg.Rules
// is not used) and compares them row by row, paired by deal. The result
// does not depend on the workers; a cancelled ctx stops after the games in
// play, leaving out the deals they belong to, and marks it Interrupted. A
// deal with a failed game under either arm is left out of both and counted
// in the errors, as in RunSeats.
func CompareSeats(ctx context.Context, cfg SeatsConfig, a, b SeatsArm) (*SeatsCompareResult, error) {
	if err := checkSeats(&cfg, a.Rules, b.Rules); err != nil {
		return nil, err
	}
	l := layoutOf(&cfg)
	newPairs := func() SeatsPairCounts {
		return SeatsPairCounts{
			A: l.newCounts(), B: l.newCounts(),
			Policies:   make([]PairedSums, len(l.names)),
			Initiative: make([]PairedSums, len(l.lineup)),
		}
	}
	work := make([]SeatsPairCounts, cfg.tableWorkers())
	for w := range work {
		work[w] = newPairs()
	}
	start := time.Now()
	run, err := runDeals(ctx, &cfg, []*engine.Rules{a.Rules, b.Rules}, &l, func(w int, deal []SeatsCounts) {
		t := &work[w]
		t.A.addDeal(&deal[0])
		t.B.addDeal(&deal[1])
		for i := range t.Policies {
			t.Policies[i].add(&deal[0].Policies[i], &deal[1].Policies[i])
		}
		for i := range t.Initiative {
			t.Initiative[i].add(&deal[0].Initiative[i], &deal[1].Initiative[i])
		}
	})
	if err != nil && !errors.Is(err, ErrTooManyFailed) {
		return nil, err
	}
	total := newPairs()
	for w := range work {
		total.merge(&work[w])
	}
	res := &SeatsCompareResult{
		Envelope: newEnvelope(KindSeatsCompare, FormatSeatsCompare, cfg.Seed, cfg.Shard),
		A:        armInfo(a.Name, a.Rules), B: armInfo(b.Name, b.Rules), Changes: engine.Diff(a.Rules, b.Rules),
		Deals: cfg.Deals, Players: len(l.lineup), Lineup: l.lineup, Counts: total,
	}
	run.record(&res.Envelope, &res.Failed, start)
	res.derive()
	return res, err
}

func (p *PairedSums) merge(o *PairedSums) {
	p.WinsDiff += o.WinsDiff
	p.WinsDiffSq += o.WinsDiffSq
	p.Score12Diff += o.Score12Diff
	p.Score12DiffSq += o.Score12DiffSq
	p.Deals += o.Deals
}

// compareRow makes a row of a comparison from its sums over deals, perDeal
// of the row's games in each deal.
func compareRow(name string, a, b *RowCounts, p *PairedSums, deals, perDeal int64) SeatsCompareRow {
	g := float64(perDeal)
	wins := stats.Moments{N: deals, Sum: p.WinsDiff, SumSq: p.WinsDiffSq}.MeanInterval(0.05)
	s := stats.Moments{N: deals, Sum: p.Score12Diff, SumSq: p.Score12DiffSq}
	mean, score, pval := s.Mean(), s.MeanInterval(0.05), s.TTest()
	return SeatsCompareRow{
		Name: name,
		A:    newSeatsRow(name, a, deals, perDeal),
		B:    newSeatsRow(name, b, deals, perDeal),
		// Both arms play the same number of games, so the difference of
		// the rates is the mean per-deal difference over the row's games.
		WinRateDiff:         ratio(b.Wins, b.Games) - ratio(a.Wins, a.Games),
		WinRateDiffCI95:     [2]float64{wins.Lo / g, wins.Hi / g},
		MeanScoreDiff:       mean / (12 * g),
		MeanScoreDiffCI95:   [2]float64{score.Lo / (12 * g), score.Hi / (12 * g)},
		MeanScoreDiffPValue: pval,
	}
}

// TableUnreadWarning is UnreadWarning for a comparison of rules a and b
// at a table of players (compare --seats): a game without the Opposition.
func TableUnreadWarning(a, b *engine.Rules, players int) string {
	fields := engine.Unread(a, b, func(s engine.Scope) bool { return s.Seats })
	return unreadWarning(fields, fmt.Sprintf("the games of %d players (--seats %d, no Opposition)", players, players))
}
