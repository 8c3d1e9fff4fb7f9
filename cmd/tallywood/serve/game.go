package serve

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim/deal"
)

// A game lives in the store as its plan, deal and decisions; the server
// keeps the games being played as play sessions, the terminal game's own,
// rebuilt from the store by replaying the decisions (play.Resume) after a
// restart or when the cache dropped them.

// liveGame is one game in memory. mu is held while the game is read or
// changed; one decision at a time.
type liveGame struct {
	mu     sync.Mutex
	row    Game
	tester Tester
	plan   *planRules
	sess   *play.Session
	// from is the number of events before the tester's last decision:
	// the narration shows the events since.
	from int
	// shown is when the pending decision was last shown to the tester
	// (zero: not since the game was loaded); the time to decide counts
	// from it.
	shown time.Time
	// hint is the hint shown for the pending decision, "" before one.
	hint string
	// used is when the game was last asked for, for the cache.
	used time.Time
}

// planRules is a plan with its rules parsed.
type planRules struct {
	Plan
	rules *engine.Rules
	mode  engine.Mode
}

// maxLive bounds the games kept in memory; an idle one beyond it is
// dropped and replayed from the store when asked for again.
const maxLive = 2000

type liveGames struct {
	srv   *Server
	mu    sync.Mutex
	games map[int64]*liveGame
	plans map[int64]*planRules
}

func newLiveGames(s *Server) *liveGames {
	return &liveGames{srv: s, games: map[int64]*liveGame{}, plans: map[int64]*planRules{}}
}

// plan returns a plan with its rules parsed, once per plan.
func (lg *liveGames) plan(id int64) (*planRules, error) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if p := lg.plans[id]; p != nil {
		return p, nil
	}
	p, err := lg.srv.store.Plan(id)
	if err != nil {
		return nil, err
	}
	pr, err := parsePlan(p)
	if err != nil {
		return nil, err
	}
	lg.plans[id] = pr
	return pr, nil
}

func parsePlan(p Plan) (*planRules, error) {
	rules, err := engine.Parse(p.Rules)
	if err != nil {
		return nil, fmt.Errorf("plan %q: its rules: %v", p.Name, err)
	}
	if rules.Hash != p.RulesHash {
		return nil, fmt.Errorf("plan %q: its rules hash to %s, the store says %s", p.Name, engine.ShortHash(rules.Hash), engine.ShortHash(p.RulesHash))
	}
	mode, err := engine.ParseMode(p.Mode)
	if err != nil {
		return nil, fmt.Errorf("plan %q: %v", p.Name, err)
	}
	return &planRules{Plan: p, rules: rules, mode: mode}, nil
}

// politicianIndex is the plan's politician as play.Config takes it.
func (p *planRules) politicianIndex() (int, error) {
	if p.Politician == "random" {
		return deal.RandomPoliticianIndex, nil
	}
	i := p.rules.PoliticianIndex(p.Politician)
	if i < 0 {
		return 0, fmt.Errorf("plan %q: politician %q is not in its rules", p.Name, p.Politician)
	}
	return i, nil
}

// config is the play session's configuration for a game of the plan.
func (p *planRules) config(tester string) play.Config {
	return play.Config{Rules: p.rules, Seed: p.Seed, Mode: p.mode, Tester: tester, Words: true}
}

// get returns the game of row, from memory or replayed from the store.
func (lg *liveGames) get(row Game, t Tester) (*liveGame, error) {
	lg.mu.Lock()
	if g := lg.games[row.ID]; g != nil {
		g.used = time.Now()
		lg.mu.Unlock()
		return g, nil
	}
	lg.mu.Unlock()
	plan, err := lg.plan(t.PlanID)
	if err != nil {
		return nil, err
	}
	g, err := lg.load(row, t, plan)
	if err != nil {
		return nil, err
	}
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if other := lg.games[row.ID]; other != nil {
		g.sess.Close()
		return other, nil // loaded by another request meanwhile
	}
	if len(lg.games) >= maxLive {
		lg.dropIdle()
	}
	lg.games[row.ID] = g
	return g, nil
}

// cached returns the game of id if it is in memory.
func (lg *liveGames) cached(id int64) *liveGame {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	g := lg.games[id]
	if g != nil {
		g.used = time.Now()
	}
	return g
}

// load replays a stored game: every decision but the last, then the
// last, so that the narration has the events since it.
func (lg *liveGames) load(row Game, t Tester, plan *planRules) (*liveGame, error) {
	ds, err := lg.srv.store.Decisions(row.ID)
	if err != nil {
		return nil, err
	}
	rec, err := recordOf(plan, t, row, ds)
	if err != nil {
		return nil, err
	}
	// The last decision is replayed apart, for the narration since it.
	var last *engine.Option
	if n := len(rec.Decisions); n > 0 {
		o := rec.Decisions[n-1].Option()
		last = &o
		rec.Decisions = rec.Decisions[:n-1]
		if k := len(rec.Hinted); k > 0 && rec.Hinted[k-1] == n-1 {
			rec.Hinted = rec.Hinted[:k-1]
		}
	}
	cfg := plan.config(t.Name)
	sess, err := play.Resume(cfg, rec)
	if err != nil {
		return nil, fmt.Errorf("game %d: %v", row.ID, err)
	}
	g := &liveGame{row: row, tester: t, plan: plan, sess: sess, used: time.Now()}
	if last != nil {
		if ds[len(ds)-1].Hinted {
			sess.MarkHinted()
		}
		g.from = len(sess.Events())
		if err := sess.Choose(*last); err != nil {
			sess.Close()
			return nil, fmt.Errorf("game %d: decision %d: %v", row.ID, len(ds)-1, err)
		}
	}
	if row.HintShown {
		sess.MarkHinted()
	}
	return g, nil
}

// newGame starts deal of the tester's plan: the session first, so that
// the dealt politician is stored with the game.
func (lg *liveGames) newGame(t Tester, plan *planRules, dealN int) (Game, error) {
	pol, err := plan.politicianIndex()
	if err != nil {
		return Game{}, err
	}
	cfg := plan.config(t.Name)
	cfg.Game, cfg.Politician = uint64(dealN), pol
	sess, err := play.New(cfg)
	if err != nil {
		return Game{}, err
	}
	politician := sess.Record().Politician
	sess.Close()
	return lg.srv.store.StartGame(t.ID, dealN, politician)
}

// drop forgets a game, so that the next request replays it from the
// store: after a failed commit, memory must not run ahead of the store.
func (lg *liveGames) drop(id int64) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	if g := lg.games[id]; g != nil {
		delete(lg.games, id)
	}
}

// dropIdle drops the least recently used tenth of the games not in use.
func (lg *liveGames) dropIdle() {
	type aged struct {
		id   int64
		used time.Time
	}
	var all []aged
	for id, g := range lg.games {
		all = append(all, aged{id, g.used})
	}
	slices.SortFunc(all, func(a, b aged) int { return a.used.Compare(b.used) })
	for _, a := range all[:max(1, len(all)/10)] {
		g := lg.games[a.id]
		if g.mu.TryLock() {
			delete(lg.games, a.id)
			g.mu.Unlock()
		}
	}
}

// decisionCount is the number of the tester's decisions so far.
func (g *liveGame) decisionCount() int { return len(g.sess.Record().Decisions) }
