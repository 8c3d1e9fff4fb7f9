package policy

import (
	"math"
	"math/rand/v2"
	"strconv"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim/deal"
)

// The skill dial: one family of players with one number, the skill, from
// 0 (uniformly random) through 1 (the skilled level, exactly) to 2 (the
// expert level, exactly), strength rising all along it (docs/policies.md,
// "The skill dial", has the measured curve).
//
//   - Below 1 the dial errs as a person does, sometimes and not always the
//     same way: at each decision it draws an option from the softmax of
//     the learned scores (the skilled player's) at a temperature that
//     falls from infinite at 0 to nothing at 1, where it plays the best.
//   - From 1 to 2 it plays the guided search's choice (the expert's) with
//     chance skill − 1, and the learned score's best otherwise.
//
// Every legal option has a probability at every setting (DialSetting.LogProb),
// so that a recorded decision has a likelihood on the dial: calibration
// fits a tester's skill from it.

// MaxSkill is the top of the dial: the expert level.
const MaxSkill = 2

// DialLevel is a skill level's place on the dial.
type DialLevel struct {
	Name  string
	Skill float64
	// Exact: the dial there plays the level's games, decision for
	// decision; otherwise the level plays as another policy, and Skill
	// is where the dial is as strong on Normal (docs/policies.md).
	Exact bool
}

// DialLevels are the skill levels the dial spans, weakest first; master
// is above its top.
var DialLevels = []DialLevel{
	{"novice", 0.1, false},
	{"casual", 0.4, false},
	{"skilled", 1, true},
	{"expert", 2, true},
}

func init() {
	add(entry{
		name:    "dial",
		summary: "the skill dial: 0 random, 1 the skilled level (learned), 2 the expert level (mcts:iters=100,prior=16); below 1 a softmax over the learned score, above 1 a mix with the guided search",
		params: []param{
			{"skill", "1", "where on the dial (0..2): 1 is skilled, 2 expert", floatIn(0, MaxSkill)},
			weightsParam,
		},
		build: func(p map[string]string) (func() Policy, error) {
			n, err := pinnedNet(p["weights"])
			if err != nil {
				return nil, err
			}
			return dialWith(p, n), nil
		},
		withNet: dialWith,
		// Above 1 the dial searches as the expert does: as many paired
		// games as fit a minute or two there.
		compareGamesOf: func(p map[string]string) int64 {
			if atof(p, "skill") > 1 {
				return 500
			}
			return defaultCompareGames
		},
	})
}

func dialWith(p map[string]string, n *Net) func() Policy {
	s := DialSkill(atof(p, "skill"))
	return func() Policy { return NewDial(s, n) }
}

// DialSetting is where the dial stands, in the two numbers the skill
// sets: the temperature of its softmax over the learned score and its
// chance of playing the guided search's choice instead.
type DialSetting struct {
	Tau float64 // in votes of the learned score; 0: its best option, +Inf: uniform
	Mix float64 // 0..1
}

// Dial temperature: tau(s) = dialTau0 · ((1 − s)/s)^dialTauPower below
// skill 1. The constants make the win rate on Normal rise about evenly
// along the lower half (measured on master seed 13000, 600 games a
// temperature: tau 0.25 wins 45%, 0.5 32%, 1 8%, 2 1.5%).
const (
	dialTau0     = 0.6
	dialTauPower = 0.4
)

// DialSkill is the setting of skill s (0..MaxSkill).
func DialSkill(s float64) DialSetting {
	switch {
	case s >= 1:
		return DialSetting{Mix: min(s, MaxSkill) - 1}
	case s <= 0:
		return DialSetting{Tau: math.Inf(1)}
	}
	return DialSetting{Tau: dialTau0 * math.Pow((1-s)/s, dialTauPower)}
}

// DialSpec is the canonical spec of the dial at skill s (0..MaxSkill):
// "dial:skill=0.4", and "dial" at 1, the default.
func DialSpec(s float64) string {
	sp, err := Parse("dial:skill=" + strconv.FormatFloat(s, 'g', -1, 64))
	if err != nil {
		panic("policy: " + err.Error())
	}
	return sp.String()
}

// LogProb is the log of the chance that the dial at setting d picks
// option chosen of a decision where the learned scores are scores and the
// guided search picks option search (−1: not searched, when Mix is 0).
// It is −Inf for an option the setting never picks.
func (d DialSetting) LogProb(scores []float64, chosen, search int) float64 {
	best := argmax(scores)
	if d.Mix > 0 {
		p := 0.0
		if chosen == search {
			p += d.Mix
		}
		if chosen == best {
			p += 1 - d.Mix
		}
		return math.Log(p)
	}
	if d.Tau == 0 {
		if chosen == best {
			return 0
		}
		return math.Inf(-1)
	}
	top := scores[best]
	sum := 0.0
	for _, s := range scores {
		sum += math.Exp((s - top) / d.Tau)
	}
	return (scores[chosen]-top)/d.Tau - math.Log(sum)
}

// Dial is the player of one setting of the dial.
type Dial struct {
	set    DialSetting
	scorer *Greedy
	search *MCTS // nil when Mix is 0
	rng    rand.PCG
	probs  [engine.MaxOptions]float64
}

// NewDial returns the dial's player at setting s, scoring by the net n.
// At skill 1 it plays exactly as the learned player (the same scores on
// the same determinizations), at skill 2 exactly as the expert's search
// (the same stream and tree).
func NewDial(s DialSetting, n *Net) *Dial {
	d := &Dial{set: s, scorer: NewLearned(n, 1)}
	if s.Mix > 0 {
		d.search = NewMCTS(expertSearch(n))
	}
	return d
}

// expertSearch is the guided search of the expert level,
// mcts:iters=100,prior=16 with the other parameters at their defaults.
func expertSearch(n *Net) MCTSConfig {
	return MCTSConfig{Iters: 100, Rollout: "random", Depth: 16, C: 0.7, Scale: 10, Reuse: true, PriorDepth: 16, CP: 1.5, Net: n}
}

// Reset seeds the scorer's, the search's and the dial's own streams from
// the game seed.
func (d *Dial) Reset(gameSeed uint64) {
	d.scorer.Reset(gameSeed)
	if d.search != nil {
		d.search.Reset(gameSeed)
	}
	d.rng.Seed(gameSeed, deal.StreamDial)
}

// SetStop hands the search the run's stop flag.
func (d *Dial) SetStop(stop *atomic.Bool) {
	if d.search != nil {
		d.search.SetStop(stop)
	}
}

// Choose plays the search's choice with chance Mix, else an option drawn
// from the softmax of the learned scores at temperature Tau. The search
// runs at every decision, whatever the draw, so that its tree and stream
// depend on the game alone: DialReader, following a recorded game, then
// sees the choices this player saw.
func (d *Dial) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	if len(legal) == 1 {
		return legal[0]
	}
	var pick engine.Option
	if d.search != nil {
		pick = d.search.Choose(g, legal)
		if d.set.Mix >= 1 {
			return pick
		}
	}
	scores := d.scorer.Scores(g, legal)
	if d.search != nil && unit(&d.rng) < d.set.Mix {
		return pick
	}
	o := legal[d.draw(scores)]
	if d.search != nil {
		d.search.Played(o)
	}
	return o
}

// draw picks an option's index from the softmax of scores at Tau: the
// best at Tau 0.
func (d *Dial) draw(scores []float64) int {
	if d.set.Tau == 0 {
		return argmax(scores)
	}
	p := softmax(scores, d.set.Tau, d.probs[:len(scores)])
	u := unit(&d.rng)
	for i, q := range p {
		if u -= q; u < 0 {
			return i
		}
	}
	return len(p) - 1
}

// unit is a uniform draw in [0, 1) from r.
func unit(r *rand.PCG) float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// argmax is the index of the highest score, the first of equals.
func argmax(s []float64) int {
	best := 0
	for i := range s {
		if s[i] > s[best] {
			best = i
		}
	}
	return best
}

// softmax writes to out the softmax of scores at temperature tau.
func softmax(scores []float64, tau float64, out []float64) []float64 {
	top := scores[argmax(scores)]
	sum := 0.0
	for i, s := range scores {
		out[i] = math.Exp((s - top) / tau)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// DialReader follows a recorded game decision by decision and gives, at
// each, what the dial's choice there depends on: the learned scores of
// the options and the guided search's pick. It is seeded as the dial is,
// from the game seed, so a game the dial played reads back exactly as the
// dial saw it; for a person's game it is the dial looking over their
// shoulder.
type DialReader struct {
	scorer *Greedy
	search *MCTS // nil: the search is not read
	scores [engine.MaxOptions]float64
}

// NewDialReader returns a reader scoring by the net n, with the guided
// search when search is set (the dial above skill 1 needs it).
func NewDialReader(n *Net, search bool) *DialReader {
	r := &DialReader{scorer: NewLearned(n, 1)}
	if search {
		r.search = NewMCTS(expertSearch(n))
	}
	return r
}

// Reset starts a game of game seed gameSeed.
func (r *DialReader) Reset(gameSeed uint64) {
	r.scorer.Reset(gameSeed)
	if r.search != nil {
		r.search.Reset(gameSeed)
	}
}

// Read returns, for a decision of g with the options legal (at least
// two: a decision without a choice tells nothing of the dial, and the
// dial does not read it) at which played was chosen, the learned score of
// each option and the index of the search's pick (−1 without the
// search), and the index of the option the learned score rates best
// (the first of equals: the skilled level's choice). The scores are valid
// until the next call.
func (r *DialReader) Read(g *engine.Game, legal []engine.Option, played engine.Option) (scores []float64, best, search int) {
	search = -1
	if r.search != nil {
		pick := r.search.Choose(g, legal)
		r.search.Played(played)
		for i, o := range legal {
			if o == pick {
				search = i
			}
		}
	}
	scores = r.scores[:len(legal)]
	copy(scores, r.scorer.Scores(g, legal))
	return scores, argmax(scores), search
}
