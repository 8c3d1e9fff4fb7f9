package serve

import (
	"bytes"
	"fmt"
	"sync"
	"time"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/playtest"
	"tallywood/sim/report"
)

// The dashboard's calibration: calibrate's fit (sim.Calibrate, the same
// as `tallywood calibrate --store`) on the store's games, played again in
// the background when a game ends, one fit at a time, on one worker so
// that the testers' games keep the other core. Its cost is stated with it.

// fitter runs the fits and keeps the latest of each rules set.
type fitter struct {
	srv   *Server
	mu    sync.Mutex
	busy  bool                  // a fit is running
	again bool                  // a game ended while it ran: fit again after it
	fits  map[string]*fitResult // by rules hash
	done  sync.WaitGroup
}

// fitResult is one fit as the dashboard shows it.
type fitResult struct {
	Rules   string // the rules' name and short hash
	Games   int    // recorded games it read
	Text    string // calibrate's tables
	Err     string
	At      time.Time
	Seconds float64
	Played  int64 // the curves' games it played
	Workers int
}

func newFitter(s *Server) *fitter {
	f := &fitter{srv: s, fits: map[string]*fitResult{}}
	if s.cfg.Fit.Games > 0 {
		f.kick() // the store's games at start
	}
	return f
}

// kick asks for a fit on the store as it now is.
func (f *fitter) kick() {
	if f.srv.cfg.Fit.Games <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.busy {
		f.again = true
		return
	}
	f.busy = true
	f.done.Add(1)
	go f.run()
}

func (f *fitter) run() {
	defer f.done.Done()
	for {
		f.fitAll()
		f.mu.Lock()
		if !f.again || f.srv.ctx.Err() != nil {
			f.busy = false
			f.mu.Unlock()
			return
		}
		f.again = false
		f.mu.Unlock()
	}
}

func (f *fitter) wait() { f.done.Wait() }

// status is what the dashboard shows: the fits, and whether one runs.
func (f *fitter) status() (fits []*fitResult, running bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.fits {
		fits = append(fits, r)
	}
	return fits, f.busy
}

// fitAll fits the store's recorded games, one fit per rules set.
func (f *fitter) fitAll() {
	groups, err := StoreRecords(f.srv.store)
	if err != nil {
		f.srv.log.Printf("calibration: %v", err)
		return
	}
	for _, gr := range groups {
		if f.srv.ctx.Err() != nil {
			return
		}
		res := f.fit(gr)
		f.mu.Lock()
		f.fits[gr.Rules.Hash] = res
		f.mu.Unlock()
	}
}

func (f *fitter) fit(gr RecordGroup) *fitResult {
	cfg := f.srv.cfg.Fit
	// The Opposition is the rules' own (nil): the built-in one, or the
	// script the plan's rules name.
	cfg.Rules, cfg.Records, cfg.Workers = gr.Rules, gr.Games, 1
	res := &fitResult{Rules: fmt.Sprintf("%s (%s)", gr.Name, engine.ShortHash(gr.Rules.Hash)), Games: len(gr.Games), At: time.Now(), Workers: 1}
	cc := sim.CurveConfig{Games: cfg.Games, SearchGames: cfg.SearchGames}
	for _, x := range cfg.Skills {
		res.Played += 2 * cc.GamesAt(x)
	}
	start := time.Now()
	out, err := sim.Calibrate(f.srv.ctx, cfg)
	res.Seconds = time.Since(start).Seconds()
	if err != nil {
		res.Err = err.Error()
		return res
	}
	var b bytes.Buffer
	if err := report.Text(&b, report.Source{Name: "store", Study: out}, report.TextOptions{}); err != nil {
		res.Err = err.Error()
		return res
	}
	res.Text = b.String()
	return res
}

// RecordGroup is the store's recorded games played under one rules set.
type RecordGroup struct {
	Name  string // the plans' name for the rules
	Rules *engine.Rules
	Games []playtest.Game
}

// StoreRecords reads every game of the store with at least one decision as
// a recorded game (what a save file or a record of decisions gives
// calibrate), grouped by the rules its plan played, in the order the
// plans were made.
func StoreRecords(st *Store) ([]RecordGroup, error) {
	plans, err := st.Plans()
	if err != nil {
		return nil, err
	}
	testers, err := st.Testers()
	if err != nil {
		return nil, err
	}
	games, err := st.Games(0)
	if err != nil {
		return nil, err
	}
	var groups []RecordGroup
	byHash := map[string]int{}
	planRules := map[int64]*planRules{}
	for _, p := range plans {
		pr, err := parsePlan(p)
		if err != nil {
			return nil, err
		}
		planRules[p.ID] = pr
		if _, ok := byHash[p.RulesHash]; !ok {
			byHash[p.RulesHash] = len(groups)
			groups = append(groups, RecordGroup{Name: p.RulesName, Rules: pr.rules})
		}
	}
	testerOf := map[int64]Tester{}
	for _, t := range testers {
		testerOf[t.ID] = t
	}
	for _, g := range games {
		if g.Decisions == 0 {
			continue
		}
		t := testerOf[g.TesterID]
		pr := planRules[t.PlanID]
		rec, err := recordedGame(st, g, t, pr)
		if err != nil {
			return nil, err
		}
		gr := &groups[byHash[pr.RulesHash]]
		gr.Games = append(gr.Games, rec)
	}
	out := groups[:0]
	for _, gr := range groups {
		if len(gr.Games) > 0 {
			out = append(out, gr)
		}
	}
	return out, nil
}

// recordedGame is a stored game as calibrate reads a recorded one.
func recordedGame(st *Store, g Game, t Tester, pr *planRules) (playtest.Game, error) {
	ds, err := st.Decisions(g.ID)
	if err != nil {
		return playtest.Game{}, err
	}
	rec := playtest.Game{Tester: t.Name, RulesHash: pr.rules.Hash, Seed: pr.Seed, Game: uint64(g.Deal), Mode: pr.mode,
		Politician: g.Politician, File: fmt.Sprintf("%s (game %d)", st.Path, g.ID)}
	for _, d := range ds {
		o, err := engine.ParseOptionID(d.Option)
		if err != nil {
			return playtest.Game{}, fmt.Errorf("%s: game %d: decision %d: %v", st.Path, g.ID, d.N, err)
		}
		rec.Decisions = append(rec.Decisions, playtest.Decision{Option: o, Hinted: d.Hinted})
	}
	if g.Finished {
		m := g.Margin
		rec.Margin = &m
	}
	return rec, nil
}
