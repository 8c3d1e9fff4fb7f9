package sim

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
	"tallywood/sim/stats"
)

// Studies of the game for two to four players, without the Opposition.
//
// Every deal (a game seed: the same decks, tiles, Initiative tokens and
// Politicians) is played once per rotation of the lineup through the
// seats, so each policy sits in every seat, and so starts from every
// Initiative position, equally often. That is what tells a policy's
// strength from the advantage of its seat.

// FormatSeats names the JSON document of a study without the Opposition.
const FormatSeats = "tallywood-table/1"

// KindSeats is the kind of a study of several players (sim --seats): a
// "table" in its files.
const KindSeats Kind = "table"

func init() { registerKind(KindSeats, func() Study { return &SeatsResult{} }) }

// SeatsConfig is a study of games without the Opposition.
type SeatsConfig struct {
	// RunConfig: an item is a deal, every rotation (under both arms of
	// a comparison); a table has no Opposition.
	RunConfig
	Rules *engine.Rules
	// Deals before sharding; each deal is played len(Lineup) times, once
	// per rotation, so the games are Deals·len(Lineup).
	Deals int64
	// Lineup holds the policy of each seat in rotation 0; its length is
	// the number of players (2–4). A policy may appear more than once.
	Lineup []policy.Spec
}

// RowCounts are the mergeable sums of one row of a study: a policy over
// every seat it sat in, or an Initiative position over every policy.
// A victory shared by k players scores 1/k; scores are kept in twelfths so
// that the sums stay exact integers for 2, 3 and 4 players.
//
// The seatings of one deal share its cards and tiles, so they are not
// independent games: the intervals take the deal as their unit, from the
// squares of each deal's sums (DealWinsSq, DealScore12Sq).
type RowCounts struct {
	Games         int64 `json:"games"`
	Wins          int64 `json:"wins"`        // first place alone
	SharedWins    int64 `json:"shared_wins"` // first place shared
	PlaceSum      int64 `json:"place_sum"`   // 1 for the most votes
	Score12       int64 `json:"score12_sum"`
	VotesSum      int64 `json:"votes_sum"`
	DealWinsSq    int64 `json:"deal_wins_sum_sq"`
	DealScore12Sq int64 `json:"deal_score12_sum_sq"`
}

func (c *RowCounts) add(place int8, winners int, votes int16) {
	c.Games++
	c.PlaceSum += int64(place)
	c.VotesSum += int64(votes)
	if place != 1 {
		return
	}
	if winners == 1 {
		c.Wins++
	} else {
		c.SharedWins++
	}
	c.Score12 += int64(12 / winners)
}

// addDeal adds the sums of one whole deal, d, and the squares of its wins
// and score.
func (c *RowCounts) addDeal(d *RowCounts) {
	c.merge(d)
	c.DealWinsSq += d.Wins * d.Wins
	c.DealScore12Sq += d.Score12 * d.Score12
}

func (c *RowCounts) merge(o *RowCounts) {
	c.Games += o.Games
	c.Wins += o.Wins
	c.SharedWins += o.SharedWins
	c.PlaceSum += o.PlaceSum
	c.Score12 += o.Score12
	c.VotesSum += o.VotesSum
	c.DealWinsSq += o.DealWinsSq
	c.DealScore12Sq += o.DealScore12Sq
}

// check reports counts that no study can produce; perDeal is the row's
// games in one deal.
func (c *RowCounts) check(players int, perDeal int64) error {
	switch {
	case c.Games < 0 || c.Wins < 0 || c.SharedWins < 0 || c.Score12 < 0 || c.VotesSum < 0 || c.DealWinsSq < 0 || c.DealScore12Sq < 0:
		return errors.New("a negative count")
	case c.Games > MaxGames:
		return fmt.Errorf("games %d is more than %d", c.Games, int64(MaxGames))
	// A game's votes are an int16 (an edited votes_sum could give a mean
	// of −5.1e16 votes).
	case c.VotesSum/maxPerGame > c.Games:
		return fmt.Errorf("votes_sum %d is outside 0..%d per game", c.VotesSum, maxPerGame)
	case c.Wins+c.SharedWins > c.Games:
		return fmt.Errorf("wins %d + shared_wins %d exceed games %d", c.Wins, c.SharedWins, c.Games)
	case c.PlaceSum < c.Games || c.PlaceSum > int64(players)*c.Games:
		return fmt.Errorf("place_sum %d is not within games..%d·games", c.PlaceSum, players)
	case c.Score12 < 12*c.Wins+int64(12/players)*c.SharedWins || c.Score12 > 12*c.Wins+6*c.SharedWins:
		return fmt.Errorf("score12_sum %d does not fit %d wins and %d shared wins", c.Score12, c.Wins, c.SharedWins)
	// A deal's sum is at most perDeal wins (12·perDeal twelfths), so its
	// square at most perDeal times the sum; and the squares are at least
	// the sums (whole numbers).
	case c.DealWinsSq < c.Wins || c.DealWinsSq > perDeal*c.Wins:
		return fmt.Errorf("deal_wins_sum_sq %d does not fit %d wins", c.DealWinsSq, c.Wins)
	case c.DealScore12Sq < c.Score12 || c.DealScore12Sq > 12*perDeal*c.Score12:
		return fmt.Errorf("deal_score12_sum_sq %d does not fit score12_sum %d", c.DealScore12Sq, c.Score12)
	}
	// Over the deals (games/perDeal of them) the squares fit the sums
	// (Cauchy–Schwarz, and one parity).
	deals := c.Games / max(perDeal, 1)
	switch {
	case !(stats.Moments{N: deals, Sum: c.Wins, SumSq: c.DealWinsSq}).Possible(perDeal):
		return fmt.Errorf("deal_wins_sum_sq %d does not fit %d wins over %d deals", c.DealWinsSq, c.Wins, deals)
	case !(stats.Moments{N: deals, Sum: c.Score12, SumSq: c.DealScore12Sq}).Possible(12 * perDeal):
		return fmt.Errorf("deal_score12_sum_sq %d does not fit score12_sum %d over %d deals", c.DealScore12Sq, c.Score12, deals)
	}
	return nil
}

// SeatsCounts are the sums of a study: by lineup policy (distinct specs,
// in lineup order) and by starting Initiative position.
type SeatsCounts struct {
	Deals      int64       `json:"deals"` // deals played, every seating of each
	Games      int64       `json:"games"`
	Policies   []RowCounts `json:"by_policy"`
	Initiative []RowCounts `json:"by_initiative"`
}

// SeatsRow is one row of a study's report.
type SeatsRow struct {
	Name        string     `json:"name"`
	Games       int64      `json:"games"`
	Wins        int64      `json:"wins"`
	SharedWins  int64      `json:"shared_wins"`
	WinRate     float64    `json:"win_rate"` // first place alone
	WinRateCI95 [2]float64 `json:"win_rate_ci95"`
	// MeanScore counts a shared victory as 1/k: a fair game gives every
	// row 1/players.
	MeanScore     float64    `json:"mean_score"`
	MeanScoreCI95 [2]float64 `json:"mean_score_ci95"`
	MeanPlace     float64    `json:"mean_place"`
	MeanVotes     float64    `json:"mean_votes"`
}

// newSeatsRow makes a row from its counts over deals, perDeal of its games
// in each. The intervals are t-intervals over the deals (see RowCounts).
func newSeatsRow(name string, c *RowCounts, deals, perDeal int64) SeatsRow {
	g := float64(perDeal)
	clamp := func(ci stats.Interval, scale float64) [2]float64 {
		return [2]float64{max(0, ci.Lo/scale), min(1, ci.Hi/scale)}
	}
	wins := stats.Moments{N: deals, Sum: c.Wins, SumSq: c.DealWinsSq}.MeanInterval(0.05)
	score := stats.Moments{N: deals, Sum: c.Score12, SumSq: c.DealScore12Sq}.MeanInterval(0.05)
	return SeatsRow{
		Name: name, Games: c.Games, Wins: c.Wins, SharedWins: c.SharedWins,
		WinRate: ratio(c.Wins, c.Games), WinRateCI95: clamp(wins, g),
		MeanScore: ratio(c.Score12, 12*c.Games), MeanScoreCI95: clamp(score, 12*g),
		MeanPlace: ratio(c.PlaceSum, c.Games), MeanVotes: ratio(c.VotesSum, c.Games),
	}
}

// SeatsResult is the output of a study without the Opposition.
type SeatsResult struct {
	Envelope
	RulesID
	Deals   int64       `json:"deals"` // before sharding
	Players int         `json:"players"`
	Lineup  []string    `json:"lineup"`
	Counts  SeatsCounts `json:"counts"`
	// Failed counts the deals left out because a game of theirs failed
	// (policy.FailedError, under either arm), and lists the first.
	Failed
	Policies   []SeatsRow `json:"policies"`
	Initiative []SeatsRow `json:"initiative"`
	// FirstSeatAdvantage is the mean score of the player who starts with
	// Initiative 1 minus the fair 1/players, with its 95 % interval.
	FirstSeatAdvantage     float64    `json:"first_seat_advantage"`
	FirstSeatAdvantageCI95 [2]float64 `json:"first_seat_advantage_ci95"`
}

// seatsOf counts the lineup entries of policy i.
func seatsOf(index []int, i int) int64 {
	n := int64(0)
	for _, j := range index {
		if j == i {
			n++
		}
	}
	return n
}

// policyNames lists the distinct specs of a lineup in lineup order, and
// for each lineup entry the index of its name.
func policyNames(lineup []string) (names []string, index []int) {
	index = make([]int, len(lineup))
	for i, n := range lineup {
		j := 0
		for j < len(names) && names[j] != n {
			j++
		}
		if j == len(names) {
			names = append(names, n)
		}
		index[i] = j
	}
	return names, index
}

// derive derives the rows from the counts, and the timing.
func (r *SeatsResult) derive() {
	names, index := policyNames(r.Lineup)
	n := int64(r.Players)
	r.Policies = make([]SeatsRow, len(names))
	for i, name := range names {
		r.Policies[i] = newSeatsRow(name, &r.Counts.Policies[i], r.Counts.Deals, n*seatsOf(index, i))
	}
	r.Initiative = make([]SeatsRow, r.Players)
	for k := range r.Players {
		r.Initiative[k] = newSeatsRow(fmt.Sprintf("initiative %d", k+1), &r.Counts.Initiative[k], r.Counts.Deals, n)
	}
	fair := 1 / float64(r.Players)
	first := r.Initiative[0]
	r.FirstSeatAdvantage = first.MeanScore - fair
	r.FirstSeatAdvantageCI95 = [2]float64{first.MeanScoreCI95[0] - fair, first.MeanScoreCI95[1] - fair}
	r.setTiming(r.Counts.Games, r.ElapsedSeconds)
}

// dealChunk is how many deals a worker takes at once.
const dealChunk = 16

// SeatsPlayer plays the games of a study without the Opposition, one at
// a time: it owns the game, one policy instance per lineup entry and an
// option buffer. RunSeats gives each worker one; `tallywood trace --seats`
// uses one to replay a single game exactly as the study played it.
type SeatsPlayer struct {
	// Game is the game last played.
	Game   engine.Game
	lineup []policy.Spec
	pols   []policy.Policy
	buf    [engine.MaxOptions]engine.Option
}

// NewSeatsPlayer makes a player of lineup's policies; Close releases them.
func NewSeatsPlayer(lineup []policy.Spec) *SeatsPlayer {
	p := &SeatsPlayer{lineup: lineup, pols: make([]policy.Policy, len(lineup))}
	for j, s := range lineup {
		p.pols[j] = s.New()
	}
	return p
}

// Close releases the policies. It may run while the player is in a game
// (a study cancelled): an exec policy then fails the game.
func (p *SeatsPlayer) Close() {
	for _, pol := range p.pols {
		policy.Close(pol)
	}
}

// setStop hands stop to the policies that search (policy.Stopper), so
// that an interrupt cuts a decision short.
func (p *SeatsPlayer) setStop(stop *atomic.Bool) {
	for _, pol := range p.pols {
		if st, ok := pol.(policy.Stopper); ok {
			st.SetStop(stop)
		}
	}
}

// Play plays rotation k of the deal on game seed seed under r to the end:
// the Politicians of deal.SeatsPoliticians, seat s played by lineup entry
// (s+k) mod n, entry j's policy reset with deal.PolicySeed(seed, j). rec, when
// not nil, records the game's events.
func (p *SeatsPlayer) Play(r *engine.Rules, seed uint64, k int, rec engine.Recorder) error {
	n := len(p.lineup)
	pols := deal.SeatsPoliticians(seed, n, len(r.Politicians))
	if err := p.Game.ResetTable(r, seed, engine.TableConfig{Politicians: pols, Recorder: rec}); err != nil {
		return err
	}
	for j, pol := range p.pols {
		pol.Reset(deal.PolicySeed(seed, j))
	}
	g := &p.Game
	for !g.Over() {
		s := int(g.Decision().Seat)
		j := (s + k) % n
		legal := g.Legal(p.buf[:0])
		o := p.pols[j].Choose(g, legal)
		if f, ok := p.pols[j].(policy.Fallible); ok && f.Err() != nil {
			// The policy's error names the game seed.
			return fmt.Errorf("policy %s in seat %d, rotation %d: %w", p.lineup[j].Label, s+1, k, &policy.FailedError{Err: f.Err()})
		}
		if err := g.Apply(o); err != nil {
			return fmt.Errorf("policy %s in seat %d, game seed %d, rotation %d: round %d, %s decision: %w",
				p.lineup[j].Label, s+1, seed, k, g.Round+1, g.Pending, err)
		}
	}
	for _, pol := range p.pols {
		if f, ok := pol.(policy.Fallible); ok {
			f.End(g)
		}
	}
	return nil
}

// addGame adds a finished game of rotation k to c. first is the deal's
// starting Initiative order, engine.TableInitiative(g.Seed, g.NSeats): the
// deal, not the round-4 order, and the same for every arm and rotation.
func (c *SeatsCounts) addGame(g *engine.Game, k int, index []int, first *[engine.MaxSeats]int8) {
	n := int(g.NSeats)
	res := &g.Result
	winners := 0
	for s := range n {
		if res.Place[s] == 1 {
			winners++
		}
	}
	c.Games++
	for s := range int8(n) {
		c.Policies[index[(int(s)+k)%n]].add(res.Place[s], winners, res.Total[s])
	}
	for pos, s := range first[:n] {
		c.Initiative[pos].add(res.Place[s], winners, res.Total[s])
	}
}

// addDeal adds every seating of one deal, held in d, to c.
func (c *SeatsCounts) addDeal(d *SeatsCounts) {
	c.Deals++
	c.Games += d.Games
	for i := range c.Policies {
		c.Policies[i].addDeal(&d.Policies[i])
	}
	for i := range c.Initiative {
		c.Initiative[i].addDeal(&d.Initiative[i])
	}
}

// reset zeroes c's sums, keeping its rows.
func (c *SeatsCounts) reset() {
	c.Deals, c.Games = 0, 0
	clear(c.Policies)
	clear(c.Initiative)
}

// checkSeats refuses a study that cannot be played.
func checkSeats(cfg *SeatsConfig, rules ...*engine.Rules) error {
	n := len(cfg.Lineup)
	switch {
	case cfg.Deals < 1:
		return errors.New("sim: deals must be at least 1")
	case n < 2 || n > engine.MaxSeats:
		return fmt.Errorf("sim: a table has 2 to %d players, not %d", engine.MaxSeats, n)
	case cfg.Opposition != nil:
		return errors.New("sim: a table has no Opposition")
	}
	for _, r := range rules {
		if r == nil {
			return errors.New("sim: no rules")
		}
		if n > len(r.Politicians) {
			return fmt.Errorf("sim: %d players need %d Politicians, the rules have %d", n, n, len(r.Politicians))
		}
	}
	return nil
}

// seatsLayout is a lineup's canonical names and rows.
type seatsLayout struct {
	lineup []string
	names  []string
	index  []int // lineup entry → policy row
}

func layoutOf(cfg *SeatsConfig) seatsLayout {
	var l seatsLayout
	l.lineup = make([]string, len(cfg.Lineup))
	for i, s := range cfg.Lineup {
		l.lineup[i] = s.Label
	}
	l.names, l.index = policyNames(l.lineup)
	return l
}

func (l *seatsLayout) newCounts() SeatsCounts {
	return SeatsCounts{Policies: make([]RowCounts, len(l.names)), Initiative: make([]RowCounts, len(l.lineup))}
}

// tableRun is what runDeals played: whether it was interrupted, and the
// deals that failed (the first of them by deal).
type tableRun struct {
	interrupted bool
	errors      int64
	failures    []Failure
}

// record sets what a study at a table keeps of its run, which started at
// start: the failed deals, whether it was interrupted, how long it took.
func (run tableRun) record(e *Envelope, f *Failed, start time.Time) {
	*f = Failed{Errors: run.errors, Failures: run.failures}
	e.Interrupted = run.interrupted
	e.ElapsedSeconds = time.Since(start).Seconds()
}

// runDeals plays the deals of cfg's shard on cfg.Workers workers: every
// rotation of a deal under each of arms' rules, handing the deal's counts
// (one per arm) to add with the worker's number. A deal cut by ctx is left
// out whole; so is a deal one of whose games failed (policy.FailedError),
// counted in the errors, up to cfg.MaxErrors of them (then the study stops
// like an interruption and the error is ErrTooManyFailed, with what was
// played). Any other error stops the study and is runDeals' error.
func runDeals(ctx context.Context, cfg *SeatsConfig, arms []*engine.Rules, l *seatsLayout, add func(w int, deal []SeatsCounts)) (tableRun, error) {
	n := len(cfg.Lineup)
	pl := newPool(ctx, cfg.poolConfig(cfg.Shard.Len(cfg.Deals)), // tableWorkers workers
		func(stop *atomic.Bool) *SeatsPlayer {
			p := NewSeatsPlayer(cfg.Lineup)
			p.setStop(stop)
			return p
		})
	defer pl.close()
	// Each worker's deal in play, one SeatsCounts per arm.
	deals := make([][]SeatsCounts, len(pl.players))
	for w := range deals {
		deals[w] = make([]SeatsCounts, len(arms))
		for a := range deals[w] {
			deals[w][a] = l.newCounts()
		}
	}
	nd := cfg.Shard.Len(cfg.Deals)
	err := pl.run(work{
		n: nd, size: chunkFor(nd, len(pl.players), dealChunk), games: int64(n * len(arms)),
		play: func(w int, _ int64, seed uint64) error {
			p, deal := pl.players[w], deals[w]
			first := engine.TableInitiative(seed, n)
			for a, r := range arms {
				deal[a].reset()
				for k := range n {
					if pl.stop.Load() {
						return nil // the pool drops the deal
					}
					if err := p.Play(r, seed, k, nil); err != nil {
						if len(arms) > 1 {
							return fmt.Errorf("arm %c: %w", 'A'+a, err)
						}
						return err
					}
					deal[a].addGame(&p.Game, k, l.index, &first)
				}
			}
			return nil
		},
		keep: func(w int, _ int64) { add(w, deals[w]) },
	})
	if err != nil {
		return tableRun{}, err
	}
	run := tableRun{interrupted: pl.interrupted()}
	run.errors, run.failures = pl.cellFailures()
	return run, pl.tooMany()
}

// tableWorkers is how many workers runDeals starts: one per deal at most.
func (cfg *SeatsConfig) tableWorkers() int { return cfg.workers(cfg.Shard.Len(cfg.Deals)) }

// RunSeats plays a study without the Opposition. Like Run, the result is
// a sum over deals and does not depend on the workers; a cancelled ctx
// stops the workers after their current game and marks the result
// Interrupted. A deal with a failed game is left out and counted in the
// errors, as in runDeals: past cfg.MaxErrors the study stops and returns
// its result with ErrTooManyFailed.
func RunSeats(ctx context.Context, cfg SeatsConfig) (*SeatsResult, error) {
	if err := checkSeats(&cfg, cfg.Rules); err != nil {
		return nil, err
	}
	l := layoutOf(&cfg)
	counts := make([]SeatsCounts, cfg.tableWorkers())
	for w := range counts {
		counts[w] = l.newCounts()
	}
	start := time.Now()
	run, err := runDeals(ctx, &cfg, []*engine.Rules{cfg.Rules}, &l, func(w int, deal []SeatsCounts) {
		counts[w].addDeal(&deal[0])
	})
	if err != nil && !errors.Is(err, ErrTooManyFailed) {
		return nil, err
	}
	total := l.newCounts()
	for w := range counts {
		total.merge(&counts[w])
	}
	res := &SeatsResult{
		Envelope: newEnvelope(KindSeats, FormatSeats, cfg.Seed, cfg.Shard),
		RulesID:  rulesID(cfg.Rules),
		Deals:    cfg.Deals, Players: len(l.lineup), Lineup: l.lineup, Counts: total,
	}
	run.record(&res.Envelope, &res.Failed, start)
	res.derive()
	return res, err
}

func (c *SeatsCounts) merge(o *SeatsCounts) {
	c.Deals += o.Deals
	c.Games += o.Games
	for i := range c.Policies {
		c.Policies[i].merge(&o.Policies[i])
	}
	for i := range c.Initiative {
		c.Initiative[i].merge(&o.Initiative[i])
	}
}

func (r *SeatsResult) formats() []string { return []string{FormatSeats} }

func (r *SeatsResult) sameRun(first Study) []field {
	f := first.(*SeatsResult)
	return []field{
		hashField("rules_hash", r.RulesHash, f.RulesHash),
		sameField("deals", r.Deals, f.Deals),
		{"lineup", slices.Equal(r.Lineup, f.Lineup), strings.Join(r.Lineup, ","), strings.Join(f.Lineup, ",")},
	}
}

// check reports a decoded study that no run can produce, naming the
// inconsistency.
func (r *SeatsResult) check(share func(int64) int64) error {
	if err := r.RulesID.check(""); err != nil {
		return err
	}
	if err := checkSeconds("elapsed_seconds", r.ElapsedSeconds); err != nil {
		return err
	}
	if err := checkLineup(r.Players, r.Lineup); err != nil {
		return err
	}
	return r.Counts.check(r.Players, r.Lineup, share(r.Deals), r.Errors, len(r.Failures), r.Interrupted)
}

// checkLineup checks the players and lineup of a decoded study.
func checkLineup(players int, lineup []string) error {
	if players < 2 || players > engine.MaxSeats || len(lineup) != players {
		return fmt.Errorf("players %d with a lineup of %d", players, len(lineup))
	}
	return nil
}

// check reports counts that no study of lineup can produce, share deals
// in its shards of which errors failed (failures of them listed).
func (c *SeatsCounts) check(players int, lineup []string, share, errors int64, failures int, interrupted bool) error {
	names, index := policyNames(lineup)
	if len(c.Policies) != len(names) || len(c.Initiative) != players {
		return fmt.Errorf("counts for %d policies and %d Initiative positions, want %d and %d",
			len(c.Policies), len(c.Initiative), len(names), players)
	}
	if c.Deals < 0 {
		return fmt.Errorf("counts.deals %d is negative", c.Deals)
	}
	if err := checkErrors("counts.deals", c.Deals, errors, share, !interrupted, failures); err != nil {
		return err
	}
	switch {
	case c.Games != c.Deals*int64(players):
		return fmt.Errorf("counts.games %d is not deals·players = %d", c.Games, c.Deals*int64(players))
	}
	n := int64(players)
	for i := range c.Policies {
		perDeal := n * seatsOf(index, i)
		p := &c.Policies[i]
		if p.Games != c.Deals*perDeal {
			return fmt.Errorf("policy %s: %d games, want %d", names[i], p.Games, c.Deals*perDeal)
		}
		if err := p.check(players, perDeal); err != nil {
			return fmt.Errorf("policy %s: %v", names[i], err)
		}
	}
	for k := range c.Initiative {
		p := &c.Initiative[k]
		if p.Games != c.Games {
			return fmt.Errorf("initiative %d: %d games, want %d", k+1, p.Games, c.Games)
		}
		if err := p.check(players, n); err != nil {
			return fmt.Errorf("initiative %d: %v", k+1, err)
		}
	}
	return nil
}

func (r *SeatsResult) clone() Study {
	out := *r
	out.Counts = r.Counts.clone()
	out.Failures = slices.Clone(r.Failures)
	return &out
}

func (r *SeatsResult) add(o Study) {
	t := o.(*SeatsResult)
	r.Counts.merge(&t.Counts)
	r.Failed.add(&t.Failed)
}

// FailedItems lists the study's failed deals.
func (r *SeatsResult) FailedItems() []FailedItems { return r.Failed.items() }

// Played is the deals the study holds, of its deals.
func (r *SeatsResult) Played() (n, total int64, unit string) {
	return r.Counts.Deals, r.Deals, "deals"
}

func (c SeatsCounts) clone() SeatsCounts {
	c.Policies, c.Initiative = slices.Clone(c.Policies), slices.Clone(c.Initiative)
	return c
}
