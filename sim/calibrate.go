package sim

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"

	"tallywood/engine"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
	"tallywood/sim/stats"
)

// The calibrate kind: the skill on the dial that explains a tester's
// recorded decisions (their likelihood on the dial) and their results
// (the likelihood of the wins and margins over the dial's difficulty
// curve), per tester and pooled, with intervals, how often each level
// would have chosen as they did, and the win rates players of that skill
// are predicted to reach on each difficulty and under other rules.

// KindCalibrate is the kind of a calibration's result.
const KindCalibrate Kind = "calibrate"

// FormatCalibrate names the JSON document of `tallywood calibrate`.
const FormatCalibrate = "tallywood-calibrate/1"

func init() { registerKind(KindCalibrate, func() Study { return &CalibrateResult{} }) }

// Bounds of a calibration's inputs.
const (
	MaxTesters = 1000
	// MaxCurveRules bounds the rules sets a calibration plays its curve
	// under: the base rules, the rules it predicts for and those its
	// outcomes name.
	MaxCurveRules = playtest.MaxRulesFiles + 2
)

// CalibrateConfig is a calibration: the records and outcomes it reads,
// the levels it matches decisions against, and the curves it plays.
type CalibrateConfig struct {
	// Rules are the rules the records were played under and the
	// outcomes that name no rules file were.
	Rules *engine.Rules
	// Records are the recorded games (play's save files, the JSON-lines
	// record of decisions).
	Records []playtest.Game
	// Outcomes are the games whose results alone were written down, and
	// OutcomeRules the rules of each rules file they name, by its name.
	Outcomes     []playtest.Outcome
	OutcomeRules map[string]*engine.Rules
	// Predict, when not nil, are other rules to predict the win rates
	// under, named PredictName.
	Predict     *engine.Rules
	PredictName string
	// Levels are the policies decisions are matched against (the skill
	// levels).
	Levels []policy.Spec
	// The curves: the dial at Skills on both difficulties, under every
	// rules set named, Games games a point (SearchGames above skill 1).
	Skills      []float64
	Games       int64
	SearchGames int64
	RunConfig   // an item is a seed of a curve, on both difficulties
}

// CalibrateResult is the output of a calibration (docs/output.md
// describes every field). Everything but the timing is a function of the
// inputs and the flags.
type CalibrateResult struct {
	Envelope
	RulesID
	// Levels are the levels decisions are matched against, in the
	// order of each tester's matches.
	Levels []string `json:"levels"`
	// Curves are the dial's curves, both difficulties, under each rules
	// set the calibration reads or predicts for: the base rules first.
	Curves  []RulesCurve `json:"curves"`
	Testers []Tester     `json:"testers"`
	// Pooled is the data of like testers together, fitted as one skill:
	// the testers whose recorded decisions fit the dial, when two or
	// more, or with no recorded decision at all, every tester's results
	// (with two testers or more). PooledOf names them.
	Pooled   *Tester  `json:"pooled,omitempty"`
	PooledOf []string `json:"pooled_of,omitempty"`
	// PredictSame names the rules predicted for (--predict-rules) when
	// they are the base rules: their predictions are the base rules'.
	PredictSame string `json:"predict_same,omitempty"`
}

// RulesCurve is the dial's curve under one rules set, Normal and Hard.
type RulesCurve struct {
	// Name is the rules as the inputs name them: "" for the base rules.
	Name string `json:"name"`
	RulesID
	Points []CurvePoint `json:"points"`
}

// curveModes are the difficulties of a calibration's curves.
var curveModes = []string{engine.Normal.String(), engine.Hard.String()}

// Tester is one tester's data and what it gives.
type Tester struct {
	Name      string       `json:"name"`
	Decisions DecisionData `json:"decisions"`
	// Results are the tester's games by curve and difficulty: the
	// outcomes' rows and the recorded games played to their end.
	Results []ResultData `json:"results,omitempty"`
	// Derived: the skill the decisions give, the skill the results
	// give, the levels' matches and the predicted win rates.
	DecisionFit *SkillFit `json:"decision_fit,omitempty"`
	ResultFit   *SkillFit `json:"result_fit,omitempty"`
	// OffDial: the test of fit of the decisions (Decisions.Test) finds
	// them unlike the dial's at the fitted skill: the tester plays in
	// another style, and the decisions' predictions are not given.
	OffDial bool `json:"off_dial"`
	// FitsDisagree: the two fits' 95% intervals do not meet.
	FitsDisagree bool         `json:"fits_disagree"`
	Matches      []MatchRate  `json:"match_rates,omitempty"`
	Predictions  []Prediction `json:"predictions,omitempty"`
}

// DecisionData sums what a tester's recorded decisions tell of the dial.
type DecisionData struct {
	Games int64 `json:"games"` // recorded games
	// Decisions counts the decisions the fit reads: those with a choice
	// of two options or more, without a hint. Forced had one option,
	// Hinted came after a hint.
	Decisions int64 `json:"decisions"`
	Forced    int64 `json:"forced"`
	Hinted    int64 `json:"hinted"`
	// LogLik is the decisions' log-likelihood at each skill 0, FitStep,
	// … below 1, where the dial draws from a softmax of the learned
	// scores.
	LogLik []float64 `json:"log_likelihood"`
	// From 1 up, the dial plays the learned score's best or the guided
	// search's pick: the decisions that took the first only (Best), the
	// second only (Search), both (Both) or neither (Neither) give the
	// likelihood there.
	Best    int64 `json:"best"`
	Search  int64 `json:"search"`
	Both    int64 `json:"both"`
	Neither int64 `json:"neither"`
	// Matches counts, per level, the decisions the level would have
	// taken as the tester did.
	Matches []int64 `json:"matches"`
	// Test is the test of fit of the decisions under the dial at their
	// fitted skill (decisionfit.go), nil with none.
	Test *DecisionTest `json:"test,omitempty"`
}

// ResultData are a tester's games on one difficulty under one curve's
// rules: the counts of the games with no margin written, and the sums of
// the margins of the others.
type ResultData struct {
	Curve  int    `json:"curve"`
	Mode   string `json:"mode"`
	Wins   int64  `json:"wins"`
	Draws  int64  `json:"draws"`
	Losses int64  `json:"losses"`
	// Games with a margin: how many, and their wins, sum and sum of
	// squares of margins.
	MarginGames int64 `json:"margin_games"`
	MarginWins  int64 `json:"margin_wins"`
	MarginSum   int64 `json:"margin_sum"`
	MarginSumSq int64 `json:"margin_sum_sq"`
}

// SkillFit is a skill fitted by maximum likelihood.
type SkillFit struct {
	Skill float64    `json:"skill"`
	CI95  [2]float64 `json:"ci95"`
	// LowOpen and HighOpen: the interval reaches the dial's end, so the
	// data bound the skill on that side only as far as the dial goes.
	LowOpen  bool `json:"low_open"`
	HighOpen bool `json:"high_open"`
	// CIPredict is the skill's 97.5% interval, which the predictions
	// carry (with the curve's 97.5% band, together at least 95%).
	CIPredict [2]float64 `json:"ci_predict"`
}

// MatchRate is how often a level chose as the tester did.
type MatchRate struct {
	Level string     `json:"level"`
	Rate  float64    `json:"rate"`
	CI95  [2]float64 `json:"ci95"`
}

// Prediction is the win rate and mean margin players of a fitted skill
// are predicted to reach on one difficulty under one curve's rules. The
// intervals carry the fit's uncertainty (the skill's 97.5% interval) and
// the simulation's (the curve's 97.5% band over every point): together at
// least 95%.
type Prediction struct {
	From       FitSource  `json:"from"`
	Curve      int        `json:"curve"`
	Mode       string     `json:"mode"`
	WinRate    float64    `json:"win_rate"`
	WinCI      [2]float64 `json:"win_ci"`
	MeanMargin float64    `json:"mean_margin"`
	MarginCI   [2]float64 `json:"margin_ci"`
}

// FitSource says which fit a prediction is of.
type FitSource int8

const (
	FromDecisions FitSource = iota
	FromResults
)

var fitSourceNames = []string{"decisions", "results"}

// MarshalText names a fit source in the JSON.
func (f FitSource) MarshalText() ([]byte, error) {
	if int(f) < 0 || int(f) >= len(fitSourceNames) {
		return nil, fmt.Errorf("fit source %d", f)
	}
	return []byte(fitSourceNames[f]), nil
}

// UnmarshalText reads a fit source's name.
func (f *FitSource) UnmarshalText(b []byte) error {
	i := slices.Index(fitSourceNames, string(b))
	if i < 0 {
		return fmt.Errorf("fit source %q is not decisions or results", b)
	}
	*f = FitSource(i)
	return nil
}

// Calibrate reads the records and outcomes of cfg and plays its curves.
// Every shard reads every record (they are the input, not the study's
// games) and plays its share of the curves' games.
func Calibrate(ctx context.Context, cfg CalibrateConfig) (*CalibrateResult, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	out := &CalibrateResult{
		Envelope: newEnvelope(KindCalibrate, FormatCalibrate, cfg.Seed, cfg.Shard),
		RulesID:  rulesID(cfg.Rules),
	}
	for _, lv := range cfg.Levels {
		out.Levels = append(out.Levels, lv.Label)
	}
	rules, curveOf := cfg.curveRules()
	if p := cfg.Predict; p != nil && p.Hash == cfg.Rules.Hash && slices.Equal(p.Overrides, cfg.Rules.Overrides) {
		out.PredictSame = cfg.PredictName
	}
	for i, r := range rules {
		out.Curves = append(out.Curves, RulesCurve{Name: cfg.curveName(i, r), RulesID: rulesID(r)})
	}
	testers, err := readTesters(ctx, &cfg, curveOf, true)
	if err != nil {
		return nil, err
	}
	out.Testers = testers
	curve := CurveConfig{RunConfig: RunConfig{Shard: cfg.Shard},
		Skills: cfg.Skills, Modes: []engine.Mode{engine.Normal, engine.Hard}, Politician: RandomPoliticianIndex,
		Games: cfg.Games, SearchGames: cfg.SearchGames}
	pl := cfg.soloPool(ctx, curve.items())
	defer pl.close()
	for i, r := range rules {
		cc := curve
		cc.Rules = r
		for _, s := range cfg.Skills {
			p, err := playCurvePoint(pl, &cc, s)
			if err != nil {
				return nil, err
			}
			out.Curves[i].Points = append(out.Curves[i].Points, p)
		}
	}
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// readTesters reads the records and outcomes of cfg into testers, in the
// order of their names, each with the test of fit of their decisions;
// curveOf gives each outcome's rules name its curve. The search's picks
// are read when search is set: without, a decision that is not the
// learned score's best counts as neither pick, which rules out the dial
// above 1 (exactly when some decision was neither pick anyway).
func readTesters(ctx context.Context, cfg *CalibrateConfig, curveOf map[string]int, search bool) ([]Tester, error) {
	testers := map[string]*Tester{}
	sums := map[string]*decisionSums{}
	tester := func(name string) *Tester {
		t, ok := testers[name]
		if !ok {
			t = &Tester{Name: name, Decisions: DecisionData{LogLik: make([]float64, fitBelow), Matches: make([]int64, len(cfg.Levels))}}
			testers[name] = t
			sums[name] = new(decisionSums)
		}
		return t
	}
	spelled := map[string]string{} // a name's key: its first spelling
	for i := range cfg.Records {
		if err := testerName(spelled, cfg.Records[i].Tester, cfg.Records[i].Place()); err != nil {
			return nil, err
		}
	}
	for _, o := range cfg.Outcomes {
		if err := testerName(spelled, o.Tester, fmt.Sprintf("outcomes line %d", o.Line)); err != nil {
			return nil, err
		}
	}
	err := readRecords(ctx, cfg, search, func(j int, rd *gameRead) {
		rec := &cfg.Records[j]
		t := tester(rec.Tester)
		t.Decisions.addGame(rd)
		sums[rec.Tester].addAll(&rd.sums)
		if rd.finished {
			res := t.results(0, rec.Mode.String())
			m := int64(rd.result.Margin())
			res.MarginGames++
			res.MarginSum += m
			res.MarginSumSq += m * m
			if rd.result.Outcome == engine.Win {
				res.MarginWins++
			}
		}
	})
	if err != nil {
		return nil, err
	}
	for _, o := range cfg.Outcomes {
		tester(o.Tester).addOutcome(&o, curveOf[o.Rules])
	}
	if len(testers) > MaxTesters {
		return nil, fmt.Errorf("sim: %d testers, more than %d", len(testers), MaxTesters)
	}
	var out []Tester
	for _, name := range slices.Sorted(maps.Keys(testers)) {
		t := testers[name]
		if t.Decisions.Decisions > 0 {
			if f := skillFit(t.Decisions.logLik()); f != nil {
				t.Decisions.Test = sums[name].test(f.Skill)
			}
		}
		out = append(out, *t)
	}
	return out, nil
}

func (c *CalibrateConfig) check() error {
	switch {
	case c.Rules == nil:
		return errors.New("sim: no rules")
	case len(c.Records) == 0 && len(c.Outcomes) == 0:
		return errors.New("sim: no records and no outcomes to calibrate from")
	case c.Predict != nil && c.PredictName == "":
		return errors.New("sim: the rules predicted for have no name")
	}
	cc := CurveConfig{Rules: c.Rules, Skills: c.Skills, Modes: []engine.Mode{engine.Normal, engine.Hard}, Games: c.Games, SearchGames: c.SearchGames}
	if err := cc.check(); err != nil {
		return err
	}
	if c.Skills[0] != 0 || c.Skills[len(c.Skills)-1] != policy.MaxSkill {
		return fmt.Errorf("sim: a calibration's curve spans the dial: its skills go from 0 to %d", policy.MaxSkill)
	}
	for i := range c.Records {
		if r := &c.Records[i]; r.RulesHash != c.Rules.Hash {
			return fmt.Errorf("%s:%d: played under rules %s, and these rules are %s: calibrate with --rules naming the rules file it was played with",
				r.File, r.Line, engine.ShortHash(r.RulesHash), engine.ShortHash(c.Rules.Hash))
		}
	}
	if err := onceEach(c.Records); err != nil {
		return err
	}
	for _, o := range c.Outcomes {
		if o.Rules != "" && c.OutcomeRules[o.Rules] == nil {
			return fmt.Errorf("sim: the rules file %q an outcome names was not loaded", o.Rules)
		}
	}
	return nil
}

// onceEach refuses a game recorded twice: a file named twice, through a
// link, or copied, or a game in a record and a save. Counted twice, its
// decisions would narrow the interval as if there were twice the games.
// A game is its tester, rules, deal and every decision: two testers
// dealt one game are two games, and one tester's two games of one deal
// differ in some decision.
func onceEach(records []playtest.Game) error {
	first := make(map[[sha256.Size]byte]int, len(records))
	for i := range records {
		g := &records[i]
		h := sha256.New()
		fmt.Fprintf(h, "%q %s %d %d %s %q", g.Tester, g.RulesHash, g.Seed, g.Game, g.Mode, g.Politician)
		for _, d := range g.Decisions {
			fmt.Fprintf(h, " %s %t", engine.OptionID(d.Option), d.Hinted)
		}
		key := [sha256.Size]byte(h.Sum(nil))
		if j, dup := first[key]; dup {
			return fmt.Errorf("%s: the same game as %s (tester %q, seed %d, game %d, every decision alike): "+
				"a game is read once (is a file named twice, linked or copied?)", g.Place(), records[j].Place(), g.Tester, g.Seed, g.Game)
		}
		first[key] = i
	}
	return nil
}

// curveRules are the rules sets of the curves, the base rules first, then
// the rules predicted for, then the outcomes' rules files in the order
// they first appear, each once by hash; curveOf gives each outcome's
// rules name its curve.
func (c *CalibrateConfig) curveRules() (rules []*engine.Rules, curveOf map[string]int) {
	curveOf = map[string]int{}
	index := func(r *engine.Rules) int {
		for i, x := range rules {
			if x.Hash == r.Hash && slices.Equal(x.Overrides, r.Overrides) {
				return i
			}
		}
		rules = append(rules, r)
		return len(rules) - 1
	}
	curveOf[""] = index(c.Rules)
	if c.Predict != nil {
		index(c.Predict)
	}
	for _, o := range c.Outcomes {
		if _, ok := curveOf[o.Rules]; !ok {
			curveOf[o.Rules] = index(c.OutcomeRules[o.Rules])
		}
	}
	return rules, curveOf
}

// curveName names curve i of rules r: "" for the base rules, else the
// name the inputs give it.
func (c *CalibrateConfig) curveName(i int, r *engine.Rules) string {
	if i == 0 {
		return ""
	}
	if c.Predict != nil && r.Hash == c.Predict.Hash {
		return c.PredictName
	}
	for _, o := range c.Outcomes {
		if x := c.OutcomeRules[o.Rules]; x != nil && x.Hash == r.Hash {
			return o.Rules
		}
	}
	return r.Version
}

// testerName applies the rule of tester names (docs/calibration.md): a
// tester is named one way everywhere. Names that differ only in case or
// in spaces are refused, as are names that mix Latin letters with Greek
// or Cyrillic ones, which print alike ("аna" with a Cyrillic а): each
// would be another tester that prints as the first. "pooled" is the
// pooled row's. spelled keeps each name's key and first spelling.
func testerName(spelled map[string]string, name, where string) error {
	key := strings.ToLower(strings.Join(strings.Fields(name), " "))
	if key == "pooled" {
		return fmt.Errorf("sim: %s: a tester named %q: the name is the pooled row's, rename the tester", where, name)
	}
	var latin, other bool
	for _, r := range name {
		latin = latin || unicode.Is(unicode.Latin, r)
		other = other || unicode.In(r, unicode.Greek, unicode.Cyrillic)
	}
	if latin && other {
		return fmt.Errorf("sim: %s: tester %q mixes Latin letters with Greek or Cyrillic ones, which print alike: spell it in one script", where, name)
	}
	if first, ok := spelled[key]; ok && first != name {
		return fmt.Errorf("sim: %s: tester %q and %q differ only in case or spaces: spell each tester one way", where, name, first)
	}
	spelled[key] = name
	return nil
}

// recordBatch is how many records are read at once: each batch's reads
// are added in the records' order (so that the sums are the same for any
// workers), and a batch's reads, with the test of fit's sums, are held
// in memory until then.
const recordBatch = 256

// readRecords reads every record, worker by worker, and hands what each
// game tells to add, in the records' order.
func readRecords(ctx context.Context, cfg *CalibrateConfig, search bool, add func(j int, rd *gameRead)) error {
	n := int64(len(cfg.Records))
	if n == 0 {
		return nil
	}
	// The records are the input, every one read by every shard: the
	// whole of them, on no seed of the study's.
	opp := cfg.opposition()
	pl := newPool(ctx, poolConfig{workers: cfg.workers(n), shard: Shard{K: 1, N: 1}, progress: cfg.Progress},
		func(*atomic.Bool) *recordReader { return newRecordReader(cfg.Rules, opp, cfg.Levels, search) })
	defer pl.close()
	reads := make([]gameRead, min(n, recordBatch))
	for lo := int64(0); lo < n; lo += recordBatch {
		size := min(n-lo, recordBatch)
		err := pl.run(work{
			n: size, size: 1, games: 1,
			// Each item is one worker's alone: it reads into its place.
			play: func(w int, j int64, _ uint64) error { return pl.players[w].read(&cfg.Records[lo+j], &reads[j]) },
			keep: func(int, int64) {},
		})
		if err != nil {
			return err
		}
		if pl.interrupted() {
			return errors.New("interrupted while reading the records: nothing to write")
		}
		for j := range size {
			add(int(lo+j), &reads[j])
		}
	}
	return nil
}

// addGame adds what one recorded game tells.
func (d *DecisionData) addGame(rd *gameRead) {
	d.Games++
	d.Decisions += rd.decisions
	d.Forced += rd.forced
	d.Hinted += rd.hinted
	for k := range d.LogLik {
		d.LogLik[k] += rd.logLik[k]
	}
	d.Best += rd.best
	d.Search += rd.search
	d.Both += rd.both
	d.Neither += rd.neither
	for k := range d.Matches {
		d.Matches[k] += rd.matches[k]
	}
}

// results is the tester's results on difficulty mode under curve c,
// added when there are none yet.
func (t *Tester) results(c int, mode string) *ResultData {
	for i := range t.Results {
		if r := &t.Results[i]; r.Curve == c && r.Mode == mode {
			return r
		}
	}
	t.Results = append(t.Results, ResultData{Curve: c, Mode: mode})
	slices.SortFunc(t.Results, func(a, b ResultData) int {
		if a.Curve != b.Curve {
			return a.Curve - b.Curve
		}
		return slices.Index(curveModes, a.Mode) - slices.Index(curveModes, b.Mode)
	})
	return t.results(c, mode)
}

// addOutcome adds one row of the outcomes, whose rules are curve c's.
func (t *Tester) addOutcome(o *playtest.Outcome, c int) {
	r := t.results(c, o.Mode.String())
	if o.HasMargin {
		m := int64(o.Margin)
		r.MarginGames++
		r.MarginSum += m
		r.MarginSumSq += m * m
		if o.Result == playtest.Won {
			r.MarginWins++
		}
		return
	}
	switch o.Result {
	case playtest.Won:
		r.Wins++
	case playtest.Drawn:
		r.Draws++
	default:
		r.Losses++
	}
}

func (r *CalibrateResult) formats() []string { return []string{FormatCalibrate} }

func (r *CalibrateResult) sameRun(first Study) []field {
	f := first.(*CalibrateResult)
	return []field{
		{"rules", r.RulesID.equal(f.RulesID), r.RulesID.text(), f.RulesID.text()},
		{"levels", slices.Equal(r.Levels, f.Levels), strings.Join(r.Levels, ","), strings.Join(f.Levels, ",")},
		{"curves", sameCalibrationCurves(r.Curves, f.Curves), calibrationCurvesText(r.Curves), calibrationCurvesText(f.Curves)},
		{"testers", sameTesters(r.Testers, f.Testers), fmt.Sprintf("%d testers", len(r.Testers)), fmt.Sprintf("%d testers (or other data)", len(f.Testers))},
	}
}

func sameCalibrationCurves(a, b []RulesCurve) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &CurveResult{Points: a[i].Points}, &CurveResult{Points: b[i].Points}
		if a[i].Name != b[i].Name || !a[i].RulesID.equal(b[i].RulesID) || !slices.Equal(x.pointsKey(), y.pointsKey()) {
			return false
		}
	}
	return true
}

func calibrationCurvesText(cs []RulesCurve) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%q %s %s", c.Name, ShortHash(c.RulesHash), (&CurveResult{Points: c.Points}).pointsText())
	}
	return "[" + strings.Join(parts, "; ") + "]"
}

// sameTesters: the testers' data, which every shard reads whole, are the
// same.
func sameTesters(a, b []Tester) bool {
	return slices.EqualFunc(a, b, func(x, y Tester) bool {
		dx, dy := x.Decisions, y.Decisions
		return x.Name == y.Name && slices.Equal(x.Results, y.Results) &&
			dx.Games == dy.Games && dx.Decisions == dy.Decisions && dx.Forced == dy.Forced && dx.Hinted == dy.Hinted &&
			slices.Equal(dx.LogLik, dy.LogLik) && dx.Best == dy.Best && dx.Search == dy.Search && dx.Both == dy.Both &&
			dx.Neither == dy.Neither && slices.Equal(dx.Matches, dy.Matches) && sameTest(dx.Test, dy.Test)
	})
}

func sameTest(a, b *DecisionTest) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Skill == b.Skill && a.Statistic == b.Statistic && a.DF == b.DF && a.P == b.P && slices.Equal(a.Kinds, b.Kinds)
}

// check verifies that a decoded calibration adds up: its curves as
// curves, its testers' data within what decisions and games can give.
func (r *CalibrateResult) check(share func(int64) int64) error {
	if err := r.RulesID.check(""); err != nil {
		return err
	}
	switch {
	case len(r.Curves) == 0 || len(r.Curves) > MaxCurveRules:
		return fmt.Errorf("curves: %d, want 1 to %d", len(r.Curves), MaxCurveRules)
	case len(r.Testers) == 0 || len(r.Testers) > MaxTesters:
		return fmt.Errorf("testers: %d, want 1 to %d", len(r.Testers), MaxTesters)
	case len(r.Levels) > len(policy.Levels)+8:
		return fmt.Errorf("levels: %d", len(r.Levels))
	case !r.Curves[0].RulesID.equal(r.RulesID) || r.Curves[0].Name != "":
		return errors.New("curves[0]: not the base rules")
	}
	for i := range r.Curves {
		c := &r.Curves[i]
		if err := c.RulesID.check(fmt.Sprintf("curves[%d].", i)); err != nil {
			return err
		}
		if err := checkCurvePoints(c.Points, curveModes, "random", share, r.Interrupted); err != nil {
			return fmt.Errorf("curves[%d]: %v", i, err)
		}
		if c.Points[0].Skill != 0 || c.Points[len(c.Points)-1].Skill != policy.MaxSkill {
			return fmt.Errorf("curves[%d]: the points do not span the dial, 0 to %d", i, policy.MaxSkill)
		}
	}
	seen := map[string]bool{}
	for i := range r.Testers {
		t := &r.Testers[i]
		if err := t.check(len(r.Curves), len(r.Levels)); err != nil {
			return fmt.Errorf("testers[%d] (%q): %v", i, t.Name, err)
		}
		if seen[t.Name] {
			return fmt.Errorf("testers[%d]: %q twice", i, t.Name)
		}
		seen[t.Name] = true
	}
	return nil
}

func (t *Tester) check(curves, levels int) error {
	d := &t.Decisions
	if t.Name == "" || len(t.Name) > playtest.MaxText {
		return errors.New("name: empty or too long")
	}
	if d.Games < 0 || d.Games > MaxGames {
		return fmt.Errorf("decisions.games %d", d.Games)
	}
	limit := d.Games * playtest.MaxGameDecisions
	for _, f := range []struct {
		name string
		v    int64
	}{{"decisions", d.Decisions}, {"forced", d.Forced}, {"hinted", d.Hinted}, {"best", d.Best}, {"search", d.Search}, {"both", d.Both}, {"neither", d.Neither}} {
		if f.v < 0 || f.v > limit {
			return fmt.Errorf("decisions.%s %d is outside 0..%d", f.name, f.v, limit)
		}
	}
	if d.Decisions+d.Forced+d.Hinted > limit {
		return fmt.Errorf("decisions: %d read, %d forced and %d hinted, more than %d games can hold", d.Decisions, d.Forced, d.Hinted, d.Games)
	}
	if d.Best+d.Search+d.Both+d.Neither != d.Decisions {
		return fmt.Errorf("decisions: best, search, both and neither add up to %d, not to its %d decisions", d.Best+d.Search+d.Both+d.Neither, d.Decisions)
	}
	if len(d.LogLik) != fitBelow || len(d.Matches) != levels {
		return fmt.Errorf("decisions: %d log-likelihoods and %d matches, want %d and %d", len(d.LogLik), len(d.Matches), fitBelow, levels)
	}
	for k, v := range d.LogLik {
		// A log-likelihood of probabilities: at most 0 (no decision, or
		// every one certain), and finite below 1, where the softmax
		// gives every option a chance.
		if !(v <= 0 && v > -math.MaxFloat64) {
			return fmt.Errorf("decisions.log_likelihood[%d] %g is not a log-likelihood", k, v)
		}
		// No decision read: the likelihood of nothing, log 1 (a forged
		// one moved the pooled fit).
		if d.Decisions == 0 && v != 0 {
			return fmt.Errorf("decisions.log_likelihood[%d] %g: not 0 with no decisions", k, v)
		}
	}
	for k, m := range d.Matches {
		if m < 0 || m > d.Decisions {
			return fmt.Errorf("decisions.matches[%d] %d is outside 0..%d", k, m, d.Decisions)
		}
	}
	if x := d.Test; x != nil {
		if !(x.P >= 0 && x.P <= 1) || x.DF < 0 || x.DF > 2*numKinds || !(x.Statistic >= 0) || len(x.Kinds) > numKinds+1 {
			return fmt.Errorf("decisions.test: p %g, df %d, statistic %g, %d kinds", x.P, x.DF, x.Statistic, len(x.Kinds))
		}
		for _, k := range x.Kinds {
			if k.Decisions < 0 || k.Decisions > d.Decisions || k.Agree < 0 || k.Agree > k.Decisions {
				return fmt.Errorf("decisions.test: kind %q counts beyond its %d decisions", k.Kind, d.Decisions)
			}
		}
	}
	if d.Games == 0 && len(t.Results) == 0 {
		return errors.New("no recorded games and no results")
	}
	for i, r := range t.Results {
		switch {
		case r.Curve < 0 || r.Curve >= curves:
			return fmt.Errorf("results[%d]: curve %d of %d", i, r.Curve, curves)
		case !slices.Contains(curveModes, r.Mode):
			return fmt.Errorf("results[%d]: mode %q", i, r.Mode)
		case i > 0 && (t.Results[i-1].Curve > r.Curve || t.Results[i-1].Curve == r.Curve &&
			slices.Index(curveModes, t.Results[i-1].Mode) >= slices.Index(curveModes, r.Mode)):
			return fmt.Errorf("results[%d]: out of order or twice", i)
		}
		for _, v := range []int64{r.Wins, r.Draws, r.Losses, r.MarginGames} {
			if v < 0 || v > MaxGames {
				return fmt.Errorf("results[%d]: a count outside 0..%d", i, int64(MaxGames))
			}
		}
		// A won game's margin is 1 to MaxMargin, another's -MaxMargin to
		// 0 (playtest.resultOf): "0 of 2 won" with a margin sum of
		// +20,000 read as a skill of 2.
		won, other := r.MarginWins, r.MarginGames-r.MarginWins
		if won < 0 || other < 0 || r.MarginSum > won*playtest.MaxMargin || r.MarginSum < won-other*playtest.MaxMargin ||
			!(stats.Moments{N: r.MarginGames, Sum: r.MarginSum, SumSq: r.MarginSumSq}).Possible(playtest.MaxMargin) {
			return fmt.Errorf("results[%d]: margin_sum %d and margin_sum_sq %d are not those of %d games, %d won", i, r.MarginSum, r.MarginSumSq, r.MarginGames, r.MarginWins)
		}
	}
	return nil
}

func (r *CalibrateResult) clone() Study {
	out := *r
	out.Levels = slices.Clone(r.Levels)
	out.Curves = slices.Clone(r.Curves)
	for i := range out.Curves {
		out.Curves[i].Points = cloneCurvePoints(r.Curves[i].Points)
	}
	out.Testers = slices.Clone(r.Testers)
	for i := range out.Testers {
		t := &out.Testers[i]
		t.Results = slices.Clone(t.Results)
		t.Decisions.LogLik = slices.Clone(t.Decisions.LogLik)
		t.Decisions.Matches = slices.Clone(t.Decisions.Matches)
		if x := t.Decisions.Test; x != nil {
			c := *x
			c.Kinds = slices.Clone(x.Kinds)
			t.Decisions.Test = &c
		}
	}
	return &out
}

// add adds the curves' games of another shard; the testers' data are the
// same in every shard (sameRun).
func (r *CalibrateResult) add(o Study) {
	oc := o.(*CalibrateResult)
	for i := range r.Curves {
		addCurvePoints(r.Curves[i].Points, oc.Curves[i].Points)
	}
}

// FailedItems lists each curve point's failed seeds.
func (r *CalibrateResult) FailedItems() []FailedItems {
	var out []FailedItems
	for _, c := range r.Curves {
		out = append(out, curveFailedItems(c.Points)...)
	}
	return out
}

// Played is the curves' seeds the result holds, of the study's.
func (r *CalibrateResult) Played() (n, total int64, unit string) {
	for _, c := range r.Curves {
		a, b := curvePlayed(c.Points)
		n, total = n+a, total+b
	}
	return n, total, "seeds"
}
