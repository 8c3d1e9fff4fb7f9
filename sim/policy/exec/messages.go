package exec

import (
	"encoding/json"

	"tallywood/engine"
)

// ProtocolVersion is the version of the protocol docs/protocol.md
// describes. A program must answer the handshake with the same number.
// Version 2 took the game seed out of the messages: from it a program
// could recompute every shuffle.
const ProtocolVersion = 2

// The messages, one JSON object per line. "type" tells them apart;
// docs/protocol.schema.json is their JSON Schema.

// Hello opens the handshake (harness → program).
type Hello struct {
	Type         string `json:"type"` // "hello"
	Protocol     int    `json:"protocol"`
	Tool         string `json:"tool"`         // "tallywood"
	ToolVersion  string `json:"tool_version"` // as results record tallywood_version
	RulesHash    string `json:"rules_hash"`
	RulesVersion string `json:"rules_version"`
}

// HelloReply answers Hello (program → harness).
type HelloReply struct {
	Type      string `json:"type"` // "hello"
	Protocol  int    `json:"protocol"`
	Name      string `json:"name"`
	WantRules bool   `json:"rules,omitempty"` // ask for a Rules message
}

// Rules carries the rules file the games are played under, in its
// canonical form (harness → program, when asked).
type Rules struct {
	Type      string          `json:"type"` // "rules"
	RulesHash string          `json:"rules_hash"`
	Rules     json.RawMessage `json:"rules"`
}

// GameStart opens a game (harness → program), at the program's first
// decision in it.
type GameStart struct {
	Type            string `json:"type"`        // "game"
	PlayerSeed      uint64 `json:"player_seed"` // for the program's own generator: deal.ProgramSeed
	Difficulty      string `json:"difficulty"`  // "table" without the Opposition
	Players         int    `json:"players"`     // seats at the table, the Opposition's included
	Seat            int    `json:"seat"`        // the program's
	Politician      string `json:"politician"`
	PoliticianIndex int    `json:"politician_index"`
}

// Decision asks for one option (harness → program); the program answers
// with an Answer.
type Decision struct {
	Type     string      `json:"type"` // "decision"
	N        int         `json:"n"`    // 1 for the game's first decision
	Decision string      `json:"decision"`
	View     View        `json:"view"`
	Options  []OptionMsg `json:"options"`
}

// OptionMsg is one legal option: a stable id (engine.OptionID) and a label.
type OptionMsg struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Answer is the program's choice (program → harness).
type Answer struct {
	Type string `json:"type"` // "answer"
	ID   string `json:"id"`
}

// GameEnd closes a game with its Final Tally (harness → program).
type GameEnd struct {
	Type      string `json:"type"` // "end"
	Seat      int    `json:"seat"`
	Outcome   string `json:"outcome"` // for the program's seat: "win", "draw" or "loss"
	Place     int    `json:"place"`   // 1 for the most votes; tied seats share a place
	Margin    int    `json:"margin"`  // the seat's votes minus the best other seat's
	Decisions int    `json:"decisions"`
	Tally     Tally  `json:"tally"`
}

// Tally is the Final Tally: per District and the totals, by seat.
type Tally struct {
	Districts    []DistrictTally `json:"districts"`
	Endorsements []int           `json:"endorsements"`
	Bonus        []int           `json:"bonus"`
	Total        []int           `json:"total"`
}

// DistrictTally is one District's column of the scoring board.
type DistrictTally struct {
	Name      string `json:"name"`
	Votes     int    `json:"votes"`
	Shares    []int  `json:"shares"`
	PerShare  int    `json:"per_share"`
	SeatVotes []int  `json:"seat_votes"`
}

// newGameEnd builds the GameEnd of finished game g for seat.
func newGameEnd(g *engine.Game, seat int8, decisions int) GameEnd {
	res := &g.Result
	n := g.NSeats
	best := -1 << 30
	for s := range n {
		if s != seat {
			best = max(best, int(res.Total[s]))
		}
	}
	margin := int(res.Total[seat]) - best
	outcome := "loss"
	switch {
	case margin > 0:
		outcome = "win"
	case margin == 0:
		outcome = "draw"
	}
	t := Tally{
		Endorsements: ints(res.Endorsements[:n]),
		Bonus:        ints(res.Bonus[:n]),
		Total:        ints(res.Total[:n]),
	}
	for d := range res.Districts {
		dt := &res.Districts[d]
		t.Districts = append(t.Districts, DistrictTally{
			Name:      g.Rules().Districts[d],
			Votes:     int(dt.Votes),
			Shares:    ints(dt.Shares[:n]),
			PerShare:  int(dt.PerShare),
			SeatVotes: ints(dt.SeatVotes[:n]),
		})
	}
	return GameEnd{Type: "end", Seat: int(seat), Outcome: outcome, Place: int(res.Place[seat]),
		Margin: margin, Decisions: decisions, Tally: t}
}
