package policy

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sync"

	"tallywood/engine"
	"tallywood/engine/kit"
)

// The win chance: the probability that the solo player wins (a draw
// counts ½) from a position, read from what the player's seat sees, when
// the rest of the game is played by a given skill level against the
// Opposition. It is a small network per level (the learned score's Net,
// its output a logit), fitted by sim/policy/internal/chancefit to the
// outcomes of that level's games at every point a study reads it: each
// decision of the player, and the start of each of the Opposition's
// turns. Its inputs are the learned score's (netInputs), which read
// nothing hidden. docs/arc.md has its calibration.
//
// Above a knee, a level's logit is stretched (Knee): Platt scaling, fitted
// mostly on the many low chances, left the highest ones too low.
//
// A level's chance comes with an interval: how far from the true chance
// (the mean outcome of the level's games continued from the position,
// determinized from the player's view) the model's is at 95% of the
// positions of that stage of the game (ChanceSlot), measured by the
// trainer on continuations of positions no fit used. It is wide late in
// the game, where one position's chance is hard to read from the
// inputs; docs/arc.md has the figures.

// ChanceModel holds the win-chance networks of the skill levels they were
// trained for, and how they were made.
type ChanceModel struct {
	Meta   ChanceMeta
	levels []chanceLevel
	hash   string
}

type chanceLevel struct {
	name     string
	net      *Net
	bias     *[ChanceKinds]float32
	interval *[ChanceSlots]float32 // nil in a file without intervals (format /1)
	knee     Knee
}

// Knee stretches the logit z of a chance above At: z + Slope·(z − At).
// The trainer fits it after Platt scaling, on the same calibration games;
// the zero Knee (a /1 file's) changes nothing.
type Knee struct {
	At, Slope float32
}

func (k Knee) apply(z float32) float32 {
	if z > k.At {
		z += k.Slope * (z - k.At)
	}
	return z
}

// ChanceKinds is how many kinds of point the win chance tells apart by an
// output bias of their own (ChanceKind): the net's inputs do not say
// which decision is pending, and without them a net fitted on every kind
// of point at once is off by a few points one way at some kinds and the
// other at others, which a study of the steps between points would read
// as decisions' effects.
const ChanceKinds = int(engine.DecInitiative) + 1

// ChanceKind is the kind of point g is for the win chance: the decision
// the player has to take (engine.DecisionKind), or 0 where it is not the
// player's to take (the Opposition's turn about to start).
func ChanceKind(g *engine.Game) int {
	d := g.Decision()
	if d.Kind == engine.DecNone || d.Seat != 0 {
		return 0
	}
	return int(d.Kind)
}

// ChanceSlots is how many stages of the game the interval of the win
// chance tells apart: a slot per round and turn of the round (turns past
// the eighth share the eighth's), and one per round for the points past
// its turns (Clean Up, the Final Tally's reveals).
const ChanceSlots = engine.MaxRounds * ChanceTurnSlots

// ChanceTurnSlots is how many stages of a round the interval tells apart:
// eight turns and the round's end. ChanceSlot is round·ChanceTurnSlots
// plus the stage.
const ChanceTurnSlots = 9

// ChanceSlot is the stage of the game g is at, for the interval.
func ChanceSlot(g *engine.Game) int {
	r := min(int(g.Round), engine.MaxRounds-1)
	if g.Phase != engine.PhaseStrategy {
		return r*ChanceTurnSlots + ChanceTurnSlots - 1
	}
	return r*ChanceTurnSlots + min(int(g.Turn), ChanceTurnSlots-2)
}

// ChanceMeta records how a win-chance model was made, so that a result
// can name it and anyone can make it again.
type ChanceMeta struct {
	Command   string             `json:"command"`
	DataSeed  uint64             `json:"data_seed"`
	Rules     string             `json:"rules"`      // the rules' name
	RulesHash string             `json:"rules_hash"` // engine.Rules.Hash of the rules trained on
	Levels    []ChanceLevelMeta  `json:"levels"`
	HeldOut   []ChanceLevelScore `json:"held_out"`
}

// ChanceLevelMeta is the training data of one level's network.
type ChanceLevelMeta struct {
	Level     string  `json:"level"`
	Spec      string  `json:"spec"` // the level's spec when trained
	Games     int     `json:"games"`
	Positions int     `json:"positions"`
	BaseRate  float64 `json:"base_rate"` // the games' mean outcome: the base rate's Brier score uses it
}

// ChanceLevelScore is one level's network on held-out games: its Brier
// score against the base rate's, and its log loss.
type ChanceLevelScore struct {
	Level     string  `json:"level"`
	Games     int     `json:"games"`
	Positions int     `json:"positions"`
	Brier     float64 `json:"brier"`
	BaseBrier float64 `json:"base_brier"`
	LogLoss   float64 `json:"log_loss"`
}

type chanceFile struct {
	Format string          `json:"format"`
	Inputs int             `json:"inputs"`
	Meta   ChanceMeta      `json:"meta"`
	Levels []chanceNetFile `json:"levels"`
}

type chanceNetFile struct {
	Level    string    `json:"level"`
	Hidden   int       `json:"hidden"`
	W1       []float32 `json:"w1"`
	B1       []float32 `json:"b1"`
	W2       []float32 `json:"w2"`
	B2       float32   `json:"b2"`
	KindBias []float32 `json:"kind_bias"` // ChanceKinds, by ChanceKind
	// Interval is the half-width of the 95% interval, by ChanceSlot, and
	// KneeAt and KneeSlope the Knee (format /2; a /1 file has neither).
	Interval  []float32 `json:"interval,omitempty"`
	KneeAt    float32   `json:"knee_at,omitempty"`
	KneeSlope float32   `json:"knee_slope,omitempty"`
}

// The formats: /2 adds the interval and the knee; /1 files are still
// read, and their chances have neither.
const (
	chanceFormat   = "tallywood-winchance/2"
	chanceFormatV1 = "tallywood-winchance/1"
)

// ParseChance reads a win-chance file, checking its shape and that every
// weight is within the bounds of a weights file's (MaxNetWeight).
func ParseChance(data []byte) (*ChanceModel, error) {
	var f chanceFile
	if err := decodeNetFile(data, "win chance", &f); err != nil {
		return nil, err
	}
	if f.Format != chanceFormat && f.Format != chanceFormatV1 {
		return nil, fmt.Errorf("win chance: format %q, want %q", f.Format, chanceFormat)
	}
	if f.Inputs != NetInputs {
		return nil, fmt.Errorf("win chance: %d inputs, this build's network has %d (retrain the model)", f.Inputs, NetInputs)
	}
	if len(f.Levels) == 0 {
		return nil, fmt.Errorf("win chance: no levels")
	}
	texts := []string{f.Meta.Command, f.Meta.Rules, f.Meta.RulesHash}
	for _, l := range f.Meta.Levels {
		texts = append(texts, l.Level, l.Spec)
	}
	for _, l := range f.Meta.HeldOut {
		texts = append(texts, l.Level)
	}
	if err := checkMeta("win chance", texts...); err != nil {
		return nil, err
	}
	m := &ChanceModel{Meta: f.Meta}
	for _, l := range f.Levels {
		if _, ok := levelByName(l.Level); !ok || slices.ContainsFunc(m.levels, func(c chanceLevel) bool { return c.name == l.Level }) {
			return nil, fmt.Errorf("win chance: level %q is not a skill level or is there twice", l.Level)
		}
		// A level's weights are a weights file's, checked by the same code.
		nf := netFile{Format: netFormat, Inputs: NetInputs, Hidden: l.Hidden, Scale: 1, W1: l.W1, B1: l.B1, W2: l.W2, B2: l.B2}
		b, err := json.Marshal(nf)
		if err != nil {
			return nil, fmt.Errorf("win chance: %v", err)
		}
		n, err := ParseNet(b)
		if err != nil {
			return nil, fmt.Errorf("win chance: level %s: %v", l.Level, err)
		}
		// Bounded as the net's weights are (also false for NaN).
		if len(l.KindBias) != ChanceKinds || slices.ContainsFunc(l.KindBias, func(v float32) bool { return !(v >= -MaxNetWeight && v <= MaxNetWeight) }) {
			return nil, fmt.Errorf("win chance: level %s: kind_bias: want %d weights within ±%d", l.Level, ChanceKinds, MaxNetWeight)
		}
		iv, err := parseInterval(f.Format, l.Interval)
		if err != nil {
			return nil, fmt.Errorf("win chance: level %s: %v", l.Level, err)
		}
		knee := Knee{l.KneeAt, l.KneeSlope}
		// The stretched logit must still grow with z (slope above −1),
		// and its numbers be a weight's (also false for NaN).
		if !(knee.At >= -MaxNetWeight && knee.At <= MaxNetWeight && knee.Slope > -1 && knee.Slope <= MaxNetWeight) ||
			(f.Format == chanceFormatV1 && knee != Knee{}) {
			return nil, fmt.Errorf("win chance: level %s: knee_at, knee_slope: want numbers within ±%d, a slope above -1, and none in a %s file", l.Level, MaxNetWeight, chanceFormatV1)
		}
		m.levels = append(m.levels, chanceLevel{l.Level, n, (*[ChanceKinds]float32)(l.KindBias), iv, knee})
	}
	sum := sha256.Sum256(data)
	m.hash = hex.EncodeToString(sum[:6])
	return m, nil
}

// LoadChance reads a win-chance file: a regular file (not a pipe or a
// device, which could block or never end) of at most MaxNetFile bytes,
// as LoadNet reads a weights file.
func LoadChance(path string) (*ChanceModel, error) {
	data, err := kit.ReadFileMax(path, MaxNetFile)
	if err != nil {
		return nil, fmt.Errorf("win chance: %v", err)
	}
	m, err := ParseChance(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}

// parseInterval checks a level's interval: ChanceSlots half-widths
// within [0, 1] in a /2 file, none in a /1 file.
func parseInterval(format string, v []float32) (*[ChanceSlots]float32, error) {
	if format == chanceFormatV1 {
		if v != nil {
			return nil, fmt.Errorf("interval: a %s file has none", chanceFormatV1)
		}
		return nil, nil
	}
	// Also false for NaN.
	if len(v) != ChanceSlots || slices.ContainsFunc(v, func(x float32) bool { return !(x >= 0 && x <= 1) }) {
		return nil, fmt.Errorf("interval: want %d half-widths within [0, 1]", ChanceSlots)
	}
	return (*[ChanceSlots]float32)(v), nil
}

// NewChanceModel makes a model of the win chances of levels (in
// order), for the trainer to encode: every chance with an interval, or
// none.
func NewChanceModel(meta ChanceMeta, chances []*WinChance) *ChanceModel {
	m := &ChanceModel{Meta: meta}
	for _, c := range chances {
		m.levels = append(m.levels, chanceLevel{c.Level, c.net, c.bias, c.interval, c.knee})
	}
	return m
}

// Encode writes the model as a win-chance file.
func (m *ChanceModel) Encode() []byte {
	var b bytes.Buffer
	format := chanceFormat
	if len(m.levels) > 0 && m.levels[0].interval == nil {
		format = chanceFormatV1
	}
	for _, l := range m.levels {
		if (l.interval == nil) != (format == chanceFormatV1) {
			panic("policy: a win-chance model with and without intervals") // the trainer gives every level one
		}
	}
	fmt.Fprintf(&b, "{\n  \"format\": %q,\n  \"inputs\": %d,\n", format, NetInputs)
	meta, err := json.MarshalIndent(m.Meta, "  ", "  ")
	if err != nil {
		panic("policy: " + err.Error()) // plain strings and numbers
	}
	fmt.Fprintf(&b, "  \"meta\": %s,\n  \"levels\": [\n", meta)
	for i, l := range m.levels {
		n := l.net
		fmt.Fprintf(&b, "    {\n      \"level\": %q,\n      \"hidden\": %d,\n", l.name, n.Hidden)
		list := func(name string, v []float32) {
			fmt.Fprintf(&b, "      %q: [", name)
			for i, x := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				if i%16 == 0 {
					b.WriteString("\n        ")
				}
				b.WriteString(fmt32(x))
			}
			b.WriteString("\n      ],\n")
		}
		list("w1", n.W1)
		list("b1", n.B1)
		list("w2", n.W2)
		list("kind_bias", l.bias[:])
		if l.interval != nil {
			list("interval", l.interval[:])
			fmt.Fprintf(&b, "      \"knee_at\": %s,\n      \"knee_slope\": %s,\n", fmt32(l.knee.At), fmt32(l.knee.Slope))
		}
		fmt.Fprintf(&b, "      \"b2\": %s\n    }", fmt32(n.B2))
		if i < len(m.levels)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}

// Hash names the file the model was read from (the first 12 hex digits of
// its SHA-256).
func (m *ChanceModel) Hash() string { return m.hash }

// Levels lists the skill levels the model has a network for.
func (m *ChanceModel) Levels() []string {
	out := make([]string, len(m.levels))
	for i, l := range m.levels {
		out[i] = l.name
	}
	return out
}

// For returns the win chance of level, or an error naming the levels the
// model has.
func (m *ChanceModel) For(level string) (*WinChance, error) {
	for _, l := range m.levels {
		if l.name == level {
			return &WinChance{Level: level, net: l.net, bias: l.bias, interval: l.interval, knee: l.knee}, nil
		}
	}
	return nil, &NoChanceError{Level: level, Have: m.Levels()}
}

// NoChanceError is For's error for a level the model has no network for.
type NoChanceError struct {
	Level string
	Have  []string
}

func (e *NoChanceError) Error() string {
	return fmt.Sprintf("no win-chance model for %q: the model has the skill levels %v", e.Level, e.Have)
}

// Note names the model (its hash) and the rules it was trained for, and
// warns when those are not the rules played: its calibration was measured
// for the rules it was trained on (docs/arc.md); see WeightsNote.
func (m *ChanceModel) Note(played RulesPlayed) string {
	note := fmt.Sprintf("win chance: model %s, trained for rules %s (%s)", m.hash, m.Meta.Rules, engine.ShortHash(m.Meta.RulesHash))
	if m.Meta.RulesHash != played.Hash {
		note += played.notThese(m.Meta.Command, "chance", "docs/arc.md")
	}
	return note
}

//go:embed chance.json
var shippedChance []byte

// ShippedChance is the win-chance model trained for the reference rules
// (read on first use, so that the trainer runs whatever the file holds).
var ShippedChance = sync.OnceValue(func() *ChanceModel {
	m, err := ParseChance(shippedChance)
	if err != nil {
		panic("policy: shipped " + err.Error())
	}
	return m
})

// WinChance is the win chance of one skill level.
type WinChance struct {
	Level    string
	net      *Net
	bias     *[ChanceKinds]float32
	interval *[ChanceSlots]float32
	knee     Knee
}

// NewWinChance is the win chance of a net trained for level, with an
// output bias per kind of point (the trainer's).
func NewWinChance(level string, n *Net, bias *[ChanceKinds]float32) *WinChance {
	return &WinChance{Level: level, net: n, bias: bias}
}

// Of is the chance that the solo player of g wins (a draw ½) when the
// level plays the rest of the game, from what the player sees; once the
// game is over, its outcome: 1, ½ or 0. It allocates nothing.
func (c *WinChance) Of(g *engine.Game) float64 {
	if g.Over() {
		return OutcomeScore(g)
	}
	var x [NetInputs]float32
	ChanceInputs(g, &x)
	return c.OfInputs(&x, ChanceKind(g))
}

// Interval is the half-width of the 95% interval of the chance at g
// (ChanceSlot), in chance (0.2: ±20 points); 0 once the game is over.
// ok is false for a model without intervals (a /1 file).
func (c *WinChance) Interval(g *engine.Game) (half float64, ok bool) {
	if c.interval == nil {
		return 0, false
	}
	if g.Over() {
		return 0, true
	}
	return float64(c.interval[ChanceSlot(g)]), true
}

// SetInterval gives c the trainer's interval, by ChanceSlot.
func (c *WinChance) SetInterval(iv *[ChanceSlots]float32) { c.interval = iv }

// SetKnee gives c the trainer's knee.
func (c *WinChance) SetKnee(k Knee) { c.knee = k }

// OfInputs is the win chance at the net's inputs x at a point of kind k
// (the trainer's and the calibration's).
func (c *WinChance) OfInputs(x *[NetInputs]float32, k int) float64 {
	var hid [MaxHidden]float32
	return sigmoid(float64(c.knee.apply(c.net.Forward(x, hid[:c.net.Hidden]) + c.bias[k])))
}

// OutcomeScore is the solo player's score of a finished game: a win 1, a
// draw ½, a loss 0.
func OutcomeScore(g *engine.Game) float64 {
	switch g.Result.Outcome {
	case engine.Win:
		return 1
	case engine.Draw:
		return 0.5
	}
	return 0
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// ChanceInputs writes the win chance's inputs at g for the solo player
// (the learned score's, netInputs): the trainer records them.
func ChanceInputs(g *engine.Game, x *[NetInputs]float32) {
	var e evaluator
	e.scoreInputs(g, 0, nil, x)
}

// LevelOf is the skill level that plays spec s: the level it was given
// as, or the one whose spec it is; false for a spec no level plays.
func LevelOf(s Spec) (string, bool) {
	if s.Level != "" {
		return s.Level, true
	}
	for _, l := range Levels {
		if l.Spec == s.String() {
			return l.Name, true
		}
	}
	return "", false
}

// chanceLevelIn checks a parameter naming a level of the shipped win
// chance.
func chanceLevelIn(s string) (string, error) {
	if _, err := ShippedChance().For(s); err != nil {
		return "", fmt.Errorf("want a skill level of the win chance, one of %v", ShippedChance().Levels())
	}
	return s, nil
}

// Net and Bias are the chance's net and kind biases (the trainer scales
// them).
func (c *WinChance) Net() *Net                   { return c.net }
func (c *WinChance) Bias() *[ChanceKinds]float32 { return c.bias }
