package engine_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

var mutatedRules = flag.Int("mutated-rules", 0, "rules files to mutate and play in TestMutatedRulesPlay (default 1000, 100 with -short), each played on both difficulties")

// TestMutatedRulesPlay: every rules file that validation accepts can be
// played to the end (1–3 Solo cards passed validation and
// then panicked). It mutates the reference set at random through With,
// keeps each rule set that validates, and plays a random-player game on it
// against the real Opposition on each difficulty, checking the invariants
// after every decision, with one determinized copy played out per game. Any failure is reported with the assignments and seed that
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
	// Once per game, at a decision drawn from the seed, a search player's
	// view: a determinized copy played out to the end, so that resampling
	// the hidden cards and tiles holds for these rules too.
	at := int(seed % 64)
	for n := 0; !g.Over(); n++ {
		if n == at {
			c := *g
			c.Determinize(seed)
			if err := engine.NewRandomPlayer(seed).Play(&c); err != nil {
				return fmt.Errorf("determinized at decision %d: %v", n, err)
			}
			if err := c.Check(); err != nil {
				return fmt.Errorf("determinized at decision %d: %v", n, err)
			}
		}
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

// TestEdgeRulesPlay plays rule sets at the edges of what validation allows,
// where the mutations of TestMutatedRulesPlay seldom reach: the fewest
// cards, tiles, cubes and rounds, the most rounds, the shortest track.
func TestEdgeRulesPlay(t *testing.T) {
	oneEach := `[` +
		`{"id":"PW","deck":"Public Works","slots":["Public Works","money:1","Celebrity","popularity:1"],"ability":{"kind":"draw_cube"}},` +
		`{"id":"CE","deck":"Celebrity","slots":["Celebrity","money:1","Research","popularity:1"],"ability":{"kind":"attract_cube"}},` +
		`{"id":"RE","deck":"Research","slots":["Research","money:1","Campaign","popularity:1"],"ability":{"kind":"research_bonus","polling":1}},` +
		`{"id":"CA","deck":"Campaign","slots":["Campaign","money:1","Public Works","popularity:1"],"ability":{"kind":"polling_any","polling":1}}]`
	round := `{"turns":4,"hand_size":4,"presence":{"kind":"money","amount":1},"district_majority":{"kind":"vote_share","amount":1},"plaza_majority":{"kind":"popularity","amount":3},"opposition_plaza_advance":true}`
	solo4 := `[` +
		`{"id":"S1","left_district":"Red","right_district":"Blue","left_action":"Public Works","right_action":"Celebrity"},` +
		`{"id":"S2","left_district":"Green","right_district":"Yellow","left_action":"Research","right_action":"Campaign"},` +
		`{"id":"S3","left_district":"Blue","right_district":"Green","left_action":"Celebrity","right_action":"Research"},` +
		`{"id":"S4","left_district":"Yellow","right_district":"Red","left_action":"Campaign","right_action":"Public Works"}]`
	tiles := `[["M"],["RM"],["RMM"]]`
	tests := []struct {
		name string
		set  []string
	}{
		{"one Strategy card a deck", []string{"strategy_cards=" + oneEach,
			"rounds=[" + round + "," + round + "," + round + "," + round + "]"}},
		{"four Solo cards, eight rounds of four turns", []string{"solo_cards=" + solo4,
			"rounds=[" + strings.Repeat(round+",", 7) + round + "]"}},
		{"a single round", []string{"rounds=[" + round + "]"}},
		{"one tile a tier", []string{"celebrity_tiles=" + tiles, "public_works_tiles=" + tiles}},
		{"one cube a colour, all in the Plaza", []string{"cubes_per_district=1", "plaza_cubes_at_setup=4"}},
		{"no cubes in the Plaza", []string{"plaza_cubes_at_setup=0"}},
		{"one Badge", []string{"badges_per_player=1"}},
		{"a track of three", []string{"track.max=3", "track.vote_share_icons=[1]", "track.endorsement_thresholds=[1,2,3]",
			"track.token_space=1", `politicians=[{"id":"small","money":3,"polling":{"Red":3}}]`}},
		{"nothing costs anything", []string{"actions.public_works_money_per_tier=0", "actions.celebrity_money_per_tier=0",
			"actions.celebrity_popularity_per_tier=0", "actions.campaign_popularity=0", "actions.direct_appeal_money=0",
			"actions.direct_appeal_popularity=0"}},
		{"everything costs the most", []string{"actions.public_works_money_per_tier=40", "actions.celebrity_money_per_tier=40",
			"actions.campaign_popularity=40", "actions.direct_appeal_money=40", "track.max=40"}},
	}
	player := engine.NewRandomPlayer(0)
	g := new(engine.Game)
	games := 50
	if testing.Short() {
		games = 5
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := make([]engine.Assignment, len(tt.set))
			for i, s := range tt.set {
				a, err := engine.ParseAssignment(s)
				if err != nil {
					t.Fatal(err)
				}
				as[i] = a
			}
			r, err := engine.Reference().With(as...)
			if err != nil {
				t.Fatal(err)
			}
			for seed := range uint64(games) {
				for mode := range engine.Mode(2) {
					pol := int(seed) % len(r.Politicians)
					if err := playOne(g, player, r, seed, mode, pol); err != nil {
						t.Fatalf("%s, politician %d, seed %d: %v", mode, pol, seed, err)
					}
				}
			}
		})
	}
}
