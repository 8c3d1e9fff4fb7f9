package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/policy"
)

// RandomPoliticianIndex in a CellSpec picks the politician per game from
// a stream of the game seed (--politician random).
const RandomPoliticianIndex = -1

// CellSpec is one cell of a run: a difficulty, a policy and a politician.
type CellSpec struct {
	Mode       engine.Mode
	Policy     policy.Spec
	Politician int // index into Rules.Politicians, or RandomPoliticianIndex
}

// Config is a Monte Carlo run: every cell plays the games of the shard,
// game i on seed GameSeed(Seed, i).
type Config struct {
	Rules      *engine.Rules
	Seed       uint64
	Games      int64 // games per cell before sharding
	Shard      Shard
	Workers    int // 0: GOMAXPROCS
	Cells      []CellSpec
	Opposition engine.Opposition // nil: opposition.Solo{}
	// Progress, when set, is increased by the games played as they finish.
	Progress *atomic.Int64
	// MaxErrors is how many failed games (a policy that failed, such as
	// an exec program that crashed: policy.FailedError) the run goes on
	// past; one more stops it. Failed games are counted apart, never as
	// losses.
	MaxErrors int64
}

// ErrTooManyFailed is Run's error, with a result of the games played,
// when more games failed than Config.MaxErrors allows.
var ErrTooManyFailed = errors.New("sim: too many failed games")

// MaxGames bounds the games per cell of a run: with every game adding at
// most MarginLimit² to Counts.MarginSumSq (and far less to the other
// sums), the counts of this many games still fit an int64, and at the
// fastest policy's ~100,000 games a second it is months of play.
const MaxGames = 1_000_000_000_000

// chunkSize is how many consecutive games a worker takes at once: large
// enough that handing out work costs nothing, small enough that the
// workers finish a cell together.
const chunkSize = 64

// workerCount is the number of workers asked for: w, or GOMAXPROCS when
// w is not positive.
func workerCount(w int) int {
	if w > 0 {
		return w
	}
	return runtime.GOMAXPROCS(0)
}

// workers is the number of workers to start: Workers (default
// GOMAXPROCS), but no more than there are games for, since a worker
// without a game only costs memory.
func (c *Config) workers() int {
	return int(max(1, min(int64(workerCount(c.Workers)), c.Shard.Len(c.Games))))
}

// chunkFor is the chunk size for n items on workers workers: size, or less
// when size would leave a worker idle (issue 22: --workers 2 started one
// exec program for runs of up to 64 games, and an outside program's games
// can take seconds each). The counts are sums, so the chunks change no
// result.
func chunkFor(n int64, workers int, size int64) int64 {
	return max(1, min(size, (n+int64(workers)-1)/int64(workers)))
}

func (c *Config) opposition() engine.Opposition {
	if c.Opposition != nil {
		return c.Opposition
	}
	return opposition.Solo{}
}

// player owns everything one worker needs to play games: its game, its
// policy instances (one per spec) and its option buffer. Nothing is
// shared, except that close may be called from another goroutine when the
// run is cancelled (mu guards pols).
type player struct {
	g    engine.Game
	opp  engine.Opposition
	mu   sync.Mutex
	pols map[string]policy.Policy
	buf  [engine.MaxOptions]engine.Option
	// stop, when set, is handed to the policies that search (see
	// policy.Stopper), so that an interrupt cuts a decision short.
	stop *atomic.Bool
}

func newPlayer(opp engine.Opposition) *player {
	return &player{opp: opp, pols: map[string]policy.Policy{}}
}

func (p *player) policy(s policy.Spec) policy.Policy {
	p.mu.Lock()
	defer p.mu.Unlock()
	pol, ok := p.pols[s.Label]
	if !ok {
		pol = s.New()
		if st, ok := pol.(policy.Stopper); ok && p.stop != nil {
			st.SetStop(p.stop)
		}
		p.pols[s.Label] = pol
	}
	return pol
}

// close releases the policies' resources (an exec policy's program). It
// may run while the worker is in a game: the exec policy then fails the
// game, which the run, being cancelled, does not count.
func (p *player) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pol := range p.pols {
		policy.Close(pol)
	}
}

// play plays game seed to its end with the policy choosing every player
// decision; the result is in p.g.
func (p *player) play(r *engine.Rules, seed uint64, mode engine.Mode, spec policy.Spec, politician int) error {
	if politician == RandomPoliticianIndex {
		politician = RandomPolitician(seed, len(r.Politicians))
	}
	pol := p.policy(spec)
	pol.Reset(seed)
	g := &p.g
	if err := g.Reset(r, seed, engine.Config{Mode: mode, Politician: politician, Opposition: p.opp}); err != nil {
		return err
	}
	if err := policy.Play(g, pol, p.buf[:0]); err != nil {
		var failed *policy.FailedError
		if errors.As(err, &failed) {
			// The policy's error names the game seed.
			return fmt.Errorf("sim: policy %s: %w", spec.Label, err)
		}
		return fmt.Errorf("sim: policy %s, game seed %d: %w", spec.Label, seed, err)
	}
	return nil
}

// stopFlag turns a context into a flag workers can test per game at the
// cost of an atomic load.
func stopFlag(ctx context.Context) (*atomic.Bool, func()) {
	var stop atomic.Bool
	// Already cancelled: stop before the first game, not when the
	// goroutine below gets to run.
	stop.Store(ctx.Err() != nil)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()
	return &stop, func() { close(done) }
}

// chunks deals the items 0..n−1 (games or deals) out to workers a chunk
// at a time, in order, and keeps the first error a worker reports: the
// worker loop of Run, Sweep, compareCell and runDeals.
type chunks struct {
	n, size int64        // the items, and the items of a chunk
	stop    *atomic.Bool // set by fail; the workers test it
	next    atomic.Int64 // the next chunk to take
	once    sync.Once
	err     error
}

func newChunks(n, size int64, stop *atomic.Bool) *chunks {
	return &chunks{n: n, size: size, stop: stop}
}

// take takes the next chunk: its index and its items lo..hi−1; ok is false
// when every chunk is taken.
func (c *chunks) take() (i, lo, hi int64, ok bool) {
	i = c.next.Add(1) - 1
	lo = i * c.size // i stays within a few chunks past n: no overflow
	if lo >= c.n {
		return i, 0, 0, false
	}
	return i, lo, min(lo+c.size, c.n), true
}

// fail keeps err if it is the first and stops every worker.
func (c *chunks) fail(err error) {
	c.once.Do(func() { c.err = err })
	c.stop.Store(true)
}

// run runs work(w) on workers goroutines, w = 0..workers−1, waits for them
// and returns the first error given to fail.
func (c *chunks) run(workers int, work func(w int)) error {
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
	return c.err
}

// Run plays every cell of cfg and returns the result. Cells are played one
// after the other, each by all workers; a worker takes chunks of
// consecutive games of the shard and adds each game to its own Counts,
// which are merged when the cell is done. Counts are sums, so the result
// does not depend on the workers or on the order the games finished in.
// When ctx is cancelled the workers stop after their current game and the
// result, with the games played so far, is marked Interrupted.
//
// A game whose policy failed (policy.FailedError) is counted in the cell's
// errors, with its message among the cell's failures, and the run goes on
// up to cfg.MaxErrors of them; past that it stops like an interruption and
// returns the result with ErrTooManyFailed. Any other error stops the run
// and returns no result.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Rules == nil {
		return nil, fmt.Errorf("sim: no rules")
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("sim: games %d is outside 1..%d", cfg.Games, int64(MaxGames))
	}
	nw := cfg.workers()
	stop, release := stopFlag(ctx)
	defer release()
	players := make([]*player, nw)
	for i := range players {
		players[i] = newPlayer(cfg.opposition())
		players[i].stop = stop
	}
	closeAll := func() {
		for _, p := range players {
			p.close()
		}
	}
	defer closeAll()
	// A cancelled run stops the programs of exec policies now rather than
	// after their current games.
	defer context.AfterFunc(ctx, closeAll)()
	var failedGames atomic.Int64

	res := newResult(&cfg)
	n := cfg.Shard.Len(cfg.Games)
	for ci, spec := range cfg.Cells {
		start := time.Now()
		counts := make([]Counts, nw)
		failures := make([][]Failure, nw)
		games := newChunks(n, chunkFor(n, nw, chunkSize), stop)
		err := games.run(nw, func(w int) {
			p, c := players[w], &counts[w]
			for {
				_, lo, hi, ok := games.take()
				if !ok {
					return
				}
				for j := lo; j < hi; j++ {
					if stop.Load() {
						return
					}
					seed := GameSeed(cfg.Seed, uint64(cfg.Shard.Game(j)))
					err := p.play(cfg.Rules, seed, spec.Mode, spec.Policy, spec.Politician)
					var failed *policy.FailedError
					switch {
					case err == nil && stop.Load():
						return // the game may have been cut short: not counted
					case err == nil:
						c.Add(&p.g)
					case ctx.Err() != nil:
						return // cancelled: the game is not played, not failed
					case errors.As(err, &failed):
						c.Errors++
						failures[w] = append(failures[w], Failure{Game: cfg.Shard.Game(j), Seed: seed, Error: err.Error()})
						if failedGames.Add(1) > cfg.MaxErrors {
							stop.Store(true)
						}
					default:
						games.fail(err)
						return
					}
				}
				if cfg.Progress != nil {
					cfg.Progress.Add(hi - lo)
				}
			}
		})
		if err != nil {
			return nil, err
		}
		total := &counts[0]
		for w := 1; w < nw; w++ {
			total.Merge(&counts[w])
		}
		res.Cells[ci] = newCell(cellLabels(cfg.Rules, spec), total, cfg.Rules.Districts[:], time.Since(start))
		res.Cells[ci].Failures = firstFailures(slices.Concat(failures...))
		if stop.Load() {
			res.Interrupted = true
		}
	}
	res.finish()
	if failedGames.Load() > cfg.MaxErrors {
		return res, fmt.Errorf("%w: %d failed, --max-errors %d", ErrTooManyFailed, failedGames.Load(), cfg.MaxErrors)
	}
	return res, nil
}

func cellLabels(r *engine.Rules, s CellSpec) labels {
	pol := "random"
	if s.Politician >= 0 {
		pol = r.Politicians[s.Politician].ID
	}
	return labels{Mode: s.Mode.String(), Policy: s.Policy.Label, Politician: pol}
}
