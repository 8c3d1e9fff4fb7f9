package playtest

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
)

// Bounds of an outcomes CSV: a designer's playtests are dozens or
// hundreds of rows.
const (
	MaxOutcomesBytes = 1 << 20
	MaxOutcomes      = 10000
	MaxRulesFiles    = 8 // distinct rules files named: each costs a curve of games
)

// Outcome is one game played at a table whose result was written down:
// who played, on which difficulty, under which rules, and how it ended.
type Outcome struct {
	Tester string
	Mode   engine.Mode
	// Rules is the rules file the row names, as written ("": the rules
	// calibration is given, the reference set by default).
	Rules string
	// Result is Won, Drawn or Lost; a draw is not a win.
	Result Result
	// Margin, when HasMargin, is the final margin: the tester's votes
	// minus the Opposition's.
	Margin    int
	HasMargin bool
	Line      int // the row's line in the file
}

// Result is how a game ended for the tester.
type Result int8

const (
	Lost Result = iota
	Drawn
	Won
)

var resultWords = map[string]Result{"won": Won, "win": Won, "lost": Lost, "loss": Lost, "drawn": Drawn, "draw": Drawn}

// The columns of an outcomes CSV, in any order; rules and margin may be
// left out.
var (
	requiredColumns = []string{"tester", "difficulty", "result"}
	optionalColumns = []string{"rules", "margin"}
)

// ParseOutcomes reads an outcomes CSV, the contents of file name: a
// header naming the columns (tester, difficulty, result, and optionally
// rules and margin), then one game a row (docs/calibration.md).
func ParseOutcomes(name string, data []byte) ([]Outcome, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: name, Line: line, Err: fmt.Errorf(format, args...)}
	}
	if len(data) > MaxOutcomesBytes {
		return nil, fail(0, "larger than %d bytes, the most an outcomes file can be", MaxOutcomesBytes)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = 0
	header, err := r.Read()
	if err == io.EOF {
		return nil, fail(0, "empty: want a header (tester,difficulty,result[,rules][,margin]) and a row per game")
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !slices.Contains(requiredColumns, h) && !slices.Contains(optionalColumns, h) {
			return nil, fail(1, "column %q is not one of tester, difficulty, result, rules, margin", kit.Clip(h))
		}
		if _, dup := col[h]; dup {
			return nil, fail(1, "column %q twice", kit.Clip(h))
		}
		col[h] = i
	}
	for _, c := range requiredColumns {
		if _, ok := col[c]; !ok {
			return nil, fail(1, "no %s column (the header names tester, difficulty, result, and optionally rules and margin)", c)
		}
	}
	var out []Outcome
	rules := map[string]bool{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if errors.Is(err, csv.ErrFieldCount) {
			return nil, fail(line, "%d fields, want %d (the header's)", len(rec), len(header))
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		if len(out) == MaxOutcomes {
			return nil, fail(line, "more than %d rows", MaxOutcomes)
		}
		o, err := outcome(rec, col)
		if err != nil {
			return nil, fail(line, "%v", err)
		}
		o.Line = line
		if o.Rules != "" && !rules[o.Rules] {
			if len(rules) == MaxRulesFiles {
				return nil, fail(line, "more than %d rules files named", MaxRulesFiles)
			}
			rules[o.Rules] = true
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fail(0, "no rows: one game a row under the header")
	}
	return out, nil
}

// csvError names the line of a CSV syntax error.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: name, Line: pe.Line, Err: pe.Err}
	}
	return &Error{File: name, Err: err}
}

// outcome reads one row.
func outcome(rec []string, col map[string]int) (Outcome, error) {
	get := func(c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var o Outcome
	o.Tester = get("tester")
	if o.Tester == "" {
		return o, errors.New("tester: empty")
	}
	if err := checkText("tester", o.Tester, MaxText); err != nil {
		return o, err
	}
	mode, err := engine.ParseMode(strings.ToLower(get("difficulty")))
	if err != nil {
		return o, fmt.Errorf("difficulty %q is not normal or hard", kit.Clip(get("difficulty")))
	}
	o.Mode = mode
	res, ok := resultWords[strings.ToLower(get("result"))]
	if !ok {
		return o, fmt.Errorf("result %q is not won, lost or drawn", kit.Clip(get("result")))
	}
	o.Result = res
	o.Rules = get("rules")
	if err := checkText("rules", o.Rules, MaxText); err != nil {
		return o, err
	}
	if m := get("margin"); m != "" {
		v, err := strconv.Atoi(m)
		if err != nil || v < -MaxMargin || v > MaxMargin {
			return o, fmt.Errorf("margin %q is not a whole number of votes from -%d to %d", kit.Clip(m), MaxMargin, MaxMargin)
		}
		if want := resultOf(v); want != res {
			return o, fmt.Errorf("margin %d and result %q disagree (a positive margin wins, 0 draws)", v, get("result"))
		}
		o.Margin, o.HasMargin = v, true
	}
	return o, nil
}

// resultOf is the result of a final margin.
func resultOf(margin int) Result {
	switch {
	case margin > 0:
		return Won
	case margin == 0:
		return Drawn
	}
	return Lost
}
