package engine

import (
	"strings"
	"testing"
)

// TestText pins the narration of the events whose wording reads the game
// to the player: a gain cut at the end of the track (C-7), the value of a
// flipped Initial Support token (C-4), an ability's banner (C-15), the
// icon a Favor connects (I-5), singular and plural counts, and the
// headers of Round Scoring, Clean Up and the Final Tally.
func TestText(t *testing.T) {
	r := Reference()
	ce12 := cardIndex(t, "CE-12")
	re13 := cardIndex(t, "RE-13")
	for _, tc := range []struct {
		name string
		e    Event
		want string
	}{
		{"gain whole", Event{Kind: EvTracker, Seat: 0, Action: TrackerMoney, From: 4, To: 6, Item: 2}, "You: Money 4→6"},
		{"gain lost at the cap", Event{Kind: EvTracker, Seat: 0, Action: TrackerMoney, From: 12, To: 12, Item: 2}, "You: Money 12: the +2 is lost at 12"},
		{"gain cut at the cap", Event{Kind: EvTracker, Seat: 1, Action: TrackerPolling + 2, From: 11, To: 12, Item: 2}, "Opposition: Green polling 11→12: 1 of the +2 is lost at 12"},
		{"cost", Event{Kind: EvTracker, Seat: 0, Action: TrackerPopularity, From: 5, To: 2, Item: -3}, "You: Popularity 5→2"},
		{"Research flips Initial Support", Event{Kind: EvFlip, Seat: 0, District: 0, Item: -1, To: 12}, "You: Research in Red flips the Initial Support token: 12"},
		{"Final Tally flips Initial Support", Event{Kind: EvFlip, Seat: NoSeat, District: 3, Item: -1, To: 8, Rule: "Final Tally 1"}, "the Yellow Initial Support token is turned face up: 8 (Final Tally 1)"},
		{"ability", Event{Kind: EvAbility, Seat: 0, District: 1, Item: ce12, Rule: "C-15"}, "You: use the ability of CE-12: attract a Voter to any District (C-15)"},
		{"Favor connects an icon", Event{Kind: EvFavor, Seat: 0, District: 2, Tier: 1, Item: 0, From: re13, Rule: "I-5"}, "You: Favor from the Green level 1 Endorsement connects 1 Popularity of RE-13 (I-5)"},
		{"Favor connects a Strategy icon", Event{Kind: EvFavor, Seat: 0, District: 2, Tier: 3, Item: 2, From: re13, Rule: "I-5"}, "You: Favor from the Green level 3 Endorsement connects the Research icon of RE-13 (I-5)"},
		{"one Vote Share", Event{Kind: EvSeatTally, Seat: 0, District: 1, From: 1, To: 5}, "You: 1 Vote Share in Blue → 5 votes"},
		{"one vote", Event{Kind: EvSeatTally, Seat: 1, District: Plaza, To: 1, Rule: "Solo Final Tally"}, "Opposition: 1 vote of resource bonus (Solo Final Tally)"},
		{"majority share", Event{Kind: EvReward, Seat: 1, District: 0, Item: int16(RewardVoteShare), To: 1, Note: "majority", Rule: "C-13"}, "Opposition: majority reward in Red: 1 Vote Share (C-13)"},
		{"Round Scoring header", Event{Kind: EvScoring, Round: 3, Turn: NoTurn}, "Round Scoring, round 4"},
		{"Clean Up header", Event{Kind: EvCleanup, Round: 0, Turn: NoTurn}, "Clean Up after round 1"},
		{"Final Tally header", Event{Kind: EvFinalTally, Round: 3, Turn: NoTurn}, "Final Tally"},
	} {
		if got := r.Text(tc.e); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestEventTurns checks that only events inside a turn of the Strategy
// Phase carry a turn: setup, round headers, Round Scoring, Clean Up and the
// Final Tally carry NoTurn, and each of those parts opens with its header.
func TestEventTurns(t *testing.T) {
	log := &Log{}
	g, err := New(Reference(), 7, Config{Opposition: scriptedOpposition{}, Recorder: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := NewRandomPlayer(7).Play(g); err != nil {
		t.Fatal(err)
	}
	inTurn := false
	headers := map[EventKind]int{}
	for i, e := range log.Events {
		if e.Kind.Header() {
			headers[e.Kind]++
			inTurn = e.Kind == EvTurn
		}
		switch {
		case inTurn && e.Turn == NoTurn:
			t.Fatalf("event %d (%s) inside a turn carries no turn", i, g.Rules().Text(e))
		case !inTurn && e.Turn != NoTurn:
			t.Fatalf("event %d (%s) outside a turn carries turn %d", i, g.Rules().Text(e), e.Turn+1)
		}
	}
	rounds := len(g.Rules().Rounds)
	want := map[EventKind]int{EvSetup: 1, EvRound: rounds, EvScoring: rounds, EvCleanup: rounds - 1, EvFinalTally: 1, EvResult: 1}
	for k, n := range want {
		if headers[k] != n {
			t.Errorf("%d %s headers, want %d", headers[k], k, n)
		}
	}
	if last := log.Events[len(log.Events)-1]; last.Kind != EvResult {
		t.Errorf("last event %s, want result", last.Kind)
	}
	if !strings.HasPrefix(g.Rules().Narrate(log.Events[:1]), "Setup") {
		t.Errorf("narration does not start with the setup header")
	}
}

// TestTableText pins the narration of a game without the Opposition: the
// seats are "Seat 1".."Seat 4", every seat pays its costs (Solo Gameplay 4
// is the Opposition's alone), the result gives each seat its votes and
// place (Final Tally: tied players share the victory), and the Initiative
// exchange of Clean Up 6 names both players and the tokens.
func TestTableText(t *testing.T) {
	r := Reference()
	re13 := cardIndex(t, "RE-13")
	for _, tc := range []struct {
		name string
		e    Event
		want string
	}{
		{"setup", Event{Kind: EvSetup, Seat: NoSeat, District: -1, Table: true}, "Setup: decks, tiles, Initial Support, Initiative tokens dealt at random (rulebook Setup)"},
		{"turn", Event{Kind: EvTurn, Seat: 1, Round: 1, Turn: 2, Table: true}, "Round 2, turn 3 — Seat 2"},
		{"play a card", Event{Kind: EvPlayCard, Seat: 0, Item: re13, Action: 1, Tier: 2, Table: true}, "Seat 1 plays RE-13 in column 2, bottom row"},
		{"seat 2 pays for Public Works", Event{Kind: EvPublicWorks, Seat: 1, District: 0, Tier: 2, From: 3, Table: true}, "Seat 2: Public Works tier 2 in Red (3 Money), Badge on it"},
		{"seat 2 pays for a Campaign", Event{Kind: EvCampaign, Seat: 1, District: 2, From: 2, Table: true}, "Seat 2: Campaign in Green (2 Popularity)"},
		{"seat 4", Event{Kind: EvTracker, Seat: 3, Action: TrackerMoney, From: 4, To: 6, Item: 2, Table: true}, "Seat 4: Money 4→6"},
		{"sole winner", Event{Kind: EvResult, Seat: 2, District: -1, From: 44, To: 1, Item: 1, Table: true}, "Result: Seat 3, 44 votes, 1st place"},
		{"shared second", Event{Kind: EvResult, Seat: 0, District: -1, From: 31, To: 2, Item: 2, Table: true}, "Result: Seat 1, 31 votes, 2nd place shared by 2"},
		{"exchange, 3 players", Event{Kind: EvInitiative, Seat: 2, District: -1, Item: 0, From: 3, Rule: "Clean Up 6", Table: true}, "Seat 1 exchanges the Initiative 1 token for Seat 3's 3: Seat 3 goes first (Clean Up 6)"},
		{"exchange, 4 players", Event{Kind: EvInitiative, Seat: 1, District: -1, Item: 3, From: 2, To: 1, Rule: "Clean Up 6", Table: true}, "Seat 4 exchanges the Initiative 1 token for Seat 2's 2: Seat 2 goes first; the other two exchange theirs (Clean Up 6)"},
		{"swap, 2 players", Event{Kind: EvInitiative, Seat: 0, District: -1, Item: 1, From: 2, Rule: "I-20", Table: true}, "Seat 2 exchanges the Initiative 1 token for Seat 1's 2: Seat 1 goes first (I-20)"},
		// The same events in the solo game keep its words.
		{"solo Opposition pays nothing", Event{Kind: EvCampaign, Seat: 1, District: 2, From: 2}, "Opposition: Campaign in Green (pays nothing, Solo Gameplay 4)"},
		{"solo result", Event{Kind: EvResult, Seat: NoSeat, District: -1, From: 40, To: 38}, "Result: you 40, Opposition 38"},
	} {
		if got := r.Text(tc.e); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestTableEvents checks that the engine marks every event of a game
// without the Opposition, and none of a solo game, and that a table game
// ends with one result per seat agreeing with the Result.
func TestTableEvents(t *testing.T) {
	r := Reference()
	for _, seats := range []int{2, 3, 4} {
		log := &Log{}
		g, err := NewTable(r, 11, TableConfig{Politicians: []int{0, 1, 2, 3}[:seats], Recorder: log})
		if err != nil {
			t.Fatal(err)
		}
		p := NewRandomPlayer(uint64(seats))
		for !g.Over() {
			if err := g.Apply(p.Choose(g)); err != nil {
				t.Fatal(err)
			}
		}
		var results []Event
		exchanges := 0
		for _, e := range log.Events {
			if !e.Table {
				t.Fatalf("%d seats: event %s not marked as a table game's", seats, e.Kind)
			}
			if e.Kind == EvInitiative {
				// Clean Up 6: the giver takes token 2..n; with four
				// players the other two exchange theirs; with two the
				// tokens swap (I-20), narrated as well.
				exchanges++
				if e.From < 2 || e.From > int16(seats) || (e.To == 1) != (seats == 4) {
					t.Errorf("%d seats: exchange event %+v", seats, e)
				}
			}
			if e.Kind == EvResult {
				results = append(results, e)
			}
		}
		if want := 3; exchanges != want {
			t.Errorf("%d seats: %d exchange events, want %d (one per Clean Up)", seats, exchanges, want)
		}
		if len(results) != seats {
			t.Fatalf("%d seats: %d result events", seats, len(results))
		}
		for s, e := range results {
			if e.Seat != int8(s) || e.From != g.Result.Total[s] || e.To != int16(g.Result.Place[s]) {
				t.Errorf("%d seats: result event %+v, want seat %d, %d votes, place %d", seats, e, s, g.Result.Total[s], g.Result.Place[s])
			}
		}
	}
	log := &Log{}
	g, err := New(r, 11, Config{Opposition: scriptedOpposition{}, Recorder: log})
	if err != nil {
		t.Fatal(err)
	}
	p := NewRandomPlayer(1)
	for !g.Over() {
		if err := g.Apply(p.Choose(g)); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range log.Events {
		if e.Table {
			t.Fatalf("solo event %s marked as a table game's", e.Kind)
		}
	}
}
