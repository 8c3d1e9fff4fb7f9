package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/sim/stats"
)

// FormatCompare names the JSON document of `tallywood compare`.
//
// /6 has a tolerance: a cell whose score interval lies inside ±it is
// within it, and a cell neither different nor within has not enough games
// (the verdict "no clear difference" of /5 and older is gone), the score's
// intervals are its score interval's, and each such cell has the games it
// would take. /5 and older still read, with the default tolerance.
//
// /5 records what the arms' rules differ in (changes, engine.Diff) and the
// cells not played because their game cannot read any change (skipped);
// /4 and older read with neither.
//
// /4 decides every cell by one rule over all its tests
// (FixedVerdicts, or the cell's sequential test): the verdict words,
// score_diff_ci and margin_diff_ci, the *_p_adj p-values replacing
// *_p_holm, verdict_level, tests and confidence, and a sequential
// test's alpha_each and "p1". /3 and /2 still read: the fields they
// differ in are derived, and derive recomputes them by the new rule.
const FormatCompare = "tallywood-compare/6"

// KindCompare is the kind of a comparison's result.
const KindCompare Kind = "compare"

func init() {
	registerKind(KindCompare, func() Study { return &CompareResult{} })
	registerKindless("tallywood-compare/1", "") // no reader reads it now
}

// CompareArm is one side of a comparison: its name and its rules.
type CompareArm struct {
	Name  string
	Rules *engine.Rules
}

// ComparePair is one cell of a comparison: what each arm plays, and how
// many paired games (before sharding).
type ComparePair struct {
	A, B  CellSpec
	Games int64
}

// CompareConfig plays, for each cell, game i of both arms on seed
// deal.GameSeed(Seed, i), so that both see the same cards and tiles wherever
// their rules allow (common random numbers). With Test set, each cell
// stops at the first pair after which the sequential test decides.
type CompareConfig struct {
	RunConfig // an item is a paired game: a failure in either arm drops both
	A, B      CompareArm
	Cells     []ComparePair
	Test      *Sequential // nil: none; only with the whole shard
	// Tolerance is the designer's: a score difference within ±Tolerance
	// is within (FixedVerdicts); 0 is DefaultTolerance.
	Tolerance float64
	// PlayUnread plays the cells whose game cannot read any change too
	// (Skips): by default they are not played.
	PlayUnread bool
}

// CompareSkip is a cell not played: its arms play alike but for their
// rules, and its game reads none of the fields they differ in, so every
// difference would be 0.
type CompareSkip struct {
	labels          // the cell's, both arms alike
	Cell   int      `json:"cell"`   // its place among all the cells of the grid, from 0
	Games  int64    `json:"games"`  // the paired games it would have played
	Unread []string `json:"unread"` // the fields the arms differ in, none read by its game
}

// Skips lists the cells Compare does not play: every cell whose game
// reads no changed field (engine.Unread), unless PlayUnread.
func (c *CompareConfig) Skips() []CompareSkip {
	if c.PlayUnread {
		return nil
	}
	var out []CompareSkip
	for i, p := range c.Cells {
		if !p.alike() {
			continue
		}
		fields := engine.Unread(c.A.Rules, c.B.Rules, func(s engine.Scope) bool { return s.ReadsSolo(p.A.Mode) })
		if len(fields) == 0 {
			continue
		}
		sk := CompareSkip{labels: cellLabels(c.A.Rules, p.A), Cell: i, Games: p.Games}
		for _, f := range fields {
			sk.Unread = append(sk.Unread, f.Path)
		}
		out = append(out, sk)
	}
	return out
}

// SequentialResult is a cell's sequential test and its outcome.
type SequentialResult struct {
	On    Statistic `json:"on"`
	Delta float64   `json:"delta"`
	P0    float64   `json:"p0"`
	P1    float64   `json:"p1"`
	Alpha float64   `json:"alpha"` // over all the cells (--alpha)
	// AlphaEach is the Alpha of the test each cell ran: Alpha split over
	// the cells and the test's sides (Sequential.ForCells).
	AlphaEach float64   `json:"alpha_each"`
	Beta      float64   `json:"beta"`
	Decision  Decision  `json:"decision"`
	Games     int64     `json:"games"`
	LLR       []float64 `json:"llr"`
	Lower     float64   `json:"lower"`
	Upper     float64   `json:"upper"`
	// OldEstimates reads the label of the estimates after a stop that
	// results written before sim/report said it held, and drops it.
	OldEstimates droppedText `json:"estimates,omitzero"`
}

// CompareCell is one cell's comparison; differences are B − A. The
// *CI95 intervals are each 95 % on its own; the *CI ones are those the
// verdict rests on, simultaneous over every test of the comparison at its
// Confidence.
type CompareCell struct {
	MaxGames       int64      `json:"max_games"`
	Games          int64      `json:"games"`
	Errors         int64      `json:"errors"` // failed pairs, not in Games
	A              Cell       `json:"a"`
	B              Cell       `json:"b"`
	Pairs          PairCounts `json:"pairs"`
	WinRateDiff    float64    `json:"win_rate_diff"`
	ScoreDiff      float64    `json:"score_diff"`
	ScoreDiffCI95  [2]float64 `json:"score_diff_ci95"`
	ScoreDiffCI    [2]float64 `json:"score_diff_ci"`
	ScoreDiffP     float64    `json:"score_diff_p"`
	ScoreDiffPAdj  float64    `json:"score_diff_p_adj"`
	MarginDiff     float64    `json:"margin_diff"`
	MarginDiffCI95 [2]float64 `json:"margin_diff_ci95"`
	MarginDiffCI   [2]float64 `json:"margin_diff_ci"`
	MarginDiffP    float64    `json:"margin_diff_p"`
	MarginDiffPAdj float64    `json:"margin_diff_p_adj"`
	Verdict        Verdict    `json:"verdict"`
	// GamesToSettle is, for a verdict of not enough games or of the
	// margin only (higher or lower: the score is unsettled there too),
	// about how many paired games would settle the score: show it
	// different or within the tolerance (derived).
	GamesToSettle  int64             `json:"games_to_settle,omitempty"`
	Sequential     *SequentialResult `json:"sequential,omitempty"`
	Failures       []Failure         `json:"failures,omitempty"` // the first failed pairs
	ElapsedSeconds float64           `json:"elapsed_seconds"`
}

// CompareResult is the output of a comparison (docs/output.md describes
// every field). Everything but the timing fields is a function of the
// flags alone.
type CompareResult struct {
	Envelope
	A ArmInfo `json:"a"`
	B ArmInfo `json:"b"`
	// Changes is what B's rules differ in from A's, field by field
	// (engine.Diff, cards by id); the cells say what else differs.
	Changes     []engine.Difference `json:"changes"`
	Cells       []CompareCell       `json:"cells"`
	Skipped     []CompareSkip       `json:"skipped,omitempty"`
	CellsTested int                 `json:"cells_tested"`
	// VerdictLevel, Tests and Confidence are the fixed-size rule's
	// (Verdicts): with no difference in any cell, the chance that any
	// cell's verdict is not "no clear difference" is at most VerdictLevel.
	VerdictLevel float64 `json:"verdict_level"`
	Tests        int     `json:"tests"`
	Confidence   float64 `json:"confidence"`
	// Tolerance is the designer's, on the score: a cell whose interval
	// lies inside ±Tolerance is within it. A result before
	// tallywood-compare/6 stated none and reads with DefaultTolerance.
	Tolerance float64 `json:"tolerance"`
}

// UnmarshalJSON reads a cell as strictly as every result, but leaves out
// what formats before tallywood-compare/4 wrote and /4 does not:
// *_p_holm, and the verdicts "easier by margin only" and "harder by
// margin only", which no longer read. Both are derived: derive recomputes
// them.
func (c *CompareCell) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	delete(raw, "score_diff_p_holm")
	delete(raw, "margin_diff_p_holm")
	var word string
	if json.Unmarshal(raw["verdict"], &word) == nil && (word == "easier by margin only" || word == "harder by margin only") {
		delete(raw, "verdict")
	}
	rest, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	type plain CompareCell // without this method
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(c))
}

// pairRec is what a worker reports of one paired game: both arms'
// results, or the failure that dropped the pair.
type pairRec struct {
	res             [2]engine.Result
	fbOther, fbBoth [2]int16
	failure         *Failure
}

type chunkRes struct {
	c    int64
	recs *[]pairRec
}

// Compare plays the cells of cfg one after the other. Within a cell,
// workers play chunks of games in any order, but the results are committed
// in game order, so the sequential test stops at the same game for any
// number of workers; at most a fixed window of chunks waits to be
// committed, so memory stays flat.
//
// A pair either of whose games failed (policy.FailedError) is left out of
// the cell and counted in its errors, with its message among its
// failures, and the comparison goes on up to cfg.MaxErrors of them; past
// that it stops like an interruption and returns the result with
// ErrTooManyFailed. Any other error stops it and returns no result.
func Compare(ctx context.Context, cfg CompareConfig) (*CompareResult, error) {
	if cfg.A.Rules == nil || cfg.B.Rules == nil {
		return nil, errors.New("sim: no rules")
	}
	if len(cfg.Cells) == 0 {
		return nil, errors.New("sim: no cells to compare")
	}
	skips := cfg.Skips()
	if len(skips) == len(cfg.Cells) {
		return nil, errors.New("no cell's game reads any change (PlayUnread plays them)")
	}
	var items int64
	for _, c := range cfg.Cells {
		if c.Games < 1 || c.Games > MaxGames {
			return nil, fmt.Errorf("sim: games %d is not between 1 and %d", c.Games, MaxGames)
		}
		items = max(items, cfg.Shard.Len(c.Games))
	}
	if cfg.Test != nil {
		if err := cfg.Test.Validate(); err != nil {
			return nil, fmt.Errorf("sim: sequential test: %v", err)
		}
		if !cfg.Shard.Whole() {
			return nil, errors.New("sim: a sequential test needs every game in order, not a shard")
		}
	}
	// The collector adds the progress as it commits pairs (its work adds
	// no games: pool.run leaves the progress to it).
	pl := cfg.soloPool(ctx, items)
	defer pl.close()
	out := &CompareResult{
		Envelope: newEnvelope(KindCompare, FormatCompare, cfg.Seed, cfg.Shard),
		A:        armInfo(cfg.A.Name, cfg.A.Rules), B: armInfo(cfg.B.Name, cfg.B.Rules),
		Changes:   engine.Diff(cfg.A.Rules, cfg.B.Rules),
		Skipped:   skips,
		Tolerance: cmp.Or(cfg.Tolerance, DefaultTolerance),
	}
	if out.Changes == nil {
		out.Changes = []engine.Difference{}
	}
	skipped := map[int]bool{}
	for _, sk := range skips {
		skipped[sk.Cell] = true
	}
	// Each cell's test takes a share of --alpha, so that with no
	// difference anywhere the chance of any directional verdict stays at
	// about Alpha however many cells there are.
	var test *Sequential
	if cfg.Test != nil {
		test = cfg.Test.ForCells(len(cfg.Cells) - len(skips))
	}
	for i, cell := range cfg.Cells {
		if skipped[i] {
			continue
		}
		start := time.Now()
		cc, err := compareCell(&cfg, test, cell, pl)
		if err != nil {
			return nil, err
		}
		cc.ElapsedSeconds = time.Since(start).Seconds()
		out.Cells = append(out.Cells, *cc) // after an interrupt, the cells not reached have no games
	}
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// compareCell plays one cell on pl's workers, stopping when test (if any)
// decides.
func compareCell(cfg *CompareConfig, test *Sequential, cell ComparePair, pl *pool[*player]) (*CompareCell, error) {
	var halt atomic.Bool // the collector has all it needs
	quit := make(chan struct{})
	var quitOnce sync.Once
	stopAll := func() { halt.Store(true); quitOnce.Do(func() { close(quit) }) }
	window := 4 * len(pl.players)
	tokens := make(chan struct{}, window)
	results := make(chan chunkRes, window)
	bufs := sync.Pool{New: func() any { s := make([]pairRec, 0, chunkSize); return &s }}
	rules := [2]*engine.Rules{cfg.A.Rules, cfg.B.Rules}
	specs := [2]*CellSpec{&cell.A, &cell.B}
	arms := [2]string{"A", "B"}
	// Each worker's pair in play, and its chunk; a chunk with a game cut
	// short is never committed.
	cur := make([]pairRec, len(pl.players))
	chunk := make([]*[]pairRec, len(pl.players))
	for w := range chunk {
		chunk[w] = bufs.Get().(*[]pairRec)
	}
	var err error // the first error of a game; read once results is closed
	go func() {
		err = pl.run(work{
			n: cfg.Shard.Len(cell.Games), size: chunkSize, halt: &halt,
			// At most window chunks are played but not committed: the
			// collector frees a token per chunk it commits.
			begin: func() bool {
				select {
				case tokens <- struct{}{}:
					return true
				case <-quit:
				case <-pl.stopped:
				}
				return false
			},
			play: func(w int, _ int64, seed uint64) error {
				p, rec := pl.players[w], &cur[w]
				for k, s := range specs {
					if k > 0 && pl.stop.Load() {
						return nil // the pool drops the pair
					}
					if err := p.play(rules[k], seed, s.Mode, s.Policy, s.Politician); err != nil {
						return fmt.Errorf("arm %s: %w", arms[k], err)
					}
					rec.res[k] = p.g.Result
					rec.fbOther[k], rec.fbBoth[k] = p.g.Seats[1].FallbackOther, p.g.Seats[1].FallbackBoth
				}
				return nil
			},
			keep: func(w int, _ int64) { *chunk[w] = append(*chunk[w], cur[w]) },
			failed: func(w int, _ int64, f Failure) {
				*chunk[w] = append(*chunk[w], pairRec{failure: &f})
			},
			end: func(w int, c int64) {
				results <- chunkRes{c, chunk[w]}
				chunk[w] = bufs.Get().(*[]pairRec)
				*chunk[w] = (*chunk[w])[:0]
			},
		})
		close(results)
	}()

	var counts [2]Counts
	var pairs PairCounts
	var seq *SeqState
	if test != nil {
		seq = test.Start()
	}
	decision := Undecided
	pending := map[int64]*[]pairRec{}
	committed := int64(0)
	for cr := range results {
		if halt.Load() {
			continue // drain
		}
		pending[cr.c] = cr.recs
		for {
			buf, ok := pending[committed]
			if !ok || halt.Load() {
				break
			}
			recs := *buf
			delete(pending, committed)
			committed++
			for i := range recs {
				rec := &recs[i]
				if cfg.Progress != nil {
					cfg.Progress.Add(1)
				}
				if rec.failure != nil {
					// Counted in game order, like the pairs, so that a
					// sequential test sees the same failures for any
					// workers.
					pl.failure(*rec.failure)
					if pl.stop.Load() {
						stopAll() // more than MaxErrors
						break
					}
					continue
				}
				for k := range 2 {
					counts[k].addResult(&rec.res[k], rec.fbOther[k], rec.fbBoth[k])
				}
				pairs.Add(&rec.res[0], &rec.res[1])
				if seq != nil {
					if decision = seq.Update(&pairs); decision != Undecided {
						stopAll()
						break
					}
				}
			}
			bufs.Put(buf)
			<-tokens
		}
	}
	if err != nil {
		return nil, err
	}
	cc := &CompareCell{MaxGames: cell.Games, Pairs: pairs}
	cc.Errors, cc.Failures = pl.cellFailures()
	for k, s := range specs {
		c := newCell(cellLabels(rules[k], *s), &counts[k], rules[k].Districts[:], 0)
		if k == 0 {
			cc.A = c
		} else {
			cc.B = c
		}
	}
	if seq != nil {
		t := cfg.Test
		lo, hi := test.Bounds()
		cc.Sequential = &SequentialResult{
			On: t.On, Delta: t.Delta, P0: t.P0, P1: t.P1, Alpha: t.Alpha, AlphaEach: test.Alpha, Beta: t.Beta,
			Decision: decision, Games: pairs.Games, LLR: seq.LLRs(), Lower: lo, Upper: hi,
		}
	}
	return cc, nil
}

// derive computes what the counts give: each arm's summary, each cell's
// differences and p-values, the verdicts by the rule of FixedVerdicts
// (or, in a cell whose sequential test ran, by that test), and the run's
// timing.
func (r *CompareResult) derive() {
	var games int64
	var secs float64
	pairs := make([]PairCounts, len(r.Cells))
	for i := range r.Cells {
		pairs[i] = r.Cells[i].Pairs
	}
	// A result of an older format is read into this one: derive fills
	// every field /4 adds, and an older test's decision reads as /4's.
	old := r.Format != FormatCompare
	r.Format = FormatCompare
	r.Tolerance = cmp.Or(r.Tolerance, DefaultTolerance)
	v := FixedVerdicts(pairs, VerdictLevel, r.Tolerance)
	r.VerdictLevel, r.Tests, r.Confidence = v.Level, v.Tests, v.Confidence
	for i := range r.Cells {
		c := &r.Cells[i]
		c.A.derive()
		c.B.derive()
		c.Games = c.Pairs.Games
		c.WinRateDiff = c.B.WinRate - c.A.WinRate
		var ci stats.Interval
		c.ScoreDiff, ci, c.ScoreDiffP = c.Pairs.ScoreDiff()
		c.ScoreDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		c.MarginDiff, ci, c.MarginDiffP = c.Pairs.MarginDiff()
		c.MarginDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		cv := &v.Cells[i]
		c.ScoreDiffCI = [2]float64{cv.Score.CI.Lo, cv.Score.CI.Hi}
		c.MarginDiffCI = [2]float64{cv.Margin.CI.Lo, cv.Margin.CI.Hi}
		c.ScoreDiffPAdj, c.MarginDiffPAdj = cv.Score.PAdj, cv.Margin.PAdj
		c.Verdict = cv.Verdict
		c.GamesToSettle = 0
		if c.Verdict == NotEnoughGames || c.Verdict == MarginHigher || c.Verdict == MarginLower {
			c.GamesToSettle = pairsToSettle(&c.Pairs, stats.BonferroniLevel(v.Level, v.Tests), r.Tolerance)
		}
		if s := c.Sequential; s != nil {
			if old {
				s.fromOldFormat()
			}
			c.Verdict = SequentialVerdict(&Sequential{On: s.On, Delta: s.Delta, P0: s.P0, P1: s.P1}, s.Decision)
		}
		games += 2 * c.Games
		secs += c.ElapsedSeconds
	}
	r.CellsTested = len(r.Cells)
	r.setTiming(games, secs)
}

// fromOldFormat reads a test written before tallywood-compare/4: the
// two-answer test then wrote its decision for P1 as "easier", and each
// cell's test ran at the whole Alpha.
func (s *SequentialResult) fromOldFormat() {
	if s.Delta == 0 && s.Decision == Easier {
		s.Decision = NearerP1
	}
	if s.AlphaEach == 0 {
		s.AlphaEach = s.Alpha
	}
}

func (r *CompareResult) formats() []string {
	return []string{FormatCompare, "tallywood-compare/5", "tallywood-compare/4", "tallywood-compare/3", "tallywood-compare/2"}
}

func (r *CompareResult) sameRun(first Study) []field {
	f := first.(*CompareResult)
	return []field{
		{"arm A", r.A.equal(f.A), r.A.text(), f.A.text()},
		{"arm B", r.B.equal(f.B), r.B.text(), f.B.text()},
		{"cells", sameCompareCells(r.Cells, f.Cells), compareCellNames(r.Cells), compareCellNames(f.Cells)},
		sameField("tolerance", r.Tolerance, f.Tolerance),
		{"skipped cells", slices.EqualFunc(r.Skipped, f.Skipped, sameSkip), skipNames(r.Skipped), skipNames(f.Skipped)},
	}
}

func sameSkip(a, b CompareSkip) bool {
	return a.labels == b.labels && a.Cell == b.Cell && a.Games == b.Games && slices.Equal(a.Unread, b.Unread)
}

// skipNames lists the skipped cells in an error.
func skipNames(ss []CompareSkip) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%d:%s", s.Cell+1, s.name())
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// check verifies that a decoded comparison adds up: each arm's counts,
// the pairs, and no more pairs than the shards play (fewer only when the
// run was interrupted or its sequential test decided).
func (r *CompareResult) check(share func(int64) int64) error {
	if len(r.Cells) == 0 {
		return errors.New("cells: none")
	}
	if r.Tolerance != 0 && !validTolerance(r.Tolerance) {
		return fmt.Errorf("tolerance %g is not above 0 and at most %g", r.Tolerance, maxTolerance)
	}
	if err := checkArms(&r.A, &r.B); err != nil {
		return err
	}
	for i := range r.Cells {
		if err := r.Cells[i].check(share, r.Interrupted); err != nil {
			return fmt.Errorf("cell %d: %v", i+1, err)
		}
	}
	for i, d := range r.Changes {
		if d.Path == "" || len(d.Path) > maxText {
			return fmt.Errorf("changes %d: a path of %d bytes", i+1, len(d.Path))
		}
	}
	grid := len(r.Cells) + len(r.Skipped)
	seen := map[int]bool{}
	for i, sk := range r.Skipped {
		if err := sk.labels.check(); err != nil {
			return fmt.Errorf("skipped %d: %v", i+1, err)
		}
		switch {
		case sk.Cell < 0 || sk.Cell >= grid || seen[sk.Cell]:
			return fmt.Errorf("skipped %d: cell %d is not a place in a grid of %d cells, or a repeat", i+1, sk.Cell+1, grid)
		case sk.Games < 1 || sk.Games > MaxGames:
			return fmt.Errorf("skipped %d: games %d is outside 1..%d", i+1, sk.Games, int64(MaxGames))
		case len(sk.Unread) == 0:
			return fmt.Errorf("skipped %d: no field it cannot read", i+1)
		}
		for _, p := range sk.Unread {
			if p == "" || len(p) > maxText {
				return fmt.Errorf("skipped %d: a path of %d bytes", i+1, len(p))
			}
		}
		seen[sk.Cell] = true
	}
	return nil
}

// check verifies one cell of a decoded comparison.
func (c *CompareCell) check(share func(int64) int64, interrupted bool) error {
	if c.MaxGames < 1 || c.MaxGames > MaxGames {
		return fmt.Errorf("max_games %d is outside 1..%d", c.MaxGames, int64(MaxGames))
	}
	for _, a := range []struct {
		label string
		cell  *Cell
	}{{"arm A", &c.A}, {"arm B", &c.B}} {
		if err := a.cell.checkShape(); err != nil {
			return fmt.Errorf("%s: %v", a.label, err)
		}
		if err := a.cell.Counts.check(); err != nil {
			return fmt.Errorf("%s: %v", a.label, err)
		}
	}
	if err := c.Pairs.check(&c.A.Counts, &c.B.Counts); err != nil {
		return err
	}
	if c.A.Counts.Games != c.Pairs.Games || c.B.Counts.Games != c.Pairs.Games {
		return errors.New("arms and pairs count different games")
	}
	if err := checkSeconds("elapsed_seconds", c.ElapsedSeconds); err != nil {
		return err
	}
	whole := !interrupted && (c.Sequential == nil || c.Sequential.Decision == Undecided)
	return checkErrors("pairs", c.Pairs.Games, c.Errors, share(c.MaxGames), whole, len(c.Failures))
}

func (r *CompareResult) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		c := &out.Cells[i]
		c.A.Failures, c.B.Failures = slices.Clone(c.A.Failures), slices.Clone(c.B.Failures)
		c.Failures = slices.Clone(c.Failures)
	}
	return &out
}

func (r *CompareResult) add(o Study) {
	for i := range r.Cells {
		c, oc := &r.Cells[i], &o.(*CompareResult).Cells[i]
		c.A.add(&oc.A)
		c.B.add(&oc.B)
		c.Pairs.Merge(&oc.Pairs)
		c.Errors += oc.Errors
		c.Failures = firstFailures(append(c.Failures, oc.Failures...))
		c.ElapsedSeconds = addSeconds(c.ElapsedSeconds, oc.ElapsedSeconds)
	}
}

// FailedItems lists each cell's failed paired games.
func (r *CompareResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		out[i] = FailedItems{Unit: "paired game", A: &c.A, B: &c.B, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the paired games the result holds, of the study's.
func (r *CompareResult) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Games
		total += c.MaxGames
	}
	return n, total, "paired games"
}

// sameCompareCells reports whether shard cells a are those of the first
// shard, b: the same arms' cells and games, and no sequential test (which
// plays no shards).
func sameCompareCells(a, b []CompareCell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].A.labels != b[i].A.labels || a[i].B.labels != b[i].B.labels || a[i].MaxGames != b[i].MaxGames || a[i].Sequential != nil {
			return false
		}
	}
	return true
}

// compareCellNames lists a comparison's cells in an error: what each arm
// plays, and the games.
func compareCellNames(cs []CompareCell) string {
	parts := make([]string, len(cs))
	for i := range cs {
		c := &cs[i]
		parts[i] = fmt.Sprintf("%s:%s×%d", c.A.name(), c.B.name(), c.MaxGames)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// UnreadWarning says, before c plays, when its arms differ only in rules
// fields that none of its games reads (a change to difficulties.hard.*
// compared at --mode normal would play every game for a difference that
// cannot be anything but 0): each changed field and why it cannot matter,
// or "" when some change can. It warns only when the arms play alike in
// every cell but for the rules, and no cell's difficulty reads a changed
// field.
func (c *CompareConfig) UnreadWarning() string {
	modes := map[engine.Mode]bool{}
	var names []string
	for _, p := range c.Cells {
		if !p.alike() {
			return ""
		}
		if !modes[p.A.Mode] {
			names = append(names, p.A.Mode.String())
		}
		modes[p.A.Mode] = true
	}
	reads := func(s engine.Scope) bool {
		for m := range modes {
			if s.ReadsSolo(m) {
				return true
			}
		}
		return false
	}
	return unreadWarning(engine.Unread(c.A.Rules, c.B.Rules, reads), "the solo games played (--mode "+strings.Join(names, ",")+")")
}

// alike reports whether both arms of the cell play the same difficulty,
// policy and politician: the arms differ there only in their rules.
func (p ComparePair) alike() bool {
	return p.A.Mode == p.B.Mode && p.A.Policy.String() == p.B.Policy.String() && p.A.Politician == p.B.Politician
}

// ArmsAlike reports whether c's arms play identically in every cell (the
// same play-relevant rules hash, difficulty, policy and politician), and
// whether they are identical in every respect (also the rules' name,
// version and overrides and the arms' names).
func (c *CompareConfig) ArmsAlike() (same, identical bool) {
	a, b := c.A.Rules, c.B.Rules
	if a.Hash != b.Hash {
		return false, false
	}
	for _, p := range c.Cells {
		if !p.alike() {
			return false, false
		}
	}
	identical = a.Name == b.Name && a.Version == b.Version && slices.Equal(a.Overrides, b.Overrides) && c.A.Name == c.B.Name
	return true, identical
}
