package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
)

func levelChance(t testing.TB, level string) *WinChance {
	t.Helper()
	c, err := ShippedChance().For(level)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// forgedChance is the shipped win-chance file with forge applied to its
// JSON: the whole file f and its level l, the one at index level.
func forgedChance(t testing.TB, level int, forge func(f, l map[string]any)) []byte {
	t.Helper()
	var f map[string]any
	if err := json.Unmarshal(shippedChance, &f); err != nil {
		t.Fatal(err)
	}
	forge(f, f["levels"].([]any)[level].(map[string]any))
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// toV1 makes a forged shipped file one of format /1: no intervals, no
// knees.
func toV1(f, _ map[string]any) {
	f["format"] = "tallywood-winchance/1"
	for _, l := range f["levels"].([]any) {
		delete(l.(map[string]any), "interval")
		delete(l.(map[string]any), "knee_at")
		delete(l.(map[string]any), "knee_slope")
	}
}

// TestWinChanceIgnoresHidden: the win chance reads nothing hidden. At
// positions from every phase, a world with the same view and other hidden
// facts (Determinize) has the same chance, bit for bit.
func TestWinChanceIgnoresHidden(t *testing.T) {
	for _, level := range ShippedChance().Levels() {
		c := levelChance(t, level)
		for i, g := range positions(t) {
			want := c.Of(g)
			for w := range 3 {
				alt := *g
				alt.Determinize(uint64(w + 10))
				if got := c.Of(&alt); got != want {
					t.Errorf("%s, position %d, world %d: chance %v, want %v", level, i, w, got, want)
				}
			}
		}
	}
}

// TestArcIgnoresHidden: a game's arc, its chances and the decisions'
// parts (the determinized copies' mean included), is the same in two
// worlds the player cannot tell apart, played by the same policy, up to
// the first chance the player sees (where the worlds part): the split
// reads nothing hidden either.
func TestArcIgnoresHidden(t *testing.T) {
	r := engine.Reference()
	c := levelChance(t, "casual")
	buf := make([]engine.Option, 0, engine.MaxOptions)
	for i := range 8 {
		seed := deal.GameSeed(31, uint64(i))
		a := NewArc(c, 4)
		var g engine.Game
		a.Start(&g, seed)
		d := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex, Opposition: a.Opposition(opposition.Solo{})}
		if err := d.Deal(&g, r, seed); err != nil {
			t.Fatal(err)
		}
		var worlds [2][]ArcPoint
		for w := range worlds {
			h := g
			if w == 1 {
				h.Determinize(99)
			}
			a.Start(&h, seed)
			p := NewGreedy(1)
			p.Reset(seed)
			for k := 0; k < 60 && !h.Over(); k++ {
				o := p.Choose(&h, h.Legal(buf[:0]))
				a.Decided(&h, o)
				if err := h.Apply(o); err != nil {
					t.Fatal(err)
				}
			}
			a.End(&h)
			worlds[w] = slices.Clone(a.Points)
		}
		for k, want := range worlds[0] {
			got := worlds[1][k]
			if got.Kind == ArcEnd || want.Kind == ArcEnd {
				break
			}
			if got.Chance != want.Chance || got.Decision != want.Decision || got.Kind != want.Kind {
				t.Errorf("game %d, point %d: %+v, want %+v", i, k, got, want)
			}
			if want.Luck != 0 || got.Luck != 0 || want.Opposition != 0 || want.Flip != 0 {
				break // the worlds part here
			}
		}
	}
}

// TestArcAddsUp: in every game, of several policies and both
// difficulties, the parts of the steps add up to the outcome minus the
// first point's chance; decisions have no flip or Opposition part and the
// Opposition's turns no decision; a step's luck has its source; every
// Opposition turn names the Solo card it played; a game's points start
// each of the player's turns once, in order; the chance at the Final
// Tally's start is a chance.
func TestArcAddsUp(t *testing.T) {
	r := engine.Reference()
	for _, spec := range []string{"random", "greedy", "learned"} {
		sp, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		c := levelChance(t, "casual")
		a := NewArc(c, 3)
		for i := range 12 {
			seed := deal.GameSeed(77, uint64(i))
			var g engine.Game
			a.Start(&g, seed)
			d := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex, Opposition: a.Opposition(opposition.Solo{})}
			if err := PlaySoloWatched(&g, r, seed, d, sp.New(), nil, a); err != nil {
				t.Fatal(err)
			}
			a.End(&g)
			pts := a.Points
			sum, turns := 0.0, 0
			for k, p := range pts[:len(pts)-1] {
				parts := p.Decision + p.Luck + p.Flip + p.Opposition
				sum += parts
				if step := pts[k+1].Chance - p.Chance; math.Abs(parts-step) > 1e-12 {
					t.Errorf("%s game %d point %d: parts %+v, step %v", spec, i, k, p, step)
				}
				if p.Luck != 0 && p.Source == LuckNone {
					t.Errorf("%s game %d point %d: luck %v of source %d", spec, i, k, p.Luck, p.Source)
				}
				switch p.Kind {
				case ArcDecision:
					if p.Opposition != 0 || p.Flip != 0 {
						t.Errorf("%s game %d point %d: a decision with an Opposition part", spec, i, k)
					}
				case ArcOpposition:
					if p.Decision != 0 || p.Card < 0 {
						t.Errorf("%s game %d point %d: an Opposition turn %+v", spec, i, k, p)
					}
				}
				if p.PlayerTurn >= 0 {
					if p.PlayerTurn != turns {
						t.Errorf("%s game %d: turn %d starts at point %d, want turn %d", spec, i, p.PlayerTurn, k, turns)
					}
					turns++
				}
			}
			last := pts[len(pts)-1]
			if last.Kind != ArcEnd || last.Chance != OutcomeScore(&g) {
				t.Fatalf("%s game %d: last point %+v", spec, i, last)
			}
			if want := last.Chance - pts[0].Chance; math.Abs(sum-want) > 1e-9 {
				t.Errorf("%s game %d: parts add up to %v, want %v", spec, i, sum, want)
			}
			if turns != gameTurns(r) {
				t.Errorf("%s game %d: %d turns started, want %d", spec, i, turns, gameTurns(r))
			}
			if a.FinalTally < 0 || a.FinalTally > 1 {
				t.Errorf("%s game %d: the Final Tally's start at %v", spec, i, a.FinalTally)
			}
		}
	}
}

// TestArcChangesNoGame: a game played with an Arc watching is the game
// played without.
func TestArcChangesNoGame(t *testing.T) {
	r := engine.Reference()
	sp, _ := Parse("greedy")
	a := NewArc(levelChance(t, "casual"), 4)
	for i := range 6 {
		seed := deal.GameSeed(5, uint64(i))
		var g, h engine.Game
		d := deal.Solo{Mode: engine.Mode(i % 2), Politician: deal.RandomPoliticianIndex, Opposition: opposition.Solo{}}
		if err := PlaySolo(&g, r, seed, d, sp.New(), nil); err != nil {
			t.Fatal(err)
		}
		a.Start(&h, seed)
		d.Opposition = a.Opposition(opposition.Solo{})
		if err := PlaySoloWatched(&h, r, seed, d, sp.New(), nil, a); err != nil {
			t.Fatal(err)
		}
		if g.Result != h.Result {
			t.Errorf("game %d: %+v with the arc, %+v without", i, h.Result, g.Result)
		}
	}
}

// TestWinChanceOfAFinishedGame: once the game is over the chance is its
// outcome.
func TestWinChanceOfAFinishedGame(t *testing.T) {
	c := levelChance(t, "casual")
	for seed := uint64(1); seed <= 3; seed++ {
		g := newGame(t, seed, engine.Mode(seed%2))
		p := NewGreedy(1)
		p.Reset(seed)
		if err := Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
		if got, want := c.Of(g), OutcomeScore(g); got != want {
			t.Errorf("seed %d: chance %v at the end, want %v", seed, got, want)
		}
	}
}

// TestWinChanceAllocatesNothing: an evaluation allocates nothing.
func TestWinChanceAllocatesNothing(t *testing.T) {
	c := levelChance(t, "casual")
	g := positions(t)[3]
	if n := testing.AllocsPerRun(100, func() { c.Of(g) }); n != 0 {
		t.Errorf("an evaluation allocates %v times", n)
	}
}

// TestChanceFileRoundTrips: the shipped file reads back to the same
// bytes, and a bad one is refused with a reason.
func TestChanceFileRoundTrips(t *testing.T) {
	m := ShippedChance()
	if !bytes.Equal(m.Encode(), shippedChance) {
		t.Error("the shipped win-chance file does not encode back to itself")
	}
	for _, c := range []struct{ data, want string }{
		{`{"format":"x"}`, "format"},
		{`{"format":"tallywood-winchance/1","inputs":3}`, "inputs"},
		{`{"format":"tallywood-winchance/1","inputs":70,"levels":[]}`, "no levels"},
		{`{"format":"tallywood-winchance/1","inputs":70,"levels":[{"level":"wizard","hidden":0}]}`, "not a skill level"},
		{`{"format":"tallywood-winchance/1","inputs":70,"levels":[{"level":"casual","hidden":1,"w1":[],"b1":[],"w2":[],"b2":0}]}`, "weights"},
	} {
		if _, err := ParseChance([]byte(c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.data, err, c.want)
		}
	}
	// Forged levels: a kind bias is bounded as a weight is, and there is
	// one per kind; the interval has one half-width per stage of the game,
	// each in [0, 1]; the knee has a weight's bounds and a slope above −1
	// (the chance still grows with the logit); a /1 file has neither.
	for _, c := range []struct {
		name  string
		level int
		forge func(f, l map[string]any)
		want  string
	}{
		{"a kind bias of 1e30", 0, func(_, l map[string]any) { l["kind_bias"].([]any)[0] = 1e30 }, "kind_bias"},
		{"a kind bias short", 0, func(_, l map[string]any) { l["kind_bias"] = l["kind_bias"].([]any)[1:] }, "kind_bias"},
		{"an interval short", 1, func(_, l map[string]any) { l["interval"] = l["interval"].([]any)[1:] }, "interval"},
		{"an interval above 1", 1, func(_, l map[string]any) { l["interval"].([]any)[3] = 1.5 }, "interval"},
		{"an interval negative", 1, func(_, l map[string]any) { l["interval"].([]any)[0] = -0.1 }, "interval"},
		{"an interval missing", 1, func(_, l map[string]any) { delete(l, "interval") }, "interval"},
		{"an interval in a /1 file", 1, func(f, _ map[string]any) { f["format"] = "tallywood-winchance/1" }, "interval"},
		{"a knee slope of -1", 1, func(_, l map[string]any) { l["knee_slope"] = -1 }, "knee"},
		{"a knee at 1e9", 1, func(_, l map[string]any) { l["knee_at"] = 1e9 }, "knee"},
		{"a knee in a /1 file", 1, func(f, l map[string]any) { toV1(f, l); l["knee_slope"] = 0.5 }, "knee"},
	} {
		data := forgedChance(t, c.level, c.forge)
		if _, err := ParseChance(data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.want)
		}
	}
	var no *NoChanceError
	if _, err := m.For("novice-ish"); !errors.As(err, &no) {
		t.Errorf("an unknown level: error %v", err)
	}
	if note := m.Note(RulesPlayed{Hash: "other"}); !strings.Contains(note, "not these") {
		t.Errorf("note under other rules: %q", note)
	}
	if note := m.Note(PlayedRules(engine.Reference())); strings.Contains(note, "not these") {
		t.Errorf("note under the reference rules: %q", note)
	}
}

// BenchmarkWinChance times one evaluation of the win chance (the inputs
// and the net), at positions all through the game.
func BenchmarkWinChance(b *testing.B) {
	c := levelChance(b, ShippedChance().Levels()[0])
	pos := positions(b)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		c.Of(pos[i])
		i = (i + 1) % len(pos)
	}
}

// TestChanceFileV1: a file of format /1 (no intervals, no knee) is still
// read: its chances are the shipped ones' up to the knee, they have no
// interval, and it encodes back to itself.
func TestChanceFileV1(t *testing.T) {
	data := forgedChance(t, 0, toV1)
	m, err := ParseChance(data)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := m.For("casual")
	if err != nil {
		t.Fatal(err)
	}
	v2 := levelChance(t, "casual")
	below := 0
	for _, g := range positions(t) {
		if z := math.Log(v1.Of(g) / (1 - v1.Of(g))); z <= float64(v2.knee.At) {
			below++
			if v1.Of(g) != v2.Of(g) {
				t.Fatalf("the /1 file's chance %v, the shipped one's %v", v1.Of(g), v2.Of(g))
			}
		}
		if _, ok := v1.Interval(g); ok {
			t.Fatal("a /1 file's chance has an interval")
		}
	}
	if below == 0 {
		t.Error("no position below the knee")
	}
	again, err := ParseChance(m.Encode())
	if err != nil || !bytes.Equal(again.Encode(), m.Encode()) || !strings.Contains(string(m.Encode()), `"tallywood-winchance/1"`) {
		t.Errorf("a /1 model does not encode back to a /1 file (%v)", err)
	}
}

// TestChanceInterval: the shipped chance has an interval at every point
// of a game, within (0, 1], wider in the last round than in the first (as
// measured, docs/arc.md), and 0 once the game is over; ChanceSlot tells
// the rounds' turns and their ends apart.
func TestChanceInterval(t *testing.T) {
	c := levelChance(t, "casual")
	var first, last float64
	for _, g := range positions(t) {
		h, ok := c.Interval(g)
		if !ok || !(h > 0 && h <= 1) {
			t.Fatalf("round %d, turn %d: interval %v, %t", g.Round, g.Turn, h, ok)
		}
		switch int(g.Round) {
		case 0:
			first = max(first, h)
		case len(g.Rules().Rounds) - 1:
			last = max(last, h)
		}
	}
	if !(last > first) {
		t.Errorf("the widest interval of the last round, %v, is not wider than the first round's, %v", last, first)
	}
	var g engine.Game
	if err := PlaySolo(&g, engine.Reference(), 1, deal.Solo{Opposition: opposition.Solo{}}, mustNew(t, "casual"), nil); err != nil {
		t.Fatal(err)
	}
	if h, ok := c.Interval(&g); h != 0 || !ok {
		t.Errorf("the interval of a finished game: %v, %t", h, ok)
	}
	slots := map[int]bool{}
	for _, g := range positions(t) {
		s := ChanceSlot(g)
		if s < 0 || s >= ChanceSlots || s/ChanceTurnSlots != int(g.Round) {
			t.Fatalf("round %d, turn %d, phase %d: slot %d", g.Round, g.Turn, g.Phase, s)
		}
		if g.Phase != engine.PhaseStrategy && s%ChanceTurnSlots != ChanceTurnSlots-1 {
			t.Errorf("past the turns (phase %d): slot %d, want the round's last", g.Phase, s)
		}
		slots[s] = true
	}
	if len(slots) < 8 {
		t.Errorf("the positions fall in %d stages", len(slots))
	}
}

// FuzzParseChance: any bytes either fail with a "win chance:" error or
// give a model whose encoding parses back to the same bytes, whose
// chances are probabilities and whose intervals are within [0, 1].
func FuzzParseChance(f *testing.F) {
	f.Add(shippedChance)
	f.Add(forgedChance(f, 0, toV1))
	f.Add([]byte(`{"format":"tallywood-winchance/2","inputs":70,"meta":{},"levels":[{"level":"casual","hidden":0,"w1":[],"b1":[],"w2":[],"b2":0,"kind_bias":[0,0,0,0,0,0,0,0,0,0,0,0],"knee_at":1,"knee_slope":-0.9}]}`))
	g := positions(f)[5]
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseChance(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "win chance: ") {
				t.Fatalf("error %q lacks the prefix", err)
			}
			return
		}
		again, err := ParseChance(m.Encode())
		if err != nil {
			t.Fatalf("the encoding of a parsed model does not parse: %v", err)
		}
		if !bytes.Equal(again.Encode(), m.Encode()) {
			t.Fatal("encoding is not a fixed point")
		}
		for _, l := range m.Levels() {
			c, err := m.For(l)
			if err != nil {
				t.Fatal(err)
			}
			p := c.Of(g)
			h, ok := c.Interval(g)
			if !(p >= 0 && p <= 1) || (ok && !(h >= 0 && h <= 1)) {
				t.Fatalf("%s: chance %v, interval %v", l, p, h)
			}
		}
	})
}

// TestLoadChanceReadsBounded: a win-chance file is read as every file the
// tools read (kit.ReadFileMax): a FIFO is refused at once rather than
// waited on, /dev/zero rather than read until memory runs out (the
// chance trainer's -check -model did both), and a model whose meta text
// holds an escape sequence or follows the JSON with data is refused, not
// printed to the terminal.
func TestLoadChanceReadsBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "chance.json")
	if err := os.WriteFile(good, shippedChance, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadChance(good); err != nil {
		t.Fatalf("the shipped model: %v", err)
	}
	for _, path := range []string{fifo, "/dev/zero"} {
		if _, err := LoadChance(path); err == nil || !strings.Contains(err.Error(), "win chance: ") || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v, want it refused as not a regular file", path, err)
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"an escape in the command", forgedChance(t, 0, func(f, _ map[string]any) {
			f["meta"].(map[string]any)["command"] = "go run \x1b]0;pwned\x07 x"
		}), `win chance: meta: "go run \x1b]0;pwned\a x" holds U+001B, a control or hidden character`},
		{"a bidi override in a level's spec", forgedChance(t, 0, func(f, _ map[string]any) {
			f["meta"].(map[string]any)["levels"].([]any)[0].(map[string]any)["spec"] = "greedy\u202e"
		}), "holds U+202E"},
		{"data after the object", append(slices.Clone(shippedChance), []byte(`{"format":"x"}`)...), "win chance: data after the JSON object"},
	} {
		if _, err := ParseChance(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
