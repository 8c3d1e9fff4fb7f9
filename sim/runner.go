package sim

import (
	"context"
	"fmt"
	"runtime"
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
}

// chunkSize is how many consecutive games a worker takes at once: large
// enough that handing out work costs nothing, small enough that the
// workers finish a cell together.
const chunkSize = 64

func (c *Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (c *Config) opposition() engine.Opposition {
	if c.Opposition != nil {
		return c.Opposition
	}
	return opposition.Solo{}
}

// player owns everything one worker needs to play games: its game, its
// policy instances (one per spec) and its option buffer. Nothing is shared.
type player struct {
	g    engine.Game
	opp  engine.Opposition
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
	pol, ok := p.pols[s.Canon]
	if !ok {
		pol = s.New()
		if st, ok := pol.(policy.Stopper); ok && p.stop != nil {
			st.SetStop(p.stop)
		}
		p.pols[s.Canon] = pol
	}
	return pol
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
		return fmt.Errorf("sim: policy %s, game seed %d: %w", spec.Canon, seed, err)
	}
	return nil
}

// stopFlag turns a context into a flag workers can test per game at the
// cost of an atomic load.
func stopFlag(ctx context.Context) (*atomic.Bool, func()) {
	var stop atomic.Bool
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

// Run plays every cell of cfg and returns the result. Cells are played one
// after the other, each by all workers; a worker takes chunks of
// consecutive games of the shard and adds each game to its own Counts,
// which are merged when the cell is done. Counts are sums, so the result
// does not depend on the workers or on the order the games finished in.
// When ctx is cancelled the workers stop after their current game and the
// result, with the games played so far, is marked Interrupted.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Rules == nil {
		return nil, fmt.Errorf("sim: no rules")
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("sim: games must be at least 1")
	}
	nw := cfg.workers()
	stop, release := stopFlag(ctx)
	defer release()
	players := make([]*player, nw)
	for i := range players {
		players[i] = newPlayer(cfg.opposition())
		players[i].stop = stop
	}

	res := newResult(&cfg)
	n := cfg.Shard.Len(cfg.Games)
	for ci, spec := range cfg.Cells {
		start := time.Now()
		counts := make([]Counts, nw)
		var next atomic.Int64
		var wg sync.WaitGroup
		var errOnce sync.Once
		var firstErr error
		for w := range nw {
			wg.Go(func() {
				p, c := players[w], &counts[w]
				for {
					lo := (next.Add(1) - 1) * chunkSize
					if lo >= n {
						return
					}
					hi := min(lo+chunkSize, n)
					for j := lo; j < hi; j++ {
						if stop.Load() {
							return
						}
						seed := GameSeed(cfg.Seed, uint64(cfg.Shard.Game(j)))
						if err := p.play(cfg.Rules, seed, spec.Mode, spec.Policy, spec.Politician); err != nil {
							errOnce.Do(func() { firstErr = err })
							stop.Store(true)
							return
						}
						if stop.Load() {
							return // the game may have been cut short: not counted
						}
						c.Add(&p.g)
					}
					if cfg.Progress != nil {
						cfg.Progress.Add(hi - lo)
					}
				}
			})
		}
		wg.Wait()
		if firstErr != nil {
			return nil, firstErr
		}
		total := &counts[0]
		for w := 1; w < nw; w++ {
			total.Merge(&counts[w])
		}
		res.Cells[ci] = newCell(cellLabels(cfg.Rules, spec), total, cfg.Rules.Districts[:], time.Since(start))
		if stop.Load() {
			res.Interrupted = true
		}
	}
	res.finish()
	return res, nil
}

func cellLabels(r *engine.Rules, s CellSpec) labels {
	pol := "random"
	if s.Politician >= 0 {
		pol = r.Politicians[s.Politician].ID
	}
	return labels{Mode: s.Mode.String(), Policy: s.Policy.Canon, Politician: pol}
}
