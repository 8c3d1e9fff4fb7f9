package playtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"tallywood/engine"
)

// FormatDecisions names the JSON-lines record of decisions; a game line
// of another format is refused.
const FormatDecisions = "tallywood-decisions/1"

// Bounds of a record of decisions: a game has a few hundred decisions, a
// line is a few hundred bytes.
const (
	MaxDecisionsBytes = 64 << 20 // a whole file
	MaxLine           = 4096     // one line
	MaxGames          = 100000   // games in a file
	MaxGameDecisions  = 10000    // decisions of one game
	MaxText           = 256      // a tester's name, a politician's id
	MaxMargin         = 10000    // |margin| of an end line
)

// Game is one game a tester played against the Opposition, recorded
// decision by decision: with the rules, it is enough to replay the game,
// which is a function of the rules, the seed, the difficulty, the
// politician and the player's decisions.
type Game struct {
	Tester    string
	RulesHash string
	// Seed is the master seed and Game the game of it: the game dealt is
	// game Game of Seed as sim, trace and play deal it.
	Seed, Game uint64
	Mode       engine.Mode
	Politician string // the politician's id in the rules
	// Decisions are every decision of the player, in order, the ones
	// with a single option too.
	Decisions []Decision
	// Margin, when not nil, is the final margin the record states, which
	// a replay must reach.
	Margin *int
	// File and Line say where the record is: the file, and the line of
	// its game line (0 in a save file).
	File string
	Line int
}

// Decision is one decision of the player.
type Decision struct {
	Option engine.Option
	// Hinted: the tester asked for a hint before deciding, so the
	// decision is not theirs alone; calibration leaves it out.
	Hinted bool
	// Line is the decision's line in the record (0 in a save file).
	Line int
}

// Place names g in a message: its file, and the line of its game line in
// a record.
func (g *Game) Place() string {
	if g.Line > 0 {
		return fmt.Sprintf("%s:%d", g.File, g.Line)
	}
	return g.File
}

// Where names the decision i of g in a message: its file and line, or
// its index in a save file.
func (g *Game) Where(i int) string {
	if d := g.Decisions[i]; d.Line > 0 {
		return fmt.Sprintf("%s:%d", g.File, d.Line)
	}
	return fmt.Sprintf("%s: decisions[%d]", g.File, i)
}

// The lines of the record, by their "type".
type (
	lineType struct {
		Type string `json:"type"`
	}
	gameLine struct {
		Type       string `json:"type"`
		Format     string `json:"format"`
		Tester     string `json:"tester"`
		RulesHash  string `json:"rules_hash"`
		Seed       uint64 `json:"seed"`
		Game       uint64 `json:"game"`
		Difficulty string `json:"difficulty"`
		Politician string `json:"politician"`
	}
	decisionLine struct {
		Type string `json:"type"`
		N    int    `json:"n"`
		ID   string `json:"id"`
		Hint bool   `json:"hint,omitempty"`
	}
	endLine struct {
		Type   string `json:"type"`
		Margin int    `json:"margin"`
	}
)

// ParseDecisions reads a record of decisions, the contents of file name:
// JSON lines, each a game line followed by its decision lines and,
// optionally, an end line (docs/calibration.md). Empty lines are skipped.
func ParseDecisions(name string, data []byte) ([]Game, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	if len(data) > MaxDecisionsBytes {
		return nil, fail(0, "larger than %d bytes, the most a record of decisions can be", MaxDecisionsBytes)
	}
	var games []Game
	var cur *Game
	ended := false
	// A game line with no decision lines after it: a game no one played,
	// which calibrate could only count (a thousand of them were read).
	noDecisions := func() error {
		if cur != nil && len(cur.Decisions) == 0 {
			return fail(cur.Line, "a game with no decisions (each game line is followed by its decision lines)")
		}
		return nil
	}
	// As the outcomes CSV: a byte-order mark is skipped, and a line ends
	// at LF, CR LF or a CR alone.
	rest := bytes.TrimPrefix(data, []byte("\ufeff"))
	line := 0
	for len(rest) > 0 {
		line++
		raw := rest
		rest = nil
		if i := bytes.IndexAny(raw, "\r\n"); i >= 0 {
			end := i + 1
			if raw[i] == '\r' && end < len(raw) && raw[end] == '\n' {
				end++
			}
			raw, rest = raw[:i], raw[end:]
		}
		if len(raw) > MaxLine {
			return nil, fail(line, "a line longer than %d bytes", MaxLine)
		}
		text := bytes.TrimSpace(raw)
		if len(text) == 0 {
			continue
		}
		var t lineType
		if err := json.Unmarshal(text, &t); err != nil {
			return nil, fail(line, "not a JSON object: %v", err)
		}
		switch t.Type {
		case "game":
			var gl gameLine
			if err := strictLine(text, &gl); err != nil {
				return nil, fail(line, "%v", err)
			}
			g, err := gl.game()
			if err != nil {
				return nil, fail(line, "%v", err)
			}
			if err := noDecisions(); err != nil {
				return nil, err
			}
			if len(games) == MaxGames {
				return nil, fail(line, "more than %d games", MaxGames)
			}
			g.File, g.Line = name, line
			games = append(games, g)
			cur, ended = &games[len(games)-1], false
		case "decision":
			var dl decisionLine
			if err := strictLine(text, &dl); err != nil {
				return nil, fail(line, "%v", err)
			}
			switch {
			case cur == nil:
				return nil, fail(line, "a decision before any game line")
			case ended:
				return nil, fail(line, "a decision after the game's end line")
			case dl.N != len(cur.Decisions)+1:
				return nil, fail(line, "decision n %d, want %d (each game's decisions are numbered from 1, none left out)", dl.N, len(cur.Decisions)+1)
			case len(cur.Decisions) == MaxGameDecisions:
				return nil, fail(line, "more than %d decisions in one game", MaxGameDecisions)
			}
			o, err := engine.ParseOptionID(dl.ID)
			if err != nil {
				return nil, fail(line, "%v", err)
			}
			cur.Decisions = append(cur.Decisions, Decision{Option: o, Hinted: dl.Hint, Line: line})
		case "end":
			var el endLine
			if err := strictLine(text, &el); err != nil {
				return nil, fail(line, "%v", err)
			}
			switch {
			case cur == nil || ended:
				return nil, fail(line, "an end line without a game line before it")
			case el.Margin < -MaxMargin || el.Margin > MaxMargin:
				return nil, fail(line, "margin %d is outside -%d..%d", el.Margin, MaxMargin, MaxMargin)
			}
			m := el.Margin
			cur.Margin, ended = &m, true
		default:
			return nil, fail(line, "type %q is not game, decision or end", t.Type)
		}
	}
	if err := noDecisions(); err != nil {
		return nil, err
	}
	if len(games) == 0 {
		return nil, fail(0, "no game line: not a record of decisions (%s)", FormatDecisions)
	}
	return games, nil
}

// strictLine decodes one line into v: known fields only, nothing after
// the object.
func strictLine(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON object")
	}
	return nil
}

// game checks a game line and returns its game.
func (gl *gameLine) game() (Game, error) {
	switch {
	case gl.Format != FormatDecisions:
		return Game{}, fmt.Errorf("format %q, want %q", gl.Format, FormatDecisions)
	case strings.TrimSpace(gl.Tester) == "":
		return Game{}, errors.New("tester missing")
	case !engine.IsRulesHash(gl.RulesHash):
		return Game{}, fmt.Errorf("rules_hash %q is not a sha256 in hex (tallywood rules hash prints it)", gl.RulesHash)
	case gl.Politician == "":
		return Game{}, errors.New("politician missing")
	}
	for _, f := range []struct{ name, v string }{{"tester", gl.Tester}, {"politician", gl.Politician}} {
		if err := checkText(f.name, f.v, MaxText); err != nil {
			return Game{}, err
		}
	}
	mode, err := engine.ParseMode(gl.Difficulty)
	if err != nil || mode.String() != gl.Difficulty {
		return Game{}, fmt.Errorf("difficulty %q is not normal or hard", gl.Difficulty)
	}
	return Game{Tester: gl.Tester, RulesHash: gl.RulesHash, Seed: gl.Seed, Game: gl.Game, Mode: mode, Politician: gl.Politician}, nil
}

// WriteGame writes g as lines of a record of decisions: its game line,
// a line per decision and, when g states its margin, the end line.
func WriteGame(w io.Writer, g *Game) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.Encode(gameLine{Type: "game", Format: FormatDecisions, Tester: g.Tester, RulesHash: g.RulesHash,
		Seed: g.Seed, Game: g.Game, Difficulty: g.Mode.String(), Politician: g.Politician})
	for i, d := range g.Decisions {
		enc.Encode(decisionLine{Type: "decision", N: i + 1, ID: engine.OptionID(d.Option), Hint: d.Hinted})
	}
	if g.Margin != nil {
		enc.Encode(endLine{Type: "end", Margin: *g.Margin})
	}
	_, err := w.Write(b.Bytes())
	return err
}
