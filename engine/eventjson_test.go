package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// TestEventJSON checks the JSON of every event of a solo game against the
// real Opposition and of a game of three: each is one object that opens
// with the round, carries names, not codes, and a turn only inside a turn
// (docs/output.md's glossary).
func TestEventJSON(t *testing.T) {
	r := engine.Reference()
	solo := &engine.Log{}
	g, err := engine.New(r, 5, engine.Config{Mode: engine.Hard, Opposition: opposition.Solo{}, Recorder: solo})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.NewRandomPlayer(5).Play(g); err != nil {
		t.Fatal(err)
	}
	table := &engine.Log{}
	g3, err := engine.NewTable(r, 5, engine.TableConfig{Politicians: []int{0, 1, 2}, Recorder: table})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.NewRandomPlayer(5).Play(g3); err != nil {
		t.Fatal(err)
	}
	for _, game := range []struct {
		name   string
		events []engine.Event
		seats  string
		kinds  []string
	}{
		{"solo", solo.Events, "you opposition", []string{"scoring", "final_tally", "tally", "seat_tally", "result", "tracker", "solo_card"}},
		{"table", table.Events, "seat 1 seat 2 seat 3", []string{"scoring", "final_tally", "seat_tally", "result", "tracker", "initiative"}},
	} {
		kinds := map[string]bool{}
		for i, e := range game.events {
			line := r.EventJSON(e)
			var obj map[string]any
			if err := json.Unmarshal(line, &obj); err != nil {
				t.Fatalf("%s: event %d: %v: %s", game.name, i, err, line)
			}
			if !strings.HasPrefix(string(line), fmt.Sprintf(`{"round":%d,`, e.Round+1)) {
				t.Errorf("%s: event %d does not open with its round: %s", game.name, i, line)
			}
			kind := obj["kind"].(string)
			kinds[kind] = true
			if _, has := obj["turn"]; has != (e.Turn != engine.NoTurn) {
				t.Errorf("%s: event %d (%s): turn present %v, the event's turn %d", game.name, i, kind, has, e.Turn)
			}
			for _, key := range []string{"region", "cube", "deck", "tracker", "card", "spot", "seat"} {
				if v, ok := obj[key]; ok {
					if _, isString := v.(string); !isString {
						t.Errorf("%s: event %d: %s is %v, want a name", game.name, i, key, v)
					}
				}
			}
			if v, ok := obj["region"]; ok && !strings.Contains("Red Blue Green Yellow Plaza home", v.(string)) {
				t.Errorf("%s: event %d: region %q", game.name, i, v)
			}
			if v, ok := obj["seat"]; ok && !strings.Contains(game.seats, v.(string)) {
				t.Errorf("%s: event %d: seat %q", game.name, i, v)
			}
			if obj["text"] != r.Text(e) {
				t.Errorf("%s: event %d: text %q, the narration says %q", game.name, i, obj["text"], r.Text(e))
			}
		}
		for _, k := range game.kinds {
			if !kinds[k] {
				t.Errorf("%s: no %s event", game.name, k)
			}
		}
	}
}

func ExampleRules_EventJSON() {
	r := engine.Reference()
	e := engine.Event{Kind: engine.EvTracker, Round: 1, Turn: 2, Seat: 0, District: -1, Action: engine.TrackerMoney, From: 4, To: 6, Item: 2}
	fmt.Println(string(r.EventJSON(e)))
	// Output:
	// {"round":2,"turn":3,"kind":"tracker","seat":"you","tracker":"Money","from":4,"to":6,"change":2,"text":"You: Money 4→6"}
}
