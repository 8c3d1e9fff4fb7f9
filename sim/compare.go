package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
)

// FormatCompare names the JSON document of `tallywood compare`.
const FormatCompare = "tallywood-compare/2"

// The kinds of result document, in every result's "kind" field, so a
// reader (merge, the report) can tell them apart.
const (
	KindSim     = "sim"
	KindCompare = "compare"
	KindSweep   = "sweep"
)

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
// GameSeed(Seed, i), so that both see the same cards and tiles wherever
// their rules allow (common random numbers). With Test set, each cell
// stops at the first pair after which the sequential test decides.
type CompareConfig struct {
	A, B       CompareArm
	Cells      []ComparePair
	Seed       uint64
	Shard      Shard
	Workers    int
	Test       *Sequential // nil: none; only with the whole shard
	Opposition engine.Opposition
	Progress   *atomic.Int64
}

// ArmInfo names an arm in a result: its name, its rules and every
// override applied to them.
type ArmInfo struct {
	Name         string   `json:"name"`
	RulesHash    string   `json:"rules_hash"`
	RulesVersion string   `json:"rules_version"`
	Overrides    []string `json:"overrides"`
}

func armInfo(a CompareArm) ArmInfo {
	ov := a.Rules.Overrides
	if ov == nil {
		ov = []string{}
	}
	return ArmInfo{Name: a.Name, RulesHash: a.Rules.Hash, RulesVersion: a.Rules.Version, Overrides: ov}
}

// SequentialResult is a cell's sequential test and its outcome.
type SequentialResult struct {
	On        Statistic `json:"on"`
	Delta     float64   `json:"delta"`
	P0        float64   `json:"p0"`
	P1        float64   `json:"p1"`
	Alpha     float64   `json:"alpha"`
	Beta      float64   `json:"beta"`
	Decision  Decision  `json:"decision"`
	Games     int64     `json:"games"`
	LLR       []float64 `json:"llr"`
	Lower     float64   `json:"lower"`
	Upper     float64   `json:"upper"`
	Estimates string    `json:"estimates"`
}

// stoppedNote is the label of every estimate after a sequential stop: the
// test stops when the data happen to look decisive, so the estimates lean
// toward the decision and the 95 % intervals cover less than 95 %.
const stoppedNote = "biased by the stop: the estimates lean toward the decision and the intervals cover less than 95%; confirm with a fixed --games run on a fresh --seed"

// Verdict is a cell's answer, on the score difference first and the
// margin difference when the score shows none, each after Holm's
// adjustment over the cells. Its value is the answer in words, as the
// JSON writes it.
type Verdict string

// The verdicts of a cell.
const (
	VerdictEasier       Verdict = "easier"
	VerdictHarder       Verdict = "harder"
	VerdictEasierMargin Verdict = "easier by margin only"
	VerdictHarderMargin Verdict = "harder by margin only"
	VerdictNone         Verdict = "no clear difference"
)

// CompareCell is one cell's comparison; differences are B − A.
type CompareCell struct {
	MaxGames        int64             `json:"max_games"`
	Games           int64             `json:"games"`
	A               Cell              `json:"a"`
	B               Cell              `json:"b"`
	Pairs           PairCounts        `json:"pairs"`
	WinRateDiff     float64           `json:"win_rate_diff"`
	ScoreDiff       float64           `json:"score_diff"`
	ScoreDiffCI95   [2]float64        `json:"score_diff_ci95"`
	ScoreDiffP      float64           `json:"score_diff_p"`
	ScoreDiffPHolm  float64           `json:"score_diff_p_holm"`
	MarginDiff      float64           `json:"margin_diff"`
	MarginDiffCI95  [2]float64        `json:"margin_diff_ci95"`
	MarginDiffP     float64           `json:"margin_diff_p"`
	MarginDiffPHolm float64           `json:"margin_diff_p_holm"`
	Verdict         Verdict           `json:"verdict"`
	Sequential      *SequentialResult `json:"sequential,omitempty"`
	ElapsedSeconds  float64           `json:"elapsed_seconds"`
}

// CompareResult is the output of a comparison (docs/output.md describes
// every field). Everything but the timing fields is a function of the
// flags alone.
type CompareResult struct {
	Format         string        `json:"format"`
	Kind           string        `json:"kind"`
	Version        string        `json:"tallywood_version"` // Version() of the build that played it
	Seed           uint64        `json:"seed"`
	Shard          string        `json:"shard,omitempty"`
	A              ArmInfo       `json:"a"`
	B              ArmInfo       `json:"b"`
	Cells          []CompareCell `json:"cells"`
	CellsTested    int           `json:"cells_tested"`
	Interrupted    bool          `json:"interrupted"`
	GamesPerSecond float64       `json:"games_per_second"`
	ElapsedSeconds float64       `json:"elapsed_seconds"`
}

// JSON returns the result as indented JSON with a final newline.
func (r *CompareResult) JSON() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic("sim: " + err.Error()) // only finite floats and plain types
	}
	return append(b, '\n')
}

// pairRec is what a worker reports of one paired game.
type pairRec struct {
	res             [2]engine.Result
	fbOther, fbBoth [2]int16
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
func Compare(ctx context.Context, cfg CompareConfig) (*CompareResult, error) {
	if cfg.A.Rules == nil || cfg.B.Rules == nil {
		return nil, errors.New("sim: no rules")
	}
	if len(cfg.Cells) == 0 {
		return nil, errors.New("sim: no cells to compare")
	}
	for _, c := range cfg.Cells {
		if c.Games < 1 || c.Games > MaxGames {
			return nil, fmt.Errorf("sim: games %d is not between 1 and %d", c.Games, MaxGames)
		}
	}
	if cfg.Test != nil {
		if err := cfg.Test.Validate(); err != nil {
			return nil, fmt.Errorf("sim: sequential test: %v", err)
		}
		if !cfg.Shard.Whole() {
			return nil, errors.New("sim: a sequential test needs every game in order, not a shard")
		}
	}
	stop, release := stopFlag(ctx)
	defer release()
	out := &CompareResult{
		Kind: KindCompare, Format: FormatCompare, Version: Version(), Seed: cfg.Seed,
		A: armInfo(cfg.A), B: armInfo(cfg.B),
		Cells: make([]CompareCell, len(cfg.Cells)),
	}
	if !cfg.Shard.Whole() {
		out.Shard = cfg.Shard.String()
	}
	for i, cell := range cfg.Cells {
		start := time.Now()
		cc, err := compareCell(ctx, &cfg, cell, stop)
		if err != nil {
			return nil, err
		}
		cc.ElapsedSeconds = time.Since(start).Seconds()
		out.Cells[i] = *cc // after an interrupt, the cells not reached have no games
	}
	out.Interrupted = stop.Load()
	out.finish()
	return out, nil
}

// compareCell plays one cell.
func compareCell(ctx context.Context, cfg *CompareConfig, cell ComparePair, stop *atomic.Bool) (*CompareCell, error) {
	nw := workerCount(cfg.Workers)
	opp := (&Config{Opposition: cfg.Opposition}).opposition()
	var halt atomic.Bool // the collector has all it needs, or a game failed
	quit := make(chan struct{})
	var quitOnce sync.Once
	stopAll := func() { halt.Store(true); quitOnce.Do(func() { close(quit) }) }
	window := 4 * nw
	tokens := make(chan struct{}, window)
	results := make(chan chunkRes, window)
	games := newChunks(cfg.Shard.Len(cell.Games), chunkSize, stop)
	pool := sync.Pool{New: func() any { s := make([]pairRec, 0, chunkSize); return &s }}
	rules := [2]*engine.Rules{cfg.A.Rules, cfg.B.Rules}
	specs := [2]*CellSpec{&cell.A, &cell.B}
	players := make([]*player, nw)
	for w := range players {
		players[w] = newPlayer(opp)
		defer players[w].close()
		players[w].stop = stop // a chunk with a game cut short is never committed
	}
	var err error // the first error of a game; read once results is closed
	go func() {
		err = games.run(nw, func(w int) {
			p := players[w]
			for {
				if stop.Load() || halt.Load() {
					return
				}
				// At most window chunks are played but not committed: the
				// collector frees a token per chunk it commits.
				select {
				case tokens <- struct{}{}:
				case <-quit:
					return
				case <-ctx.Done():
					return
				}
				ci, lo, hi, ok := games.take()
				if !ok {
					return
				}
				buf := pool.Get().(*[]pairRec)
				recs := (*buf)[:0]
				for j := lo; j < hi; j++ {
					if stop.Load() || halt.Load() {
						return
					}
					seed := GameSeed(cfg.Seed, uint64(cfg.Shard.Game(j)))
					var rec pairRec
					for k, s := range specs {
						if err := p.play(rules[k], seed, s.Mode, s.Policy, s.Politician); err != nil {
							games.fail(err)
							stopAll()
							return
						}
						if stop.Load() {
							return // the game may have been cut short: the chunk is never committed
						}
						rec.res[k] = p.g.Result
						rec.fbOther[k], rec.fbBoth[k] = p.g.Seats[1].FallbackOther, p.g.Seats[1].FallbackBoth
					}
					recs = append(recs, rec)
				}
				*buf = recs
				results <- chunkRes{ci, buf}
			}
		})
		close(results)
	}()

	var counts [2]Counts
	var pairs PairCounts
	var seq *SeqState
	if cfg.Test != nil {
		seq = cfg.Test.Start()
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
				for k := range 2 {
					counts[k].addResult(&rec.res[k], rec.fbOther[k], rec.fbBoth[k])
				}
				pairs.Add(&rec.res[0], &rec.res[1])
				if cfg.Progress != nil {
					cfg.Progress.Add(1)
				}
				if seq != nil {
					if decision = seq.Update(&pairs); decision != Undecided {
						stopAll()
						break
					}
				}
			}
			pool.Put(buf)
			<-tokens
		}
	}
	if err != nil {
		return nil, err
	}
	cc := &CompareCell{MaxGames: cell.Games, Pairs: pairs}
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
		lo, hi := t.Bounds()
		cc.Sequential = &SequentialResult{
			On: t.On, Delta: t.Delta, P0: t.P0, P1: t.P1, Alpha: t.Alpha, Beta: t.Beta,
			Decision: decision, Games: pairs.Games, LLR: seq.LLRs(), Lower: lo, Upper: hi,
		}
		if decision != Undecided {
			cc.Sequential.Estimates = stoppedNote
		}
	}
	return cc, nil
}

// finish computes what the counts give: each cell's differences and
// p-values, Holm's adjustment over the cells and the verdicts, and the
// run's timing.
func (r *CompareResult) finish() {
	var games int64
	var secs float64
	scoreP := make([]float64, len(r.Cells))
	marginP := make([]float64, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Games = c.Pairs.Games
		c.WinRateDiff = c.B.WinRate - c.A.WinRate
		var ci Interval
		c.ScoreDiff, ci, c.ScoreDiffP = c.Pairs.ScoreDiff()
		c.ScoreDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		c.MarginDiff, ci, c.MarginDiffP = c.Pairs.MarginDiff()
		c.MarginDiffCI95 = [2]float64{ci.Lo, ci.Hi}
		scoreP[i], marginP[i] = c.ScoreDiffP, c.MarginDiffP
		games += 2 * c.Games
		secs += c.ElapsedSeconds
	}
	scoreHolm, marginHolm := Holm(scoreP), Holm(marginP)
	for i := range r.Cells {
		c := &r.Cells[i]
		c.ScoreDiffPHolm, c.MarginDiffPHolm = scoreHolm[i], marginHolm[i]
		c.Verdict = verdict(c)
	}
	r.CellsTested = len(r.Cells)
	r.ElapsedSeconds = secs
	if secs > 0 {
		r.GamesPerSecond = float64(games) / secs
	}
}

// verdict names a cell's difference at the 5 % level after Holm's
// adjustment: by score when the score differs, by margin when only the
// margin does.
func verdict(c *CompareCell) Verdict {
	const level = 0.05
	switch {
	case c.ScoreDiffPHolm < level && c.ScoreDiff > 0:
		return VerdictEasier
	case c.ScoreDiffPHolm < level && c.ScoreDiff < 0:
		return VerdictHarder
	case c.MarginDiffPHolm < level && c.MarginDiff > 0:
		return VerdictEasierMargin
	case c.MarginDiffPHolm < level && c.MarginDiff < 0:
		return VerdictHarderMargin
	}
	return VerdictNone
}

// DecodeCompare reads a result written by CompareResult.JSON.
func DecodeCompare(data []byte) (*CompareResult, error) {
	var r CompareResult
	if err := decodeStrict(data, &r, KindCompare); err != nil {
		return nil, err
	}
	if r.Kind != KindCompare || r.Format != FormatCompare {
		return nil, fmt.Errorf("not a tallywood compare result (kind %q, format %q)", r.Kind, r.Format)
	}
	return &r, nil
}

// MergeCompare adds up compare results of disjoint shards of one run
// (same arms, seed, cells and shard count): merging every shard gives
// exactly the unsharded result, timing aside. names label the results in
// errors (file names).
func MergeCompare(results []*CompareResult, names []string) (*CompareResult, error) {
	if len(results) == 0 {
		return nil, errors.New("nothing to merge")
	}
	first := results[0]
	shards, err := newShardUnion(first.Shard, names[0])
	if err != nil {
		return nil, err
	}
	out := *first
	out.Cells = make([]CompareCell, len(first.Cells))
	for i := range first.Cells {
		out.Cells[i] = first.Cells[i]
		if err := checkCompareCell(&out.Cells[i]); err != nil {
			return nil, fmt.Errorf("%s: cell %d: %v", names[0], i+1, err)
		}
	}
	for ri := 1; ri < len(results); ri++ {
		r, name := results[ri], names[ri]
		if err := shards.add(name, r.Shard,
			field{"arm A", sameArm(r.A, first.A), armText(r.A), armText(first.A)},
			field{"arm B", sameArm(r.B, first.B), armText(r.B), armText(first.B)},
			sameField("seed", r.Seed, first.Seed),
			field{"cells", sameCompareCells(r.Cells, first.Cells), compareCellNames(r.Cells), compareCellNames(first.Cells)}); err != nil {
			return nil, err
		}
		for i := range r.Cells {
			c, o := &out.Cells[i], &r.Cells[i]
			if err := checkCompareCell(o); err != nil {
				return nil, fmt.Errorf("%s: cell %d: %v", name, i+1, err)
			}
			c.A = mergeCell(&c.A, &o.A)
			c.B = mergeCell(&c.B, &o.B)
			c.Pairs.Merge(&o.Pairs)
			c.ElapsedSeconds += o.ElapsedSeconds
		}
		out.Interrupted = out.Interrupted || r.Interrupted
	}
	out.Shard = shards.set.String()
	out.finish()
	return &out, nil
}

// armText shows an arm in an error: its name, rules hash and overrides.
func armText(a ArmInfo) string {
	s := a.Name + " (rules " + short(a.RulesHash)
	if len(a.Overrides) > 0 {
		s += " with " + strings.Join(a.Overrides, ", ")
	}
	return s + ")"
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

func sameArm(a, b ArmInfo) bool {
	if a.Name != b.Name || a.RulesHash != b.RulesHash || a.RulesVersion != b.RulesVersion || len(a.Overrides) != len(b.Overrides) {
		return false
	}
	for i := range a.Overrides {
		if a.Overrides[i] != b.Overrides[i] {
			return false
		}
	}
	return true
}

// checkCompareCell verifies that a cell read from a file adds up.
func checkCompareCell(c *CompareCell) error {
	if err := c.A.Counts.check(); err != nil {
		return fmt.Errorf("arm A: %v", err)
	}
	if err := c.B.Counts.check(); err != nil {
		return fmt.Errorf("arm B: %v", err)
	}
	if err := c.Pairs.check(); err != nil {
		return err
	}
	if c.A.Counts.Games != c.Pairs.Games || c.B.Counts.Games != c.Pairs.Games {
		return errors.New("arms and pairs count different games")
	}
	return nil
}

// mergeCell returns the cell of a's and b's games, untimed.
func mergeCell(a, b *Cell) Cell {
	total := a.Counts
	total.Merge(&b.Counts)
	districts := make([]string, engine.NumDistricts)
	for d := range districts {
		if d < len(a.Districts) {
			districts[d] = a.Districts[d].District
		}
	}
	return newCell(a.labels, &total, districts, 0)
}
