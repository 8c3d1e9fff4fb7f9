package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"tallywood/engine"
)

// FormatSensitivity names the JSON document of `tallywood sensitivity`.
const FormatSensitivity = "tallywood-sensitivity/1"

// KindSensitivity is the kind of a sensitivity scan's result.
const KindSensitivity Kind = "sensitivity"

func init() { registerKind(KindSensitivity, func() Study { return &SensitivityResult{} }) }

// Step is how far `sensitivity` moves each field: By whole units, or
// Percent of the field's value (at least one unit, rounded to the
// nearest whole one: every field of the rules file is whole).
type Step struct {
	By      int     `json:"by,omitempty"`
	Percent float64 `json:"percent,omitempty"`
}

// ParseStep reads a step: a whole number of units (2) or a percentage of
// each field's value (25%).
func ParseStep(s string) (Step, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || !(v > 0 && v <= 1000) {
			return Step{}, fmt.Errorf("step %q: a percentage above 0 and at most 1000", s)
		}
		return Step{Percent: v}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > engine.MaxHeld {
		return Step{}, fmt.Errorf("step %q: a whole number of units 1..%d, or a percentage such as 25%%", s, engine.MaxHeld)
	}
	return Step{By: n}, nil
}

// String writes the step as ParseStep reads it.
func (s Step) String() string {
	if s.Percent > 0 {
		return strconv.FormatFloat(s.Percent, 'g', -1, 64) + "%"
	}
	return strconv.Itoa(s.By)
}

// of is the step from value v, in whole units.
func (s Step) of(v int) int {
	if s.Percent > 0 {
		return max(1, int(math.Round(math.Abs(float64(v))*s.Percent/100)))
	}
	return s.By
}

func (s Step) valid() bool {
	return (s.By >= 1 && s.By <= engine.MaxHeld && s.Percent == 0) || (s.By == 0 && s.Percent > 0 && s.Percent <= 1000)
}

// SensitivityConfig moves each numeric field of Base that Fields selects
// (globs, engine.MatchPath; none: every numeric field) one Step down and
// one up, sets each choice they select (engine.Choice: a Solo card's
// District or action, a switch) to each of its alternatives, and plays, for each cell, game i of the base rules and of every change
// on seed deal.GameSeed(Seed, i), as a sweep does: every change is paired
// against the base game by game, and with a `compare` of the same seed
// and games.
type SensitivityConfig struct {
	Base       *engine.Rules
	Fields     []string
	Step       Step
	Cells      []CellSpec
	Seed       uint64
	Games      int64 // per cell and change before sharding
	Shard      Shard
	Workers    int
	Opposition engine.Opposition
	Progress   *atomic.Int64
	// MaxErrors is how many failed seeds the whole scan goes on past, over
	// all its cells.
	MaxErrors int64
}

// SensitivityChange is one field of one cell moved one step; differences
// are the change minus the base rules on the same seeds, tested and
// adjusted over the whole family (FixedVerdicts: Bonferroni over the
// score and the margin of every change of every cell).
type SensitivityChange struct {
	Path string `json:"path"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// FromChoice and ToChoice are a choice's value and alternative (From
	// and To are then 0).
	FromChoice     string     `json:"from_choice,omitempty"`
	ToChoice       string     `json:"to_choice,omitempty"`
	RulesHash      string     `json:"rules_hash"`
	Pairs          PairCounts `json:"pairs_vs_base"`
	ScoreDiff      float64    `json:"score_diff"`
	ScoreDiffCI    [2]float64 `json:"score_diff_ci"` // at the family's confidence
	ScoreDiffP     float64    `json:"score_diff_p"`
	ScoreDiffPAdj  float64    `json:"score_diff_p_adj"`
	MarginDiff     float64    `json:"margin_diff"`
	MarginDiffCI   [2]float64 `json:"margin_diff_ci"`
	MarginDiffP    float64    `json:"margin_diff_p"`
	MarginDiffPAdj float64    `json:"margin_diff_p_adj"`
	Verdict        Verdict    `json:"verdict"`
}

// SensitivitySkip is a change not played, and why: the cell's game
// cannot read the field (engine.ReadBy), or the step leaves the field's
// bounds, or the rules refuse the value.
type SensitivitySkip struct {
	Path string `json:"path"`
	To   *int   `json:"to,omitempty"` // absent: both directions
	Why  string `json:"why"`
}

// FieldEffect is a field's place in a cell's ranking: the larger |score
// difference| of its two changes, and which change it is.
type FieldEffect struct {
	Path       string  `json:"path"`
	To         int     `json:"to"`
	ToChoice   string  `json:"to_choice,omitempty"`
	ScoreDiff  float64 `json:"score_diff"`
	MarginDiff float64 `json:"margin_diff"`
	Verdict    Verdict `json:"verdict"`
}

// SensitivityCell is one cell (difficulty × policy × politician).
type SensitivityCell struct {
	labels
	Base    Cell                `json:"base"`
	Changes []SensitivityChange `json:"changes"`
	Skipped []SensitivitySkip   `json:"skipped,omitempty"`
	Ranking []FieldEffect       `json:"ranking"` // derived: by |score difference|, largest first
	// Failed counts the seeds left out because a game of theirs failed,
	// at the base or a change, and lists the first.
	Failed
}

// SensitivityResult is the output of `tallywood sensitivity`
// (docs/output.md describes every field).
type SensitivityResult struct {
	Envelope
	RulesID
	GamesPerChange int64    `json:"games_per_change"`
	Step           Step     `json:"step"`
	Fields         []string `json:"fields,omitempty"` // the globs, of numbers and choices; absent: every numeric field
	// The family: every change's score and margin difference, each
	// tested at Level/Tests (FixedVerdicts: Bonferroni), every interval at
	// Confidence.
	Tests      int     `json:"tests"`
	Level      float64 `json:"level"`
	Confidence float64 `json:"confidence"`
	// OldFamily reads the family in words that scans written before
	// sim/report said it held, and drops it: a result stores no sentence.
	OldFamily droppedText       `json:"family,omitzero"`
	Cells     []SensitivityCell `json:"cells"`
}

// plannedChange is a change a cell plays: a number from..to or a choice
// fromChoice..toChoice.
type plannedChange struct {
	path                 string
	from, to             int
	fromChoice, toChoice string
	rules                *engine.Rules
}

// value is the change's new value as --set takes it.
func (c plannedChange) value() string {
	if c.toChoice != "" {
		return c.toChoice
	}
	return strconv.Itoa(c.to)
}

// sensitivityVariables are the numbers and choices cfg moves: every
// numeric field without globs, else every number and choice they match.
func sensitivityVariables(cfg *SensitivityConfig) ([]engine.Field, []engine.Choice, error) {
	if len(cfg.Fields) == 0 {
		fields, err := cfg.Base.Fields()
		return fields, nil, err
	}
	return cfg.Base.Variables(cfg.Fields...)
}

// readSkip is the skip of a field that the solo game at mode m does not
// read, "" when it reads it.
func readSkip(path string, m engine.Mode) (SensitivitySkip, bool) {
	s, err := engine.ReadBy(path)
	if err != nil {
		return SensitivitySkip{Path: path, Why: err.Error()}, true
	}
	if !s.ReadsSolo(m) {
		return SensitivitySkip{Path: path, Why: fmt.Sprintf("not read at %s: read by %s (%s)", m, s.Who(), s.Why)}, true
	}
	return SensitivitySkip{}, false
}

// planSensitivity lists what one cell at mode m plays and skips: each
// number a step down and up, then each choice at each alternative.
func planSensitivity(base *engine.Rules, fields []engine.Field, choices []engine.Choice, step Step, m engine.Mode) ([]plannedChange, []SensitivitySkip) {
	var plan []plannedChange
	var skip []SensitivitySkip
	for _, f := range fields {
		if s, unread := readSkip(f.Path, m); unread {
			skip = append(skip, s)
			continue
		}
		d := step.of(f.Value)
		for _, to := range []int{f.Value - d, f.Value + d} {
			if f.Bounded && (to < f.Lo || to > f.Hi) {
				skip = append(skip, SensitivitySkip{Path: f.Path, To: &to, Why: fmt.Sprintf("%d leaves its bounds %d..%d", to, f.Lo, f.Hi)})
				continue
			}
			a := engine.Assignment{Path: f.Path, Value: strconv.Itoa(to)}
			r, err := base.With(a)
			if err != nil {
				var refused *engine.SetError
				if errors.As(err, &refused) {
					err = refused.Err // the change is the skip's path and value
				}
				skip = append(skip, SensitivitySkip{Path: f.Path, To: &to, Why: "the rules refuse it: " + err.Error()})
				continue
			}
			plan = append(plan, plannedChange{path: f.Path, from: f.Value, to: to, rules: r})
		}
	}
	for _, c := range choices {
		if s, unread := readSkip(c.Path, m); unread {
			skip = append(skip, s)
			continue
		}
		for _, alt := range c.Alternatives {
			// Choices lists only the alternatives the rules accept.
			r, err := base.With(engine.Assignment{Path: c.Path, Value: alt})
			if err != nil {
				skip = append(skip, SensitivitySkip{Path: c.Path, Why: "the rules refuse " + alt + ": " + err.Error()})
				continue
			}
			plan = append(plan, plannedChange{path: c.Path, fromChoice: c.Value, toChoice: alt, rules: r})
		}
	}
	return plan, skip
}

// SensitivityGames is how many games Sensitivity plays for cfg on each
// seed: every cell's base and every change it reads (what a progress bar
// counts, and what a scan costs before it runs).
func SensitivityGames(cfg SensitivityConfig) (int64, error) {
	fields, choices, err := sensitivityVariables(&cfg)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, spec := range cfg.Cells {
		plan, _ := planSensitivity(cfg.Base, fields, choices, cfg.Step, spec.Mode)
		n += int64(1 + max(1, len(plan))) // a cell with no change counts its base twice, as the sweep it runs does
	}
	return n, nil
}

// Sensitivity plays every cell of cfg at the base rules and at every
// change the cell can read. Each cell is a sweep of its changes (Sweep:
// the same pool, a seed counted only when all its games were played), so
// the result depends on neither the workers nor the shards.
func Sensitivity(ctx context.Context, cfg SensitivityConfig) (*SensitivityResult, error) {
	switch {
	case cfg.Base == nil:
		return nil, errors.New("sim: no rules")
	case len(cfg.Cells) == 0:
		return nil, errors.New("sim: a sensitivity scan needs cells")
	case cfg.Games < 1 || cfg.Games > MaxGames:
		return nil, fmt.Errorf("sim: games %d is not between 1 and %d", cfg.Games, MaxGames)
	case !cfg.Step.valid():
		return nil, fmt.Errorf("sim: step %s: whole units 1..%d or a percentage", cfg.Step, engine.MaxHeld)
	}
	fields, choices, err := sensitivityVariables(&cfg)
	if err != nil {
		return nil, err
	}
	out := &SensitivityResult{
		Envelope:       newEnvelope(KindSensitivity, FormatSensitivity, cfg.Seed, cfg.Shard),
		RulesID:        rulesID(cfg.Base),
		GamesPerChange: cfg.Games, Step: cfg.Step, Fields: slices.Clone(cfg.Fields),
	}
	played := false
	var failed int64 // seeds failed in the cells played so far
	for _, spec := range cfg.Cells {
		plan, skip := planSensitivity(cfg.Base, fields, choices, cfg.Step, spec.Mode)
		// A cell with nothing to play still plays its base, as a point
		// of the base rules, which the sweep does not play again.
		points := []SweepPoint{{Set: []engine.Assignment{{Path: "base"}}, Rules: cfg.Base}}
		if len(plan) > 0 {
			points = points[:0]
			played = true
		}
		for _, c := range plan {
			points = append(points, SweepPoint{Set: []engine.Assignment{{Path: c.path, Value: c.value()}}, Rules: c.rules})
		}
		sw, err := Sweep(ctx, SweepConfig{Base: cfg.Base, Params: []string{"change"}, Points: points,
			Cells: []CellSpec{spec}, Seed: cfg.Seed, Games: cfg.Games, Shard: cfg.Shard, Workers: cfg.Workers,
			Opposition: cfg.Opposition, Progress: cfg.Progress, MaxErrors: cfg.MaxErrors - failed})
		if sw == nil {
			return nil, err
		}
		sc := sw.Cells[0]
		failed += sc.Errors
		cell := SensitivityCell{labels: sc.labels, Base: sc.Base, Skipped: skip, Failed: sc.Failed}
		for i, c := range plan {
			cell.Changes = append(cell.Changes, SensitivityChange{Path: c.path, From: c.from, To: c.to,
				FromChoice: c.fromChoice, ToChoice: c.toChoice, RulesHash: c.rules.Hash, Pairs: sc.Points[i].Pairs})
		}
		out.Cells = append(out.Cells, cell)
		out.Interrupted = out.Interrupted || sw.Interrupted
		if err != nil { // past MaxErrors: stopped like an interruption
			out.Interrupted = true
			out.derive()
			return out, tooManyFailed(failed, cfg.MaxErrors)
		}
	}
	if !played {
		return nil, fmt.Errorf("nothing to play: no cell reads any change of the fields selected (%s)", skipWords(out.Cells[0].Skipped))
	}
	out.derive()
	return out, nil
}

// skipWords lists skipped changes in an error.
func skipWords(s []SensitivitySkip) string {
	parts := make([]string, 0, min(len(s), 3))
	for _, k := range s[:min(len(s), 3)] {
		parts = append(parts, k.Path+": "+k.Why)
	}
	if len(s) > 3 {
		parts = append(parts, fmt.Sprintf("and %d more", len(s)-3))
	}
	return strings.Join(parts, "; ")
}

// derive tests every change over the family, ranks each cell's fields and
// sets the run's timing.
func (r *SensitivityResult) derive() {
	var pairs []PairCounts
	for i := range r.Cells {
		for _, c := range r.Cells[i].Changes {
			pairs = append(pairs, c.Pairs)
		}
	}
	v := FixedVerdicts(pairs, VerdictLevel)
	r.Tests, r.Level, r.Confidence = v.Tests, v.Level, v.Confidence
	if len(pairs) == 0 {
		r.Confidence = 0
	}
	var games int64
	var secs float64
	k := 0
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Base.derive()
		games += c.Base.Games * int64(1+len(c.Changes))
		secs += c.Base.ElapsedSeconds
		for j := range c.Changes {
			ch, cv := &c.Changes[j], v.Cells[k]
			k++
			ch.ScoreDiff, ch.ScoreDiffCI, ch.ScoreDiffP, ch.ScoreDiffPAdj = cv.Score.Mean, [2]float64{cv.Score.CI.Lo, cv.Score.CI.Hi}, cv.Score.P, cv.Score.PAdj
			ch.MarginDiff, ch.MarginDiffCI, ch.MarginDiffP, ch.MarginDiffPAdj = cv.Margin.Mean, [2]float64{cv.Margin.CI.Lo, cv.Margin.CI.Hi}, cv.Margin.P, cv.Margin.PAdj
			ch.Verdict = cv.Verdict
		}
		c.Ranking = rank(c.Changes)
	}
	r.setTiming(games, secs)
}

// rank orders a cell's fields by the larger |score difference| of their
// changes, then the larger |margin difference|, then the file's order.
func rank(changes []SensitivityChange) []FieldEffect {
	var out []FieldEffect
	at := map[string]int{}
	for _, c := range changes {
		e := FieldEffect{Path: c.Path, To: c.To, ToChoice: c.ToChoice, ScoreDiff: c.ScoreDiff, MarginDiff: c.MarginDiff, Verdict: c.Verdict}
		i, seen := at[c.Path]
		switch {
		case !seen:
			at[c.Path] = len(out)
			out = append(out, e)
		case larger(e, out[i]):
			out[i] = e
		}
	}
	slices.SortStableFunc(out, func(a, b FieldEffect) int {
		switch {
		case larger(a, b):
			return -1
		case larger(b, a):
			return 1
		}
		return 0
	})
	return out
}

func larger(a, b FieldEffect) bool {
	if x, y := math.Abs(a.ScoreDiff), math.Abs(b.ScoreDiff); x != y {
		return x > y
	}
	return math.Abs(a.MarginDiff) > math.Abs(b.MarginDiff)
}

func (r *SensitivityResult) formats() []string { return []string{FormatSensitivity} }

func (r *SensitivityResult) sameRun(first Study) []field {
	f := first.(*SensitivityResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_change", r.GamesPerChange, f.GamesPerChange),
		sameField("step", r.Step, f.Step),
		{"fields", slices.Equal(r.Fields, f.Fields), strings.Join(r.Fields, " "), strings.Join(f.Fields, " ")},
		{"cells", sameSensitivityCells(r.Cells, f.Cells), sensitivityCellNames(r.Cells), sensitivityCellNames(f.Cells)},
	}
}

// check verifies that a decoded scan adds up: each cell's base as a sim
// cell, and every change paired with it game for game.
func (r *SensitivityResult) check(share func(int64) int64) error {
	if err := checkSolo(&r.RulesID, "games_per_change", r.GamesPerChange, len(r.Cells)); err != nil {
		return err
	}
	if !r.Step.valid() {
		return fmt.Errorf("step %s is not whole units 1..%d or a percentage", r.Step, engine.MaxHeld)
	}
	for _, g := range r.Fields {
		if len(g) > maxText {
			return fmt.Errorf("fields: a glob of %d bytes, more than %d", len(g), maxText)
		}
	}
	n := share(r.GamesPerChange)
	for i := range r.Cells {
		if err := r.Cells[i].check(n, r.Interrupted); err != nil {
			return fmt.Errorf("cell %d: %v", i+1, err)
		}
	}
	return nil
}

func (c *SensitivityCell) check(share int64, interrupted bool) error {
	if c.labels != c.Base.labels {
		return errors.New("the cell's labels differ from its base's")
	}
	if err := c.Base.checkShape(); err != nil {
		return fmt.Errorf("base: %v", err)
	}
	if err := c.Base.Counts.check(); err != nil {
		return fmt.Errorf("base: %v", err)
	}
	if err := checkErrors("games", c.Base.Counts.Games, c.Errors, share, !interrupted, len(c.Failures)); err != nil {
		return err
	}
	for j := range c.Changes {
		ch := &c.Changes[j]
		if ch.Path == "" || len(ch.Path) > maxText || len(ch.RulesHash) > maxText || len(ch.FromChoice) > maxText || len(ch.ToChoice) > maxText {
			return fmt.Errorf("change %d: a path of %d bytes or a rules hash too long", j+1, len(ch.Path))
		}
		if err := checkHash("rules_hash", ch.RulesHash); err != nil {
			return fmt.Errorf("change %d: %v", j+1, err)
		}
		if err := ch.Pairs.check(&c.Base.Counts, nil); err != nil {
			return fmt.Errorf("change %d (%s): %v", j+1, ch.Path, err)
		}
		if ch.Pairs.Games != c.Base.Counts.Games {
			return fmt.Errorf("change %d (%s): %d paired games, the base %d", j+1, ch.Path, ch.Pairs.Games, c.Base.Counts.Games)
		}
	}
	for _, s := range c.Skipped {
		if len(s.Path) > maxText || len(s.Why) > maxText {
			return errors.New("skipped: a path or reason too long")
		}
	}
	return nil
}

func (r *SensitivityResult) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		c := &out.Cells[i]
		c.Base.Failures, c.Failures = slices.Clone(c.Base.Failures), slices.Clone(c.Failures)
		c.Changes = slices.Clone(c.Changes)
	}
	return &out
}

func (r *SensitivityResult) add(o Study) {
	for i := range r.Cells {
		c, oc := &r.Cells[i], &o.(*SensitivityResult).Cells[i]
		c.Base.add(&oc.Base)
		c.Failed.add(&oc.Failed)
		for j := range c.Changes {
			c.Changes[j].Pairs.Merge(&oc.Changes[j].Pairs)
		}
	}
}

// FailedItems lists each cell's failed games.
func (r *SensitivityResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		out[i] = FailedItems{Unit: "game", A: &c.Base, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the seeds the result holds, of the study's (each seed plays
// the base and every change of its cell).
func (r *SensitivityResult) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Base.Games
	}
	return n, int64(len(r.Cells)) * r.GamesPerChange, "seeds"
}

func sensitivityCellNames(cs []SensitivityCell) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s/%s/%s:%d changes", c.Mode, c.Policy, c.Politician, len(c.Changes))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func sameSensitivityCells(a, b []SensitivityCell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].labels != b[i].labels || len(a[i].Changes) != len(b[i].Changes) || len(a[i].Skipped) != len(b[i].Skipped) {
			return false
		}
		for j, c := range a[i].Changes {
			o := b[i].Changes[j]
			if c.Path != o.Path || c.From != o.From || c.To != o.To || c.FromChoice != o.FromChoice || c.ToChoice != o.ToChoice || c.RulesHash != o.RulesHash {
				return false
			}
		}
	}
	return true
}
