package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/sim/policy"
)

// FormatCompare names the JSON document of `tallywood compare`.
const FormatCompare = "tallywood-compare/1"

// Arm is one side of a comparison.
type Arm struct {
	Rules      *engine.Rules
	Mode       engine.Mode
	Policy     policy.Spec
	Politician int // or RandomPoliticianIndex
}

// CompareConfig plays Games paired games: game i of both arms on seed
// GameSeed(Seed, i), so that both see the same cards and tiles wherever
// their rules allow (common random numbers). With SPRT set, the run stops
// at the first game after which the sequential test decides.
type CompareConfig struct {
	A, B       Arm
	Seed       uint64
	Games      int64
	Workers    int
	SPRT       *SPRT
	Opposition engine.Opposition
	Progress   *atomic.Int64
}

// ArmResult is one arm's summary.
type ArmResult struct {
	RulesHash    string `json:"rules_hash"`
	RulesVersion string `json:"rules_version"`
	Cell
}

// SPRTResult is the sequential test and its outcome.
type SPRTResult struct {
	P0       float64 `json:"p0"`
	P1       float64 `json:"p1"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	Decision string  `json:"decision"` // "H0", "H1" or "undecided"
	Games    int64   `json:"games"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
}

// PairedCounts is the paired 2×2 table of wins.
type PairedCounts struct {
	BothWon int64 `json:"both_won"`
	AOnly   int64 `json:"a_only"`
	BOnly   int64 `json:"b_only"`
	Neither int64 `json:"neither"`
}

// CompareResult is the output of a comparison; differences are B − A.
type CompareResult struct {
	Format          string       `json:"format"`
	Version         string       `json:"tallywood_version"` // Version() of the build that played it
	Seed            uint64       `json:"seed"`
	MaxGames        int64        `json:"max_games"`
	Games           int64        `json:"games"`
	A               ArmResult    `json:"a"`
	B               ArmResult    `json:"b"`
	Paired          PairedCounts `json:"paired"`
	WinRateDiff     float64      `json:"win_rate_diff"`
	WinRateDiffCI95 [2]float64   `json:"win_rate_diff_ci95"`
	McNemarP        float64      `json:"mcnemar_p"`
	MeanMarginDiff  float64      `json:"mean_margin_diff"`
	MarginDiffCI95  [2]float64   `json:"margin_diff_ci95"`
	SPRT            *SPRTResult  `json:"sprt,omitempty"`
	Interrupted     bool         `json:"interrupted"`
	GamesPerSecond  float64      `json:"games_per_second"`
	ElapsedSeconds  float64      `json:"elapsed_seconds"`
}

// JSON returns the result as indented JSON with a final newline.
func (r *CompareResult) JSON() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic("sim: " + err.Error())
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

// Compare plays the paired games of cfg. Workers play chunks of games in
// any order, but the results are committed in game order, so the
// sequential test stops at the same game for any number of workers; at
// most a fixed window of chunks waits to be committed, so memory stays
// flat.
func Compare(ctx context.Context, cfg CompareConfig) (*CompareResult, error) {
	if cfg.A.Rules == nil || cfg.B.Rules == nil {
		return nil, fmt.Errorf("sim: no rules")
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("sim: games must be at least 1")
	}
	c := Config{Workers: cfg.Workers, Opposition: cfg.Opposition}
	nw := c.workers()
	opp := c.opposition()
	start := time.Now()

	stop, release := stopFlag(ctx)
	defer release()
	var halt atomic.Bool // the collector has all it needs, or a game failed
	quit := make(chan struct{})
	var quitOnce sync.Once
	stopAll := func() { halt.Store(true); quitOnce.Do(func() { close(quit) }) }
	window := 4 * nw
	tokens := make(chan struct{}, window)
	results := make(chan chunkRes, window)
	var next atomic.Int64
	var wg sync.WaitGroup
	var errOnce sync.Once
	var firstErr error
	nChunks := (cfg.Games + chunkSize - 1) / chunkSize
	pool := sync.Pool{New: func() any { s := make([]pairRec, 0, chunkSize); return &s }}
	for range nw {
		p := newPlayer(opp)
		defer p.close()
		p.stop = stop // a chunk with a game cut short is never committed
		wg.Go(func() {
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
				ci := next.Add(1) - 1
				if ci >= nChunks {
					return
				}
				lo, hi := ci*chunkSize, min((ci+1)*chunkSize, cfg.Games)
				buf := pool.Get().(*[]pairRec)
				recs := (*buf)[:0]
				for i := lo; i < hi; i++ {
					if stop.Load() || halt.Load() {
						return
					}
					seed := GameSeed(cfg.Seed, uint64(i))
					var rec pairRec
					for k, arm := range [2]*Arm{&cfg.A, &cfg.B} {
						if err := p.play(arm.Rules, seed, arm.Mode, arm.Policy, arm.Politician); err != nil {
							errOnce.Do(func() { firstErr = err })
							stop.Store(true)
							stopAll()
							return
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
	}
	go func() { wg.Wait(); close(results) }()

	var counts [2]Counts
	var paired Paired
	var diffSum, diffSumSq int64
	var decision Hypothesis
	var llr float64
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
				wa, wb := rec.res[0].Outcome == engine.Win, rec.res[1].Outcome == engine.Win
				switch {
				case wa && wb:
					paired.Both++
				case wa:
					paired.AOnly++
				case wb:
					paired.BOnly++
				default:
					paired.Neither++
				}
				d := int64(rec.res[1].Margin() - rec.res[0].Margin())
				diffSum += d
				diffSumSq += d * d
				if cfg.Progress != nil {
					cfg.Progress.Add(1)
				}
				if cfg.SPRT != nil {
					decision, llr = cfg.SPRT.Decide(paired)
					if decision != Undecided {
						stopAll()
						break
					}
				}
			}
			pool.Put(buf)
			<-tokens
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	elapsed := time.Since(start)
	n := paired.N()
	out := &CompareResult{
		Format:   FormatCompare,
		Version:  Version(),
		Seed:     cfg.Seed,
		MaxGames: cfg.Games,
		Games:    n,
		Paired:   PairedCounts{BothWon: paired.Both, AOnly: paired.AOnly, BOnly: paired.BOnly, Neither: paired.Neither},
		// Interrupted only when the run stopped short of its end for a
		// reason other than the sequential test.
		Interrupted:    stop.Load() && decision == Undecided && n < cfg.Games,
		ElapsedSeconds: elapsed.Seconds(),
	}
	if s := elapsed.Seconds(); s > 0 {
		out.GamesPerSecond = float64(2*n) / s
	}
	for k, arm := range [2]*Arm{&cfg.A, &cfg.B} {
		cell := newCell(cellLabels(arm.Rules, CellSpec{Mode: arm.Mode, Policy: arm.Policy, Politician: arm.Politician}),
			&counts[k], arm.Rules.Districts[:], elapsed)
		cell.GamesPerSecond, cell.ElapsedSeconds = 0, 0
		ar := ArmResult{RulesHash: arm.Rules.Hash, RulesVersion: arm.Rules.Version, Cell: cell}
		if k == 0 {
			out.A = ar
		} else {
			out.B = ar
		}
	}
	out.WinRateDiff = paired.Diff()
	ci := Newcombe(paired)
	out.WinRateDiffCI95 = [2]float64{ci.Lo, ci.Hi}
	out.McNemarP = McNemar(paired)
	mean, mci := MeanInterval(n, diffSum, diffSumSq)
	out.MeanMarginDiff = mean
	out.MarginDiffCI95 = [2]float64{mci.Lo, mci.Hi}
	if cfg.SPRT != nil {
		lo, hi := cfg.SPRT.Bounds()
		if decision == Undecided {
			_, llr = cfg.SPRT.Decide(paired)
		}
		out.SPRT = &SPRTResult{
			P0: cfg.SPRT.P0, P1: cfg.SPRT.P1, Alpha: cfg.SPRT.Alpha, Beta: cfg.SPRT.Beta,
			Decision: decision.String(), Games: n, LLR: llr, Lower: lo, Upper: hi,
		}
	}
	return out, nil
}
