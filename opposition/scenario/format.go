package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The scenario file format (docs/scenarios.md). Every field is optional
// except name, description, run and expect; what is not stated is the
// standard setup of the seed. Unknown fields are errors.

// File is one scenario file.
type File struct {
	Name        string `json:"name"`
	Description string `json:"description"` // what it checks, citing rule ids
	// Rules is a rules file, relative to the scenario file; empty: the
	// reference set.
	Rules string `json:"rules,omitempty"`
	// Variants switches V-1…V-4 by their rules-file names, on top of the
	// rules.
	Variants   map[string]bool `json:"variants,omitempty"`
	Difficulty string          `json:"difficulty"` // "normal" (default) or "hard"
	Seed       uint64          `json:"seed"`
	Politician string          `json:"politician,omitempty"` // your politician id; default the first
	Setup      Setup           `json:"setup"`
	// Run names the steps, in order (docs/scenarios.md "run"); an empty
	// list checks the facts on the stated position.
	Run Steps `json:"run"`
	// Expect maps a fact (docs/scenarios.md) to its expected value.
	Expect map[string]json.RawMessage `json:"expect,omitempty"`
	// ExpectRefusal, when given, is a substring of the error that must
	// refuse the run: the step or scripted choice the rules forbid. The
	// facts are then those of the position where the run stopped.
	ExpectRefusal string `json:"expect_refusal,omitempty"`
	// ExpectExact is like Expect, but an object must have exactly the keys
	// stated, at every depth: {} is an empty object.
	ExpectExact map[string]json.RawMessage `json:"expect_exact,omitempty"`
}

// Steps is the run: a list of steps, each error naming its index.
type Steps []Step

// UnmarshalJSON reads the list of steps.
func (l *Steps) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return errors.New("run: want a list of steps")
	}
	if raw == nil {
		*l = nil
		return nil
	}
	*l = make(Steps, len(raw))
	for i, r := range raw {
		if err := (*l)[i].UnmarshalJSON(r); err != nil {
			return fmt.Errorf("run[%d]: %v", i, err)
		}
	}
	return nil
}

// Step is one step of the run: a name ("opposition_turn", …), or an
// object naming one step with its scripted choices.
type Step struct {
	Name     string
	YourTurn *YourTurn       // your_turn
	CleanUp  *CleanUpChoices // clean_up or end_of_round with choices
}

// YourTurn scripts your Strategy Phase turn, decision by decision
// (rulebook Strategy Phase 1–5, I-1…I-6).
type YourTurn struct {
	Card    string   `json:"card"`              // a card id in your hand
	Column  int      `json:"column"`            // 1-based, an open column
	Row     string   `json:"row"`               // top, middle or bottom
	Region  string   `json:"region"`            // a District or "Plaza"
	Actions []Choice `json:"actions,omitempty"` // in order; then the actions end
	// Spot is the spot the Assistant takes, named by its action; "none"
	// when all four are taken. Not given in the Plaza.
	Spot string `json:"spot,omitempty"`
}

// Choice is one action, ability use, Favor or attract of a turn.
type Choice struct {
	// Do is public_works, celebrity, research, campaign, fundraise,
	// direct_appeal, rally, plaza_fundraise, ability, favor or attract.
	Do   string `json:"do"`
	Tier int    `json:"tier,omitempty"` // public_works, celebrity
	// Tile (research) is the tile to flip, 1-based among the District's
	// tiles in placement order; not given: the Initial Support token.
	Tile *int `json:"tile,omitempty"`
	// Icon is the action of the Strategy icon spent, needed only when more
	// than one icon could pay for a wild action (fundraise).
	Icon     string `json:"icon,omitempty"`
	Colour   string `json:"colour,omitempty"`   // a cube colour: direct_appeal, ability, attract
	District string `json:"district,omitempty"` // direct_appeal, ability, attract: where to; favor: the token's District
	Slot     string `json:"slot,omitempty"`     // favor: TL, BL, TR or BR
}

// CleanUpChoices are your Clean Up decisions (rulebook Clean Up 4 and 7);
// what is not scripted: keep every card, draw from the first deck that has
// a card.
type CleanUpChoices struct {
	Discard []string `json:"discard,omitempty"` // card ids, in order
	Draw    []string `json:"draw,omitempty"`    // decks by action name, in order
}

// Setup states what differs from the standard setup.
type Setup struct {
	Round      *int                `json:"round,omitempty"`      // 1-based; default 1
	Turn       *int                `json:"turn,omitempty"`       // 1-based; default 1
	Initiative []string            `json:"initiative,omitempty"` // default by difficulty and round (I-20)
	You        *Seat               `json:"you,omitempty"`
	Opposition *Seat               `json:"opposition,omitempty"`
	Districts  map[string]District `json:"districts,omitempty"`
	Plaza      map[string]int      `json:"plaza,omitzero"` // {} is stated: an empty Plaza
	Bag        map[string]int      `json:"bag,omitempty"`
	NextSolo   []string            `json:"next_solo_cards,omitempty"` // top first
}

// Seat is one side's board and supply.
type Seat struct {
	Money      *int           `json:"money,omitempty"`
	Popularity *int           `json:"popularity,omitempty"`
	Polling    map[string]int `json:"polling,omitempty"`
	// Hand (you): the Strategy card ids in your hand; the standard hand
	// goes back on top of its decks first.
	Hand []string `json:"hand,omitzero"` // [] is stated: an empty hand
	// Assistants (you): where your Assistants stand, columns 1, 2, …
	Assistants []Assistant `json:"assistants,omitempty"`
	// Board (the Opposition): the Solo cards in its columns 1, 2, … and
	// where each column's Assistant stands.
	Board          []BoardCard    `json:"board,omitempty"`
	PlazaBadge     *bool          `json:"plaza_badge,omitempty"`
	Endorsements   map[string]int `json:"endorsements,omitempty"` // District → level held
	Tokens         []string       `json:"tokens,omitempty"`       // Vote Share tokens held
	MajorityShares map[string]int `json:"majority_shares,omitempty"`
}

// Assistant stands in a District (on a spot, named by its action, or none)
// or in the Plaza.
type Assistant struct {
	District string `json:"district"`
	Spot     string `json:"spot,omitempty"`
}

// BoardCard is a Solo card in a column of the Opposition's board.
type BoardCard struct {
	Card     string `json:"card"`
	District string `json:"district,omitempty"` // empty: the Assistant is home
	Spot     string `json:"spot,omitempty"`
}

// District is one District of the board.
type District struct {
	Tiles          []Tile         `json:"tiles,omitempty"` // in placement order (I-21)
	Cubes          map[string]int `json:"cubes,omitempty"`
	InitialSupport int            `json:"initial_support,omitempty"`
	SupportFaceUp  bool           `json:"support_face_up,omitempty"`
}

// Tile is a Celebrity or Public Works tile taken from its pile.
type Tile struct {
	Kind   string `json:"kind"` // "public_works" or "celebrity"
	Tier   int    `json:"tier"`
	FaceUp bool   `json:"face_up,omitempty"`
	Badge  string `json:"badge,omitempty"` // Public Works: "you" or "opposition"
	Face   string `json:"face,omitempty"`  // e.g. "RM"; empty: the top of the pile
	Count  int    `json:"count,omitempty"` // that many such tiles; default 1
}

// The steps a scenario can run.
const (
	StepOppositionTurn = "opposition_turn"    // the Opposition's next Strategy Phase turn
	StepYourTurn       = "your_turn"          // your Strategy Phase turn, scripted
	StepRoundScoring   = "round_scoring"      // Round Scoring of the current round
	StepCleanUp        = "clean_up"           // the whole Clean Up, into the next round
	StepEndOfRound     = "end_of_round"       // Round Scoring, then Clean Up or (last round) V-2 and the Final Tally start
	StepReveal         = "final_tally_reveal" // the next reveal of the Final Tally
	StepFinalTally     = "final_tally"        // the rest of the Final Tally: reveals, then the votes
)

var stepNames = []string{StepOppositionTurn, StepYourTurn, StepRoundScoring, StepCleanUp, StepEndOfRound, StepReveal, StepFinalTally}

// UnmarshalJSON reads a step: a name, or an object with one key, the
// step's name, holding its choices.
func (s *Step) UnmarshalJSON(data []byte) error {
	*s = Step{}
	if err := json.Unmarshal(data, &s.Name); err == nil {
		if s.Name == StepYourTurn {
			return errors.New("your_turn needs its choices: {\"your_turn\": {\"card\": …}}")
		}
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return errors.New("a step is a name or an object such as {\"your_turn\": {…}}")
	}
	if len(obj) != 1 {
		return fmt.Errorf("a step object has one key, the step's name; this one has %d", len(obj))
	}
	for name, raw := range obj {
		s.Name = name
		var target any
		switch name {
		case StepYourTurn:
			s.YourTurn = &YourTurn{}
			target = s.YourTurn
		case StepCleanUp, StepEndOfRound:
			s.CleanUp = &CleanUpChoices{}
			target = s.CleanUp
		default:
			return fmt.Errorf("%q takes no choices (only your_turn, clean_up and end_of_round do)", name)
		}
		if err := strictUnmarshal(raw, target); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// MarshalJSON writes a step back in the form it was read.
func (s Step) MarshalJSON() ([]byte, error) {
	switch {
	case s.YourTurn != nil:
		return json.Marshal(map[string]any{s.Name: s.YourTurn})
	case s.CleanUp != nil:
		return json.Marshal(map[string]any{s.Name: s.CleanUp})
	}
	return json.Marshal(s.Name)
}
