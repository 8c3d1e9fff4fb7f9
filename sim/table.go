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
)

// Studies of the game for two to four players, without the Opposition.
//
// Every deal (a game seed: the same decks, tiles, Initiative tokens and
// Politicians) is played once per rotation of the lineup through the
// seats, so each policy sits in every seat, and so starts from every
// Initiative position, equally often. That is what tells a policy's
// strength from the advantage of its seat.

// FormatTable names the JSON document of a study without the Opposition.
const FormatTable = "tallywood-table/1"

// TableConfig is a study of games without the Opposition.
type TableConfig struct {
	Rules *engine.Rules
	Seed  uint64
	// Deals before sharding; each deal is played len(Lineup) times, once
	// per rotation, so the games are Deals·len(Lineup).
	Deals   int64
	Shard   Shard
	Workers int // 0: GOMAXPROCS
	// Lineup holds the policy of each seat in rotation 0; its length is
	// the number of players (2–4). A policy may appear more than once.
	Lineup []policy.Spec
	// Progress, when set, is increased by the games played as they finish.
	Progress *atomic.Int64
	// MaxErrors is how many failed deals (a game of the deal whose policy
	// failed: policy.FailedError) the study goes on past, as Config's.
	MaxErrors int64
}

// SeatCounts are the mergeable sums of one row of a study: a policy over
// every seat it sat in, or an Initiative position over every policy.
// A victory shared by k players scores 1/k; scores are kept in twelfths so
// that the sums stay exact integers for 2, 3 and 4 players.
//
// The seatings of one deal share its cards and tiles, so they are not
// independent games: the intervals take the deal as their unit, from the
// squares of each deal's sums (DealWinsSq, DealScore12Sq).
type SeatCounts struct {
	Games         int64 `json:"games"`
	Wins          int64 `json:"wins"`        // first place alone
	SharedWins    int64 `json:"shared_wins"` // first place shared
	PlaceSum      int64 `json:"place_sum"`   // 1 for the most votes
	Score12       int64 `json:"score12_sum"`
	VotesSum      int64 `json:"votes_sum"`
	DealWinsSq    int64 `json:"deal_wins_sum_sq"`
	DealScore12Sq int64 `json:"deal_score12_sum_sq"`
}

func (c *SeatCounts) add(place int8, winners int, votes int16) {
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
func (c *SeatCounts) addDeal(d *SeatCounts) {
	c.merge(d)
	c.DealWinsSq += d.Wins * d.Wins
	c.DealScore12Sq += d.Score12 * d.Score12
}

func (c *SeatCounts) merge(o *SeatCounts) {
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
func (c *SeatCounts) check(players int, perDeal int64) error {
	switch {
	case c.Games < 0 || c.Wins < 0 || c.SharedWins < 0 || c.Score12 < 0 || c.VotesSum < 0 || c.DealWinsSq < 0 || c.DealScore12Sq < 0:
		return errors.New("a negative count")
	case c.Games > MaxGames:
		return fmt.Errorf("games %d is more than %d", c.Games, int64(MaxGames))
	// A game's votes are an int16 (issue 21: an edited votes_sum gave a
	// mean of −5.1e16 votes).
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
	return nil
}

// TableCounts are the sums of a study: by lineup policy (distinct specs,
// in lineup order) and by starting Initiative position.
type TableCounts struct {
	Deals      int64        `json:"deals"` // deals played, every seating of each
	Games      int64        `json:"games"`
	Policies   []SeatCounts `json:"by_policy"`
	Initiative []SeatCounts `json:"by_initiative"`
}

// TableRow is one row of a study's report.
type TableRow struct {
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

// newTableRow makes a row from its counts over deals, perDeal of its games
// in each. The intervals are t-intervals over the deals (see SeatCounts).
func newTableRow(name string, c *SeatCounts, deals, perDeal int64) TableRow {
	g := float64(perDeal)
	clamp := func(ci Interval, scale float64) [2]float64 {
		return [2]float64{max(0, ci.Lo/scale), min(1, ci.Hi/scale)}
	}
	_, wins := MeanInterval(deals, c.Wins, c.DealWinsSq)
	_, score := MeanInterval(deals, c.Score12, c.DealScore12Sq)
	return TableRow{
		Name: name, Games: c.Games, Wins: c.Wins, SharedWins: c.SharedWins,
		WinRate: ratio(c.Wins, c.Games), WinRateCI95: clamp(wins, g),
		MeanScore: ratio(c.Score12, 12*c.Games), MeanScoreCI95: clamp(score, 12*g),
		MeanPlace: ratio(c.PlaceSum, c.Games), MeanVotes: ratio(c.VotesSum, c.Games),
	}
}

// TableResult is the output of a study without the Opposition.
type TableResult struct {
	Envelope
	RulesID
	Deals   int64       `json:"deals"` // before sharding
	Players int         `json:"players"`
	Lineup  []string    `json:"lineup"`
	Counts  TableCounts `json:"counts"`
	// Errors counts the deals left out because a game of theirs failed
	// (policy.FailedError); Failures lists the first of them.
	Errors     int64      `json:"errors"`
	Failures   []Failure  `json:"failures,omitempty"`
	Policies   []TableRow `json:"policies"`
	Initiative []TableRow `json:"initiative"`
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
func (r *TableResult) derive() {
	names, index := policyNames(r.Lineup)
	n := int64(r.Players)
	r.Policies = make([]TableRow, len(names))
	for i, name := range names {
		r.Policies[i] = newTableRow(name, &r.Counts.Policies[i], r.Counts.Deals, n*seatsOf(index, i))
	}
	r.Initiative = make([]TableRow, r.Players)
	for k := range r.Players {
		r.Initiative[k] = newTableRow(fmt.Sprintf("initiative %d", k+1), &r.Counts.Initiative[k], r.Counts.Deals, n)
	}
	fair := 1 / float64(r.Players)
	first := r.Initiative[0]
	r.FirstSeatAdvantage = first.MeanScore - fair
	r.FirstSeatAdvantageCI95 = [2]float64{first.MeanScoreCI95[0] - fair, first.MeanScoreCI95[1] - fair}
	r.setTiming(r.Counts.Games, r.ElapsedSeconds)
}

// dealChunk is how many deals a worker takes at once.
const dealChunk = 16

// TablePlayer plays the games of a study without the Opposition, one at
// a time: it owns the game, one policy instance per lineup entry and an
// option buffer. RunTable gives each worker one; `tallywood trace --seats`
// uses one to replay a single game exactly as the study played it.
type TablePlayer struct {
	// Game is the game last played.
	Game   engine.Game
	lineup []policy.Spec
	pols   []policy.Policy
	buf    [engine.MaxOptions]engine.Option
}

// NewTablePlayer makes a player of lineup's policies; Close releases them.
func NewTablePlayer(lineup []policy.Spec) *TablePlayer {
	p := &TablePlayer{lineup: lineup, pols: make([]policy.Policy, len(lineup))}
	for j, s := range lineup {
		p.pols[j] = s.New()
	}
	return p
}

// Close releases the policies. It may run while the player is in a game
// (a study cancelled): an exec policy then fails the game.
func (p *TablePlayer) Close() {
	for _, pol := range p.pols {
		policy.Close(pol)
	}
}

// setStop hands stop to the policies that search (policy.Stopper), so
// that an interrupt cuts a decision short.
func (p *TablePlayer) setStop(stop *atomic.Bool) {
	for _, pol := range p.pols {
		if st, ok := pol.(policy.Stopper); ok {
			st.SetStop(stop)
		}
	}
}

// Play plays rotation k of the deal on game seed seed under r to the end:
// the Politicians of deal.TablePoliticians, seat s played by lineup entry
// (s+k) mod n, entry j's policy reset with deal.PolicySeed(seed, j). rec, when
// not nil, records the game's events.
func (p *TablePlayer) Play(r *engine.Rules, seed uint64, k int, rec engine.Recorder) error {
	n := len(p.lineup)
	pols := deal.TablePoliticians(seed, n, len(r.Politicians))
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
			return fmt.Errorf("sim: policy %s in seat %d, rotation %d: %w", p.lineup[j].Canon, s+1, k, &policy.FailedError{Err: f.Err()})
		}
		if err := g.Apply(o); err != nil {
			return fmt.Errorf("sim: policy %s in seat %d, game seed %d, rotation %d: round %d, %s decision: %w",
				p.lineup[j].Canon, s+1, seed, k, g.Round+1, g.Pending, err)
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
func (c *TableCounts) addGame(g *engine.Game, k int, index []int, first *[engine.MaxSeats]int8) {
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
func (c *TableCounts) addDeal(d *TableCounts) {
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
func (c *TableCounts) reset() {
	c.Deals, c.Games = 0, 0
	clear(c.Policies)
	clear(c.Initiative)
}

// checkTable refuses a study that cannot be played.
func checkTable(cfg *TableConfig, rules ...*engine.Rules) error {
	n := len(cfg.Lineup)
	switch {
	case cfg.Deals < 1:
		return errors.New("sim: deals must be at least 1")
	case n < 2 || n > engine.MaxSeats:
		return fmt.Errorf("sim: a table has 2 to %d players, not %d", engine.MaxSeats, n)
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

// tableLayout is a lineup's canonical names and rows.
type tableLayout struct {
	lineup []string
	names  []string
	index  []int // lineup entry → policy row
}

func layoutOf(cfg *TableConfig) tableLayout {
	var l tableLayout
	l.lineup = make([]string, len(cfg.Lineup))
	for i, s := range cfg.Lineup {
		l.lineup[i] = s.Canon
	}
	l.names, l.index = policyNames(l.lineup)
	return l
}

func (l *tableLayout) newCounts() TableCounts {
	return TableCounts{Policies: make([]SeatCounts, len(l.names)), Initiative: make([]SeatCounts, len(l.lineup))}
}

// tableRun is what runDeals played: whether it was interrupted, and the
// deals that failed (the first of them by deal).
type tableRun struct {
	interrupted bool
	errors      int64
	failures    []Failure
}

// runDeals plays the deals of cfg's shard on cfg.Workers workers: every
// rotation of a deal under each of arms' rules, handing the deal's counts
// (one per arm) to add with the worker's number. A deal cut by ctx is left
// out whole; so is a deal one of whose games failed (policy.FailedError),
// counted in the errors, up to cfg.MaxErrors of them (then the study stops
// like an interruption and the error is ErrTooManyFailed, with what was
// played). Any other error stops the study and is runDeals' error.
func runDeals(ctx context.Context, cfg *TableConfig, arms []*engine.Rules, l *tableLayout, add func(w int, deal []TableCounts)) (tableRun, error) {
	n := len(cfg.Lineup)
	pl := newPool(ctx, poolConfig{workers: cfg.workers(), seed: cfg.Seed, shard: cfg.Shard, maxErrors: cfg.MaxErrors, progress: cfg.Progress},
		func(stop *atomic.Bool) *TablePlayer {
			p := NewTablePlayer(cfg.Lineup)
			p.setStop(stop)
			return p
		})
	defer pl.close()
	// Each worker's deal in play, one TableCounts per arm.
	deals := make([][]TableCounts, len(pl.players))
	for w := range deals {
		deals[w] = make([]TableCounts, len(arms))
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

func (cfg *TableConfig) workers() int { return workerCount(cfg.Workers) }

// RunTable plays a study without the Opposition. Like Run, the result is
// a sum over deals and does not depend on the workers; a cancelled ctx
// stops the workers after their current game and marks the result
// Interrupted. A deal with a failed game is left out and counted in the
// errors, as in runDeals: past cfg.MaxErrors the study stops and returns
// its result with ErrTooManyFailed.
func RunTable(ctx context.Context, cfg TableConfig) (*TableResult, error) {
	if err := checkTable(&cfg, cfg.Rules); err != nil {
		return nil, err
	}
	l := layoutOf(&cfg)
	counts := make([]TableCounts, cfg.workers())
	for w := range counts {
		counts[w] = l.newCounts()
	}
	start := time.Now()
	run, err := runDeals(ctx, &cfg, []*engine.Rules{cfg.Rules}, &l, func(w int, deal []TableCounts) {
		counts[w].addDeal(&deal[0])
	})
	if err != nil && !errors.Is(err, ErrTooManyFailed) {
		return nil, err
	}
	total := l.newCounts()
	for w := range counts {
		total.merge(&counts[w])
	}
	res := &TableResult{
		Envelope: newEnvelope(KindTable, FormatTable, cfg.Seed, cfg.Shard),
		RulesID:  rulesID(cfg.Rules),
		Deals:    cfg.Deals, Players: len(l.lineup), Lineup: l.lineup, Counts: total,
		Errors: run.errors, Failures: run.failures,
	}
	res.Interrupted = run.interrupted
	res.ElapsedSeconds = time.Since(start).Seconds()
	res.derive()
	return res, err
}

func (c *TableCounts) merge(o *TableCounts) {
	c.Deals += o.Deals
	c.Games += o.Games
	for i := range c.Policies {
		c.Policies[i].merge(&o.Policies[i])
	}
	for i := range c.Initiative {
		c.Initiative[i].merge(&o.Initiative[i])
	}
}

func (r *TableResult) formats() []string { return []string{FormatTable} }

func (r *TableResult) sameRun(first Study) []field {
	f := first.(*TableResult)
	return []field{
		hashField("rules_hash", r.RulesHash, f.RulesHash),
		sameField("deals", r.Deals, f.Deals),
		{"lineup", slices.Equal(r.Lineup, f.Lineup), strings.Join(r.Lineup, ","), strings.Join(f.Lineup, ",")},
	}
}

// check reports a decoded study that no run can produce, naming the
// inconsistency.
func (r *TableResult) check(share func(int64) int64) error {
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
func (c *TableCounts) check(players int, lineup []string, share, errors int64, failures int, interrupted bool) error {
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

func (r *TableResult) clone() Study {
	out := *r
	out.Counts = r.Counts.clone()
	out.Failures = slices.Clone(r.Failures)
	return &out
}

func (r *TableResult) add(o Study) {
	t := o.(*TableResult)
	r.Counts.merge(&t.Counts)
	r.Errors += t.Errors
	r.Failures = firstFailures(append(r.Failures, t.Failures...))
}

// Played is the deals the study holds, of its deals.
func (r *TableResult) Played() (n, total int64, unit string) {
	return r.Counts.Deals, r.Deals, "deals"
}

func (c TableCounts) clone() TableCounts {
	c.Policies, c.Initiative = slices.Clone(c.Policies), slices.Clone(c.Initiative)
	return c
}
