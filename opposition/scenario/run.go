package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"tallywood/engine"
	"tallywood/opposition"
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
	opp := g.Opponent()
	for _, step := range s.File.Run {
		switch step {
		case StepOppositionTurn:
			g.Emit(engine.Event{Kind: engine.EvTurn, Seat: opp, District: -1})
			opposition.Solo{}.Turn(&g, opp)
		case StepRoundScoring:
			g.ScoreRound()
		case StepCleanUp:
			g.StartCleanup()
		case StepEndOfRound:
			g.EndRound()
		case StepReveal:
			if i := (opposition.Solo{}).Reveal(&g, opp); i >= 0 {
				g.RevealTile(opp, i)
			} else {
				g.Note(opp, -1, "I-16", "no face-down tile to reveal")
			}
		case StepFinalTally:
			finalTally(&g)
		}
	}
	info := &runInfo{reveals: reveals(&g, log.Events)}
	res := &Result{Name: s.File.Name, Description: s.File.Description}
	res.Trace = s.rules.Narrate(log.Events)
	lines := strings.Split(res.Trace, "\n")
	for _, key := range s.facts {
		var want any
		_ = json.Unmarshal(s.File.Expect[key], &want) // checked by Parse
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
		if !match(want, gotJSON) {
			res.Diffs = append(res.Diffs, Diff{Fact: key, Want: compact(want), Got: compact(gotJSON)})
		}
	}
	return res
}

// finalTally runs the Final Tally with the engine: Initial Support face
// up, the reveals alternating from Initiative 1 (the Opposition's by I-16,
// yours the earliest placed face-down tile), then the votes (I-18).
func finalTally(g *engine.Game) {
	if g.Phase != engine.PhaseReveal && g.Phase != engine.PhaseOver {
		g.StartFinalTally()
	}
	var buf [engine.MaxOptions]engine.Option
	for g.Advance(); !g.Over(); {
		opts := g.Legal(buf[:0])
		if g.Decision().Kind != engine.DecReveal || len(opts) == 0 {
			panic(fmt.Sprintf("scenario: the Final Tally waits for a %s decision", g.Decision().Kind))
		}
		if err := g.Apply(opts[0]); err != nil { // Apply advances the game
			panic("scenario: " + err.Error())
		}
	}
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
// when every expected key matches (keys not stated are not checked), lists
// element by element with the same length, scalars by equality.
func match(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := lookup(g, k)
			if !ok || !match(wv, gv) {
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
			if !match(w[i], g[i]) {
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
