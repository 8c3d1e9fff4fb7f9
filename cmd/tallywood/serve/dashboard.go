package serve

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
)

// The designer's dashboard: the plans and their testers' links, every
// game with its result and the time per decision, calibrate's fit on the
// store's games, and the exports.

type dashboardView struct {
	Token, CSRF, Base string
	Plans             []planView
	RulesNames        []string
	Games             []gameRow
	Fits              []*fitResult
	Fitting, FitOff   bool
	FitBudget         string
	Message, Error    string
}

type planView struct {
	Plan
	RulesShort string
	Testers    []testerRow
}

type testerRow struct {
	Name, Link              string
	Games, Finished, Won    int
	MeanMargin, ThinkSecond string
}

type gameRow struct {
	ID                int64
	Tester, Plan      string
	Number, Decisions int
	State, Result     string
	ThinkSecond       string
	Started           string
}

// defaultPlanName names the plan a new store starts with.
const defaultPlanName = "First playtest"

// defaultPlan gives a store without a plan the embedded default: the
// reference rules on Normal, three deals of seed 1, hints on.
func (s *Server) defaultPlan() error {
	plans, err := s.store.Plans()
	if err != nil || len(plans) > 0 {
		return err
	}
	r := engine.Reference()
	_, err = s.store.AddPlan(Plan{Name: defaultPlanName, RulesName: engine.ReferenceName, Rules: r.Canonical(), RulesHash: r.Hash,
		Mode: engine.Normal.String(), Seed: 1, Deals: 3, Politician: "random", Hint: true})
	return err
}

// base is the server's address as the request reached it, for the links
// the dashboard shows.
func base(r *http.Request) string {
	return "http://" + r.Host
}

func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	v, err := s.dashboardView(r)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	v.Message, v.Error = r.URL.Query().Get("done"), r.URL.Query().Get("error")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	render(w, "dashboard", v)
}

func (s *Server) dashboardView(r *http.Request) (dashboardView, error) {
	v := dashboardView{Token: s.designer, CSRF: s.csrfFor(s.designer), Base: base(r), RulesNames: s.rulesNames()}
	plans, err := s.store.Plans()
	if err != nil {
		return v, err
	}
	testers, err := s.store.Testers()
	if err != nil {
		return v, err
	}
	games, err := s.store.Games(0)
	if err != nil {
		return v, err
	}
	planOf := map[int64]string{}
	testerOf := map[int64]Tester{}
	for _, t := range testers {
		testerOf[t.ID] = t
	}
	for _, p := range plans {
		planOf[p.ID] = p.Name
		pv := planView{Plan: p, RulesShort: engine.ShortHash(p.RulesHash)}
		for _, t := range testers {
			if t.PlanID != p.ID {
				continue
			}
			row := testerRow{Name: t.Name, Link: v.Base + "/t/" + t.Token}
			var margin, think, thinkN int64
			for _, g := range games {
				if g.TesterID != t.ID {
					continue
				}
				row.Games++
				think += g.ThinkMS
				thinkN += g.ThinkN
				if g.Finished {
					row.Finished++
					margin += int64(g.Margin)
					if g.Margin > 0 {
						row.Won++
					}
				}
			}
			if row.Finished > 0 {
				row.MeanMargin = fmt.Sprintf("%+.1f", float64(margin)/float64(row.Finished))
			}
			row.ThinkSecond = seconds(think, thinkN)
			pv.Testers = append(pv.Testers, row)
		}
		v.Plans = append(v.Plans, pv)
	}
	for _, g := range games {
		t := testerOf[g.TesterID]
		row := gameRow{ID: g.ID, Tester: t.Name, Plan: planOf[t.PlanID], Number: g.Deal + 1, Decisions: g.Decisions,
			State: "under way", ThinkSecond: seconds(g.ThinkMS, g.ThinkN), Started: g.Started.Format(time.DateTime)}
		if g.Finished {
			row.State, row.Result = "finished", resultWords(g.Margin)
		}
		v.Games = append(v.Games, row)
	}
	fit := s.cfg.Fit
	if fit.Games <= 0 {
		v.FitOff = true
	} else {
		v.Fits, v.Fitting = s.fit.status()
		slices.SortFunc(v.Fits, func(a, b *fitResult) int { return strings.Compare(a.Rules, b.Rules) })
		v.FitBudget = fmt.Sprintf("the dial's curve at %d skills on Normal and Hard, %d games a point (%d above skill 1, where the dial searches), seed %d, on one core",
			len(fit.Skills), fit.Games, fit.SearchGames, fit.Seed)
	}
	return v, nil
}

// seconds is a mean time in seconds, or "—".
func seconds(ms, n int64) string {
	if n == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f s", float64(ms)/float64(n)/1000)
}

// rulesNames are the rules a plan can use: the reference set, then the
// files serve was given.
func (s *Server) rulesNames() []string {
	names := []string{engine.ReferenceName}
	for name := range s.cfg.Rules {
		names = append(names, name)
	}
	slices.Sort(names[1:])
	return names
}

// backTo redirects to the dashboard with a message.
func (s *Server) backTo(w http.ResponseWriter, r *http.Request, key, msg string) {
	http.Redirect(w, r, "/d/"+s.designer+"?"+url.Values{key: {msg}}.Encode(), http.StatusSeeOther)
}

// planForm is a new plan as the dashboard's form sends it.
type planForm struct {
	Name, Rules, Mode, Politician string
	Seed                          uint64
	Deals                         int
	Hint, Chance                  bool
}

// parsePlanForm reads and checks a new plan's form.
func parsePlanForm(form url.Values) (planForm, error) {
	for k, v := range form {
		switch k {
		case "csrf", "name", "rules", "mode", "politician", "seed", "deals", "hint", "chance":
		default:
			return planForm{}, fmt.Errorf("the form has an unexpected field %q", k)
		}
		if len(v) != 1 {
			return planForm{}, fmt.Errorf("the form has %q %d times", k, len(v))
		}
	}
	p := planForm{Name: strings.TrimSpace(form.Get("name")), Rules: form.Get("rules"), Mode: form.Get("mode"),
		Politician: strings.TrimSpace(form.Get("politician")), Hint: form.Get("hint") == "on", Chance: form.Get("chance") == "on"}
	if err := checkName("the plan's name", p.Name, maxPlanName); err != nil {
		return p, err
	}
	if _, err := engine.ParseMode(p.Mode); err != nil {
		return p, fmt.Errorf("difficulty %q is not normal or hard", p.Mode)
	}
	seed, err := strconv.ParseUint(form.Get("seed"), 10, 64)
	if err != nil {
		return p, fmt.Errorf("the seed %q is not a whole number from 0", form.Get("seed"))
	}
	deals, err := strconv.Atoi(form.Get("deals"))
	if err != nil || deals < 1 || deals > maxDeals {
		return p, fmt.Errorf("games per tester %q is not a number from 1 to %d", form.Get("deals"), maxDeals)
	}
	p.Seed, p.Deals = seed, deals
	if err := checkName("the politician", p.Politician, 64); err != nil {
		return p, err
	}
	return p, nil
}

// checkName checks a name typed into a form: not empty, bounded, no
// control or hidden character.
func checkName(what, name string, max int) error {
	switch {
	case name == "":
		return fmt.Errorf("%s is empty", what)
	case len(name) > max:
		return fmt.Errorf("%s is longer than %d bytes", what, max)
	}
	if c, bad := engine.Hidden(name); bad {
		return fmt.Errorf("%s holds %U, a control or hidden character", what, c)
	}
	return nil
}

func (s *Server) addPlan(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.refuse(w, r, http.StatusBadRequest, "The form could not be read: %v", err)
		return
	}
	if err := s.checkCSRF(r, s.designer, r.PostForm.Get("csrf")); err != nil {
		s.refuse(w, r, http.StatusForbidden, "%v", err)
		return
	}
	f, err := parsePlanForm(r.PostForm)
	if err != nil {
		s.backTo(w, r, "error", "The plan was not made: "+err.Error()+".")
		return
	}
	rules := engine.Reference()
	if f.Rules != engine.ReferenceName {
		// A name the server was given, never a path from the form.
		if rules = s.cfg.Rules[f.Rules]; rules == nil {
			s.backTo(w, r, "error", fmt.Sprintf("The plan was not made: no rules named %q.", f.Rules))
			return
		}
	}
	if f.Politician != "random" && rules.PoliticianIndex(f.Politician) < 0 {
		var ids []string
		for _, p := range rules.Politicians {
			ids = append(ids, p.ID)
		}
		s.backTo(w, r, "error", fmt.Sprintf("The plan was not made: the politician %q is not in the rules (%s, or random).", f.Politician, strings.Join(ids, ", ")))
		return
	}
	mode, _ := engine.ParseMode(f.Mode)
	_, err = s.store.AddPlan(Plan{Name: f.Name, RulesName: f.Rules, Rules: rules.Canonical(), RulesHash: rules.Hash, Mode: mode.String(),
		Seed: f.Seed, Deals: f.Deals, Politician: f.Politician, Hint: f.Hint, Chance: f.Chance})
	if err == ErrExists {
		s.backTo(w, r, "error", fmt.Sprintf("The plan was not made: there is a plan named %q already.", f.Name))
		return
	}
	if err != nil {
		s.failed(w, r, err)
		return
	}
	s.backTo(w, r, "done", fmt.Sprintf("Plan %q made: invite its testers below.", f.Name))
}

func (s *Server) addTester(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.refuse(w, r, http.StatusBadRequest, "The form could not be read: %v", err)
		return
	}
	if err := s.checkCSRF(r, s.designer, r.PostForm.Get("csrf")); err != nil {
		s.refuse(w, r, http.StatusForbidden, "%v", err)
		return
	}
	name := strings.TrimSpace(r.PostForm.Get("name"))
	if err := checkName("the tester's name", name, maxTesterLen); err != nil {
		s.backTo(w, r, "error", "Not invited: "+err.Error()+".")
		return
	}
	planID, err := strconv.ParseInt(r.PostForm.Get("plan"), 10, 64)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "The plan %q is not a plan's number.", r.PostForm.Get("plan"))
		return
	}
	if _, err := s.store.Plan(planID); err != nil {
		s.refuse(w, r, http.StatusNotFound, "There is no plan %d.", planID)
		return
	}
	if _, err := s.store.AddTester(planID, name, newToken()); err == ErrExists {
		s.backTo(w, r, "error", fmt.Sprintf("Not invited: %s is already a tester of this plan.", name))
		return
	} else if err != nil {
		s.failed(w, r, err)
		return
	}
	s.backTo(w, r, "done", fmt.Sprintf("%s is invited: send them their link.", name))
}
