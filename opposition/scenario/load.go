package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"tallywood/engine"
	"tallywood/opposition"
)

// Scenario is a parsed, validated scenario: its file and the position it
// states, ready to run.
type Scenario struct {
	File  File
	Path  string
	rules *engine.Rules
	start engine.Game // the stated position; Run works on a copy
	facts []string    // the expect keys, sorted
}

// MaxFileBytes bounds a scenario file: the largest in testdata/scenarios
// is a few KiB.
const MaxFileBytes = 1 << 20

// Load reads and validates a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := engine.ReadFileMax(path, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	s, err := Parse(data, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.Path = path
	return s, nil
}

// Parse validates a scenario and sets up its position. dir is where a
// rules file named in it is looked for. The error names the field.
func Parse(data []byte, dir string) (*Scenario, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("scenario: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("scenario: trailing data after the JSON object")
	}
	if strings.TrimSpace(f.Name) == "" {
		return nil, errors.New("scenario: name: missing")
	}
	if strings.TrimSpace(f.Description) == "" {
		return nil, errors.New("scenario: description: missing (say what it checks and cite the rule ids)")
	}
	r, err := loadRules(&f, dir)
	if err != nil {
		return nil, err
	}
	mode := engine.Normal
	if f.Difficulty != "" {
		if mode, err = engine.ParseMode(f.Difficulty); err != nil {
			return nil, fmt.Errorf("scenario: difficulty: %q is not normal or hard", f.Difficulty)
		}
	}
	pol := 0
	if f.Politician != "" {
		if pol = r.PoliticianIndex(f.Politician); pol < 0 {
			return nil, fmt.Errorf("scenario: politician: %q is not in the rules", f.Politician)
		}
	}
	s := &Scenario{File: f, rules: r}
	// Set up as Normal, where you move first, so that no Opposition turn
	// runs during the setup; then switch to the difficulty and its
	// initiative (Solo Setup 5). The cards and tiles do not depend on it.
	if err := s.start.Reset(r, f.Seed, engine.Config{Mode: engine.Normal, Politician: pol, Opposition: opposition.Solo{}}); err != nil {
		return nil, fmt.Errorf("scenario: %v", err)
	}
	if r.Difficulties[engine.Normal].PlayerInitiative != 1 {
		return nil, errors.New("scenario: rules: difficulties.normal.player_initiative must be 1 for scenarios (the setup must stop before any Opposition turn)")
	}
	s.start.Mode = mode
	if s.start.Difficulty().PlayerInitiative == 2 {
		s.start.Order[0], s.start.Order[1] = 1, 0
	}
	b := builder{g: &s.start, r: r}
	if err := b.apply(&f.Setup); err != nil {
		return nil, err
	}
	if len(f.Run) == 0 {
		return nil, errors.New("scenario: run: missing (name at least one step)")
	}
	if err := checkRun(r, &s.start, f.Run); err != nil {
		return nil, err
	}
	if len(f.Expect) == 0 {
		return nil, errors.New("scenario: expect: missing (state at least one fact)")
	}
	for k, v := range f.Expect {
		var want any
		if err := json.Unmarshal(v, &want); err != nil {
			return nil, fmt.Errorf("scenario: expect.%q: %v", k, err)
		}
		if k == "events.contain" || k == "events.exclude" {
			l, ok := want.([]any)
			if !ok || len(l) == 0 {
				return nil, fmt.Errorf("scenario: expect.%q: want a list of strings", k)
			}
			for i, v := range l {
				if str, ok := v.(string); !ok || str == "" {
					return nil, fmt.Errorf("scenario: expect.%q[%d]: want a non-empty string", k, i)
				}
			}
		}
		probe := s.start
		if _, err := fact(&probe, k, nil); err != nil {
			return nil, fmt.Errorf("scenario: expect.%q: %v", k, err)
		}
		s.facts = append(s.facts, k)
	}
	sort.Strings(s.facts)
	return s, nil
}

// loadRules reads the rules file (or the reference set) and applies the
// variant switches by editing its JSON, so the engine validates them.
func loadRules(f *File, dir string) (*engine.Rules, error) {
	data := engine.ReferenceJSON()
	if f.Rules != "" {
		var err error
		if data, err = os.ReadFile(filepath.Join(dir, f.Rules)); err != nil {
			return nil, fmt.Errorf("scenario: rules: %v", err)
		}
	}
	if len(f.Variants) > 0 {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("scenario: rules: %v", err)
		}
		variants := map[string]json.RawMessage{}
		if raw, ok := doc["variants"]; ok {
			if err := json.Unmarshal(raw, &variants); err != nil {
				return nil, fmt.Errorf("scenario: rules: variants: %v", err)
			}
		}
		for k, v := range f.Variants {
			if _, ok := variants[k]; !ok {
				return nil, fmt.Errorf("scenario: variants.%s: not a variant of the rules file", k)
			}
			variants[k], _ = json.Marshal(v)
		}
		doc["variants"], _ = json.Marshal(variants)
		data, _ = json.Marshal(doc)
	}
	r, err := engine.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("scenario: rules: %v", err)
	}
	return r, nil
}

// The steps a scenario can run.
const (
	StepOppositionTurn = "opposition_turn"    // the Opposition's next Strategy Phase turn
	StepRoundScoring   = "round_scoring"      // Round Scoring of the current round
	StepCleanUp        = "clean_up"           // Clean Up steps 1–3 (the Opposition's Clean Up, Assistants home)
	StepEndOfRound     = "end_of_round"       // Round Scoring, then Clean Up or (last round) V-2 and the Final Tally start
	StepReveal         = "final_tally_reveal" // one Final Tally reveal by the Opposition
	StepFinalTally     = "final_tally"        // the whole Final Tally: reveals, then the votes
)

// checkRun checks each step, and that every Opposition turn finds an open
// column and a Solo card (in the deck, or in the box to reshuffle, I-19).
func checkRun(r *engine.Rules, g *engine.Game, steps []string) error {
	st := &g.Seats[g.Opponent()]
	board := 0
	for c := range st.Columns {
		if st.Columns[c].Card >= 0 {
			board++
		}
	}
	cards := int(g.Solo.N) + int(g.SoloBox.N)
	for i, step := range steps {
		if err := checkStep(r, g, step); err != nil {
			return fmt.Errorf("scenario: run[%d]: %v", i, err)
		}
		switch step {
		case StepOppositionTurn:
			if board == engine.NumColumns {
				return fmt.Errorf("scenario: run[%d]: the Opposition's %d columns all hold a Solo card; run %q first", i, board, StepCleanUp)
			}
			if cards == 0 {
				return fmt.Errorf("scenario: run[%d]: the Opposition has no Solo card left", i)
			}
			board++
			cards--
		case StepCleanUp, StepEndOfRound:
			if int(g.Round) != r.LastRound() || r.Variants.OppositionCleanupAfterRound4 {
				// The board's cards go to the box, and the box can be
				// reshuffled into the deck (I-19).
				cards += board
				board = 0
			}
		}
	}
	return nil
}

func checkStep(r *engine.Rules, g *engine.Game, step string) error {
	switch step {
	case StepOppositionTurn, StepRoundScoring, StepEndOfRound, StepReveal, StepFinalTally:
		return nil
	case StepCleanUp:
		if int(g.Round) == r.LastRound() {
			return fmt.Errorf("%q: round %d is the last round and has no Clean Up; run %q to see what follows it (V-2)", step, g.Round+1, StepEndOfRound)
		}
		return nil
	}
	return fmt.Errorf("%q is not a step (want %s, %s, %s, %s, %s or %s)", step,
		StepOppositionTurn, StepRoundScoring, StepCleanUp, StepEndOfRound, StepReveal, StepFinalTally)
}
