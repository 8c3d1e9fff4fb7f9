package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"tallywood/engine"
)

// Comparing two rule sets on studies of several players: the same deals,
// the same lineup and seatings, under rules A and under rules B. A row's
// difference is paired by deal (its score in the deal under B minus under
// A), so the deal's cards cancel out of the comparison.

// KindSeatsCompare is the kind of a comparison of two rule sets at a table.
const KindSeatsCompare = "table-compare"

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

// SeatsArmResult names an arm of a comparison in its output.
type SeatsArmResult struct {
	Name         string   `json:"name"`
	RulesHash    string   `json:"rules_hash"`
	RulesVersion string   `json:"rules_version"`
	Overrides    []string `json:"overrides,omitempty"`
}

// SeatsCompareResult is the output of CompareSeats.
type SeatsCompareResult struct {
	Kind             string            `json:"kind"`
	TallywoodVersion string            `json:"tallywood_version"`
	A                SeatsArmResult    `json:"a"`
	B                SeatsArmResult    `json:"b"`
	Seed             uint64            `json:"seed"`
	Deals            int64             `json:"deals"` // deals played under both arms
	Players          int               `json:"players"`
	Lineup           []string          `json:"lineup"`
	Policies         []SeatsCompareRow `json:"policies"`
	Initiative       []SeatsCompareRow `json:"initiative"`
	// The first-seat advantage under each arm, and B − A (it is the
	// Initiative 1 row's score difference).
	FirstSeatAdvantage     [2]float64 `json:"first_seat_advantage"`
	FirstSeatAdvantageDiff float64    `json:"first_seat_advantage_diff"`
	FirstSeatDiffCI95      [2]float64 `json:"first_seat_advantage_diff_ci95"`
	Interrupted            bool       `json:"interrupted"`
	ElapsedSeconds         float64    `json:"elapsed_seconds"`
}

// JSON returns the result as indented JSON.
func (r *SeatsCompareResult) JSON() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic("sim: table comparison: " + err.Error())
	}
	return append(b, '\n')
}

// DecodeSeatsCompare reads a result written by SeatsCompareResult.JSON,
// refusing unknown fields, trailing data and rows that do not fit the
// lineup.
func DecodeSeatsCompare(data []byte) (*SeatsCompareResult, error) {
	var r SeatsCompareResult
	if err := decodeStrict(data, &r, KindSeatsCompare); err != nil {
		return nil, err
	}
	names, _ := policyNames(r.Lineup)
	switch {
	case r.Kind != KindSeatsCompare:
		return nil, fmt.Errorf("not a tallywood %s result (kind %q)", KindSeatsCompare, r.Kind)
	case r.Players < 2 || r.Players > engine.MaxSeats || len(r.Lineup) != r.Players:
		return nil, fmt.Errorf("players %d with a lineup of %d", r.Players, len(r.Lineup))
	case len(r.Policies) != len(names) || len(r.Initiative) != r.Players:
		return nil, fmt.Errorf("%d policy rows and %d Initiative rows, want %d and %d", len(r.Policies), len(r.Initiative), len(names), r.Players)
	case r.Deals < 0:
		return nil, fmt.Errorf("deals %d is negative", r.Deals)
	}
	return &r, nil
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
// play, leaving out the deals they belong to, and marks it Interrupted.
func CompareSeats(ctx context.Context, cfg SeatsConfig, a, b SeatsArm) (*SeatsCompareResult, error) {
	if err := checkSeats(&cfg, a.Rules, b.Rules); err != nil {
		return nil, err
	}
	if !cfg.Shard.Whole() {
		return nil, fmt.Errorf("sim: a comparison at a table plays every deal: no shards")
	}
	l := layoutOf(&cfg)
	newPairs := func() seatsPairs {
		return seatsPairs{
			arms:       [2]SeatsCounts{l.newCounts(), l.newCounts()},
			policies:   make([]PairedSums, len(l.names)),
			initiative: make([]PairedSums, len(l.lineup)),
		}
	}
	work := make([]seatsPairs, cfg.workers())
	for w := range work {
		work[w] = newPairs()
	}
	start := time.Now()
	interrupted, err := runDeals(ctx, &cfg, []*engine.Rules{a.Rules, b.Rules}, &l, func(w int, deal []SeatsCounts) {
		t := &work[w]
		for arm := range t.arms {
			t.arms[arm].addDeal(&deal[arm])
		}
		for i := range t.policies {
			t.policies[i].add(&deal[0].Policies[i], &deal[1].Policies[i])
		}
		for i := range t.initiative {
			t.initiative[i].add(&deal[0].Initiative[i], &deal[1].Initiative[i])
		}
	})
	if err != nil {
		return nil, err
	}
	total := newPairs()
	for w := range work {
		for arm := range total.arms {
			total.arms[arm].merge(&work[w].arms[arm])
		}
		for i := range total.policies {
			total.policies[i].merge(&work[w].policies[i])
		}
		for i := range total.initiative {
			total.initiative[i].merge(&work[w].initiative[i])
		}
	}
	arm := func(t SeatsArm) SeatsArmResult {
		return SeatsArmResult{Name: t.Name, RulesHash: t.Rules.Hash, RulesVersion: t.Rules.Version, Overrides: t.Rules.Overrides}
	}
	n := int64(len(l.lineup))
	deals := total.arms[0].Deals
	res := &SeatsCompareResult{
		Kind: KindSeatsCompare, TallywoodVersion: Version(), A: arm(a), B: arm(b),
		Seed: cfg.Seed, Deals: deals, Players: len(l.lineup), Lineup: l.lineup,
		Interrupted: interrupted, ElapsedSeconds: time.Since(start).Seconds(),
	}
	for i, name := range l.names {
		res.Policies = append(res.Policies, compareRow(name, &total.arms[0].Policies[i], &total.arms[1].Policies[i], &total.policies[i], deals, n*seatsOf(l.index, i)))
	}
	for k := range l.lineup {
		res.Initiative = append(res.Initiative, compareRow(fmt.Sprintf("initiative %d", k+1), &total.arms[0].Initiative[k], &total.arms[1].Initiative[k], &total.initiative[k], deals, n))
	}
	var ps []float64
	for _, rows := range [][]SeatsCompareRow{res.Policies, res.Initiative} {
		for _, r := range rows {
			ps = append(ps, r.MeanScoreDiffPValue)
		}
	}
	holm := Holm(ps)
	for i := range res.Policies {
		res.Policies[i].MeanScoreDiffPHolm = holm[i]
	}
	for i := range res.Initiative {
		res.Initiative[i].MeanScoreDiffPHolm = holm[len(res.Policies)+i]
	}
	fair := 1 / float64(n)
	first := res.Initiative[0]
	res.FirstSeatAdvantage = [2]float64{first.A.MeanScore - fair, first.B.MeanScore - fair}
	res.FirstSeatAdvantageDiff = first.MeanScoreDiff
	res.FirstSeatDiffCI95 = first.MeanScoreDiffCI95
	return res, nil
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
	_, wins := MeanInterval(deals, p.WinsDiff, p.WinsDiffSq)
	mean, score, pval := MeanTest(deals, p.Score12Diff, p.Score12DiffSq)
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
