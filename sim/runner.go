package sim

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"tallywood/engine"
	"tallywood/opposition/script"
	"tallywood/sim/deal"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
)

// RandomPoliticianIndex in a CellSpec picks the politician per game from
// a stream of the game seed (--politician random), as every command deals
// it (deal.Solo).
const RandomPoliticianIndex = deal.RandomPoliticianIndex

// CellSpec is one cell of a run: a difficulty, a policy and a politician.
type CellSpec struct {
	Mode       engine.Mode
	Policy     policy.Spec
	Politician int // index into Rules.Politicians, or RandomPoliticianIndex
}

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

// chunkFor is the chunk size for n items on workers workers: size, or less
// when size would leave a worker idle (--workers 2 would start one exec
// program for runs of up to 64 games, and an outside program's games can
// take seconds each). The counts are sums, so the chunks change no
// result.
func chunkFor(n int64, workers int, size int64) int64 {
	return max(1, min(size, (n+int64(workers)-1)/int64(workers)))
}

// player owns everything one worker needs to play games: its game, its
// policy instances (one per spec) and its option buffer. Nothing is
// shared, except that Close may be called from another goroutine when the
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
	// rec, when set, records every game's events (the cards study's).
	rec engine.Recorder
	// arc, when set, follows every game's win chance (the arc study's).
	arc *policy.Arc
	// recording, when set, keeps every option the policy chooses in the
	// game being played (sim --record).
	recording *recording
}

// recording is a policy that keeps every option its policy chooses.
type recording struct {
	policy.Policy
	log []engine.Option
}

// Reset starts a new game's log.
func (r *recording) Reset(gameSeed uint64) {
	r.log = r.log[:0]
	r.Policy.Reset(gameSeed)
}

// Choose keeps the policy's choice.
func (r *recording) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	o := r.Policy.Choose(g, legal)
	r.log = append(r.log, o)
	return o
}

// Err and End pass a Fallible policy's on (policy.Play asks them of the
// policy it plays, the recording).
func (r *recording) Err() error {
	if f, ok := r.Policy.(policy.Fallible); ok {
		return f.Err()
	}
	return nil
}

func (r *recording) End(g *engine.Game) {
	if f, ok := r.Policy.(policy.Fallible); ok {
		f.End(g)
	}
}

// recorded is the game p just played with the policy of label tester, as
// a record of decisions: game index game of master seed seed.
func (p *player) recorded(r *engine.Rules, seed uint64, game int64, tester string) playtest.Game {
	m := int(p.g.Result.Margin())
	rec := playtest.Game{Tester: tester, RulesHash: r.Hash, Seed: seed, Game: uint64(game), Mode: p.g.Mode,
		Politician: r.Politicians[p.g.Seats[0].Politician].ID, Margin: &m}
	for _, o := range p.recording.log {
		rec.Decisions = append(rec.Decisions, playtest.Decision{Option: o})
	}
	return rec
}

func newPlayer(opp engine.Opposition) *player {
	return &player{opp: opp, pols: map[string]policy.Policy{}}
}

// newPlayers makes the pool's players against opp.
func newPlayers(opp engine.Opposition) func(stop *atomic.Bool) *player {
	return func(stop *atomic.Bool) *player {
		p := newPlayer(opp)
		p.stop = stop
		return p
	}
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

// Close releases the policies' resources (an exec policy's program). It
// may run while the worker is in a game: the exec policy then fails the
// game, which the run, being cancelled, does not count.
func (p *player) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pol := range p.pols {
		policy.Close(pol)
	}
}

// play plays game seed to its end with the policy choosing every player
// decision; the result is in p.g.
func (p *player) play(r *engine.Rules, seed uint64, mode engine.Mode, spec policy.Spec, politician int) error {
	opp := p.opp
	if opp == nil {
		// The rules' own: the built-in Opposition, or the script they name.
		var err error
		if opp, err = script.For(r); err != nil {
			return err
		}
	}
	d := deal.Solo{Mode: mode, Politician: politician, Opposition: opp, Recorder: p.rec}
	pol := p.policy(spec)
	if p.recording != nil {
		p.recording.Policy = pol
		pol = p.recording
	}
	var err error
	if p.arc != nil {
		p.arc.Start(&p.g, seed)
		d.Opposition = p.arc.Opposition(opp)
		err = policy.PlaySoloWatched(&p.g, r, seed, d, pol, p.buf[:0], p.arc)
		if err == nil {
			p.arc.End(&p.g)
		}
	} else {
		err = policy.PlaySolo(&p.g, r, seed, d, pol, p.buf[:0])
	}
	if err == nil {
		return nil
	}
	var undealt *policy.DealError
	if errors.As(err, &undealt) {
		return undealt.Err
	}
	var failed *policy.FailedError
	var scripted *engine.OppositionError
	switch {
	case errors.As(err, &scripted):
		return err // the script's error names its file and line, the game seed, round and turn
	case errors.As(err, &failed):
		// The policy's error names the game seed.
		return fmt.Errorf("policy %s: %w", spec.Label, err)
	}
	return fmt.Errorf("policy %s, game seed %d: %w", spec.Label, seed, err)
}

// runCells plays every cell of cells under rules on games 0..games−1 of
// run's shard, game i on seed deal.GameSeed(run.Seed, i): the sim kind's
// run, and the blocks and the confirmation of a tune. Cells are played one
// after the other, each by all workers; a worker takes chunks of
// consecutive games of the shard and adds each game to its own Counts,
// which are merged when the cell is done. Counts are sums, so the cells
// do not depend on the workers or on the order the games finished in.
// When ctx is cancelled the workers stop after their current game, and
// the cells hold the games played so far (interrupted). record, when set,
// is handed every game counted, decision by decision, with its cell's
// index, from the workers in no order.
//
// A game whose policy failed (policy.FailedError) is counted in the cell's
// errors, with its message among the cell's failures, and the run goes on
// up to run.MaxErrors of them; past that it stops like an interruption and
// returns the cells with ErrTooManyFailed. Any other error stops the run
// and returns no cells.
func runCells(ctx context.Context, run RunConfig, rules *engine.Rules, games int64, cells []CellSpec, record func(cell int, g playtest.Game)) (out []Cell, interrupted bool, err error) {
	if rules == nil {
		return nil, false, fmt.Errorf("sim: no rules")
	}
	if games < 1 || games > MaxGames {
		return nil, false, fmt.Errorf("sim: games %d is outside 1..%d", games, int64(MaxGames))
	}
	n := run.Shard.Len(games)
	pl := run.soloPool(ctx, n)
	defer pl.close()
	if record != nil {
		for _, p := range pl.players {
			p.recording = &recording{}
		}
	}
	out = make([]Cell, len(cells))
	for ci, spec := range cells {
		start := time.Now()
		counts := make([]Counts, len(pl.players))
		err := pl.run(work{
			n: n, size: chunkFor(n, len(pl.players), chunkSize), games: 1,
			play: func(w int, _ int64, seed uint64) error {
				return pl.players[w].play(rules, seed, spec.Mode, spec.Policy, spec.Politician)
			},
			keep: func(w int, j int64) {
				p := pl.players[w]
				counts[w].Add(&p.g)
				if record != nil {
					record(ci, p.recorded(rules, run.Seed, run.Shard.Game(j), spec.Policy.Label))
				}
			},
		})
		if err != nil {
			return nil, false, err
		}
		total := &counts[0]
		for w := 1; w < len(counts); w++ {
			total.Merge(&counts[w])
		}
		var failures []Failure
		total.Errors, failures = pl.cellFailures()
		out[ci] = newCell(cellLabels(rules, spec), total, rules.Districts[:], time.Since(start).Seconds())
		out[ci].Failures = failures
	}
	return out, pl.interrupted(), pl.tooMany()
}

func cellLabels(r *engine.Rules, s CellSpec) labels {
	return labels{Mode: s.Mode.String(), Policy: s.Policy.Label, Politician: politicianLabel(r, s.Politician)}
}

// politicianLabel names a cell's politician: its id, or "random".
func politicianLabel(r *engine.Rules, i int) string {
	if i == RandomPoliticianIndex {
		return "random"
	}
	return r.Politicians[i].ID
}

// ErrTooManyFailed is a runner's error, with a result of the items
// played, when more items failed than its RunConfig.MaxErrors allows.
var ErrTooManyFailed = errors.New("too many failed games")

// MaxGames bounds the games per cell of a run: with every game adding at
// most MarginLimit² to Counts.MarginSumSq (and far less to the other
// sums), the counts of this many games still fit an int64, and at the
// fastest policy's ~100,000 games a second it is months of play.
const MaxGames = 1_000_000_000_000
