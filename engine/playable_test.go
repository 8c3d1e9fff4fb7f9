package engine_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

var mutatedRules = flag.Int("mutated-rules", 0, "rules files to mutate and play in TestMutatedRulesPlay (default 1000, 100 with -short), each played on both difficulties")

// TestMutatedRulesPlay: every rules file that validation accepts can be
// played to the end (issue 11 item 4: 1–3 Solo cards passed validation and
// then panicked). It mutates the reference set at random through With,
// keeps each rule set that validates, and plays a random-player game on it
// against the real Opposition on each difficulty, checking the invariants
// after every decision. Any failure is reported with the assignments and seed that
// reproduce it.
func TestMutatedRulesPlay(t *testing.T) {
	n := *mutatedRules
	if n == 0 {
		n = 1000
		if testing.Short() {
			n = 100
		}
	}
	rng := rand.New(rand.NewPCG(11, 4))
	m := newMutator(t, rng)
	player := engine.NewRandomPlayer(0)
	g := new(engine.Game)
	played, tries := 0, 0
	for ; played < n; tries++ {
		if tries > 20*n {
			t.Fatalf("only %d of %d mutated rule sets validated", played, n)
		}
		r := m.mutate(1 + rng.IntN(3))
		if r == nil {
			continue
		}
		for mode := range engine.Mode(2) {
			seed := rng.Uint64()
			pol := rng.IntN(len(r.Politicians))
			if err := playOne(g, player, r, seed, mode, pol); err != nil {
				t.Fatalf("with %q, %s, politician %d, seed %d: %v", r.Overrides, mode, pol, seed, err)
			}
		}
		played++
	}
	t.Logf("%d mutated rule sets played on both difficulties, %d drawn", played, tries)
}

// playOne plays a game to its end, checking the invariants after every
// decision and turning a panic into an error.
func playOne(g *engine.Game, p *engine.RandomPlayer, r *engine.Rules, seed uint64, mode engine.Mode, pol int) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	if err := g.Reset(r, seed, engine.Config{Mode: mode, Politician: pol, Opposition: opposition.Solo{}}); err != nil {
		return err
	}
	p.Reset(seed)
	for !g.Over() {
		if err := g.Apply(p.Choose(g)); err != nil {
			return err
		}
		if err := g.Check(); err != nil {
			return err
		}
	}
	return nil
}

// leaf is one value of the reference rules file: a scalar, or an array.
// Its shape is its path with the indexes removed.
type leaf struct {
	path, shape string
	value       any
}

// mutator draws random rule sets near the reference set.
type mutator struct {
	rng    *rand.Rand
	leaves []leaf
	arrays []leaf // arrays whose length a mutation may change
	// strings by the path shape (indexes removed), so a District name is
	// replaced by a District name, an action by an action.
	strings map[string][]string
}

func newMutator(t *testing.T, rng *rand.Rand) *mutator {
	var doc any
	if err := json.Unmarshal(engine.Reference().Canonical(), &doc); err != nil {
		t.Fatal(err)
	}
	m := &mutator{rng: rng, strings: map[string][]string{}}
	m.walk("", "", doc)
	return m
}

func (m *mutator) walk(path, shape string, v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if path == "" && (k == "name" || k == "version" || k == "notes") {
				continue // metadata: no effect on play
			}
			m.walk(join(path, k), join(shape, k), v[k])
		}
	case []any:
		m.arrays = append(m.arrays, leaf{path, shape, v})
		for i, e := range v {
			m.walk(path+"["+strconv.Itoa(i)+"]", shape+"[]", e)
		}
	default:
		m.leaves = append(m.leaves, leaf{path, shape, v})
		if s, ok := v.(string); ok && !slices.Contains(m.strings[shape], s) {
			m.strings[shape] = append(m.strings[shape], s)
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mutate applies k random changes to the reference set at once; it
// returns nil when the result does not validate.
func (m *mutator) mutate(k int) *engine.Rules {
	as := make([]engine.Assignment, k)
	for i := range as {
		as[i] = m.change()
	}
	r, err := engine.Reference().With(as...)
	if err != nil {
		return nil
	}
	return r
}

// renamed returns a copy of an array element with a new id, when it has
// one, so that a repeated card is a new card and not a refused repeat.
func renamed(e any, n int) any {
	obj, ok := e.(map[string]any)
	if !ok {
		return e
	}
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	if id, ok := c["id"].(string); ok {
		c["id"] = id + "-copy" + strconv.Itoa(n)
	}
	return c
}

// arrayShapes lists the distinct shapes of the arrays, in file order.
func (m *mutator) arrayShapes() []string {
	var shapes []string
	for _, a := range m.arrays {
		if !slices.Contains(shapes, a.shape) {
			shapes = append(shapes, a.shape)
		}
	}
	return shapes
}

// change draws one assignment: mostly a scalar near its reference value,
// sometimes an array made shorter or longer by dropping or repeating
// elements (counts of cards, rounds, tiles and icons).
func (m *mutator) change() engine.Assignment {
	if m.rng.IntN(4) == 0 {
		// Draw the kind of array first, so the few arrays that count
		// cards and rounds are drawn as often as the many card slots.
		shapes := m.arrayShapes()
		shape := shapes[m.rng.IntN(len(shapes))]
		var same []leaf
		for _, a := range m.arrays {
			if a.shape == shape {
				same = append(same, a)
			}
		}
		a := same[m.rng.IntN(len(same))]
		elems := slices.Clone(a.value.([]any))
		switch {
		case len(elems) > 1 && m.rng.IntN(2) == 0:
			cut := 1 + m.rng.IntN(len(elems))
			elems = elems[:len(elems)-min(cut, len(elems)-1)]
		case len(elems) > 0:
			for range 1 + m.rng.IntN(4) {
				elems = append(elems, renamed(elems[m.rng.IntN(len(elems))], len(elems)))
			}
		}
		b, _ := json.Marshal(elems)
		return engine.Assignment{Path: a.path, Value: string(b)}
	}
	l := m.leaves[m.rng.IntN(len(m.leaves))]
	switch v := l.value.(type) {
	case float64:
		return engine.Assignment{Path: l.path, Value: strconv.Itoa(m.rng.IntN(int(v)*2+4) - 1)}
	case bool:
		return engine.Assignment{Path: l.path, Value: strconv.FormatBool(!v)}
	case string:
		choices := m.strings[l.shape]
		return engine.Assignment{Path: l.path, Value: choices[m.rng.IntN(len(choices))]}
	}
	panic(fmt.Sprintf("unexpected leaf %s = %v", l.path, l.value))
}
