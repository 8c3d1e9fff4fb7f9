package sim

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/engine/kit"
)

// FormatSensitivity names the JSON document of `tallywood sensitivity`.
// /2 has a design (a race, or fixed), a tolerance, each change's pairs at
// every look and at its confirmation, and verdicts within the tolerance;
// /1, a fixed scan, still reads (its pairs as one look, with the default
// tolerance).
const FormatSensitivity = "tallywood-sensitivity/3"

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
// and games. Design says how many games each change gets
// (sensitivityrace.go): Games each (fixed), or Games per change on
// average, screened, raced and confirmed on master seed ConfirmSeed
// (race). Tolerance is the designer's: a difference within ±Tolerance (a
// fraction of score) is negligible; 0 is DefaultTolerance.
type SensitivityConfig struct {
	Base        *engine.Rules
	Fields      []string
	Step        Step
	Cells       []CellSpec
	Games       int64 // per cell and change before sharding (fixed), on average (race)
	Design      SensitivityDesign
	Tolerance   float64
	ConfirmSeed uint64
	// RunConfig: an item is a seed, at the base and every change it plays;
	// MaxErrors counts them over all the scan's cells.
	RunConfig
}

// SensitivityChange is one field of one cell moved one step; differences
// are the change minus the base rules on the same seeds. Looks and
// Confirm are counts; the rest is derived (sensitivityrace.go): the
// figures are the confirmation's for a change confirmed, else those of its
// last look, each with the interval its verdict reads.
type SensitivityChange struct {
	Path string `json:"path"`
	From int    `json:"from"`
	To   int    `json:"to"`
	// FromChoice and ToChoice are a choice's value and alternative (From
	// and To are then 0).
	FromChoice string `json:"from_choice,omitempty"`
	ToChoice   string `json:"to_choice,omitempty"`
	RulesHash  string `json:"rules_hash"`
	// Looks are the change's pairs against the base at each look it was
	// played to, on the scan's seeds from the first: cumulative, so the
	// last is every pair (a fixed scan: one look).
	Looks []PairCounts `json:"looks"`
	// Confirm is a race's confirmation of the change, on seeds of
	// ConfirmSeed: only a change the race flagged.
	Confirm *PairCounts `json:"confirm_vs_base,omitempty"`
	// Screen is a race's screen's estimate of the change, among others;
	// none without a screen.
	Screen *ScreenEstimate `json:"screen,omitempty"`
	// Scan is what the scan decided at the change's last look; a change a
	// race's screen did not choose has no look and is open.
	Scan         ScanDecision `json:"scan"`
	Games        int64        `json:"games"` // paired games in all: its looks' and its confirmation's
	ScoreDiff    float64      `json:"score_diff"`
	ScoreDiffCI  [2]float64   `json:"score_diff_ci"` // the verdict's: the score interval at its family's confidence
	MarginDiff   float64      `json:"margin_diff"`
	MarginDiffCI [2]float64   `json:"margin_diff_ci"` // Student's t, at the same confidence
	Verdict      Verdict      `json:"verdict"`
	// GamesToSettle is, for a verdict of not enough games, about how many
	// paired games in all would settle it (gamesToSettle).
	GamesToSettle int64 `json:"games_to_settle,omitempty"`
}

// UnmarshalJSON reads a change as strictly as every result, and one of
// tallywood-sensitivity/1, whose pairs_vs_base is its one look and whose
// p-values and verdict (derived: derive recomputes the verdict) /2 does
// not write.
func (c *SensitivityChange) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if old, ok := raw["pairs_vs_base"]; ok {
		if _, both := raw["looks"]; both {
			return errors.New("both looks and pairs_vs_base")
		}
		raw["looks"] = json.RawMessage("[" + string(old) + "]")
		delete(raw, "pairs_vs_base")
		for _, k := range []string{"score_diff_p", "score_diff_p_adj", "margin_diff_p", "margin_diff_p_adj", "verdict"} {
			delete(raw, k)
		}
	}
	rest, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	type plain SensitivityChange // without this method
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(c))
}

// last is the change's pairs at its last look: every pair of the scan.
func (c *SensitivityChange) last() *PairCounts {
	if len(c.Looks) == 0 {
		return &PairCounts{}
	}
	return &c.Looks[len(c.Looks)-1]
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
	// Base is the base rules on the scan's seeds: every one a change was
	// played on.
	Base Cell `json:"base"`
	// ConfirmBase is the base rules on a race's confirmation seeds: every
	// one a change was confirmed on; none when no change was.
	ConfirmBase *Cell `json:"confirm_base,omitempty"`
	// Screen is a race's screen of the cell's changes, when it has many
	// (sensitivityscreen.go).
	Screen  *SensitivityScreen  `json:"screen,omitempty"`
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
	// GamesPerChange is the games of every change of a fixed scan, and a
	// race's budget: this many per change on average (a cell may play its
	// changes' and its base's, as a fixed scan of them would).
	GamesPerChange int64             `json:"games_per_change"`
	Step           Step              `json:"step"`
	Fields         []string          `json:"fields,omitempty"` // the globs, of numbers and choices; absent: every numeric field
	Design         SensitivityDesign `json:"design"`
	// Tolerance is the designer's: a score difference within ±Tolerance
	// is negligible. A tallywood-sensitivity/1 result stated none and
	// reads with DefaultTolerance.
	Tolerance float64 `json:"tolerance"`
	// A race's first look (look l plays FirstLook·2^l seeds, after its
	// screen's), how many looks it may take, and its confirmation's master
	// seed.
	FirstLook   int64  `json:"first_look,omitempty"`
	MaxLooks    int    `json:"max_looks,omitempty"`
	ConfirmSeed uint64 `json:"confirm_seed,omitempty"`
	// FlagLevel is the level at which a race flagged a change for its
	// confirmation. A tallywood-sensitivity/2 race stated none: it flagged
	// at 0.001, and its family was the changes it raced, not every change.
	FlagLevel float64 `json:"flag_level,omitempty"`
	// The families (derived): every interval the scan reads, a change at
	// a look (Tests of them, each at Confidence: Bonferroni at Level), and
	// the confirmation's, a change each (ConfirmTests, at
	// ConfirmConfidence).
	Tests             int     `json:"tests"`
	Level             float64 `json:"level"`
	Confidence        float64 `json:"confidence"`
	ConfirmTests      int     `json:"confirm_tests,omitempty"`
	ConfirmConfidence float64 `json:"confirm_confidence,omitempty"`
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

// SensitivityBudget is how many games Sensitivity plays for cfg at most
// (what a progress bar counts, and what a scan costs before it runs):
// every cell's base and every change it reads on each of its seeds, which
// a race spends where it is needed.
func SensitivityBudget(cfg SensitivityConfig) (int64, error) {
	fields, choices, err := sensitivityVariables(&cfg)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, spec := range cfg.Cells {
		plan, _ := planSensitivity(cfg.Base, fields, choices, cfg.Step, spec.Mode)
		if cfg.Design == DesignRace {
			n += scanBudget(cfg.Games, len(plan))
			continue
		}
		n += int64(1+max(1, len(plan))) * cfg.Shard.Len(cfg.Games) // a cell with no change counts its base twice, as playPoints does
	}
	return n, nil
}

// errScanStopped stops a race: its pool was interrupted, or past
// MaxErrors.
var errScanStopped = errors.New("sim: the scan stopped")

// Sensitivity plays every cell of cfg at the base rules and at every
// change the cell can read, as cfg.Design says: a fixed scan plays each
// change on every seed of the shard, a race screens, races and confirms
// (raceCells; it plays the whole study, never a shard). A seed is counted
// whole, at the base and every change it plays (playPoints), so the
// result depends on neither the workers nor the shards.
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
	case cfg.Tolerance != 0 && !validTolerance(cfg.Tolerance):
		return nil, fmt.Errorf("sim: tolerance %g is not above 0 and at most %g", cfg.Tolerance, maxTolerance)
	case cfg.Design == DesignRace && !cfg.Shard.Whole():
		return nil, errors.New("sim: a race plays its looks in order, on every seed: it does not shard")
	}
	fields, choices, err := sensitivityVariables(&cfg)
	if err != nil {
		return nil, err
	}
	out := &SensitivityResult{
		Envelope:       newEnvelope(KindSensitivity, FormatSensitivity, cfg.Seed, cfg.Shard),
		RulesID:        rulesID(cfg.Base),
		GamesPerChange: cfg.Games, Step: cfg.Step, Fields: slices.Clone(cfg.Fields),
		Design: cfg.Design, Tolerance: cmp.Or(cfg.Tolerance, DefaultTolerance),
	}
	if cfg.Design == DesignRace {
		out.FirstLook, out.MaxLooks, out.ConfirmSeed, out.FlagLevel = raceFirstLook(cfg.Games), raceLooks, cfg.ConfirmSeed, flagLevel
	}
	plans := make([][]plannedChange, len(cfg.Cells))
	played := false
	for ci, spec := range cfg.Cells {
		plan, skip := planSensitivity(cfg.Base, fields, choices, cfg.Step, spec.Mode)
		plans[ci] = plan
		played = played || len(plan) > 0
		cell := SensitivityCell{labels: cellLabels(cfg.Base, spec), Skipped: skip}
		cell.Base.labels = cell.labels
		for _, c := range plan {
			cell.Changes = append(cell.Changes, SensitivityChange{Path: c.path, From: c.from, To: c.to,
				FromChoice: c.fromChoice, ToChoice: c.toChoice, RulesHash: c.rules.Hash})
		}
		out.Cells = append(out.Cells, cell)
	}
	if !played {
		return nil, fmt.Errorf("nothing to play: no cell reads any change of the fields selected (%s)", skipWords(out.Cells[0].Skipped))
	}
	// The largest stage: a fixed scan's is every seed of the shard; a
	// race's plays no more games than every cell's budget.
	items := cfg.Shard.Len(cfg.Games)
	if cfg.Design == DesignRace {
		items = 0
		for _, plan := range plans {
			items += scanBudget(cfg.Games, len(plan))
		}
	}
	pl := cfg.soloPool(ctx, items)
	defer pl.close()
	// The rules of each arm: a change's own, or a screen's group's, made
	// when the screen deals its groups (valid) and kept by the arm.
	groups := map[string]*engine.Rules{}
	armKey := func(ci int, arm []int) string { return fmt.Sprint(ci, arm) }
	rulesOf := func(ci int, arm []int) (*engine.Rules, error) {
		if len(arm) == 1 {
			return plans[ci][arm[0]].rules, nil
		}
		if r := groups[armKey(ci, arm)]; r != nil {
			return r, nil
		}
		as := make([]engine.Assignment, len(arm))
		for k, j := range arm {
			as[k] = engine.Assignment{Path: plans[ci][j].path, Value: plans[ci][j].value()}
		}
		r, err := cfg.Base.With(as...)
		if err == nil {
			groups[armKey(ci, arm)] = r
		}
		return r, err
	}
	valid := func(ci int, arm []int) bool {
		_, err := rulesOf(ci, arm)
		return err == nil
	}
	play := func(ci int, arms [][]int, master uint64, from, to int64) (Counts, []PairCounts, error) {
		c := &out.Cells[ci]
		rules := make([]*engine.Rules, len(arms))
		for k, arm := range arms {
			r, err := rulesOf(ci, arm)
			if err != nil {
				return Counts{}, nil, err
			}
			rules[k] = r
		}
		name := func(k int) string {
			parts := make([]string, len(arms[k]))
			for i, j := range arms[k] {
				parts[i] = plans[ci][j].path + "=" + plans[ci][j].value()
			}
			return "change " + strings.Join(parts, ",")
		}
		// The pool plays its next stage on this master seed: the scan's,
		// or the confirmation's.
		pl.seed = master
		start := time.Now()
		total, err := playPoints(pl, cfg.Base, rules, name, cfg.Cells[ci], from, to-from, nil)
		c.Base.ElapsedSeconds += time.Since(start).Seconds()
		errs, failures := pl.cellFailures()
		c.Failed.add(&Failed{Errors: errs, Failures: failures})
		if err != nil {
			return Counts{}, nil, err
		}
		if pl.interrupted() {
			err = errScanStopped
		}
		return total.base, total.pairs, err
	}
	switch cfg.Design {
	case DesignRace:
		err = raceCells(out, cfg.Games, valid, play)
	default:
		err = fixedCells(out, cfg.Shard.Len(cfg.Games), play)
	}
	if err != nil && !errors.Is(err, errScanStopped) {
		return nil, err
	}
	for ci := range out.Cells {
		c := &out.Cells[ci]
		c.Base = newCell(c.labels, &c.Base.Counts, cfg.Base.Districts[:], c.Base.ElapsedSeconds)
		if c.ConfirmBase != nil {
			b := newCell(c.labels, &c.ConfirmBase.Counts, cfg.Base.Districts[:], 0)
			c.ConfirmBase = &b
		}
	}
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// fixedCells plays a fixed scan: in each cell, the base and every change
// on the shard's n games, one look.
func fixedCells(out *SensitivityResult, n int64, play scanPlay) error {
	for ci := range out.Cells {
		c := &out.Cells[ci]
		all := make([]int, len(c.Changes))
		for j := range all {
			all[j] = j
		}
		base, pairs, err := play(ci, singles(all), out.Seed, 0, n)
		if pairs == nil {
			return err
		}
		c.Base.Counts.Merge(&base)
		for j := range c.Changes {
			c.Changes[j].Looks = []PairCounts{pairs[j]}
		}
		if err != nil {
			return err
		}
	}
	return nil
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

// derive decides every change (sensitivityrace.go), ranks each cell's
// fields and sets the run's timing.
func (r *SensitivityResult) derive() {
	if r.Tolerance == 0 {
		r.Tolerance = DefaultTolerance // a tallywood-sensitivity/1 result, which stated none
	}
	f := r.family()
	r.Tests, r.Level, r.Confidence = f.changes*f.looks, SensitivityLevel, 1-f.alpha
	confirmed := 0
	for i := range r.Cells {
		for _, c := range r.Cells[i].Changes {
			if c.Confirm != nil {
				confirmed++
			}
		}
	}
	if r.Tests == 0 {
		r.Confidence = 0
	}
	ca := confirmLevel(confirmed)
	r.ConfirmTests, r.ConfirmConfidence = confirmed, 0
	if confirmed > 0 {
		r.ConfirmConfidence = 1 - ca
	}
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Base.derive()
		games += c.Base.Games
		secs += c.Base.ElapsedSeconds
		if c.ConfirmBase != nil {
			c.ConfirmBase.derive()
			games += c.ConfirmBase.Games
		}
		if c.Screen != nil {
			for _, g := range c.Screen.Groups {
				games += g.Pairs.Games
			}
		}
		screen := c.screenEstimates()
		decisions, _ := f.replay(c) // check has refused a race played otherwise
		for j := range c.Changes {
			ch := &c.Changes[j]
			ch.Scan, ch.Screen = decisions[j], nil
			if screen != nil {
				ch.Screen = screen[j]
			}
			ch.derive(r.Design, f, ca)
			games += ch.Games
		}
		c.Ranking = rank(c.Changes)
	}
	r.setTiming(games, secs)
}

// derive sets a change's figures and verdict: from its confirmation when
// it has one (intervals at the confirmation's level ca), else from its
// last look (at the scan's), else, a change a race's screen did not
// choose, none but the screen's estimate.
func (ch *SensitivityChange) derive(design SensitivityDesign, f scanFamily, ca float64) {
	p, alpha := ch.last(), f.alpha
	if ch.Confirm != nil {
		p, alpha = ch.Confirm, ca
	}
	ch.Games = ch.last().Games
	if ch.Confirm != nil {
		ch.Games += ch.Confirm.Games
	}
	ch.ScoreDiff, ch.ScoreDiffCI, ch.MarginDiff, ch.MarginDiffCI = 0, [2]float64{}, 0, [2]float64{}
	ch.Verdict, ch.GamesToSettle = NotEnoughGames, 0
	if len(ch.Looks) == 0 {
		// A screen that measured no spread gives no figure.
		if s := ch.Screen; s != nil && s.SD > 0 && s.SE > 0 {
			ch.GamesToSettle = gamesToSettle(s.Diff, s.SE, s.SD, alpha, f.tol)
		}
		return
	}
	ci := scoreInterval(p, alpha)
	ch.ScoreDiff, _, _ = p.ScoreDiff()
	ch.ScoreDiffCI = [2]float64{ci.Lo, ci.Hi}
	m := p.margins()
	mci := m.MeanInterval(alpha)
	ch.MarginDiff, ch.MarginDiffCI = m.Mean(), [2]float64{mci.Lo, mci.Hi}
	switch {
	case ch.Confirm != nil || design == DesignFixed:
		ch.Verdict = verdictOf(ci, f.tol)
	case ch.Scan == ScanNegligible:
		ch.Verdict = InZone
	}
	// Open, or flagged and never confirmed (an interrupted race): not
	// enough games.
	if ch.Verdict == NotEnoughGames {
		ch.GamesToSettle = pairsToSettle(p, alpha, f.tol)
	}
}

// rank orders a cell's fields by the larger |score difference| of their
// changes (a screen's estimate for a change the race did not play alone),
// then the larger |margin difference|, then the file's order.
func rank(changes []SensitivityChange) []FieldEffect {
	var out []FieldEffect
	at := map[string]int{}
	for _, c := range changes {
		e := FieldEffect{Path: c.Path, To: c.To, ToChoice: c.ToChoice, ScoreDiff: c.ScoreDiff, MarginDiff: c.MarginDiff, Verdict: c.Verdict}
		if len(c.Looks) == 0 && c.Screen != nil {
			e.ScoreDiff = c.Screen.Diff
		}
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

func (r *SensitivityResult) formats() []string {
	return []string{FormatSensitivity, "tallywood-sensitivity/2", "tallywood-sensitivity/1"}
}

func (r *SensitivityResult) sameRun(first Study) []field {
	f := first.(*SensitivityResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_change", r.GamesPerChange, f.GamesPerChange),
		sameField("step", r.Step, f.Step),
		sameField("design", r.Design, f.Design),
		sameField("tolerance", r.Tolerance, f.Tolerance),
		{"fields", slices.Equal(r.Fields, f.Fields), strings.Join(r.Fields, " "), strings.Join(f.Fields, " ")},
		{"cells", sameSensitivityCells(r.Cells, f.Cells), sensitivityCellNames(r.Cells), sensitivityCellNames(f.Cells)},
	}
}

// check verifies that a decoded scan adds up: each cell's base as a sim
// cell, and every change paired with it game for game: on every seed of a
// fixed scan; in a race, at each look it reached, exactly as far as the
// race's decisions say, and at its confirmation only if flagged.
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
	if r.Tolerance != 0 && !validTolerance(r.Tolerance) {
		return fmt.Errorf("tolerance %g is not above 0 and at most %g", r.Tolerance, maxTolerance)
	}
	switch {
	case r.Design == DesignFixed && (r.FirstLook != 0 || r.MaxLooks != 0 || r.ConfirmSeed != 0 || r.FlagLevel != 0):
		return errors.New("a fixed scan with a race's screen, looks, confirmation seed or flag level")
	case r.Format != FormatSensitivity && r.FlagLevel != 0:
		return fmt.Errorf("flag level %g in a %s result, which states none", r.FlagLevel, r.Format)
	case r.Design == DesignRace && r.Format == FormatSensitivity && !(r.FlagLevel > 0 && r.FlagLevel < 1):
		return fmt.Errorf("a race's flag level %g: want one above 0 and below 1", r.FlagLevel)
	case r.Design == DesignRace && r.Shard != "":
		return fmt.Errorf("a race of shard %s: a race does not shard", r.Shard)
	case r.Design == DesignRace && (r.MaxLooks < 1 || r.MaxLooks > raceLooks || r.FirstLook < 1 || lookGames(r.FirstLook, r.MaxLooks-1) > MaxGames):
		return fmt.Errorf("a race of %d looks from a screen of %d games: want 1..%d looks of at most %d games", r.MaxLooks, r.FirstLook, raceLooks, int64(MaxGames))
	}
	n := share(r.GamesPerChange)
	f := r.family()
	for i := range r.Cells {
		if err := r.Cells[i].check(r, n, f); err != nil {
			return fmt.Errorf("cell %d: %v", i+1, err)
		}
	}
	return nil
}

func (c *SensitivityCell) check(r *SensitivityResult, share int64, f scanFamily) error {
	if c.labels != c.Base.labels {
		return errors.New("the cell's labels differ from its base's")
	}
	bases := []*Cell{&c.Base}
	if c.ConfirmBase != nil {
		bases = append(bases, c.ConfirmBase)
	}
	for _, b := range bases {
		if b.labels != c.labels {
			return errors.New("the cell's labels differ from its base's")
		}
		if err := b.checkShape(); err != nil {
			return fmt.Errorf("base: %v", err)
		}
		if err := b.Counts.check(); err != nil {
			return fmt.Errorf("base: %v", err)
		}
	}
	for j := range c.Changes {
		ch := &c.Changes[j]
		if ch.Path == "" || len(ch.Path) > maxText || len(ch.RulesHash) > maxText || len(ch.FromChoice) > maxText || len(ch.ToChoice) > maxText {
			return fmt.Errorf("change %d: a path of %d bytes or a rules hash too long", j+1, len(ch.Path))
		}
		if err := checkHash("rules_hash", ch.RulesHash); err != nil {
			return fmt.Errorf("change %d: %v", j+1, err)
		}
		if !fieldValue(ch.From) || !fieldValue(ch.To) {
			return fmt.Errorf("change %d (%s): from %d to %d: not a rules file's numbers (within ±%d)", j+1, kit.Clip(ch.Path), ch.From, ch.To, maxFieldValue)
		}
		if err := ch.check(r, &c.Base, c.ConfirmBase); err != nil {
			return fmt.Errorf("change %d (%s): %v", j+1, ch.Path, err)
		}
		if len(ch.Looks) == 0 && c.Screen == nil && !r.Interrupted {
			return fmt.Errorf("change %d (%s): no look, and no screen that left it out", j+1, ch.Path)
		}
	}
	if err := c.Screen.check(r, len(c.Changes)); err != nil {
		return fmt.Errorf("screen: %v", err)
	}
	for _, s := range c.Skipped {
		if len(s.Path) > maxText || len(s.Why) > maxText {
			return errors.New("skipped: a path or reason too long")
		}
	}
	if r.Design == DesignFixed {
		if c.ConfirmBase != nil || c.Screen != nil {
			return errors.New("a confirmation or a screen in a fixed scan")
		}
		return checkErrors("games", c.Base.Counts.Games, c.Errors, share, !r.Interrupted, len(c.Failures))
	}
	// A race plays its base on every seed of its screen, of a look (its
	// hunt's and its settling's) and of its confirmation.
	most := c.Screen.seeds() + 2*lookGames(r.FirstLook, r.MaxLooks-1) + 32*r.GamesPerChange
	played := c.Base.Counts.Games
	if c.ConfirmBase != nil {
		played += c.ConfirmBase.Counts.Games
	}
	if err := checkErrors("games", played, c.Errors, most, false, len(c.Failures)); err != nil {
		return err
	}
	decisions, err := f.replay(c)
	if err != nil {
		return err
	}
	confirmed := false
	for j, ch := range c.Changes {
		if ch.Confirm != nil && decisions[j] != ScanEffect {
			return fmt.Errorf("change %d (%s): confirmed, but the race found it %s", j+1, ch.Path, decisions[j])
		}
		confirmed = confirmed || ch.Confirm != nil
	}
	if confirmed != (c.ConfirmBase != nil) {
		return errors.New("a confirmation's base without a change confirmed, or the other way")
	}
	return nil
}

// check verifies a race's screen of a cell of changes changes: groups of
// distinct changes of the cell, each in a partition, with no more pairs
// than the partition's seeds. No screen is none to check.
func (s *SensitivityScreen) check(r *SensitivityResult, changes int) error {
	if s == nil {
		return nil
	}
	if r.Design != DesignRace || s.Partitions < 1 || s.Partitions > screenRounds*screenPartitions || s.SeedsPerPartition < 1 || s.SeedsPerPartition > MaxGames/screenPartitions {
		return fmt.Errorf("%d partitions of %d seeds", s.Partitions, s.SeedsPerPartition)
	}
	if len(s.Groups) > screenRounds*screenPartitions*changes {
		return fmt.Errorf("%d groups of %d changes", len(s.Groups), changes)
	}
	for g, grp := range s.Groups {
		if grp.Partition < 0 || grp.Partition >= s.Partitions || len(grp.Changes) == 0 || len(grp.Changes) > screenGroupSize {
			return fmt.Errorf("group %d: partition %d, %d changes", g+1, grp.Partition, len(grp.Changes))
		}
		for k, j := range grp.Changes {
			if j < 0 || j >= changes || k > 0 && j <= grp.Changes[k-1] {
				return fmt.Errorf("group %d: changes %v are not distinct changes of the cell in order", g+1, grp.Changes)
			}
		}
		if err := grp.Pairs.check(nil, nil); err != nil { // a group's seeds are some of the base's
			return fmt.Errorf("group %d: %v", g+1, err)
		}
		if grp.Pairs.Games > s.SeedsPerPartition {
			return fmt.Errorf("group %d: %d paired games, more than its partition's %d seeds", g+1, grp.Pairs.Games, s.SeedsPerPartition)
		}
	}
	return nil
}

// check verifies a change's looks and confirmation against its cell's
// bases: pairs that add up, cumulative looks, no more games than a look
// of the race plays (r's screen doubled) or than the base.
func (ch *SensitivityChange) check(r *SensitivityResult, base, confirmBase *Cell) error {
	looks := 1
	if r.Design == DesignRace {
		looks = r.MaxLooks
	}
	if len(ch.Looks) < 1 && r.Design == DesignFixed || len(ch.Looks) > looks {
		return fmt.Errorf("%d looks, want 1..%d", len(ch.Looks), looks)
	}
	for l := range ch.Looks {
		p := &ch.Looks[l]
		var a *Counts // a look of a race pairs some of the base's seeds, a fixed scan's all
		if r.Design == DesignFixed {
			a = &base.Counts
		}
		if err := p.check(a, nil); err != nil {
			return fmt.Errorf("look %d: %v", l+1, err)
		}
		if r.Design == DesignFixed && p.Games != base.Counts.Games {
			return fmt.Errorf("%d paired games, the base %d", p.Games, base.Counts.Games)
		}
		if r.Design == DesignRace && (p.Games > lookGames(r.FirstLook, l) || p.Games > base.Counts.Games) {
			return fmt.Errorf("look %d: %d paired games, more than the look's %d or the base's %d", l+1, p.Games, lookGames(r.FirstLook, l), base.Counts.Games)
		}
		if l > 0 && !ch.Looks[l-1].within(p) {
			return fmt.Errorf("look %d: fewer pairs than look %d", l+1, l)
		}
	}
	if ch.Confirm != nil {
		if err := ch.Confirm.check(nil, nil); err != nil { // some of the confirmation base's seeds
			return fmt.Errorf("confirmation: %v", err)
		}
		if confirmBase == nil || ch.Confirm.Games > confirmBase.Counts.Games {
			return errors.New("confirmation: more paired games than its base")
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
		if c.ConfirmBase != nil {
			b := *c.ConfirmBase
			b.Failures = slices.Clone(b.Failures)
			c.ConfirmBase = &b
		}
		if c.Screen != nil {
			s := *c.Screen
			s.Groups = slices.Clone(s.Groups)
			c.Screen = &s
		}
		c.Changes = slices.Clone(c.Changes)
		for j := range c.Changes {
			ch := &c.Changes[j]
			ch.Looks = slices.Clone(ch.Looks)
			if ch.Confirm != nil {
				p := *ch.Confirm
				ch.Confirm = &p
			}
		}
	}
	return &out
}

// add adds a shard of a fixed scan (a race does not shard: check refuses
// its shards, so merge never adds one).
func (r *SensitivityResult) add(o Study) {
	for i := range r.Cells {
		c, oc := &r.Cells[i], &o.(*SensitivityResult).Cells[i]
		c.Base.add(&oc.Base)
		c.Failed.add(&oc.Failed)
		for j := range c.Changes {
			c.Changes[j].Looks[0].Merge(&oc.Changes[j].Looks[0])
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
// the base and every change of its cell); a race's are every game it
// played, of its budget.
func (r *SensitivityResult) Played() (n, total int64, unit string) {
	if r.Design == DesignRace {
		for _, c := range r.Cells {
			n += c.Base.Games
			if c.ConfirmBase != nil {
				n += c.ConfirmBase.Games
			}
			for _, ch := range c.Changes {
				n += ch.Games
			}
			if c.Screen != nil {
				for _, g := range c.Screen.Groups {
					n += g.Pairs.Games
				}
			}
			total += scanBudget(r.GamesPerChange, len(c.Changes))
		}
		return n, total, "games"
	}
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
