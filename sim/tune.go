package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/deal"
	"tallywood/sim/stats"
)

// FormatTune names the JSON document of `tallywood tune`.
const FormatTune = "tallywood-tune/1"

// KindTune is a search for the rules values that bring win rates to
// targets (`tallywood tune`).
const KindTune Kind = "tune"

func init() { registerKind(KindTune, func() Study { return &TuneResult{} }) }

// TuneMethod says how tune searches; it is printed with every result and
// stored in the JSON. docs/balance.md has the measurement that chose it
// over NTBEA.
const TuneMethod = "successive halving over the candidates (every one of a small grid, else a random sample with the base rules): " +
	"each round plays every remaining candidate on the same seed blocks, keeps the better half by the objective " +
	"(the sum over targets of (win rate − target)²) and doubles the blocks of the survivors"

// TuneVary is one field searched and the values it may take.
type TuneVary struct {
	Path   string
	Values []int // ascending; each one the engine accepts on the base rules
}

// TuneConfig searches the fields of Vary for the values whose win rates
// are nearest Targets, within Budget games, then plays the best values on
// fresh seeds to confirm them.
type TuneConfig struct {
	Base    *engine.Rules
	Targets []CellSpec // a cell per target: Mode and Policy; Politician random
	Rates   []float64  // the target win rate of each cell
	Vary    []TuneVary
	Seed    uint64 // the search's seeds: block k plays on master seed deal.GameSeed(Seed, k)
	Budget  int64  // games in all the search may play
	// ConfirmSeed and ConfirmGames are the confirmation's master seed and
	// games per target, of which Shard plays its share.
	ConfirmSeed  uint64
	ConfirmGames int64
	Shard        Shard
	Workers      int
	Opposition   engine.Opposition
	Progress     *atomic.Int64
	// MaxErrors is how many failed games the whole study goes on past:
	// the search's and the confirmation's.
	MaxErrors int64
}

// maxTuneCandidates bounds the candidates successive halving starts with:
// each is played at least one block, and past this the budget is better
// spent on the survivors (measured: docs/balance.md, 128 against 64 and
// 256 at a budget of 200,000 games).
const maxTuneCandidates = 128

// minTuneBlock is the fewest games per target a block may hold: below it
// the first round's win rates are too noisy to halve on (a standard error
// of 0.07 at 50 games).
const minTuneBlock = 50

// TuneTargetResult is one target: the rate asked, the lowest and highest
// win rate the search saw for it, and the confirmation of the best values.
type TuneTargetResult struct {
	Rate float64 `json:"target"`
	// Confirm is the best values played on the confirmation seeds.
	Confirm Cell `json:"confirm"`
	// Reached is whether the confirmation's Wilson 95% interval holds the
	// target.
	Reached bool `json:"reached"`
	// SearchMin and SearchMax are the lowest and highest win rate the
	// search's candidates showed for the target (each as last played).
	SearchMin float64 `json:"search_min_win_rate"`
	SearchMax float64 `json:"search_max_win_rate"`
	// Reachable is false when every candidate's Wilson 95% interval in
	// the search lies on one side of the target.
	Reachable bool `json:"reachable"`
}

// TuneField is one searched field: its path, its base value and the
// values searched, and the best value.
type TuneField struct {
	Path   string `json:"path"`
	Base   int    `json:"base"`
	Values []int  `json:"values"`
	Best   int    `json:"best"`
}

// TuneEval is one candidate of the search as last played: its values
// (one per field), the games played per target and the wins of each
// target.
type TuneEval struct {
	Values    []int     `json:"values"`
	Games     []int64   `json:"games"`
	Wins      []int64   `json:"wins"`
	Round     int       `json:"round"` // the last round it was played in, 1 the first
	Objective float64   `json:"objective"`
	WinRates  []float64 `json:"win_rates"`
}

// TuneResult is the output of tune (docs/output.md describes every
// field). The search is played whole by every shard (its trace is data,
// the same in every shard of a run); the confirmation's counts are
// played by shard and add up.
type TuneResult struct {
	Envelope
	RulesID                          // the base rules
	Method       string              `json:"method"`
	BudgetGames  int64               `json:"budget_games"`
	BlockGames   int64               `json:"block_games"` // games per target of one block
	Rounds       int                 `json:"rounds"`      // derived from Trace
	Fields       []TuneField         `json:"fields"`
	Trace        []TuneEval          `json:"trace"` // in the order first played
	Best         int                 `json:"best"`  // index into Trace
	TunedHash    string              `json:"tuned_rules_hash"`
	Changes      []engine.Difference `json:"changes"` // tuned vs base, engine.Diff
	ConfirmSeed  uint64              `json:"confirm_seed"`
	ConfirmGames int64               `json:"confirm_games"` // per target, before sharding
	Targets      []TuneTargetResult  `json:"targets"`
	// SearchGames is the games the search played (derived from Trace).
	SearchGames int64 `json:"search_games"`
}

// Tuned is the best values as assignments to the base rules.
func (r *TuneResult) Tuned() []engine.Assignment {
	as := make([]engine.Assignment, len(r.Fields))
	for i, f := range r.Fields {
		as[i] = engine.Assignment{Path: f.Path, Value: strconv.Itoa(f.Best)}
	}
	return as
}

// tuneEvaluator plays candidate rules for the target cells on seed blocks
// [from, to) and returns the games and wins of each target.
type tuneEvaluator func(x []int, from, to int) (games, wins []int64, err error)

// candidate is one point of the search with its sums so far.
type candidate struct {
	x           []int
	blocks      int
	games, wins []int64
	round       int
}

// objective is the sum over targets of (win rate − target)²; a target
// with no games (values the engine refuses together) counts 1, more than
// any played one.
func (c *candidate) objective(rates []float64) float64 {
	var s float64
	for t, r := range rates {
		if c.games[t] == 0 {
			s++
			continue
		}
		d := ratio(c.wins[t], c.games[t]) - r
		s += d * d
	}
	return s
}

// halvingPlan is how many candidates successive halving starts with and
// how many games per target a block holds, for a budget of games over
// targets targets and a grid of size candidates (0: more than any plan
// takes): as many candidates as a block of minTuneBlock games each
// allows, at most maxTuneCandidates, and the largest block that fits.
func halvingPlan(budget int64, targets int, grid int64) (n int, block int64, err error) {
	cost := func(n int) int64 { return halvingBlocks(n) * int64(targets) }
	n = startCandidates(grid)
	for n > 2 && cost(n)*minTuneBlock > budget {
		n /= 2
	}
	if cost(n)*minTuneBlock > budget {
		return 0, 0, fmt.Errorf("a budget of %d games is too small: at least %d for %d candidates", budget, cost(n)*minTuneBlock, n)
	}
	return n, budget / cost(n), nil
}

// startCandidates is the most candidates successive halving starts with
// on a grid of size grid (0: more than any plan takes).
func startCandidates(grid int64) int {
	if grid > 0 && grid < maxTuneCandidates {
		return int(grid)
	}
	return maxTuneCandidates
}

// TuneMinBudget is the smallest budget in games that a search of cfg's
// targets over the values of its fields can be planned with (halvingPlan
// halves the candidates down to two, or the grid): a smaller --budget,
// or a --time that makes one, is refused before the search.
func TuneMinBudget(cfg TuneConfig) int64 {
	space := make([][]int, len(cfg.Vary))
	for i, v := range cfg.Vary {
		space[i] = v.Values
	}
	n := startCandidates(gridSize(space))
	for n > 2 {
		n /= 2
	}
	return halvingBlocks(n) * int64(len(cfg.Targets)) * minTuneBlock
}

// halvingBlocks is how many blocks successive halving plays over n
// candidates: every one a block, then each round the better half (rounded
// up) doubles its blocks.
func halvingBlocks(n int) int64 {
	total, blocks := int64(n), int64(1)
	for n > 1 {
		n = (n + 1) / 2
		total += int64(n) * blocks
		blocks *= 2
	}
	return total
}

// halving runs successive halving over the candidates of space (the base
// point first) with blocks of block games, and returns every candidate in
// the order first played and the index of the best. rng draws the sample
// when the grid holds more than n points.
func halving(space [][]int, base []int, rates []float64, n int, eval tuneEvaluator, rng *rand.Rand) ([]*candidate, int, error) {
	cands := sampleCandidates(space, base, n, len(rates), rng)
	alive := slices.Clone(cands)
	round := 0
	for blocks := 1; ; blocks *= 2 {
		round++
		for _, c := range alive {
			g, w, err := eval(c.x, c.blocks, blocks)
			if err != nil {
				return nil, 0, err
			}
			for t := range rates {
				c.games[t] += g[t]
				c.wins[t] += w[t]
			}
			c.blocks, c.round = blocks, round
		}
		// The better half by the objective; ties keep the earlier one.
		slices.SortStableFunc(alive, func(a, b *candidate) int { return cmpFloat(a.objective(rates), b.objective(rates)) })
		if len(alive) == 1 {
			break
		}
		alive = alive[:(len(alive)+1)/2]
	}
	return cands, slices.Index(cands, alive[0]), nil
}

// sampleCandidates is every point of space when it holds at most n, in
// order (the first field slowest), else base and n−1 other points drawn
// at random without repeats.
func sampleCandidates(space [][]int, base []int, n, targets int, rng *rand.Rand) []*candidate {
	grid := gridSize(space)
	newCand := func(x []int) *candidate {
		return &candidate{x: x, games: make([]int64, targets), wins: make([]int64, targets)}
	}
	var xs [][]int
	if grid > 0 && grid <= int64(n) {
		for i := range grid {
			x := make([]int, len(space))
			rest := i
			for k := len(space) - 1; k >= 0; k-- {
				x[k] = space[k][rest%int64(len(space[k]))]
				rest /= int64(len(space[k]))
			}
			xs = append(xs, x)
		}
	} else {
		seen := map[string]bool{fmt.Sprint(base): true}
		xs = append(xs, slices.Clone(base))
		for len(xs) < n {
			x := make([]int, len(space))
			for k, vs := range space {
				x[k] = vs[rng.IntN(len(vs))]
			}
			if key := fmt.Sprint(x); !seen[key] {
				seen[key] = true
				xs = append(xs, x)
			}
		}
	}
	out := make([]*candidate, len(xs))
	for i, x := range xs {
		out[i] = newCand(x)
	}
	return out
}

// gridSize is the number of points of space, 0 when it is more than an
// int64 holds.
func gridSize(space [][]int) int64 {
	g := int64(1)
	for _, vs := range space {
		if g > math.MaxInt64/int64(len(vs)) {
			return 0
		}
		g *= int64(len(vs))
	}
	return g
}

// errTuneInterrupted is Tune's error when an interrupt stops the search:
// a search cut short has no best values to confirm.
var errTuneInterrupted = errors.New("sim: interrupted during the search, before any values were chosen: no result")

// Tune searches cfg's fields for the values nearest the targets, then
// confirms the best on the confirmation seeds. The search and its result
// depend on the flags alone (not on the workers): every candidate's games
// are Run's on the block seeds. An interrupt during the search returns no
// result (errTuneInterrupted); during the confirmation, the result of the
// games played, marked interrupted.
func Tune(ctx context.Context, cfg TuneConfig) (*TuneResult, error) {
	switch {
	case cfg.Base == nil:
		return nil, errors.New("sim: no rules")
	case len(cfg.Targets) == 0 || len(cfg.Targets) != len(cfg.Rates):
		return nil, errors.New("sim: tune needs targets, each with a rate")
	case len(cfg.Vary) == 0:
		return nil, errors.New("sim: tune needs fields to vary")
	case cfg.ConfirmGames < 1 || cfg.ConfirmGames > MaxGames:
		return nil, fmt.Errorf("sim: confirmation games %d is not between 1 and %d", cfg.ConfirmGames, int64(MaxGames))
	}
	space := make([][]int, len(cfg.Vary))
	base := make([]int, len(cfg.Vary))
	fields := make([]TuneField, len(cfg.Vary))
	current := map[string]int{}
	all, err := cfg.Base.Fields()
	if err != nil {
		return nil, err
	}
	for _, f := range all {
		current[f.Path] = f.Value
	}
	for i, v := range cfg.Vary {
		b, ok := current[v.Path]
		if !ok || len(v.Values) == 0 || !slices.IsSorted(v.Values) {
			return nil, fmt.Errorf("sim: %s is not a number of the rules file with values to search", v.Path)
		}
		if !slices.Contains(v.Values, b) {
			b = v.Values[0] // a range that leaves the base value out starts at its low end
		}
		space[i], base[i] = v.Values, b
		fields[i] = TuneField{Path: v.Path, Base: current[v.Path], Values: v.Values}
	}
	n, block, err := halvingPlan(cfg.Budget, len(cfg.Targets), gridSize(space))
	if err != nil {
		return nil, fmt.Errorf("sim: %v", err)
	}
	start := time.Now()
	rulesOf := func(x []int) (*engine.Rules, error) {
		as := make([]engine.Assignment, len(x))
		for i, v := range x {
			as[i] = engine.Assignment{Path: cfg.Vary[i].Path, Value: strconv.Itoa(v)}
		}
		return cfg.Base.With(as...)
	}
	var failed int64 // games failed so far, of the search and then the confirmation
	eval := func(x []int, from, to int) ([]int64, []int64, error) {
		games, wins := make([]int64, len(cfg.Targets)), make([]int64, len(cfg.Targets))
		r, err := rulesOf(x)
		if err != nil {
			// Values each accepted alone that the engine refuses together:
			// no games, the worst objective.
			return games, wins, nil
		}
		for k := from; k < to; k++ {
			res, err := Run(ctx, Config{Rules: r, Seed: deal.GameSeed(cfg.Seed, uint64(k)), Games: block, Shard: Shard{K: 1, N: 1},
				Workers: cfg.Workers, Cells: cfg.Targets, Opposition: cfg.Opposition, Progress: cfg.Progress, MaxErrors: cfg.MaxErrors - failed})
			if res != nil {
				for t := range cfg.Targets {
					failed += res.Cells[t].Errors
				}
			}
			if errors.Is(err, ErrTooManyFailed) {
				return nil, nil, tooManyFailed(failed, cfg.MaxErrors)
			}
			if err != nil {
				return nil, nil, err
			}
			if res.Interrupted {
				return nil, nil, errTuneInterrupted
			}
			for t := range cfg.Targets {
				games[t] += res.Cells[t].Games
				wins[t] += res.Cells[t].Wins
			}
		}
		return games, wins, nil
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74756e65)) // "tune"
	cands, best, err := halving(space, base, cfg.Rates, n, eval, rng)
	if err != nil {
		return nil, err
	}
	out := &TuneResult{
		Envelope: newEnvelope(KindTune, FormatTune, cfg.Seed, cfg.Shard),
		RulesID:  rulesID(cfg.Base),
		Method:   TuneMethod, BudgetGames: cfg.Budget, BlockGames: block, Fields: fields, Best: best,
		ConfirmSeed: cfg.ConfirmSeed, ConfirmGames: cfg.ConfirmGames,
	}
	for _, c := range cands {
		out.Trace = append(out.Trace, TuneEval{Values: c.x, Games: c.games, Wins: c.wins, Round: c.round})
	}
	for i := range out.Fields {
		out.Fields[i].Best = cands[best].x[i]
	}
	tuned, err := rulesOf(cands[best].x)
	if err != nil {
		return nil, fmt.Errorf("sim: the best values: %v", err)
	}
	out.TunedHash, out.Changes = tuned.Hash, engine.Diff(cfg.Base, tuned)
	searchSecs := time.Since(start).Seconds()
	conf, err := Run(ctx, Config{Rules: tuned, Seed: cfg.ConfirmSeed, Games: cfg.ConfirmGames, Shard: cfg.Shard,
		Workers: cfg.Workers, Cells: cfg.Targets, Opposition: cfg.Opposition, Progress: cfg.Progress, MaxErrors: cfg.MaxErrors - failed})
	if conf == nil {
		return nil, err
	}
	if errors.Is(err, ErrTooManyFailed) {
		for t := range cfg.Targets {
			failed += conf.Cells[t].Errors
		}
		err = tooManyFailed(failed, cfg.MaxErrors)
	}
	for t := range cfg.Targets {
		c := conf.Cells[t]
		c.ElapsedSeconds += searchSecs / float64(len(cfg.Targets))
		out.Targets = append(out.Targets, TuneTargetResult{Rate: cfg.Rates[t], Confirm: c})
	}
	out.Interrupted = conf.Interrupted
	out.derive()
	return out, err
}

// derive computes what the counts give: each candidate's win rates and
// objective, the search's range of win rates per target, and the
// confirmation's summaries and whether each target is reached.
func (r *TuneResult) derive() {
	rates := make([]float64, len(r.Targets))
	for t := range r.Targets {
		rates[t] = r.Targets[t].Rate
	}
	r.SearchGames, r.Rounds = 0, 0
	for i := range r.Trace {
		e := &r.Trace[i]
		r.Rounds = max(r.Rounds, e.Round)
		c := candidate{games: e.Games, wins: e.Wins}
		e.Objective = c.objective(rates)
		e.WinRates = make([]float64, len(e.Games))
		for t := range e.Games {
			e.WinRates[t] = ratio(e.Wins[t], e.Games[t])
			r.SearchGames += e.Games[t]
		}
	}
	var games int64
	var secs float64
	for t := range r.Targets {
		tr := &r.Targets[t]
		tr.Confirm.derive()
		games += tr.Confirm.Games
		secs += tr.Confirm.ElapsedSeconds
		tr.Reached = tr.Confirm.Games > 0 && tr.Confirm.WinCI95[0] <= tr.Rate && tr.Rate <= tr.Confirm.WinCI95[1]
		tr.SearchMin, tr.SearchMax = 1, 0
		below, above := true, true // every candidate's interval below the target, above it
		for _, e := range r.Trace {
			if e.Games[t] == 0 {
				continue
			}
			w := stats.Wilson(e.Wins[t], e.Games[t], 0.05)
			tr.SearchMin, tr.SearchMax = min(tr.SearchMin, e.WinRates[t]), max(tr.SearchMax, e.WinRates[t])
			below = below && w.Hi < tr.Rate
			above = above && w.Lo > tr.Rate
		}
		tr.Reachable = !below && !above
	}
	r.setTiming(games+r.SearchGames, secs)
}

func (r *TuneResult) formats() []string { return []string{FormatTune} }

func (r *TuneResult) sameRun(first Study) []field {
	f := first.(*TuneResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		{"search", r.TunedHash == f.TunedHash && r.Best == f.Best && sameTrace(r.Trace, f.Trace) && r.BudgetGames == f.BudgetGames,
			r.searchText(), f.searchText()},
		sameField("confirm_seed", r.ConfirmSeed, f.ConfirmSeed),
		sameField("confirm_games", r.ConfirmGames, f.ConfirmGames),
		{"targets", sameTargets(r.Targets, f.Targets), targetsText(r.Targets), targetsText(f.Targets)},
	}
}

// searchText shows a search in an error: its best values and trace size.
func (r *TuneResult) searchText() string {
	parts := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		parts[i] = fmt.Sprintf("%s=%d", f.Path, f.Best)
	}
	return fmt.Sprintf("[%s] of %d candidates, budget %d", strings.Join(parts, " "), len(r.Trace), r.BudgetGames)
}

func targetsText(ts []TuneTargetResult) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s:%s=%g", t.Confirm.Mode, t.Confirm.Policy, t.Rate)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func sameTargets(a, b []TuneTargetResult) bool {
	return slices.EqualFunc(a, b, func(x, y TuneTargetResult) bool { return x.Rate == y.Rate && x.Confirm.labels == y.Confirm.labels })
}

func sameTrace(a, b []TuneEval) bool {
	return slices.EqualFunc(a, b, func(x, y TuneEval) bool {
		return slices.Equal(x.Values, y.Values) && slices.Equal(x.Games, y.Games) && slices.Equal(x.Wins, y.Wins) && x.Round == y.Round
	})
}

// check verifies that a decoded tune adds up: the trace's shape, the best
// candidate, and each target's confirmation as a sim cell.
func (r *TuneResult) check(share func(int64) int64) error {
	if err := r.RulesID.check(""); err != nil {
		return err
	}
	switch {
	case len(r.Fields) == 0:
		return errors.New("fields: none")
	case len(r.Targets) == 0:
		return errors.New("targets: none")
	case len(r.Trace) == 0:
		return errors.New("trace: none")
	case r.Best < 0 || r.Best >= len(r.Trace):
		return fmt.Errorf("best %d is not a candidate of the trace (1..%d)", r.Best, len(r.Trace))
	case r.ConfirmGames < 1 || r.ConfirmGames > MaxGames:
		return fmt.Errorf("confirm_games %d is outside 1..%d", r.ConfirmGames, int64(MaxGames))
	case r.BudgetGames < 0 || r.BudgetGames > MaxGames:
		return fmt.Errorf("budget_games %d is outside 0..%d", r.BudgetGames, int64(MaxGames))
	case r.BlockGames < 1 || r.BlockGames > r.BudgetGames:
		return fmt.Errorf("block_games %d is outside 1..%d (budget_games)", r.BlockGames, r.BudgetGames)
	}
	for i, f := range r.Fields {
		if f.Path == "" || len(f.Path) > maxText || len(f.Values) == 0 {
			return fmt.Errorf("field %d: no path or no values", i+1)
		}
		if !engine.IsNumericPath(f.Path) {
			return fmt.Errorf("field %d: path %q names no number of a rules file", i+1, f.Path)
		}
	}
	if err := r.checkTrace(); err != nil {
		return err
	}
	for i, f := range r.Fields {
		if f.Best != r.Trace[r.Best].Values[i] {
			return fmt.Errorf("field %d: best %d is not the best candidate's", i+1, f.Best)
		}
	}
	n := share(r.ConfirmGames)
	for t := range r.Targets {
		c := &r.Targets[t].Confirm
		if !(r.Targets[t].Rate > 0 && r.Targets[t].Rate < 1) {
			return fmt.Errorf("target %d: rate %g is not a win rate above 0 and below 1", t+1, r.Targets[t].Rate)
		}
		if err := c.validate(n, r.Interrupted); err != nil {
			return fmt.Errorf("target %d: %v", t+1, err)
		}
	}
	return nil
}

// checkTrace checks the search's trace against successive halving over
// its candidates: each played in a round the search has (1 + ⌈log₂ n⌉
// over n candidates), with at most a block of games per target for each
// of the 2^(round−1) blocks it has played by then, the best in the last
// round, and no more games in all than the budget. The rounds are derived
// from it (a forged count of rounds made report loop through them).
func (r *TuneResult) checkTrace() error {
	rounds := halvingRounds(len(r.Trace))
	var last int
	var played int64
	for i, e := range r.Trace {
		if len(e.Values) != len(r.Fields) || len(e.Games) != len(r.Targets) || len(e.Wins) != len(r.Targets) {
			return fmt.Errorf("trace %d: %d values, %d games and %d wins for %d fields and %d targets",
				i+1, len(e.Values), len(e.Games), len(e.Wins), len(r.Fields), len(r.Targets))
		}
		if e.Round < 1 || e.Round > rounds {
			return fmt.Errorf("trace %d: round %d is outside 1..%d, the rounds of successive halving over %d candidates", i+1, e.Round, rounds, len(r.Trace))
		}
		last = max(last, e.Round)
		blocks := int64(1) << (e.Round - 1)
		for t := range e.Games {
			if e.Games[t] < 0 || e.Games[t] > r.BudgetGames || e.Wins[t] < 0 || e.Wins[t] > e.Games[t] {
				return fmt.Errorf("trace %d: target %d: %d wins of %d games", i+1, t+1, e.Wins[t], e.Games[t])
			}
			if e.Games[t] > r.BlockGames*blocks {
				return fmt.Errorf("trace %d: target %d: %d games, more than the %d of %s", i+1, t+1, e.Games[t], r.BlockGames*blocks, kit.Count(int(blocks), "block"))
			}
			if played += e.Games[t]; played > r.BudgetGames {
				return fmt.Errorf("trace: more games than the budget (%d)", r.BudgetGames)
			}
		}
	}
	if b := r.Trace[r.Best].Round; b != last {
		return fmt.Errorf("best %d was last played in round %d, not in the last round (%d)", r.Best, b, last)
	}
	return nil
}

// halvingRounds is the rounds successive halving plays over n candidates:
// one, then one more each time the better half (rounded up) is kept,
// until one is left.
func halvingRounds(n int) int {
	rounds := 1
	for ; n > 1; n = (n + 1) / 2 {
		rounds++
	}
	return rounds
}

func (r *TuneResult) clone() Study {
	out := *r
	out.Targets = slices.Clone(r.Targets)
	for i := range out.Targets {
		out.Targets[i].Confirm.Failures = slices.Clone(out.Targets[i].Confirm.Failures)
	}
	return &out
}

func (r *TuneResult) add(o Study) {
	for t := range r.Targets {
		r.Targets[t].Confirm.add(&o.(*TuneResult).Targets[t].Confirm)
	}
}

// FailedItems lists each target's failed confirmation games.
func (r *TuneResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Targets))
	for i := range r.Targets {
		c := &r.Targets[i].Confirm
		out[i] = FailedItems{Unit: "game", A: c, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the confirmation games the result holds, of the study's.
func (r *TuneResult) Played() (n, total int64, unit string) {
	for _, t := range r.Targets {
		n += t.Confirm.Games
	}
	return n, int64(len(r.Targets)) * r.ConfirmGames, "confirmation games"
}
