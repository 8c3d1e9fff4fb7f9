package scenario

import "encoding/json"

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
	// Run names the steps, in order: opposition_turn, round_scoring,
	// clean_up, end_of_round, final_tally_reveal, final_tally.
	Run []string `json:"run"`
	// Expect maps a fact (docs/scenarios.md) to its expected value.
	Expect map[string]json.RawMessage `json:"expect"`
}

// Setup states what differs from the standard setup.
type Setup struct {
	Round      int                 `json:"round,omitempty"` // 1-based; default 1
	Turn       int                 `json:"turn,omitempty"`  // 1-based; default 1
	Initiative []string            `json:"initiative,omitempty"`
	You        *Seat               `json:"you,omitempty"`
	Opposition *Seat               `json:"opposition,omitempty"`
	Districts  map[string]District `json:"districts,omitempty"`
	Plaza      map[string]int      `json:"plaza,omitempty"`
	Bag        map[string]int      `json:"bag,omitempty"`
	NextSolo   []string            `json:"next_solo_cards,omitempty"` // top first
}

// Seat is one side's board and supply.
type Seat struct {
	Money      *int           `json:"money,omitempty"`
	Popularity *int           `json:"popularity,omitempty"`
	Polling    map[string]int `json:"polling,omitempty"`
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
