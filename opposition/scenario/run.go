package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"tallywood/engine"
)

// Result is the outcome of running one scenario.
type Result struct {
	Name        string
	Description string
	Trace       string // the run's narration (engine Rules.Narrate)
	Diffs       []Diff // facts that differ; none: PASS
}

// Pass reports whether every fact held.
func (r *Result) Pass() bool { return len(r.Diffs) == 0 }

// Diff is one fact that did not hold.
type Diff struct {
	Fact      string
	Want, Got string // compact JSON
}

func (d Diff) String() string { return fmt.Sprintf("%s: want %s, got %s", d.Fact, d.Want, d.Got) }

// Run plays the scenario's steps from its stated position and checks its
// facts. It never changes the Scenario, so it may run again.
func (s *Scenario) Run() *Result {
	g := s.start // a copy: Game is a plain value
	log := &engine.Log{}
	g.SetRecorder(log)
	// Parse's dry run has checked the steps: only an expected refusal
	// stops this one.
	refusal := play(&g, s.File.Run)
	if refusal != nil && s.File.ExpectRefusal == "" {
		panic("scenario: the run differs from the dry run: " + refusal.Error())
	}
	info := &runInfo{reveals: reveals(&g, log.Events)}
	res := &Result{Name: s.File.Name, Description: s.File.Description}
	res.Trace = s.rules.Narrate(log.Events)
	if refusal != nil {
		res.Trace += "Refused: " + refusal.Error() + "\n"
	}
	lines := strings.Split(res.Trace, "\n")
	if want := s.File.ExpectRefusal; want != "" {
		switch {
		case refusal == nil:
			res.Diffs = append(res.Diffs, Diff{Fact: "expect_refusal", Want: compact(want), Got: "the run is not refused"})
		case !strings.Contains(refusal.Error(), want):
			res.Diffs = append(res.Diffs, Diff{Fact: "expect_refusal", Want: compact(want), Got: compact(refusal.Error())})
		}
	}
	for _, fc := range s.facts {
		key := fc.key
		var want any
		_ = json.Unmarshal(fc.want, &want) // checked by Parse
		if key == "events.contain" || key == "events.exclude" {
			res.Diffs = append(res.Diffs, eventDiffs(key, want, lines)...)
			continue
		}
		got, err := fact(&g, key, info)
		if err != nil {
			res.Diffs = append(res.Diffs, Diff{Fact: key, Want: compact(want), Got: "error: " + err.Error()})
			continue
		}
		gotJSON := normalize(got)
		if !match(want, gotJSON, fc.exact) {
			if fc.exact {
				key += " (exactly)"
			}
			res.Diffs = append(res.Diffs, Diff{Fact: key, Want: compact(want), Got: compact(gotJSON)})
		}
	}
	return res
}

// reveals lists the Opposition's Final Tally reveals of a run.
func reveals(g *engine.Game, events []engine.Event) []any {
	l := []any{}
	for _, e := range events {
		if e.Kind == engine.EvReveal && e.Seat == g.Opponent() {
			t := g.Placed[e.Item]
			l = append(l, map[string]any{"district": g.Rules().Districts[t.District], "kind": kindName(t.Kind), "tier": int(t.Tier)})
		}
	}
	return l
}

// eventDiffs checks events.contain (each substring on some line of the
// trace) or events.exclude (on none).
func eventDiffs(key string, want any, lines []string) []Diff {
	var diffs []Diff
	subs, _ := want.([]any)
	for _, w := range subs {
		sub, _ := w.(string)
		found := ""
		for _, l := range lines {
			if strings.Contains(l, sub) {
				found = strings.TrimSpace(l)
				break
			}
		}
		switch {
		case key == "events.contain" && found == "":
			diffs = append(diffs, Diff{Fact: key, Want: compact(sub), Got: "no trace line contains it"})
		case key == "events.exclude" && found != "":
			diffs = append(diffs, Diff{Fact: key, Want: "no line with " + compact(sub), Got: compact(found)})
		}
	}
	return diffs
}

// normalize turns a Go value into what encoding/json decodes, so it
// compares with the expected value.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic("scenario: " + err.Error())
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// match compares an expected value with the actual one: objects match
// when every expected key matches (keys not stated are not checked, unless
// exact: then the object has no other key), lists element by element with
// the same length, scalars by equality.
func match(want, got any, exact bool) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || exact && len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := lookup(g, k)
			if !ok || !match(wv, gv, exact) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !match(w[i], g[i], exact) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

// lookup finds a key, folding case and spacing ("green", "Green").
func lookup(m map[string]any, k string) (any, bool) {
	if v, ok := m[k]; ok {
		return v, true
	}
	keys := make([]string, 0, len(m))
	for mk := range m {
		keys = append(keys, mk)
	}
	sort.Strings(keys)
	for _, mk := range keys {
		if norm(mk) == norm(k) {
			return m[mk], true
		}
	}
	return nil, false
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
