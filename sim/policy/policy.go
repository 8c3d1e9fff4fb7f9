// Package policy holds the player policies that drive the player's seat:
// each picks one of the legal options of the pending decision. They are
// named by spec strings (random, greedy, pollster, builder,
// mcts:iters=400,rollout=greedy, ...), see Describe:
//
//	sp, err := policy.Parse("mcts:iters=400")
//	p := sp.New() // one per goroutine
//	p.Reset(seed) // the policy's own random stream, from the game seed
//	err = policy.Play(g, p, nil)
//
// A skill level (novice, casual, skilled, expert, master; see Levels) is accepted
// wherever a spec is. Spec.String() is the canonical spec, the policy's
// identity.
//
// Eval is the calibrated estimate of the final margin (fitted by
// internal/fiteval); HandEval is the hand-weighted score the players
// choose by. No policy reads hidden information; search players sample it
// with engine.Game.Determinize. docs/policies.md has the strength ladder.
package policy

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/engine/kit"
)

// Policy picks an option for the player's pending decision. It sees the
// game as the player does: a policy must not read hidden information (the
// order of the decks and the bag, face-down tile faces); see Determinize
// for search players. Policies are used by one goroutine at a time.
type Policy interface {
	// Reset prepares the policy for a new game. The policy draws its own
	// randomness from a stream seeded by gameSeed, never from the game's.
	Reset(gameSeed uint64)
	// Choose returns one of legal, the options of g's pending decision.
	Choose(g *engine.Game, legal []engine.Option) engine.Option
}

// Stopper is implemented by the policies whose decisions can take long
// (the searches). The runner hands them a flag that it sets when the run is
// interrupted; a decision in progress then returns early with the best
// option found so far, so Ctrl-C stops even mcts:iters=100000 promptly.
// A game played on after that is not the game the spec plays: the runner
// discards it.
type Stopper interface {
	SetStop(stop *atomic.Bool)
}

// Spec is a parsed policy spec string, e.g. "mcts:iters=400,rollout=greedy".
//
// Two specs name the same policy exactly when their String() is equal:
// String() is the canonical spec, with the parameters sorted by name, the
// ones at their default left out and every value normalised ("mcts:c=0.70"
// and "mcts" are both "mcts"; "mcts:iters=0400" is "mcts:iters=400"). A
// skill level ("skilled") resolves to its spec: String() is that spec's,
// and only Label, the name shown in output, keeps the level's name.
type Spec struct {
	Name   string            // the policy's name
	Params map[string]string // every parameter, normalised, defaults filled in
	Level  string            // the skill level the spec was given as, or ""
	Label  string            // the name shown in output: Level if set, else String()
	New    func() Policy     // a fresh instance, one per worker
	canon  string
}

// WithNet returns the constructor of the spec's policy scoring by the
// weights n instead of the shipped ones: for the trainer's rounds of
// games and a designer's retrained weights. Only the policies that score
// by the learned value take weights.
func (s Spec) WithNet(n *Net) (func() Policy, error) {
	e, ok := registry[s.Name]
	if !ok || e.withNet == nil || !usesNet(s) {
		return nil, fmt.Errorf("policy %q does not score by the learned value", s.Label)
	}
	return e.withNet(s.Params, n), nil
}

// WeightsFile is the weights file the spec's policy scores by (its
// weights=), "" for the shipped weights or a policy that takes none.
func (s Spec) WeightsFile() string {
	path, _, _ := strings.Cut(s.Params["weights"], "@")
	return path
}

// String returns the canonical spec string, the policy's identity.
func (s Spec) String() string { return s.canon }

// defaultCompareGames is CompareGames for most policies: enough for greedy
// and skilled to show a change of a point or two.
const defaultCompareGames = 10000

// CompareGames is how many paired games a comparison plays in a cell
// where s plays, when not told: a property of the policy, since it is the
// policy's speed that bounds how many fit a minute or two. A skill level
// plays its spec's policy's.
func (s Spec) CompareGames() int64 {
	e := registry[s.Name]
	if e.compareGamesOf != nil {
		return e.compareGamesOf(s.Params)
	}
	if e.compareGames > 0 {
		return e.compareGames
	}
	return defaultCompareGames
}

// entry describes one registered policy for Parse and the listing.
type entry struct {
	name    string
	summary string
	params  []param
	build   func(p map[string]string) (func() Policy, error)
	// raw, when set, reads everything after "NAME:" instead of build
	// (Register: exec's command line is not key=value pairs).
	raw func(rest string) (Spec, error)
	// withNet, for the policies that score by the learned value, builds
	// the policy with other weights (see Spec.WithNet).
	withNet func(p map[string]string, n *Net) func() Policy
	// compareGames, when not 0, is the policy's own Spec.CompareGames:
	// the slow ones play fewer.
	compareGames int64
	// compareGamesOf, when set, is CompareGames by the parameters: the
	// dial searches above skill 1 only.
	compareGamesOf func(p map[string]string) int64
}

// param is one parameter of a policy: its default and how a value is
// checked and written canonically.
type param struct {
	name, def, help string
	norm            func(v string) (string, error)
}

var registry = map[string]entry{}

// add registers policy e, once; a skill level's name is not a policy's
// (Parse reads it as the level).
func add(e entry) {
	if _, dup := registry[e.name]; dup {
		panic("policy: " + e.name + " registered twice")
	}
	if _, level := levelByName(e.name); level {
		panic("policy: " + e.name + " is a skill level's name")
	}
	registry[e.name] = e
}

// Parse reads a spec string: NAME, NAME:key=value,key=value, or the name
// of a skill level (see Levels).
func Parse(spec string) (Spec, error) {
	name, rest, hasParams := strings.Cut(strings.TrimSpace(spec), ":")
	if lv, ok := levelByName(name); ok {
		if hasParams {
			return Spec{}, fmt.Errorf("policy %q: skill level %s takes no parameters (it is %s)", kit.Clip(spec), name, lv.Spec)
		}
		sp, err := Parse(lv.Spec)
		if err != nil {
			return Spec{}, fmt.Errorf("policy %q: skill level: %v", kit.Clip(spec), err)
		}
		sp.Level, sp.Label = name, name
		return sp, nil
	}
	e, ok := registry[name]
	if !ok {
		return Spec{}, fmt.Errorf("policy %q: unknown%s (known: %s)", kit.Clip(spec), kit.DidYouMean(name, Names()), strings.Join(Names(), ", "))
	}
	if e.raw != nil {
		sp, err := e.raw(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("policy %q: %v", kit.Clip(spec), err)
		}
		// The outside parser writes Label; it is the identity too (issue
		// 22: every exec spec had String() "" and was "the same").
		sp.canon = sp.Label
		return sp, nil
	}
	params := map[string]string{}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return Spec{}, fmt.Errorf("policy %q: %q is not key=value", kit.Clip(spec), kit.Clip(kv))
			}
			p, ok := e.param(k)
			if !ok {
				return Spec{}, fmt.Errorf("policy %q: %s has no parameter %q", kit.Clip(spec), name, kit.Clip(k))
			}
			if _, dup := params[k]; dup {
				return Spec{}, fmt.Errorf("policy %q: parameter %q given twice", kit.Clip(spec), k)
			}
			nv, err := p.norm(v)
			if err != nil {
				return Spec{}, fmt.Errorf("policy %q: %s=%s: %v", kit.Clip(spec), k, kit.Clip(v), err)
			}
			params[k] = nv
		}
	}
	for _, p := range e.params {
		if _, ok := params[p.name]; !ok {
			params[p.name] = p.def
		}
	}
	build, err := e.build(params)
	if err != nil {
		return Spec{}, fmt.Errorf("policy %q: %v", kit.Clip(spec), err)
	}
	c := canon(name, e, params)
	return Spec{Name: name, Params: params, Label: c, New: build, canon: c}, nil
}

func (e entry) param(k string) (param, bool) {
	for _, p := range e.params {
		if p.name == k {
			return p, true
		}
	}
	return param{}, false
}

// canon writes the spec with every parameter that differs from its
// default, sorted by name.
func canon(name string, e entry, params map[string]string) string {
	var parts []string
	for _, p := range e.params {
		if params[p.name] != p.def {
			parts = append(parts, p.name+"="+params[p.name])
		}
	}
	if len(parts) == 0 {
		return name
	}
	sort.Strings(parts)
	return name + ":" + strings.Join(parts, ",")
}

// intIn checks an integer parameter within [lo, hi] and writes it in
// decimal without sign or leading zeros.
func intIn(lo, hi int) func(string) (string, error) {
	return func(s string) (string, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < lo || v > hi {
			return "", fmt.Errorf("want an integer from %d to %d", lo, hi)
		}
		return strconv.Itoa(v), nil
	}
}

// floatIn checks a number parameter within [lo, hi] (NaN and the
// infinities are refused) and writes it in the shortest form that reads
// back the same (0.70 → 0.7, 1e1 → 10).
func floatIn(lo, hi float64) func(string) (string, error) {
	return func(s string) (string, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
			return "", fmt.Errorf("want a finite number from %g to %g", lo, hi)
		}
		return strconv.FormatFloat(v, 'g', -1, 64), nil
	}
}

// oneOf checks a parameter that takes one of a few words.
func oneOf(words ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		if slices.Contains(words, s) {
			return s, nil
		}
		return "", fmt.Errorf("want %s", strings.Join(words, " or "))
	}
}

// atoi and atof read a parameter Parse has already checked.
func atoi(p map[string]string, name string) int {
	v, err := strconv.Atoi(p[name])
	if err != nil {
		panic("policy: unchecked parameter " + name)
	}
	return v
}

func atof(p map[string]string, name string) float64 {
	v, err := strconv.ParseFloat(p[name], 64)
	if err != nil {
		panic("policy: unchecked parameter " + name)
	}
	return v
}

// Names lists the registered policies, then the skill levels.
func Names() []string {
	names := make([]string, 0, len(registry)+len(Levels))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, lv := range Levels {
		names = append(names, lv.Name)
	}
	return names
}

// Describe writes the policies with their parameters, then the skill
// levels with the spec each plays, for `tallywood policies`.
func Describe() string {
	var b strings.Builder
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := registry[n]
		fmt.Fprintf(&b, "%-10s %s\n", n, e.summary)
		for _, p := range e.params {
			fmt.Fprintf(&b, "  %s=%s\t%s\n", p.name, p.def, p.help)
		}
	}
	b.WriteString("\nSkill levels (a name for a spec, accepted wherever a spec is):\n")
	for _, lv := range Levels {
		fmt.Fprintf(&b, "%-10s %s: %s\n", lv.Name, lv.Spec, lv.Summary)
	}
	return b.String()
}
