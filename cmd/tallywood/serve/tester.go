package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
)

// The tester's pages: their games, one game, and its two changes (a
// decision, a hint). A tester reaches only the games of their own token.

// testerHome lists the tester's deals: started, finished, or to start.
func (s *Server) testerHome(w http.ResponseWriter, r *http.Request, t Tester) {
	plan, err := s.games.plan(t.PlanID)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	games, err := s.store.Games(t.ID)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	v := homeView{Tester: t.Name, Plan: plan.Name, Mode: modeName(plan.mode), Token: t.Token, CSRF: s.csrfFor(t.Token),
		Hint: plan.Hint, Chance: plan.Chance}
	for d := range plan.Deals {
		e := dealEntry{Deal: d, Number: d + 1}
		if i := slices.IndexFunc(games, func(g Game) bool { return g.Deal == d }); i >= 0 {
			g := games[i]
			e.GameID, e.Started, e.Finished, e.Decisions = g.ID, true, g.Finished, g.Decisions
			if g.Finished {
				e.Result = resultWords(g.Margin)
			}
		}
		v.Deals = append(v.Deals, e)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	render(w, "tester", v)
}

// startGame starts one of the plan's deals (or opens it, if started).
func (s *Server) startGame(w http.ResponseWriter, r *http.Request, t Tester) {
	if err := r.ParseForm(); err != nil {
		s.refuse(w, r, http.StatusBadRequest, "The form could not be read: %v", err)
		return
	}
	if err := s.checkCSRF(r, t.Token, r.PostForm.Get("csrf")); err != nil {
		s.refuse(w, r, http.StatusForbidden, "%v", err)
		return
	}
	plan, err := s.games.plan(t.PlanID)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	d, ok := pathInt(r, "deal", int64(plan.Deals-1))
	if !ok {
		s.refuse(w, r, http.StatusNotFound, "This playtest has games 1 to %d.", plan.Deals)
		return
	}
	g, err := s.games.newGame(t, plan, int(d))
	if err != nil {
		s.failed(w, r, err)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/t/%s/games/%d", url.PathEscape(t.Token), g.ID), http.StatusSeeOther)
}

// ownGame finds the game of the path among the tester's: another
// tester's game is refused as if it did not exist.
func (s *Server) ownGame(w http.ResponseWriter, r *http.Request, t Tester) (*liveGame, bool) {
	id, ok := pathInt(r, "game", 1<<53)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, "There is no such game.")
		return nil, false
	}
	if g := s.games.cached(id); g != nil {
		if g.tester.ID != t.ID {
			s.refuse(w, r, http.StatusNotFound, "There is no such game among yours.")
			return nil, false
		}
		return g, true
	}
	row, found, err := s.store.Game(id)
	if err != nil {
		s.failed(w, r, err)
		return nil, false
	}
	if !found || row.TesterID != t.ID {
		s.refuse(w, r, http.StatusNotFound, "There is no such game among yours.")
		return nil, false
	}
	g, err := s.games.get(row, t)
	if err != nil {
		s.failed(w, r, err)
		return nil, false
	}
	return g, true
}

// gamePage shows a game as it stands.
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request, t Tester) {
	g, ok := s.ownGame(w, r, t)
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if wantsJSON(r) {
		s.answerGame(w, r, g, false)
		return
	}
	v := s.gameView(g)
	g.shown = time.Now()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	render(w, "game", v)
}

// decideRequest is a decision as the page sends it: the number of the
// decision it answers (the game's decisions so far: a request sent twice
// names the same number), the option's id, and the form token.
type decideRequest struct {
	N      int    `json:"n"`
	Option string `json:"option"`
	CSRF   string `json:"csrf"`
}

// maxOptionID bounds an option id: "plaza_fundraise/-128/-128/-128".
const maxOptionID = 40

// parseDecide reads a decision from a request body: JSON (the page's
// script) or a form (the page without script).
func parseDecide(contentType string, body []byte) (decideRequest, error) {
	var req decideRequest
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/json":
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return req, fmt.Errorf("the decision is not the JSON the page sends: %v", err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return req, errors.New("the decision has data after its JSON object")
		}
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return req, fmt.Errorf("the form could not be read: %v", err)
		}
		for k, v := range form {
			if len(v) != 1 || k != "n" && k != "option" && k != "csrf" {
				return req, fmt.Errorf("the form has an unexpected field %q", k)
			}
		}
		n, err := strconv.Atoi(form.Get("n"))
		if err != nil {
			return req, fmt.Errorf("the decision's number %q is not a number", form.Get("n"))
		}
		req = decideRequest{N: n, Option: form.Get("option"), CSRF: form.Get("csrf")}
	default:
		return req, fmt.Errorf("a decision is sent as JSON or a form, not %q", contentType)
	}
	switch {
	case req.N < 0:
		return req, fmt.Errorf("the decision's number %d is negative", req.N)
	case req.Option == "":
		return req, errors.New("no option chosen")
	case len(req.Option) > maxOptionID:
		return req, errors.New("the option's id is too long to be one")
	}
	return req, nil
}

// readBody reads a bounded body, telling an oversized one apart.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.refuse(w, r, http.StatusRequestEntityTooLarge, "The request is larger than %d bytes.", maxBody)
		} else {
			s.refuse(w, r, http.StatusBadRequest, "The request could not be read.")
		}
		return nil, false
	}
	return body, true
}

// decide makes one decision: committed to the store before the answer.
// The same decision sent again (its number and option) changes nothing
// and gets the game as it stands; another decision of a number already
// made, or of a number not yet reached, is refused.
func (s *Server) decide(w http.ResponseWriter, r *http.Request, t Tester) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	req, err := parseDecide(r.Header.Get("Content-Type"), body)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	if err := s.checkCSRF(r, t.Token, req.CSRF); err != nil {
		s.refuse(w, r, http.StatusForbidden, "%v", err)
		return
	}
	g, ok := s.ownGame(w, r, t)
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	rec := g.sess.Record()
	n := len(rec.Decisions)
	switch {
	case req.N < n:
		d := rec.Decisions[req.N]
		if engine.OptionID(d.Option()) != req.Option {
			s.refuse(w, r, http.StatusConflict, "Decision %d of this game was already made, with another option (in another window?): reload the page.", req.N+1)
			return
		}
		s.answerGame(w, r, g, true)
		return
	case req.N > n:
		s.refuse(w, r, http.StatusConflict, "This game has had %d decisions, not %d: reload the page.", n, req.N)
		return
	}
	game := g.sess.Game()
	if game.Over() {
		s.refuse(w, r, http.StatusConflict, "The game is over.")
		return
	}
	o, err := engine.ParseOptionID(req.Option)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	if !game.IsLegal(o) {
		s.refuse(w, r, http.StatusUnprocessableEntity, "%q is not one of the options of this decision.", req.Option)
		return
	}
	now := time.Now()
	think := int64(-1)
	if !g.shown.IsZero() {
		think = now.Sub(g.shown).Milliseconds()
	}
	from := len(g.sess.Events())
	if err := g.sess.Choose(o); err != nil {
		s.games.drop(g.row.ID)
		s.failed(w, r, fmt.Errorf("game %d: %s: %v", g.row.ID, req.Option, err))
		return
	}
	hinted := slices.Contains(g.sess.Record().Hinted, n)
	over := game.Over()
	margin := 0
	if over {
		margin = game.Result.Margin()
	}
	// The answer waits for the commit, whatever the client does meanwhile.
	err = s.store.AddDecision(g.row.ID, Decision{N: n, Option: req.Option, Hinted: hinted, At: now, ThinkMS: think}, over, margin)
	if err != nil {
		// Memory ran ahead of the store: forget the game, which the next
		// request replays from what was committed.
		s.games.drop(g.row.ID)
		if errors.Is(err, ErrStale) {
			s.refuse(w, r, http.StatusConflict, "This game changed meanwhile: reload the page.")
			return
		}
		s.failed(w, r, err)
		return
	}
	g.from, g.hint = from, ""
	g.row.HintShown = false
	if over {
		g.row.Finished, g.row.Margin = true, margin
		s.fit.kick()
	}
	s.answerGame(w, r, g, false)
}

// answerGame answers a change: the game as it now stands for the page's
// script, or a redirect to the page.
func (s *Server) answerGame(w http.ResponseWriter, r *http.Request, g *liveGame, replayed bool) {
	g.shown = time.Now()
	if !wantsJSON(r) {
		http.Redirect(w, r, fmt.Sprintf("/t/%s/games/%d", url.PathEscape(g.tester.Token), g.row.ID), http.StatusSeeOther)
		return
	}
	v := s.gameView(g)
	var main bytes.Buffer
	if err := templates.ExecuteTemplate(&main, "main", v); err != nil {
		s.failed(w, r, err)
		return
	}
	ids := make([]string, len(v.Options))
	for i, o := range v.Options {
		ids[i] = o.ID
	}
	writeJSON(w, http.StatusOK, gameAnswer{N: v.N, Over: v.Over, Replayed: replayed, Options: ids, HTML: main.String()})
}

// gameAnswer is the answer to the page's script.
type gameAnswer struct {
	N        int      `json:"n"`    // decisions made: the next one's number
	Over     bool     `json:"over"` // the game has ended
	Replayed bool     `json:"replayed,omitempty"`
	Options  []string `json:"options"` // the ids of the options of the next decision
	HTML     string   `json:"html"`    // the page's main part
}

// hint shows the hint for the pending decision, when the plan has hints
// on; the decision is then stored as taken after a hint.
func (s *Server) hint(w http.ResponseWriter, r *http.Request, t Tester) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	csrf, err := parseHint(r.Header.Get("Content-Type"), body)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	if err := s.checkCSRF(r, t.Token, csrf); err != nil {
		s.refuse(w, r, http.StatusForbidden, "%v", err)
		return
	}
	g, ok := s.ownGame(w, r, t)
	if !ok {
		return
	}
	if !g.plan.Hint {
		s.refuse(w, r, http.StatusForbidden, "Hints are off in this playtest.")
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sess.Game().Over() {
		s.refuse(w, r, http.StatusConflict, "The game is over.")
		return
	}
	if g.hint == "" {
		adv, err := g.sess.Advise()
		if err != nil {
			s.failed(w, r, err)
			return
		}
		if err := s.store.ShowHint(g.row.ID); err != nil {
			s.games.drop(g.row.ID)
			s.failed(w, r, err)
			return
		}
		g.row.HintShown = true
		g.hint = hintText(g, adv)
	}
	s.answerGame(w, r, g, false)
}

// parseHint reads a hint request: its form token only.
func parseHint(contentType string, body []byte) (string, error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "application/json":
		var req struct {
			CSRF string `json:"csrf"`
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return "", fmt.Errorf("the request is not the JSON the page sends: %v", err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return "", errors.New("the request has data after its JSON object")
		}
		return req.CSRF, nil
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return "", fmt.Errorf("the form could not be read: %v", err)
		}
		for k, v := range form {
			if len(v) != 1 || k != "csrf" {
				return "", fmt.Errorf("the form has an unexpected field %q", k)
			}
		}
		return form.Get("csrf"), nil
	}
	return "", fmt.Errorf("a hint is asked for as JSON or a form, not %q", contentType)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// resultWords words a finished game's margin for the tester.
func resultWords(margin int) string {
	switch {
	case margin > 0:
		return fmt.Sprintf("won by %d", margin)
	case margin < 0:
		return fmt.Sprintf("lost by %d", -margin)
	}
	return "a draw"
}

func modeName(m engine.Mode) string {
	return strings.ToUpper(m.String()[:1]) + m.String()[1:]
}
