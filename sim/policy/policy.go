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
// Eval is the shared evaluation function (an estimate of the final
// margin). No policy reads hidden information; search players sample it
// with engine.Game.Determinize. docs/policies.md has the strength ladder.
package policy

import (
	"fmt"
	"sort"
	"strings"

	"tallywood/engine"
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

// Spec is a parsed policy spec string, e.g. "mcts:iters=400,rollout=greedy".
type Spec struct {
	Name   string            // the policy's name
	Params map[string]string // its parameters as given
	Canon  string            // canonical spec string, used in output
	New    func() Policy     // a fresh instance, one per worker
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
}

type param struct {
	name, def, help string
}

var registry = map[string]entry{}

func add(e entry) { registry[e.name] = e }

// Parse reads a spec string: NAME or NAME:key=value,key=value.
func Parse(spec string) (Spec, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	e, ok := registry[name]
	if !ok {
		return Spec{}, fmt.Errorf("policy %q: unknown (known: %s)", spec, strings.Join(Names(), ", "))
	}
	if e.raw != nil {
		sp, err := e.raw(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("policy %q: %v", spec, err)
		}
		return sp, nil
	}
	params := map[string]string{}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return Spec{}, fmt.Errorf("policy %q: %q is not key=value", spec, kv)
			}
			if !e.hasParam(k) {
				return Spec{}, fmt.Errorf("policy %q: %s has no parameter %q", spec, name, k)
			}
			if _, dup := params[k]; dup {
				return Spec{}, fmt.Errorf("policy %q: parameter %q given twice", spec, k)
			}
			params[k] = v
		}
	}
	for _, p := range e.params {
		if _, ok := params[p.name]; !ok {
			params[p.name] = p.def
		}
	}
	build, err := e.build(params)
	if err != nil {
		return Spec{}, fmt.Errorf("policy %q: %v", spec, err)
	}
	return Spec{Name: name, Params: params, Canon: canon(name, e, params), New: build}, nil
}

func (e entry) hasParam(k string) bool {
	for _, p := range e.params {
		if p.name == k {
			return true
		}
	}
	return false
}

// canon writes the spec with every parameter that differs from its
// default, in declaration order.
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
	return name + ":" + strings.Join(parts, ",")
}

// Names lists the registered policies.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Describe writes the policies with their parameters, for `tallywood
// policies`.
func Describe() string {
	var b strings.Builder
	for _, n := range Names() {
		e := registry[n]
		fmt.Fprintf(&b, "%-10s %s\n", n, e.summary)
		for _, p := range e.params {
			fmt.Fprintf(&b, "  %s=%s\t%s\n", p.name, p.def, p.help)
		}
	}
	return b.String()
}
