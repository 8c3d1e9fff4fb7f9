package sim

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// The worker pool every study plays through, started from its config's
// RunConfig, so that every kind stops, cancels and counts failed games
// alike.
//
// An item is what a worker plays at once and a result counts whole: a game
// (a sim run), a paired game (a compare), a seed at the base rules and
// every point (a sweep), or a deal in every rotation under every arm (a
// table). Item j
// of the shard plays on game seed deal.GameSeed(seed, shard.Game(j)).
//
// The failure policy: an item one of whose policies failed
// (policy.FailedError, such as an exec program that crashed) is counted
// as one error, with its Failure among the cell's first maxFailures, and
// the study goes on; past maxErrors failed items in all it stops like an
// interruption (tooMany is then ErrTooManyFailed). Any other error stops
// the study and is run's error. An item that ends with the stop set may
// have been cut short (the searches end their decisions early, cancelled
// exec programs fail their game) and is not counted at all.

// RunConfig is what every study's run is set up from, whatever its kind:
// each kind's config embeds it, and its runner starts its pool from it
// (soloPool, or poolConfig for players of its own).
type RunConfig struct {
	// Seed is the study's master seed: item j of the shard plays on game
	// seed deal.GameSeed(Seed, Shard.Game(j)).
	Seed  uint64
	Shard Shard
	// Workers is how many workers play at once; 0: GOMAXPROCS.
	Workers int
	// Opposition plays the solo game's Opposition; nil: each rule set's
	// own, the built-in one or the script the rules name (script.For),
	// which the players resolve per game. A study at a table has none.
	Opposition engine.Opposition
	// Progress, when set, is increased by the games played as they finish.
	Progress *atomic.Int64
	// MaxErrors is how many failed items (an item one of whose policies
	// failed, such as an exec program that crashed: policy.FailedError)
	// the study goes on past; one more stops it. Failed items are counted
	// apart, never as losses.
	MaxErrors int64
}

// opposition is the Opposition the solo game is played against: the one
// place its default is chosen. nil is the rules' own: the players resolve
// it per game (script.For), so that each arm of a comparison plays the
// Opposition its rules name.
func (c *RunConfig) opposition() engine.Opposition { return c.Opposition }

// workers is the number of workers to start for a study whose largest
// stage plays items items: Workers (default GOMAXPROCS), but no more than
// there are items for, since a worker without one only costs memory.
func (c *RunConfig) workers(items int64) int {
	return int(max(1, min(int64(workerCount(c.Workers)), items)))
}

// poolConfig is the pool of a study whose largest stage plays items items.
func (c *RunConfig) poolConfig(items int64) poolConfig {
	return poolConfig{workers: c.workers(items), seed: c.Seed, shard: c.Shard, maxErrors: c.MaxErrors, progress: c.Progress}
}

// soloPool starts the pool of a study of the solo game, whose largest
// stage plays items items: its workers, each a player against the
// Opposition. The runner closes it when done.
func (c *RunConfig) soloPool(ctx context.Context, items int64) *pool[*player] {
	return newPool(ctx, c.poolConfig(items), newPlayers(c.opposition()))
}

// closer is a worker's player: it owns its policies and releases them.
type closer interface{ Close() }

// poolConfig is what the items of a study share.
type poolConfig struct {
	workers   int
	seed      uint64 // the study's seed: item j plays on deal.GameSeed(seed, shard.Game(j))
	shard     Shard
	maxErrors int64
	progress  *atomic.Int64 // nil: none
}

// pool owns the workers' players (one each), the stop flag and the
// failure count of a study.
type pool[P closer] struct {
	poolConfig
	ctx     context.Context
	players []P
	// stop is set when ctx is cancelled, more than maxErrors items failed
	// or an item stopped the study with an error. The players' searches
	// test it too (policy.Stopper).
	stop       atomic.Bool
	stopped    chan struct{} // closed when stop is set: wakes a worker waiting for work (Compare's window)
	stopOnce   sync.Once
	deregister func() bool  // undoes the AfterFunc on ctx
	failed     atomic.Int64 // the failed items of the whole study
	errOnce    sync.Once
	err        error // the first error that stopped the study

	mu       sync.Mutex
	errors   int64     // the failed items of the cell in play
	failures []Failure // the first of them by game, up to 2·maxFailures
}

// newPool makes the players of cfg.workers workers with newPlayer, which
// hands stop to the policies that search. A cancelled ctx stops the study
// and closes the players at once, so that exec programs stop mid-game
// rather than after it; close releases them when the study is done.
func newPool[P closer](ctx context.Context, cfg poolConfig, newPlayer func(stop *atomic.Bool) P) *pool[P] {
	p := &pool[P]{poolConfig: cfg, ctx: ctx, stopped: make(chan struct{})}
	p.players = make([]P, cfg.workers)
	for w := range p.players {
		p.players[w] = newPlayer(&p.stop)
	}
	// Already cancelled: stop before the first game, not when AfterFunc's
	// goroutine gets to run.
	if ctx.Err() != nil {
		p.halt()
	}
	p.deregister = context.AfterFunc(ctx, func() {
		p.halt()
		p.closePlayers()
	})
	return p
}

// close releases the players' policies (an exec policy's program).
func (p *pool[P]) close() {
	p.deregister()
	p.closePlayers()
}

// closePlayers may run while the workers are in games (on cancel): a
// player's Close is safe then, and the game it cuts fails uncounted.
func (p *pool[P]) closePlayers() {
	for _, pl := range p.players {
		pl.Close()
	}
}

// halt sets the stop flag.
func (p *pool[P]) halt() {
	p.stopOnce.Do(func() {
		p.stop.Store(true)
		close(p.stopped)
	})
}

// interrupted reports whether the study stopped before its end.
func (p *pool[P]) interrupted() bool { return p.stop.Load() }

// work is what a runner asks of the pool for one cell: items 0..n−1 of
// the shard, dealt out to the workers in chunks of size consecutive items,
// each worker taking the next chunk when done with one. Item j plays the
// shard's game from + j: a runner that plays a cell's games in stages
// (sensitivity's race) starts each stage where the last ended.
type work struct {
	n, size, from int64
	// play plays item j, on game seed seed, with worker w's player. It
	// returns the first error of a game, or nil when every game of the item
	// was played to its end (or the stop is set: the pool then drops it).
	play func(w int, j int64, seed uint64) error
	// keep takes item j played by worker w.
	keep func(w int, j int64)
	// failed, when set, takes the failed items instead of the pool, for a
	// runner that commits items in order (Compare): it counts each with
	// pool.failure as it commits it. Nil: the pool counts them as they fail.
	failed func(w int, j int64, f Failure)
	// games is how many games an item adds to the progress; 0: the runner
	// adds them itself.
	games int64
	// begin, when set, is called before a worker takes a chunk; false
	// stops the worker. end, when set, is called when a worker has kept
	// every item of chunk c.
	begin func() bool
	end   func(w int, c int64)
	// halt, when set and true, stops the workers like the stop flag but is
	// no interruption (Compare's sequential test has decided).
	halt *atomic.Bool
}

// run plays wk on every worker and returns the error that stopped the
// study, if any.
func (p *pool[P]) run(wk work) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range p.players {
		wg.Go(func() { p.worker(w, &wk, &next) })
	}
	wg.Wait()
	return p.err
}

func (p *pool[P]) worker(w int, wk *work, next *atomic.Int64) {
	for {
		if wk.begin != nil && !wk.begin() {
			return
		}
		c := next.Add(1) - 1
		lo := c * wk.size // c stays within a few chunks past n: no overflow
		if lo >= wk.n {
			return
		}
		for j := lo; j < min(lo+wk.size, wk.n); j++ {
			if p.stop.Load() || wk.halt != nil && wk.halt.Load() {
				return
			}
			game := p.shard.Game(wk.from + j)
			seed := deal.GameSeed(p.seed, uint64(game))
			err := wk.play(w, j, seed)
			var failed *policy.FailedError
			switch {
			case err == nil && p.stop.Load():
				return // an item may have been cut short: not counted
			case err == nil:
				wk.keep(w, j)
			case p.ctx.Err() != nil:
				return // cancelled: the program was stopped, the item not played
			case errors.As(err, &failed):
				f := Failure{Game: game, Seed: seed, Error: err.Error()}
				if wk.failed != nil {
					wk.failed(w, j, f)
				} else {
					p.failure(f)
				}
			default:
				p.errOnce.Do(func() { p.err = err })
				p.halt()
				return
			}
			if p.progress != nil && wk.games > 0 {
				p.progress.Add(wk.games)
			}
		}
		if wk.end != nil {
			wk.end(w, c)
		}
	}
}

// failure counts a failed item of the cell in play, keeping f if it is
// among the cell's first maxFailures by game, and stops the study once
// more than maxErrors items have failed.
func (p *pool[P]) failure(f Failure) {
	p.mu.Lock()
	p.errors++
	p.failures = append(p.failures, f)
	if len(p.failures) > 2*maxFailures {
		p.failures = firstFailures(p.failures)
	}
	p.mu.Unlock()
	if p.failed.Add(1) > p.maxErrors {
		p.halt()
	}
}

// cellFailures returns the failed items of the cell just played and the
// first maxFailures of them by game, the same for any workers; the next
// cell starts from none.
func (p *pool[P]) cellFailures() (int64, []Failure) {
	p.mu.Lock()
	defer p.mu.Unlock()
	n, f := p.errors, firstFailures(p.failures)
	p.errors, p.failures = 0, nil
	return n, f
}

// tooMany is ErrTooManyFailed when more than maxErrors items failed.
func (p *pool[P]) tooMany() error {
	if n := p.failed.Load(); n > p.maxErrors {
		return tooManyFailed(n, p.maxErrors)
	}
	return nil
}

// tooManyFailed is ErrTooManyFailed with the n items that failed in the
// whole study, more than maxErrors.
func tooManyFailed(n, maxErrors int64) error {
	return fmt.Errorf("%w: %d failed, --max-errors %d", ErrTooManyFailed, n, maxErrors)
}
