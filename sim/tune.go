package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/deal"
	"tallywood/sim/stats"
)

// FormatTune names the JSON document of `tallywood tune`. /2 has a
// tolerance: a target is reached when the confirmation's interval,
// simultaneous over the targets, lies within it (/1's "reached" was an
// interval that held the target, likelier with fewer games); /1 still
// reads, with the default tolerance.
const FormatTune = "tallywood-tune/2"

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

// TuneVary is one field searched and the values it may take: numbers,
// or for a choice (engine.Choice: a Solo card's District or action...)
// its values, Choices[0] the base's, and Values their indexes.
type TuneVary struct {
	Path    string
	Values  []int    // ascending; each one the engine accepts on the base rules
	Choices []string // a choice's values, the base's first; nil for a number
}

// TuneVaryChoice is the TuneVary of a choice: its base value and its
// alternatives.
func TuneVaryChoice(c engine.Choice) TuneVary {
	v := TuneVary{Path: c.Path, Choices: append([]string{c.Value}, c.Alternatives...)}
	for i := range v.Choices {
		v.Values = append(v.Values, i)
	}
	return v
}

// value is value x of the field as --set takes it.
func (v TuneVary) value(x int) string {
	if v.Choices != nil {
		return v.Choices[x]
	}
	return strconv.Itoa(x)
}

// TuneConfig searches the fields of Vary for the values whose win rates
// are nearest Targets, within Budget games, then plays the best values on
// fresh seeds to confirm them.
type TuneConfig struct {
	Base    *engine.Rules
	Targets []CellSpec // a cell per target: Mode and Policy; Politician random
	Rates   []float64  // the target win rate of each cell
	// Relative, where true, makes a target's rate a change of the base
	// rules' win rate (−0.05: five points lower), measured on the same
	// seeds; nil: every rate a win rate.
	Relative []bool
	Vary     []TuneVary
	// OneChange searches the base and every single change: one field at
	// one of its other values, every other at its base value.
	OneChange bool
	Budget    int64 // games in all the search may play, the base's on the blocks of relative targets too
	// ConfirmSeed and ConfirmGames are the confirmation's master seed and
	// games per target, of which Shard plays its share.
	ConfirmSeed  uint64
	ConfirmGames int64
	// RunConfig: Seed is the search's, block k playing on master seed
	// deal.GameSeed(Seed, k); an item is a game, and MaxErrors counts the
	// search's and the confirmation's.
	RunConfig
	// Tolerance is the designer's: a target is reached when its win rate
	// is within ±Tolerance of it; 0 is DefaultTolerance.
	Tolerance float64
}

// stage is the run of one stage of the study on master seed seed and
// shard (the search plays its blocks whole, the confirmation by shard),
// failed items of the study having failed before it.
func (c *TuneConfig) stage(seed uint64, shard Shard, failed int64) RunConfig {
	run := c.RunConfig
	run.Seed, run.Shard, run.MaxErrors = seed, shard, c.MaxErrors-failed
	return run
}

// TuneTargetResult is one target: the rate asked, the lowest and highest
// win rate the search saw for it, and the confirmation of the best values.
type TuneTargetResult struct {
	Rate float64 `json:"target"`
	// Relative: Rate is a change of the base rules' win rate, not a win
	// rate.
	Relative bool `json:"relative,omitempty"`
	// Confirm is the best values played on the confirmation seeds.
	Confirm Cell `json:"confirm"`
	// ConfirmBase and ConfirmPairs, when a target is relative, are the
	// base rules played on the same confirmation seeds and the pairs of
	// games (base, tuned) seed by seed.
	ConfirmBase  *Cell       `json:"confirm_base,omitempty"`
	ConfirmPairs *PairCounts `json:"confirm_pairs,omitempty"`
	// Change is the paired difference of the win rate, tuned − base, with
	// its 95% interval (derived from ConfirmPairs).
	Change *TuneChange `json:"change,omitempty"`
	// WinCI is the confirmation's interval simultaneous over the targets
	// (confidence TuneResult.Confidence): of the win rate, the exact
	// (Clopper–Pearson) one, or
	// for a relative target of the change, the paired score interval.
	// Answer is what it says of the target ± the tolerance, and Reached
	// whether it lies within: the target is reached. GamesToSettle is,
	// when the answer is not enough games, about how many confirmation
	// games would settle it.
	WinCI         [2]float64   `json:"win_ci"`
	Answer        TargetAnswer `json:"answer"`
	Reached       bool         `json:"reached"`
	GamesToSettle int64        `json:"games_to_settle,omitempty"`
	// SearchMin and SearchMax are the lowest and highest win rate the
	// search's candidates showed for the target (each as last played); for
	// a relative target, the lowest and highest change.
	SearchMin float64 `json:"search_min_win_rate"`
	SearchMax float64 `json:"search_max_win_rate"`
	// Reachable is false when every candidate the search played has its
	// Wilson 95% interval on one side of the target: the search saw none
	// near it, of the candidates it played (TuneResult.Candidates of
	// TuneResult.Combinations), not of every value in the ranges.
	Reachable bool `json:"reachable"`
}

// TuneChange is a paired difference of win rates with its 95% interval.
type TuneChange struct {
	Diff float64    `json:"diff"`
	CI95 [2]float64 `json:"ci95"`
}

// TuneField is one searched field: its path, its base value and the
// values searched, and the best value. A choice's values are indexes
// into Choices (its base value first).
type TuneField struct {
	Path    string   `json:"path"`
	Base    int      `json:"base"`
	Values  []int    `json:"values"`
	Best    int      `json:"best"`
	Choices []string `json:"choices,omitempty"`
}

// Text is value x of the field as --set takes it: the number, or the
// choice it indexes.
func (f TuneField) Text(x int) string {
	if f.Choices != nil && x >= 0 && x < len(f.Choices) {
		return f.Choices[x]
	}
	return strconv.Itoa(x)
}

// TuneEval is one candidate of the search as last played: its values
// (one per field), the games played per target and the wins of each
// target.
type TuneEval struct {
	Values []int   `json:"values"`
	Games  []int64 `json:"games"`
	Wins   []int64 `json:"wins"`
	// BaseGames and BaseWins, when a target is relative, are the base
	// rules' games and wins on the same seed blocks.
	BaseGames []int64   `json:"base_games,omitempty"`
	BaseWins  []int64   `json:"base_wins,omitempty"`
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
	BlockGames   int64               `json:"block_games"`          // games per target of one block
	Rounds       int                 `json:"rounds"`               // derived from Trace
	OneChange    bool                `json:"one_change,omitempty"` // the candidates are the base and every single change
	Fields       []TuneField         `json:"fields"`
	Trace        []TuneEval          `json:"trace"` // in the order first played
	Best         int                 `json:"best"`  // index into Trace
	TunedHash    string              `json:"tuned_rules_hash"`
	Changes      []engine.Difference `json:"changes"` // tuned vs base, engine.Diff
	ConfirmSeed  uint64              `json:"confirm_seed"`
	ConfirmGames int64               `json:"confirm_games"` // per target, before sharding
	Targets      []TuneTargetResult  `json:"targets"`
	// Tolerance is the designer's: a target is reached when the
	// confirmation's win rate is within ±Tolerance of it. A result before
	// tallywood-tune/2 stated none and reads with DefaultTolerance.
	Tolerance float64 `json:"tolerance"`
	// Confidence is the confirmation's intervals', simultaneous over the
	// targets (derived).
	Confidence float64 `json:"confidence"`
	// SearchGames is the games the search played (derived from Trace).
	SearchGames int64 `json:"search_games"`
	// Candidates are the value combinations the search played, of
	// Combinations in the ranges (0: more than an int64 holds): with
	// OneChange, the base and every single change (derived).
	Candidates   int   `json:"candidates"`
	Combinations int64 `json:"combinations"`
}

// Tuned is the best values as assignments to the base rules.
func (r *TuneResult) Tuned() []engine.Assignment {
	as := make([]engine.Assignment, len(r.Fields))
	for i, f := range r.Fields {
		as[i] = engine.Assignment{Path: f.Path, Value: f.Text(f.Best)}
	}
	return as
}

// errTuneInterrupted is Tune's error when an interrupt stops the search:
// a search cut short has no best values to confirm.
var errTuneInterrupted = errors.New("interrupted during the search, before any values were chosen: no result")

// Tune searches cfg's fields for the values nearest the targets, then
// confirms the best on the confirmation seeds. The search and its result
// depend on the flags alone (not on the workers): every candidate's games
// are a sim run's (runCells) on the block seeds. An interrupt during the
// search returns no result (errTuneInterrupted); during the confirmation,
// the result of the games played, marked interrupted.
func Tune(ctx context.Context, cfg TuneConfig) (*TuneResult, error) {
	switch {
	case cfg.Base == nil:
		return nil, errors.New("sim: no rules")
	case len(cfg.Targets) == 0 || len(cfg.Targets) != len(cfg.Rates) || (cfg.Relative != nil && len(cfg.Relative) != len(cfg.Rates)):
		return nil, errors.New("sim: tune needs targets, each with a rate")
	case len(cfg.Vary) == 0:
		return nil, errors.New("sim: tune needs fields to vary")
	case cfg.ConfirmGames < 1 || cfg.ConfirmGames > MaxGames:
		return nil, fmt.Errorf("sim: confirmation games %d is not between 1 and %d", cfg.ConfirmGames, int64(MaxGames))
	}
	goal := tuneGoal{rates: cfg.Rates, relative: cfg.Relative}
	for t := range goal.rates {
		if !goal.valid(t) {
			return nil, fmt.Errorf("sim: target %d: %g is not a win rate above 0 and below 1, or a change of one above -1 and below 1, not 0", t+1, goal.rates[t])
		}
	}
	space, base, fields, err := tuneSpace(&cfg)
	if err != nil {
		return nil, err
	}
	var xs [][]int
	n, block := 0, int64(0)
	if cfg.OneChange {
		xs = singleChanges(space, base)
		if len(xs) > maxSingleChanges {
			return nil, fmt.Errorf("%d single changes: at most %d (name fewer fields)", len(xs)-1, maxSingleChanges)
		}
		n, block, err = halvingPlanAll(cfg.Budget, goal, len(xs))
	} else {
		n, block, err = halvingPlan(cfg.Budget, len(cfg.Targets), gridSize(space))
		if goal.anyRelative() && err == nil {
			// The base plays the blocks of the survivors too: plan for a
			// budget that leaves room for them.
			n, block, err = halvingPlanAll(cfg.Budget, goal, n)
		}
	}
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x74756e65)) // "tune"
	if !cfg.OneChange {
		xs = sampleCandidates(space, base, n, rng)
	}
	start := time.Now()
	rulesOf := func(x []int) (*engine.Rules, error) {
		as := make([]engine.Assignment, len(x))
		for i, v := range x {
			as[i] = engine.Assignment{Path: cfg.Vary[i].Path, Value: cfg.Vary[i].value(v)}
		}
		return cfg.Base.With(as...)
	}
	var failed int64 // games failed so far, of the search and then the confirmation
	play := func(r *engine.Rules, k int) (games, wins []int64, err error) {
		cells, interrupted, err := runCells(ctx, cfg.stage(deal.GameSeed(cfg.Seed, uint64(k)), Shard{K: 1, N: 1}, failed), r, block, cfg.Targets, nil)
		for _, c := range cells {
			failed += c.Errors
		}
		if errors.Is(err, ErrTooManyFailed) {
			return nil, nil, tooManyFailed(failed, cfg.MaxErrors)
		}
		if err != nil {
			return nil, nil, err
		}
		if interrupted {
			return nil, nil, errTuneInterrupted
		}
		games, wins = make([]int64, len(cfg.Targets)), make([]int64, len(cfg.Targets))
		for t, c := range cells {
			games[t], wins[t] = c.Games, c.Wins
		}
		return games, wins, nil
	}
	eval := func(x []int, from, to int) ([]int64, []int64, error) {
		games, wins := make([]int64, len(cfg.Targets)), make([]int64, len(cfg.Targets))
		r, err := rulesOf(x)
		if err != nil {
			// Values each accepted alone that the engine refuses together:
			// no games, the worst objective.
			return games, wins, nil
		}
		for k := from; k < to; k++ {
			g, w, err := play(r, k)
			if err != nil {
				return nil, nil, err
			}
			addInts(games, g)
			addInts(wins, w)
		}
		return games, wins, nil
	}
	var baseEval tuneEvaluator
	if goal.anyRelative() {
		// The base's games on a block are the same whichever candidate
		// asks: each block is played once.
		type blockCounts struct{ games, wins []int64 }
		played := map[int]blockCounts{}
		baseEval = func(_ []int, from, to int) ([]int64, []int64, error) {
			games, wins := make([]int64, len(cfg.Targets)), make([]int64, len(cfg.Targets))
			for k := from; k < to; k++ {
				b, ok := played[k]
				if !ok {
					g, w, err := play(cfg.Base, k)
					if err != nil {
						return nil, nil, err
					}
					b = blockCounts{g, w}
					played[k] = b
				}
				addInts(games, b.games)
				addInts(wins, b.wins)
			}
			return games, wins, nil
		}
	}
	cands, best, err := halving(xs, goal, eval, baseEval)
	if err != nil {
		return nil, err
	}
	out := &TuneResult{
		Envelope: newEnvelope(KindTune, FormatTune, cfg.Seed, cfg.Shard),
		RulesID:  rulesID(cfg.Base),
		Method:   TuneMethod, BudgetGames: cfg.Budget, BlockGames: block, Fields: fields, Best: best, OneChange: cfg.OneChange,
		ConfirmSeed: cfg.ConfirmSeed, ConfirmGames: cfg.ConfirmGames, Tolerance: cmp.Or(cfg.Tolerance, DefaultTolerance),
	}
	for _, c := range cands {
		out.Trace = append(out.Trace, TuneEval{Values: c.x, Games: c.games, Wins: c.wins, BaseGames: c.baseGames, BaseWins: c.baseWins, Round: c.round})
	}
	for i := range out.Fields {
		out.Fields[i].Best = cands[best].x[i]
	}
	tuned, err := rulesOf(cands[best].x)
	if err != nil {
		return nil, fmt.Errorf("the best values: %v", err)
	}
	out.TunedHash, out.Changes = tuned.Hash, engine.Diff(cfg.Base, tuned)
	searchSecs := time.Since(start).Seconds()
	for t := range cfg.Targets {
		out.Targets = append(out.Targets, TuneTargetResult{Rate: cfg.Rates[t], Relative: goal.isRelative(t)})
	}
	if err := tuneConfirm(ctx, &cfg, goal, tuned, out, searchSecs, &failed); err != nil && !errors.Is(err, ErrTooManyFailed) {
		return nil, err
	} else if err != nil {
		out.derive()
		return out, err
	}
	out.derive()
	return out, nil
}

// tuneSpace reads cfg's fields: the values each may take, its base value
// (a number's, or a range's low end when the range leaves it out; a
// choice's, index 0) and the fields of the result.
func tuneSpace(cfg *TuneConfig) (space [][]int, base []int, fields []TuneField, err error) {
	current := map[string]int{}
	all, err := cfg.Base.Fields()
	if err != nil {
		return nil, nil, nil, err
	}
	for _, f := range all {
		current[f.Path] = f.Value
	}
	for _, v := range cfg.Vary {
		b, ok := current[v.Path]
		if v.Choices != nil {
			b, ok = 0, len(v.Choices) == len(v.Values)
		}
		if !ok || len(v.Values) == 0 || !slices.IsSorted(v.Values) {
			return nil, nil, nil, fmt.Errorf("sim: %s is not a number or choice of the rules file with values to search", v.Path)
		}
		f := TuneField{Path: v.Path, Base: b, Values: v.Values, Choices: v.Choices}
		if !slices.Contains(v.Values, b) {
			b = v.Values[0] // a range that leaves the base value out starts at its low end
		}
		space, base, fields = append(space, v.Values), append(base, b), append(fields, f)
	}
	return space, base, fields, nil
}

func addInts(dst, src []int64) {
	for i := range dst {
		dst[i] += src[i]
	}
}

// tuneConfirm plays the tuned rules on the confirmation seeds into out's
// targets; with a relative target, paired with the base rules seed by
// seed (Compare), so that the change is measured on the same games.
func tuneConfirm(ctx context.Context, cfg *TuneConfig, goal tuneGoal, tuned *engine.Rules, out *TuneResult, searchSecs float64, failed *int64) error {
	per := searchSecs / float64(len(cfg.Targets))
	if !goal.anyRelative() {
		cells, interrupted, err := runCells(ctx, cfg.stage(cfg.ConfirmSeed, cfg.Shard, *failed), tuned, cfg.ConfirmGames, cfg.Targets, nil)
		if cells == nil {
			return err
		}
		for t, c := range cells {
			*failed += c.Errors
			c.ElapsedSeconds += per
			out.Targets[t].Confirm = c
		}
		out.Interrupted = interrupted
		if errors.Is(err, ErrTooManyFailed) {
			return tooManyFailed(*failed, cfg.MaxErrors)
		}
		return err
	}
	pairs := make([]ComparePair, len(cfg.Targets))
	for t, spec := range cfg.Targets {
		pairs[t] = ComparePair{A: spec, B: spec, Games: cfg.ConfirmGames}
	}
	// Every target is confirmed, one that cannot read the tuned change
	// too (PlayUnread): its answer needs its games, and the cells must
	// stay one per target.
	conf, err := Compare(ctx, CompareConfig{RunConfig: cfg.stage(cfg.ConfirmSeed, cfg.Shard, *failed),
		A: CompareArm{Name: "base", Rules: cfg.Base}, B: CompareArm{Name: "tuned", Rules: tuned},
		Cells: pairs, PlayUnread: true})
	if conf == nil {
		return err
	}
	for t := range cfg.Targets {
		c := &conf.Cells[t]
		*failed += c.Errors
		tr := &out.Targets[t]
		tr.Confirm, tr.ConfirmBase, tr.ConfirmPairs = c.B, &c.A, &c.Pairs
		// A failed pair drops both games: the tuned cell counts it.
		tr.Confirm.Errors, tr.Confirm.Failures = c.Errors, c.Failures
		tr.Confirm.ElapsedSeconds = c.ElapsedSeconds + per
		tr.ConfirmBase.ElapsedSeconds = 0
	}
	out.Interrupted = conf.Interrupted
	if errors.Is(err, ErrTooManyFailed) {
		return tooManyFailed(*failed, cfg.MaxErrors)
	}
	return err
}

// derive computes what the counts give: each candidate's win rates and
// objective, the search's range of win rates (or changes) per target, and
// the confirmation's summaries and whether each target is reached.
func (r *TuneResult) derive() {
	goal := tuneGoal{rates: make([]float64, len(r.Targets)), relative: make([]bool, len(r.Targets))}
	for t := range r.Targets {
		goal.rates[t], goal.relative[t] = r.Targets[t].Rate, r.Targets[t].Relative
	}
	r.SearchGames, r.Rounds = 0, 0
	for i := range r.Trace {
		e := &r.Trace[i]
		r.Rounds = max(r.Rounds, e.Round)
		c := candidate{games: e.Games, wins: e.Wins, baseGames: e.BaseGames, baseWins: e.BaseWins}
		e.Objective = c.objective(goal)
		e.WinRates = make([]float64, len(e.Games))
		for t := range e.Games {
			e.WinRates[t] = ratio(e.Wins[t], e.Games[t])
			r.SearchGames += e.Games[t]
		}
	}
	r.Tolerance = cmp.Or(r.Tolerance, DefaultTolerance) // a result before tallywood-tune/2 stated none
	alpha := stats.BonferroniLevel(0.05, max(1, len(r.Targets)))
	r.Confidence = 1 - alpha
	r.Candidates = len(r.Trace)
	space := make([][]int, len(r.Fields))
	for i, f := range r.Fields {
		space[i] = f.Values
	}
	r.Combinations = gridSize(space)
	if r.OneChange {
		base := make([]int, len(r.Fields))
		for i, f := range r.Fields {
			base[i] = f.Base
		}
		r.Combinations = int64(len(singleChanges(space, base)))
	}
	// The base's blocks, played once for every candidate of a relative
	// target: as many as the most any candidate compared with.
	for t := range r.Targets {
		var most int64
		for _, e := range r.Trace {
			if t < len(e.BaseGames) {
				most = max(most, e.BaseGames[t])
			}
		}
		r.SearchGames += most
	}
	var games int64
	var secs float64
	for t := range r.Targets {
		tr := &r.Targets[t]
		tr.Confirm.derive()
		games += tr.Confirm.Games
		secs += tr.Confirm.ElapsedSeconds
		// Exact, so that "reached" holds its level at small targets
		// (sweep's simultaneous says why).
		ci := stats.ClopperPearson(tr.Confirm.Wins, tr.Confirm.Games, alpha)
		tr.Change = nil
		if tr.ConfirmBase != nil && tr.ConfirmPairs != nil {
			tr.ConfirmBase.derive()
			games += tr.ConfirmBase.Games
			d, ci95, _ := tr.ConfirmPairs.WinRateDiff()
			tr.Change = &TuneChange{Diff: d, CI95: [2]float64{ci95.Lo, ci95.Hi}}
		}
		switch {
		case tr.Relative && tr.ConfirmPairs != nil:
			ci = stats.Pentanomial(tr.ConfirmPairs.winPentanomial()).ScoreInterval(alpha)
			tr.Answer, tr.GamesToSettle = changeAnswer(ci, tr.ConfirmPairs, alpha, tr.Rate, r.Tolerance)
		case tr.Relative:
			ci = stats.Interval{Lo: -1, Hi: 1} // no pairs: nothing measured
			tr.Answer, tr.GamesToSettle = TargetUnsettled, 0
		default:
			tr.Answer, tr.GamesToSettle = targetAnswer(ci, tr.Confirm.Wins, tr.Confirm.Games, alpha, tr.Rate, r.Tolerance)
		}
		tr.WinCI = [2]float64{ci.Lo, ci.Hi}
		tr.Reached = tr.Answer == TargetWithin
		tr.SearchMin, tr.SearchMax = 1, -1
		below, above := true, true // every candidate's interval below the target, above it
		for _, e := range r.Trace {
			if e.Games[t] == 0 {
				continue
			}
			w := stats.Wilson(e.Wins[t], e.Games[t], 0.05)
			x := e.WinRates[t]
			if tr.Relative {
				// The change against the base on the same blocks.
				b := ratio(e.BaseWins[t], e.BaseGames[t])
				x, w.Lo, w.Hi = x-b, w.Lo-b, w.Hi-b
			}
			tr.SearchMin, tr.SearchMax = min(tr.SearchMin, x), max(tr.SearchMax, x)
			below = below && w.Hi < tr.Rate
			above = above && w.Lo > tr.Rate
		}
		if !tr.Relative {
			tr.SearchMax = max(tr.SearchMax, 0)
		}
		tr.Reachable = !below && !above
	}
	r.setTiming(games+r.SearchGames, secs)
}

func (r *TuneResult) formats() []string { return []string{FormatTune, "tallywood-tune/1"} }

func (r *TuneResult) sameRun(first Study) []field {
	f := first.(*TuneResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		{"search", r.TunedHash == f.TunedHash && r.Best == f.Best && sameTrace(r.Trace, f.Trace) && r.BudgetGames == f.BudgetGames,
			r.searchText(), f.searchText()},
		sameField("confirm_seed", r.ConfirmSeed, f.ConfirmSeed),
		sameField("confirm_games", r.ConfirmGames, f.ConfirmGames),
		sameField("tolerance", r.Tolerance, f.Tolerance),
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
	return slices.EqualFunc(a, b, func(x, y TuneTargetResult) bool {
		return x.Rate == y.Rate && x.Relative == y.Relative && x.Confirm.labels == y.Confirm.labels
	})
}

func sameTrace(a, b []TuneEval) bool {
	return slices.EqualFunc(a, b, func(x, y TuneEval) bool {
		return slices.Equal(x.Values, y.Values) && slices.Equal(x.Games, y.Games) && slices.Equal(x.Wins, y.Wins) &&
			slices.Equal(x.BaseGames, y.BaseGames) && slices.Equal(x.BaseWins, y.BaseWins) && x.Round == y.Round
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
	case r.Tolerance != 0 && !validTolerance(r.Tolerance):
		return fmt.Errorf("tolerance %g is not above 0 and at most %g", r.Tolerance, maxTolerance)
	case r.BlockGames < 1 || r.BlockGames > r.BudgetGames:
		return fmt.Errorf("block_games %d is outside 1..%d (budget_games)", r.BlockGames, r.BudgetGames)
	}
	for i, f := range r.Fields {
		if f.Path == "" || len(f.Path) > maxText || len(f.Values) == 0 {
			return fmt.Errorf("field %d: no path or no values", i+1)
		}
		if f.Choices == nil && !engine.IsNumericPath(f.Path) || f.Choices != nil && !engine.IsChoicePath(f.Path) {
			return fmt.Errorf("field %d: path %q names no number or choice of a rules file", i+1, kit.Clip(f.Path))
		}
		if !fieldValue(f.Base) || !fieldValue(f.Values[0]) || !fieldValue(f.Values[len(f.Values)-1]) || !slices.IsSorted(f.Values) {
			return fmt.Errorf("field %d: base %d and values %v are not a rules file's numbers (within ±%d, in order)", i+1, f.Base, kit.Clip(fmt.Sprint(f.Values)), maxFieldValue)
		}
		if f.Choices != nil {
			if len(f.Choices) > maxText || f.Values[0] < 0 || f.Values[len(f.Values)-1] >= len(f.Choices) {
				return fmt.Errorf("field %d: values %v do not index its %d choices", i+1, f.Values, len(f.Choices))
			}
			for _, c := range f.Choices {
				if len(c) > maxText {
					return fmt.Errorf("field %d: a choice of %d bytes", i+1, len(c))
				}
			}
		}
	}
	relative := false
	for _, t := range r.Targets {
		relative = relative || t.Relative
	}
	if err := r.checkTrace(); err != nil {
		return err
	}
	for i, e := range r.Trace {
		if relative && (len(e.BaseGames) != len(r.Targets) || len(e.BaseWins) != len(r.Targets)) || !relative && (e.BaseGames != nil || e.BaseWins != nil) {
			return fmt.Errorf("trace %d: the base's games and wins are those of %d targets, %d of them relative", i+1, len(r.Targets), len(e.BaseGames))
		}
		for t := range e.BaseGames {
			if e.BaseGames[t] < 0 || e.BaseGames[t] > r.BudgetGames || e.BaseWins[t] < 0 || e.BaseWins[t] > e.BaseGames[t] {
				return fmt.Errorf("trace %d: target %d: the base's %d wins of %d games", i+1, t+1, e.BaseWins[t], e.BaseGames[t])
			}
		}
	}
	for i, f := range r.Fields {
		if f.Best != r.Trace[r.Best].Values[i] {
			return fmt.Errorf("field %d: best %d is not the best candidate's", i+1, f.Best)
		}
	}
	n := share(r.ConfirmGames)
	for t := range r.Targets {
		tr := &r.Targets[t]
		c := &tr.Confirm
		switch {
		case tr.Relative && !(tr.Rate > -1 && tr.Rate < 1 && tr.Rate != 0):
			return fmt.Errorf("target %d: change %g is not a change of a win rate, above -1, below 1, not 0", t+1, tr.Rate)
		case !tr.Relative && !(tr.Rate > 0 && tr.Rate < 1):
			return fmt.Errorf("target %d: rate %g is not a win rate above 0 and below 1", t+1, tr.Rate)
		case relative != (tr.ConfirmBase != nil) || relative != (tr.ConfirmPairs != nil):
			return fmt.Errorf("target %d: the base's confirmation is there %v, and a target relative %v", t+1, tr.ConfirmBase != nil, relative)
		}
		if err := c.validate(n, r.Interrupted); err != nil {
			return fmt.Errorf("target %d: %v", t+1, err)
		}
		if relative {
			if err := tr.ConfirmBase.checkShape(); err != nil {
				return fmt.Errorf("target %d: base: %v", t+1, err)
			}
			if err := tr.ConfirmBase.Counts.check(); err != nil {
				return fmt.Errorf("target %d: base: %v", t+1, err)
			}
			if err := tr.ConfirmPairs.check(&tr.ConfirmBase.Counts, &c.Counts); err != nil {
				return fmt.Errorf("target %d: %v", t+1, err)
			}
			if tr.ConfirmBase.Counts.Games != c.Counts.Games || tr.ConfirmPairs.Games != c.Counts.Games {
				return fmt.Errorf("target %d: the base, the tuned rules and their pairs count different games", t+1)
			}
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

func (r *TuneResult) clone() Study {
	out := *r
	out.Targets = slices.Clone(r.Targets)
	for i := range out.Targets {
		t := &out.Targets[i]
		t.Confirm.Failures = slices.Clone(t.Confirm.Failures)
		if t.ConfirmBase != nil {
			b, p := *t.ConfirmBase, *t.ConfirmPairs
			b.Failures = slices.Clone(b.Failures)
			t.ConfirmBase, t.ConfirmPairs = &b, &p
		}
	}
	return &out
}

func (r *TuneResult) add(o Study) {
	for t := range r.Targets {
		tr, ot := &r.Targets[t], &o.(*TuneResult).Targets[t]
		tr.Confirm.add(&ot.Confirm)
		if tr.ConfirmBase != nil {
			tr.ConfirmBase.add(ot.ConfirmBase)
			tr.ConfirmPairs.Merge(ot.ConfirmPairs)
		}
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
