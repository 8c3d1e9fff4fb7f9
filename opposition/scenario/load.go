package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
)

// Scenario is a parsed, validated scenario: its file and the position it
// states, ready to run.
type Scenario struct {
	File  File
	Path  string
	rules *engine.Rules
	start engine.Game // the stated position; Run works on a copy
	facts []factCheck // expect, then expect_exact, each sorted by key
}

// factCheck is one expected fact.
type factCheck struct {
	key   string
	want  json.RawMessage
	exact bool // objects must have exactly the keys stated
}

// MaxFileBytes bounds a scenario file: the largest in testdata/scenarios
// is a few KiB.
const MaxFileBytes = 1 << 20

// Load reads and validates a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := kit.ReadFileMax(path, MaxFileBytes)
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
		return nil, fmt.Errorf("scenario: %s", jsonError(data, err))
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
	// They are printed in reports: one line each, shown as written.
	for _, t := range []struct{ field, text string }{{"name", f.Name}, {"description", f.Description}, {"politician", f.Politician}} {
		if r, ok := engine.Hidden(t.text); ok {
			return nil, fmt.Errorf("scenario: %s: %q holds %U, a control or hidden character (it must be one line, shown as written)", t.field, t.text, r)
		}
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
	opp, err := script.For(r)
	if err != nil {
		return nil, fmt.Errorf("scenario: rules: %v", err)
	}
	if err := s.start.Reset(r, f.Seed, engine.Config{Mode: engine.Normal, Politician: pol, Opposition: opp}); err != nil {
		return nil, fmt.Errorf("scenario: %v", err)
	}
	if r.Difficulties[engine.Normal].PlayerInitiative != 1 {
		return nil, errors.New("scenario: rules: difficulties.normal.player_initiative must be 1 for scenarios (the setup must stop before any Opposition turn)")
	}
	s.start.Mode = mode
	s.start.Pending = engine.DecNone // every step is named by the run
	b := builder{g: &s.start, r: r}
	if err := b.apply(&f.Setup); err != nil {
		return nil, err
	}
	if f.Run == nil {
		return nil, errors.New("scenario: run: missing (name the steps; [] checks the facts on the stated position)")
	}
	// A dry run finds every step that makes no sense in its position and
	// every scripted choice that is not legal, so that Run cannot fail.
	dry := s.start
	if err := play(&dry, f.Run); err != nil && f.ExpectRefusal == "" {
		return nil, err
	}
	if len(f.Expect)+len(f.ExpectExact) == 0 && f.ExpectRefusal == "" {
		return nil, errors.New("scenario: expect: missing (state at least one fact)")
	}
	for _, group := range []struct {
		name  string
		facts map[string]json.RawMessage
		exact bool
	}{{"expect", f.Expect, false}, {"expect_exact", f.ExpectExact, true}} {
		for _, k := range sortedKeys(group.facts) {
			if err := checkFact(&s.start, group.name, k, group.facts[k]); err != nil {
				return nil, err
			}
			if _, dup := f.Expect[k]; dup && group.exact {
				return nil, fmt.Errorf("scenario: expect_exact.%q: also stated in expect", k)
			}
			s.facts = append(s.facts, factCheck{key: k, want: group.facts[k], exact: group.exact})
		}
	}
	return s, nil
}

// checkFact checks that an expect key names a fact and its value is JSON
// of the right shape.
func checkFact(start *engine.Game, group, k string, v json.RawMessage) error {
	var want any
	if err := json.Unmarshal(v, &want); err != nil {
		return fmt.Errorf("scenario: %s.%q: %v", group, k, err)
	}
	if k == "events.contain" || k == "events.exclude" {
		l, ok := want.([]any)
		if !ok || len(l) == 0 {
			return fmt.Errorf("scenario: %s.%q: want a list of strings", group, k)
		}
		for i, v := range l {
			if str, ok := v.(string); !ok || str == "" {
				return fmt.Errorf("scenario: %s.%q[%d]: want a non-empty string", group, k, i)
			}
		}
	}
	probe := *start
	if _, err := fact(&probe, k, nil); err != nil {
		return fmt.Errorf("scenario: %s.%q: %v", group, k, err)
	}
	return nil
}

// strictUnmarshal decodes one JSON value, refusing unknown fields; the
// error is worded by jsonError.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New(jsonError(data, err))
	}
	return nil
}

// jsonError words an error of encoding/json in the scenario's terms: the
// field by its path in the file and the kind of value it takes, not Go's
// struct and type names ("json: cannot unmarshal number into Go struct
// field Seat.setup.you.hand of type string" names neither).
func jsonError(data []byte, err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the file"
		}
		return fmt.Sprintf("%s: want %s, not %s", field, kindOf(te.Type), te.Value)
	case errors.As(err, &se):
		line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: not JSON: %v", line, se)
	case errors.Is(err, io.EOF):
		return "empty: want a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the JSON ends before the object does"
	}
	// The rest (an unknown field) have no type to word them by: the
	// package's own words, without its name.
	return strings.TrimPrefix(err.Error(), "json: ")
}

// kindOf names what a field of type t takes, in JSON terms.
func kindOf(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
}

// optionalSwitch names the rule switches a rules file may leave out
// (engine Variants): a scenario may switch them on top of any file.
var optionalSwitch = map[string]bool{"endorsement_check_every_district": true, "upgraded_favor_inherits_used": true, "turns_clockwise": true, "reform_deck_at_once": true}

// loadRules reads the rules file (or the reference set) and applies the
// variant switches by editing its JSON, so the engine validates them.
func loadRules(f *File, dir string) (*engine.Rules, error) {
	data := engine.ReferenceJSON()
	name := "the reference set"
	if f.Rules != "" {
		var err error
		if data, err = readRules(dir, f.Rules); err != nil {
			return nil, fmt.Errorf("scenario: rules: %q %v", f.Rules, err)
		}
		name = strconv.Quote(f.Rules)
	}
	if len(f.Variants) > 0 {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("scenario: rules: %s: %s", name, jsonError(data, err))
		}
		variants := map[string]json.RawMessage{}
		if raw, ok := doc["variants"]; ok {
			if err := json.Unmarshal(raw, &variants); err != nil {
				return nil, fmt.Errorf("scenario: rules: %s: variants: %s", name, jsonError(raw, err))
			}
		}
		for k, v := range f.Variants {
			if _, ok := variants[k]; !ok && !optionalSwitch[k] {
				return nil, fmt.Errorf("scenario: variants.%s: not a variant of the rules file", k)
			}
			variants[k], _ = json.Marshal(v)
		}
		doc["variants"], _ = json.Marshal(variants)
		data, _ = json.Marshal(doc)
	}
	// A script the rules file names is read beside it, inside the
	// scenario's folder as the rules file is.
	beside := func(script string) ([]byte, error) {
		at := path.Join(path.Dir(filepath.ToSlash(f.Rules)), script)
		b, err := readFile(dir, at, engine.MaxAutomatonSize, "a script")
		if err != nil {
			return nil, fmt.Errorf("%q %v", at, err)
		}
		return b, nil
	}
	if f.Rules == "" {
		beside = nil
	}
	r, err := engine.ParseBeside(data, beside)
	if err != nil {
		return nil, fmt.Errorf("scenario: rules: %s: %v", name, err)
	}
	return r, nil
}

// readRules reads a scenario's rules file: a regular file in the
// scenario's folder or below it, no larger than a rules file may be. The
// folder is an os.Root, so neither ../ nor a symlink leads out of it
// ("rules": "../../../../dev/zero" would run out of memory, a FIFO
// hang). The error follows the quoted name.
func readRules(dir, name string) ([]byte, error) {
	return readFile(dir, name, engine.MaxRulesFileSize, "a rules file")
}

// readFile reads a file of the scenario's folder or below it, of at most
// limit bytes (see readRules).
func readFile(dir, name string, limit int64, what string) ([]byte, error) {
	data, err := kit.ReadFileIn(dir, name, limit, what)
	if errors.Is(err, kit.ErrNotLocal) {
		return nil, errors.New("is not a path inside the scenario's folder (no absolute path, no ..); name the rules file relative to the scenario file")
	}
	return data, err
}
