package serve

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim/playtest"
)

// The exports, in the formats the other commands read: the record of
// decisions (docs/calibration.md), the outcomes CSV, and play's save
// files (one per game, or all in a zip).

// recordOf is a stored game as play's save file holds it.
func recordOf(pr *planRules, t Tester, g Game, ds []Decision) (*play.Record, error) {
	rec := &play.Record{
		Format:       play.RecordFormat,
		RulesHash:    pr.rules.Hash,
		RulesVersion: pr.rules.Version,
		Seed:         pr.Seed,
		Game:         uint64(g.Deal),
		Mode:         pr.mode.String(),
		Politician:   g.Politician,
		Tester:       t.Name,
	}
	for i, d := range ds {
		o, err := engine.ParseOptionID(d.Option)
		if err != nil {
			return nil, fmt.Errorf("game %d: decision %d: %v", g.ID, i, err)
		}
		if d.Hinted {
			rec.Hinted = append(rec.Hinted, i)
		}
		rec.Decisions = append(rec.Decisions, play.Decision{Opt: engine.OptionKindName(o.Kind), A: o.A, B: o.B, C: o.C})
	}
	return rec, nil
}

// attachment sends data as a file to save.
func attachment(w http.ResponseWriter, name, contentType string, data []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.Write(data)
}

func (s *Server) exportDecisions(w http.ResponseWriter, r *http.Request) {
	groups, err := StoreRecords(s.store)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	var b bytes.Buffer
	for _, gr := range groups {
		for i := range gr.Games {
			if err := playtest.WriteGame(&b, &gr.Games[i]); err != nil {
				s.failed(w, r, err)
				return
			}
		}
	}
	attachment(w, "playtest-decisions.jsonl", "application/jsonl", b.Bytes())
}

func (s *Server) exportOutcomes(w http.ResponseWriter, r *http.Request) {
	plans, testers, games, err := s.everything()
	if err != nil {
		s.failed(w, r, err)
		return
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{"tester", "difficulty", "result", "rules", "margin"})
	for _, g := range games {
		if !g.Finished {
			continue
		}
		t := testers[g.TesterID]
		p := plans[t.PlanID]
		result := map[bool]string{true: "won", false: "lost"}[g.Margin > 0]
		if g.Margin == 0 {
			result = "drawn"
		}
		cw.Write([]string{t.Name, p.Mode, result, p.RulesName, strconv.Itoa(g.Margin)})
	}
	cw.Flush()
	attachment(w, "playtest-outcomes.csv", "text/csv; charset=utf-8", b.Bytes())
}

// everything reads the plans and testers by id and every game.
func (s *Server) everything() (map[int64]Plan, map[int64]Tester, []Game, error) {
	ps, err := s.store.Plans()
	if err != nil {
		return nil, nil, nil, err
	}
	ts, err := s.store.Testers()
	if err != nil {
		return nil, nil, nil, err
	}
	games, err := s.store.Games(0)
	if err != nil {
		return nil, nil, nil, err
	}
	plans := map[int64]Plan{}
	for _, p := range ps {
		plans[p.ID] = p
	}
	testers := map[int64]Tester{}
	for _, t := range ts {
		testers[t.ID] = t
	}
	return plans, testers, games, nil
}

// saveOf is the save file of one stored game and its file name.
func (s *Server) saveOf(g Game, t Tester) (string, []byte, error) {
	pr, err := s.games.plan(t.PlanID)
	if err != nil {
		return "", nil, err
	}
	ds, err := s.store.Decisions(g.ID)
	if err != nil {
		return "", nil, err
	}
	rec, err := recordOf(pr, t, g, ds)
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("game-%d-%s-%s.json", g.ID, fileSafe(t.Name), fileSafe(pr.Name)), rec.Marshal(), nil
}

// fileSafe keeps the letters and digits of a name for a file name.
func fileSafe(name string) string {
	var b []byte
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b = append(b, c)
		case len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, '-')
		}
	}
	if len(b) > 32 {
		b = b[:32]
	}
	return string(b)
}

func (s *Server) exportSaves(w http.ResponseWriter, r *http.Request) {
	_, testers, games, err := s.everything()
	if err != nil {
		s.failed(w, r, err)
		return
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, g := range games {
		name, data, err := s.saveOf(g, testers[g.TesterID])
		if err != nil {
			s.failed(w, r, err)
			return
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now()})
		if err != nil {
			s.failed(w, r, err)
			return
		}
		f.Write(data)
	}
	if err := zw.Close(); err != nil {
		s.failed(w, r, err)
		return
	}
	attachment(w, "playtest-saves.zip", "application/zip", b.Bytes())
}

func (s *Server) exportSave(w http.ResponseWriter, r *http.Request) {
	id, ok := pathInt(r, "game", 1<<53)
	if !ok {
		s.refuse(w, r, http.StatusNotFound, "There is no such game.")
		return
	}
	g, found, err := s.store.Game(id)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	if !found {
		s.refuse(w, r, http.StatusNotFound, "There is no game %d.", id)
		return
	}
	_, testers, _, err := s.everything()
	if err != nil {
		s.failed(w, r, err)
		return
	}
	name, data, err := s.saveOf(g, testers[g.TesterID])
	if err != nil {
		s.failed(w, r, err)
		return
	}
	attachment(w, name, "application/json", data)
}
