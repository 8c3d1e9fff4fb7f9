package policy

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"path/filepath"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/deal"
)

// The learned score: the hand-weighted score of a position plus a small
// network's correction, read from what the seat to move can see and
// trained so that a decision's options rank as a strong search ranks them
// (sim/policy/internal/train; docs/policies.md, "The learned player"). Its
// inputs are the terms of the hand evaluation (the features) and the raw
// quantities they are worked out from, so that the network can weigh them
// as strong play bears them out instead of as the hand weights guess.

// NetInputs is the number of inputs of the network.
const NetInputs = 16 + perDistrictInputs*engine.NumDistricts + 10

const perDistrictInputs = 11

// netInputs writes the network's inputs for the position e was
// initialised on, from e's seat's point of view, and returns the
// hand-weighted score the net corrects, added up from the same features
// (so the turn potential and the Round card's rewards are worked out
// once). Like the features, the inputs read nothing hidden: a face-down
// Initial Support token is in the votes as the mean of the face-down
// values, the hand is your own.
func (e *evaluator) netInputs(x *[NetInputs]float32) (hand float64) {
	g, r := e.g, e.r
	f := e.features()
	// total's sum, from the features: DefaultWeights, the only weights
	// the learned score uses, have no style terms (Polling, Block).
	w := e.w
	hand = f[FeatTally] + w.Strength*f[FeatStrength] + f[FeatHeld] + f[FeatResources] +
		w.Hand*f[FeatHand] + w.Majority*f[FeatRound] + w.Potential*f[FeatPotential]
	x[0] = float32(f[FeatTally] / 10)
	x[1] = float32(f[FeatHeld] / 10)
	x[2] = float32(f[FeatStrength] / 10)
	x[3] = float32(f[FeatResources] / 5)
	x[4] = float32(f[FeatHand] / 4)
	x[5] = float32(f[FeatRound] / 5)
	x[6] = float32(f[FeatPotential] / 5)
	x[7] = float32(f[FeatHard])
	x[8] = float32(min(e.turns, MaxStageTurns)) / MaxStageTurns
	// The kind of position, as Stage tells them apart.
	x[9+stageOf(g, e.turns)%stageKinds] = 1
	x[12+min(int(g.Round), 3)] = 1
	i := 16
	track := float32(max(1, r.TrackMax))
	for d := range int8(engine.NumDistricts) {
		c := e.dist(d)
		ds := &g.Districts[d]
		x[i+0] = float32(e.poll[0][d]) / track
		x[i+1] = float32(e.poll[1][d]) / track
		x[i+2] = float32(c.fixed[0]) / 4
		x[i+3] = float32(c.fixed[1]) / 4
		x[i+4] = float32(e.votes[d] / 10)
		x[i+5] = float32(c.base / 10)
		x[i+6] = float32(e.str[0][d]) / 5
		x[i+7] = float32(e.str[1][d]) / 5
		var mine, theirs float32
		for _, h := range ds.Spots {
			switch h {
			case e.me:
				mine++
			case e.opp:
				theirs++
			}
		}
		x[i+8], x[i+9] = mine/2, theirs/2
		if ds.VoteShareToken == engine.NoSeat {
			x[i+10] = 1
		}
		i += perDistrictInputs
	}
	me, opp := &g.Seats[e.me], &g.Seats[e.opp]
	x[i+0] = float32(me.Money) / 10
	x[i+1] = float32(me.Popularity) / 10
	x[i+2] = float32(me.NHand) / 5
	x[i+3] = float32(e.str[0][engine.Plaza]) / 5
	x[i+4] = float32(e.str[1][engine.Plaza]) / 5
	if opp.Automaton {
		x[i+5] = float32(g.ResourceBonus(e.opp)) / 5
	} else {
		x[i+5] = float32(opp.Money+opp.Popularity) / 10
	}
	if g.Phase == engine.PhaseStrategy && g.Decision().Seat == e.me {
		tv := g.CurrentTurn()
		if tv.Card >= 0 {
			x[i+6] = 1
			x[i+7] = float32(bits.OnesCount8(tv.Connected&^tv.Used)) / 4
			if !tv.AbilityUsed {
				x[i+8] = 1
			}
		}
	}
	if e.held.n > 0 {
		x[i+9] = float32(e.held.n) / 4
	}
	return hand
}

// Net is the network of the learned score: NetInputs inputs, one hidden
// layer of rectified units, and one output, the correction to the
// hand-weighted score in votes divided by Scale. Hidden 0 makes it
// linear.
type Net struct {
	Hidden int
	Scale  float32
	W1     []float32 // Hidden × NetInputs, row by row
	B1     []float32
	W2     []float32 // Hidden (NetInputs when linear)
	B2     float32
	Meta   NetMeta
	hash   string
}

// NetMeta records how the weights were made, so that a result can name
// them and anyone can make them again.
type NetMeta struct {
	Command   string   `json:"command"`
	DataSeed  uint64   `json:"data_seed"`
	Rules     string   `json:"rules"`      // the rules' name
	RulesHash string   `json:"rules_hash"` // engine.Rules.Hash of the rules trained on
	Policies  []string `json:"policies"`   // the specs whose games it was trained on, in order
	Games     int      `json:"games"`
	Positions int      `json:"positions"`
	HeldOut   string   `json:"held_out"` // held-out error, in words
}

// Value is the net's correction to the hand-weighted score, in votes,
// at inputs x.
func (n *Net) Value(x *[NetInputs]float32) float64 {
	var hid [MaxHidden]float32
	return float64(n.Forward(x, hid[:]) * n.Scale)
}

// MaxHidden is the most hidden units a net may have.
const MaxHidden = 256

// Forward is the net's output at inputs x, in units of Scale, leaving the
// hidden units in hid (Hidden of them). It skips the inputs that are 0,
// which add nothing (a third of them: the one-hot parts, the turn's
// terms outside your turn). The products are rounded to float32 one by
// one (the conversions forbid a fused multiply-add) and added in input
// order, so the output is the same bits on every machine, and the
// trainer, which calls Forward too, trains exactly what plays.
func (n *Net) Forward(x *[NetInputs]float32, hid []float32) float32 {
	var idx [NetInputs]uint8
	var val [NetInputs]float32
	m := 0
	for i, v := range x {
		if v != 0 {
			idx[m], val[m] = uint8(i), v
			m++
		}
	}
	out := n.B2
	if n.Hidden == 0 {
		w := (*[NetInputs]float32)(n.W2)
		for t := range m {
			out += float32(w[idx[t]] * val[t])
		}
		return out
	}
	// Four hidden units at a time: four sums that do not wait on each
	// other, each added in input order as one unit alone would be.
	h := 0
	for ; h+4 <= n.Hidden; h += 4 {
		w0 := (*[NetInputs]float32)(n.W1[h*NetInputs:])
		w1 := (*[NetInputs]float32)(n.W1[(h+1)*NetInputs:])
		w2 := (*[NetInputs]float32)(n.W1[(h+2)*NetInputs:])
		w3 := (*[NetInputs]float32)(n.W1[(h+3)*NetInputs:])
		s0, s1, s2, s3 := n.B1[h], n.B1[h+1], n.B1[h+2], n.B1[h+3]
		for t := range m {
			i, v := idx[t], val[t]
			s0 += float32(w0[i] * v)
			s1 += float32(w1[i] * v)
			s2 += float32(w2[i] * v)
			s3 += float32(w3[i] * v)
		}
		hid[h], hid[h+1], hid[h+2], hid[h+3] = max(s0, 0), max(s1, 0), max(s2, 0), max(s3, 0)
	}
	for ; h < n.Hidden; h++ {
		w := (*[NetInputs]float32)(n.W1[h*NetInputs:])
		s := n.B1[h]
		for t := range m {
			s += float32(w[idx[t]] * val[t])
		}
		hid[h] = max(s, 0)
	}
	for h, a := range hid[:n.Hidden] {
		if a > 0 {
			out += float32(n.W2[h] * a)
		}
	}
	return out
}

// netFile is the weights file's form: JSON, every weight written in the
// shortest decimal that reads back the same float32.
type netFile struct {
	Format string    `json:"format"`
	Inputs int       `json:"inputs"`
	Hidden int       `json:"hidden"`
	Scale  float32   `json:"scale"`
	Meta   NetMeta   `json:"meta"`
	W1     []float32 `json:"w1"`
	B1     []float32 `json:"b1"`
	W2     []float32 `json:"w2"`
	B2     float32   `json:"b2"`
}

const netFormat = "tallywood-value/1"

// MaxNetFile bounds a weights file's size: a hidden layer of a few
// hundred units is far below it.
const MaxNetFile = 8 << 20

// MaxNetWeight bounds every weight and bias of a weights file, and
// MaxNetScale its scale, so that no unit of the net can overflow: every
// input is a game quantity (votes, Money, Strength: int8 and int16 values
// and short sums of them) scaled down, far within ±maxNetInput, so a
// hidden unit is within 2^16·(1 + NetInputs·2^24) < 2^47, the output
// within 2^16·(1 + MaxHidden·2^47) < 2^72 and the score within 2^82,
// against float32's 2^128 (TestNetBoundsCannotOverflow). Every option's learned score is then finite, and the
// guided search's prior a distribution: a bias of 3.4e38 made every score
// infinite, the prior NaN, and the search choose option −1 (a panic),
// while learned: played on, losing every game. Trained weights are a few
// units (the shipped ones within ±3).
const (
	MaxNetWeight = 1 << 16
	MaxNetScale  = 1 << 10
	maxNetInput  = 1 << 24
)

// decodeNetFile reads a file of net weights (the learned score's or the
// win chance's) into v: at most MaxNetFile bytes, and no field v does not
// have. what names the file in errors.
func decodeNetFile(data []byte, what string, v any) error {
	if len(data) > MaxNetFile {
		return fmt.Errorf("%s: %d bytes, more than the %d a weights file may have", what, len(data), MaxNetFile)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	// As a result or save file: one object, nothing after it.
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: data after the JSON object", what)
	}
	return nil
}

// maxMetaText bounds each text of a model file's meta (its command the
// longest: a few hundred bytes).
const maxMetaText = 4096

// checkMeta checks the texts of a model file's meta, which notes and
// reports print: none longer than maxMetaText, none with a control or
// hidden character (an escape sequence would reach the terminal).
func checkMeta(what string, texts ...string) error {
	for _, s := range texts {
		if len(s) > maxMetaText {
			return fmt.Errorf("%s: meta: a text of %d bytes, more than %d", what, len(s), maxMetaText)
		}
		if r, bad := engine.Hidden(s); bad {
			return fmt.Errorf("%s: meta: %q holds %U, a control or hidden character", what, s, r)
		}
	}
	return nil
}

// ParseNet reads a weights file, checking its shape and that every
// weight is finite.
func ParseNet(data []byte) (*Net, error) {
	var f netFile
	if err := decodeNetFile(data, "value weights", &f); err != nil {
		return nil, err
	}
	if f.Format != netFormat {
		return nil, fmt.Errorf("value weights: format %q, want %q", f.Format, netFormat)
	}
	if f.Inputs != NetInputs {
		return nil, fmt.Errorf("value weights: %d inputs, this build's network has %d (retrain the weights)", f.Inputs, NetInputs)
	}
	if f.Hidden < 0 || f.Hidden > MaxHidden {
		return nil, fmt.Errorf("value weights: hidden %d, want 0 to %d", f.Hidden, MaxHidden)
	}
	w1, w2 := f.Hidden*NetInputs, f.Hidden
	if f.Hidden == 0 {
		w2 = NetInputs
	}
	if len(f.W1) != w1 || len(f.B1) != f.Hidden || len(f.W2) != w2 {
		return nil, fmt.Errorf("value weights: w1 %d, b1 %d, w2 %d weights, want %d, %d, %d", len(f.W1), len(f.B1), len(f.W2), w1, f.Hidden, w2)
	}
	if !(f.Scale > 0 && f.Scale <= MaxNetScale) {
		return nil, fmt.Errorf("value weights: scale %v, want a positive number up to %d", f.Scale, MaxNetScale)
	}
	for _, part := range []struct {
		name string
		w    []float32
	}{{"w1", f.W1}, {"b1", f.B1}, {"w2", f.W2}, {"b2", []float32{f.B2}}} {
		for i, v := range part.w {
			// Also false for NaN.
			if !(v >= -MaxNetWeight && v <= MaxNetWeight) {
				return nil, fmt.Errorf("value weights: %s[%d] is %v, outside ±%d (beyond it the learned score could overflow)", part.name, i, v, MaxNetWeight)
			}
		}
	}
	if err := checkMeta("value weights", append([]string{f.Meta.Command, f.Meta.Rules, f.Meta.RulesHash, f.Meta.HeldOut}, f.Meta.Policies...)...); err != nil {
		return nil, err
	}
	n := &Net{Hidden: f.Hidden, Scale: f.Scale, W1: f.W1, B1: f.B1, W2: f.W2, B2: f.B2, Meta: f.Meta}
	sum := sha256.Sum256(data)
	n.hash = hex.EncodeToString(sum[:6])
	return n, nil
}

// Hash names the weights file the net was read from (the first 12 hex
// digits of its SHA-256), for results to name the weights they used.
func (n *Net) Hash() string { return n.hash }

// Encode writes the net as a weights file.
func (n *Net) Encode() []byte {
	f := netFile{Format: netFormat, Inputs: NetInputs, Hidden: n.Hidden, Scale: n.Scale, Meta: n.Meta,
		W1: n.W1, B1: n.B1, W2: n.W2, B2: n.B2}
	if f.W1 == nil {
		f.W1 = []float32{}
	}
	if f.B1 == nil {
		f.B1 = []float32{}
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	fmt.Fprintf(&b, "  \"format\": %q,\n  \"inputs\": %d,\n  \"hidden\": %d,\n  \"scale\": %s,\n", f.Format, f.Inputs, f.Hidden, fmt32(f.Scale))
	meta, err := json.MarshalIndent(f.Meta, "  ", "  ")
	if err != nil {
		panic("policy: " + err.Error()) // plain strings and numbers
	}
	fmt.Fprintf(&b, "  \"meta\": %s,\n", meta)
	list := func(name string, v []float32, last bool) {
		fmt.Fprintf(&b, "  %q: [", name)
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if i%16 == 0 {
				b.WriteString("\n    ")
			}
			b.WriteString(fmt32(x))
		}
		b.WriteString("\n  ]")
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	list("w1", f.W1, false)
	list("b1", f.B1, false)
	list("w2", f.W2, false)
	fmt.Fprintf(&b, "  \"b2\": %s\n}\n", fmt32(f.B2))
	return b.Bytes()
}

func fmt32(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }

//go:embed value.json
var shippedNet []byte

// ShippedNet is the network trained for the reference rules, the one the
// learned players use unless given other weights.
var ShippedNet = mustNet(shippedNet)

func mustNet(b []byte) *Net {
	n, err := ParseNet(b)
	if err != nil {
		panic("policy: shipped " + err.Error())
	}
	return n
}

// netEval is the learned score of g for seat me: the hand-weighted score
// plus the net's correction to it, or the true margin once the game is
// over. t, if not nil, holds tables of the position g was reached from
// (see evalFrom).
func netEval(g *engine.Game, n *Net, me int8, t *boardTables, x *[NetInputs]float32) float64 {
	if g.Over() {
		return evalFor(g, &DefaultWeights, me)
	}
	if t != nil {
		// init sets every field the score reads: the tables' evaluator
		// serves without the clearing of a fresh one (see evalFrom).
		return t.e.scoreInputs(g, me, t, x) + n.Value(x)
	}
	var e evaluator
	return e.scoreInputs(g, me, nil, x) + n.Value(x)
}

// scoreInputs prepares e for g and seat me (with t's tables, if any),
// writes the net's inputs to x and returns the hand-weighted score.
func (e *evaluator) scoreInputs(g *engine.Game, me int8, t *boardTables, x *[NetInputs]float32) float64 {
	e.init(g, &DefaultWeights, me, t)
	*x = [NetInputs]float32{}
	return e.netInputs(x)
}

// ScoreInputs writes the net's inputs at c, the result of an option, for
// seat me (engine.NoSeat: the solo player), and returns the hand-weighted
// score the net corrects. Once the game is over the inputs are zero, the
// score is the true margin and over is true: the net does not correct it.
func ScoreInputs(c *engine.Game, me int8, x *[NetInputs]float32) (hand float64, over bool) {
	if c.Over() {
		*x = [NetInputs]float32{}
		return evalFor(c, &DefaultWeights, me), true
	}
	var e evaluator
	return e.scoreInputs(c, me, nil, x), false
}

// Afterstates hands out the results of a decision's options as the
// learned player scores them: each option applied to a plain copy, or to
// a copy of one determinized game (with a seed from its own stream) for
// the options that touch hidden information. The trainer records them.
type Afterstates struct{ g *Greedy }

// NewAfterstates returns an Afterstates; Reset seeds it for a game.
func NewAfterstates() *Afterstates { return &Afterstates{g: NewGreedy(1)} }

// Reset seeds the stream of the determinizations from the game seed.
func (a *Afterstates) Reset(gameSeed uint64) { a.g.rng.Seed(gameSeed, deal.StreamLearned) }

// Each calls f with the index of every option of legal (at least two)
// and its result, which f must not keep.
func (a *Afterstates) Each(g *engine.Game, legal []engine.Option, f func(i int, c *engine.Game)) {
	a.g.visit = f
	defer func() { a.g.visit = nil }()
	a.g.Choose(g, legal)
}

// LoadNet reads a weights file: a regular file (not a pipe or a device,
// which could block or never end) of at most MaxNetFile bytes.
func LoadNet(path string) (*Net, error) {
	data, err := kit.ReadFileMax(path, MaxNetFile)
	if err != nil {
		return nil, fmt.Errorf("value weights: %v", err)
	}
	n, err := ParseNet(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return n, nil
}

// weightsParam is the weights= parameter of the players that score by
// the learned value: a weights file, pinned in the canonical spec by its
// hash (FILE@HASH), so that a result names the weights it was played
// with and a spec read back refuses a file that has changed since.
var weightsParam = param{"weights", "", "weights file of the learned score (default: the shipped value.json; see docs/policies.md)", normWeights}

func normWeights(v string) (string, error) {
	n, err := pinnedNet(v)
	if err != nil {
		return "", fmt.Errorf("want a weights file: %v", err)
	}
	path, _, _ := strings.Cut(v, "@")
	return path + "@" + n.Hash(), nil
}

// pinnedNet loads the weights a weights= value names ("" : the shipped
// ones), checking the hash when the value has one.
func pinnedNet(v string) (*Net, error) {
	if v == "" {
		return ShippedNet, nil
	}
	path, want, pinned := strings.Cut(v, "@")
	n, err := LoadNet(path)
	if err != nil {
		return nil, err
	}
	if pinned && want != n.Hash() {
		return nil, fmt.Errorf("%s holds weights %s, not %s: the file has changed", path, n.Hash(), want)
	}
	return n, nil
}

// WeightsNote names the weights of the learned score that spec plays by
// (their hash) and the rules they were trained for, and warns when those
// are not the rules played: the learned players' strength was measured
// for the rules they were trained on (docs/policies.md, "Rules the player
// was not trained on"). When the rules played name a scripted Opposition,
// the warning says so and gives the command that retrains the weights for
// them. It is "" for a spec that does not score by the learned value.
func WeightsNote(spec string, played RulesPlayed) string {
	sp, err := Parse(spec)
	if err != nil || !usesNet(sp) {
		return ""
	}
	n, err := pinnedNet(sp.Params["weights"])
	if err != nil {
		return ""
	}
	note := fmt.Sprintf("%s: learned score weights %s, trained for rules %s (%s)", sp.Label, n.Hash(), n.Meta.Rules, engine.ShortHash(n.Meta.RulesHash))
	if n.Meta.RulesHash != played.Hash {
		note += played.notThese(n.Meta.Command, "value", "docs/policies.md")
	}
	return note
}

// RulesPlayed are the rules a note about a trained model speaks of: their
// hash, the file they were read from ("" for the reference set or when
// not known) and the script that plays their Opposition ("" for the
// built-in one).
type RulesPlayed struct{ Hash, File, Automaton string }

// PlayedRules is r as a note speaks of it.
func PlayedRules(r *engine.Rules) RulesPlayed {
	p := RulesPlayed{Hash: r.Hash, File: r.File}
	if r.Automaton != nil {
		p.Automaton = r.Automaton.Name
	}
	return p
}

// notThese is the warning that a model (made by command) was not trained
// for the rules played; with a scripted Opposition, it names the script
// and the command that trains the model (what: "value", "chance") for
// them.
func (p RulesPlayed) notThese(command, what, doc string) string {
	if p.Automaton == "" {
		if what == "chance" {
			return ", not these: measure its calibration or retrain it for them (" + doc + ")"
		}
		return ", not these: measure it or retrain it for them (" + doc + ")"
	}
	rules := p.File
	if rules == "" {
		rules = "RULES.json"
	}
	out := strings.TrimSuffix(filepath.Base(rules), ".json") + "-" + what + ".json"
	return fmt.Sprintf(", not these, whose Opposition is the script %s, not the one it was trained against: measure it, or retrain it for them with %s (%s)",
		p.Automaton, Retrain(command, rules, out), doc)
}

// Retrain is the command a model file records (command), made to train
// for the rules file rules and write out: its -rules and -out replaced.
// The flags go before the command's other arguments (the policies or
// levels), which end its flags.
func Retrain(command, rules, out string) string {
	f := strings.Fields(command)
	var kept []string
	for i := 0; i < len(f); i++ {
		if f[i] == "-rules" || f[i] == "-out" {
			i++ // and its value
			continue
		}
		kept = append(kept, f[i])
	}
	at := min(3, len(kept)) // after "go run ./sim/policy/internal/…"
	args := append([]string{}, kept[:at]...)
	args = append(args, "-rules", rules, "-out", out)
	return strings.Join(append(args, kept[at:]...), " ")
}
