package exec

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// positions returns games stopped at player decisions from every part of
// the game (first turn, mid-round, Clean Up, late rounds, the Final Tally
// reveals), reached by random play: solo games, and games at tables of 3
// and 4 players, where other players' hands are hidden too.
func positions(t testing.TB) []*engine.Game {
	t.Helper()
	var out []*engine.Game
	buf := make([]engine.Option, 0, engine.MaxOptions)
	r := engine.Reference()
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		var g *engine.Game
		var err error
		if seed <= 6 {
			g, err = engine.New(r, seed, engine.Config{Mode: engine.Mode(seed % 2), Politician: int(seed) % len(r.Politicians), Opposition: opposition.Solo{}})
		} else {
			g = new(engine.Game)
			err = g.ResetTable(r, seed, engine.TableConfig{Politicians: []int{0, 1, 2, 3}[:seed-4]})
		}
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; !g.Over(); step++ {
			legal := g.Legal(buf[:0])
			if step%9 == 0 || g.Pending == engine.DecReveal || g.Pending == engine.DecDraw {
				c := *g
				out = append(out, &c)
			}
			if err := g.Apply(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// decisionJSON is the decision message the harness would send for g.
func decisionJSON(t testing.TB, g *engine.Game) []byte {
	t.Helper()
	legal := g.Legal(nil)
	b, err := json.Marshal(Decision{Type: "decision", N: 1, Decision: g.Pending.String(), View: NewView(g), Options: Options(g, legal)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hiddenJSON is the hidden information of g, to show the worlds differ.
func hiddenJSON(g *engine.Game) []byte {
	var faces []uint8
	for i := range g.NPlaced {
		if !g.Placed[i].FaceUp {
			faces = append(faces, g.Placed[i].Face)
		}
	}
	var hands []any
	for s := range g.NSeats {
		if s != g.Decision().Seat {
			hands = append(hands, g.Seats[s].Hand)
		}
	}
	b, _ := json.Marshal([]any{g.Solo, g.SoloBox, g.Decks, g.Piles, faces, hands})
	return b
}

// TestViewNoPeeking: two worlds that differ only in hidden information
// (the true game and the same game with its hidden information resampled
// by Determinize) give byte-identical decision messages, view and options.
func TestViewNoPeeking(t *testing.T) {
	ps := positions(t)
	differed := 0
	var kinds = map[engine.DecisionKind]bool{}
	var faceUp, faceDown, supportUp, boxSeen, table bool
	for i, g := range ps {
		table = table || !g.IsSolo()
		want := decisionJSON(t, g)
		kinds[g.Pending] = true
		for w := range 3 {
			alt := *g
			alt.Determinize(uint64(1000*i + w))
			if !bytes.Equal(hiddenJSON(&alt), hiddenJSON(g)) {
				differed++
			}
			if got := decisionJSON(t, &alt); !bytes.Equal(got, want) {
				t.Fatalf("position %d (round %d, %s), world %d: the message differs:\n%s\nwant\n%s", i, g.Round+1, g.Pending, w, got, want)
			}
		}
		v := NewView(g)
		for _, tv := range v.Tiles {
			faceUp = faceUp || tv.Face != nil
			faceDown = faceDown || tv.Face == nil
		}
		for _, d := range v.Districts {
			supportUp = supportUp || d.InitialSupport != nil
		}
		boxSeen = boxSeen || len(v.Solo.BoxSeen) > 0
	}
	// The test means something only if the worlds did differ and the
	// views showed what the player may see of the hidden parts.
	if differed < 2*len(ps) {
		t.Errorf("hidden information differed in only %d of %d worlds", differed, 3*len(ps))
	}
	if !faceUp || !faceDown || !supportUp || !boxSeen || !table {
		t.Errorf("positions too narrow: face-up tile %v, face-down tile %v, Initial Support up %v, Solo cards seen in the box %v, table %v",
			faceUp, faceDown, supportUp, boxSeen, table)
	}
	for _, k := range []engine.DecisionKind{engine.DecCard, engine.DecColumn, engine.DecRow, engine.DecRegion, engine.DecAction, engine.DecDiscard, engine.DecDraw, engine.DecReveal, engine.DecInitiative} {
		if !kinds[k] {
			t.Errorf("no position at a %s decision", k)
		}
	}
	t.Logf("%d positions, 3 worlds each", len(ps))
}

// TestViewCatchesAPeek shows the comparison is sharp: the same messages
// with the Solo deck's order, or another player's hand, added differ
// between the worlds.
func TestViewCatchesAPeek(t *testing.T) {
	peeks := map[string]func(g *engine.Game) []byte{
		"the Solo deck": func(g *engine.Game) []byte { return g.Solo.Cards[:g.Solo.N] },
		"the next seat's hand": func(g *engine.Game) []byte {
			st := &g.Seats[(g.Decision().Seat+1)%g.NSeats]
			return st.Hand[:st.NHand]
		},
	}
	for name, peek := range peeks {
		caught := 0
		for i, g := range positions(t) {
			alt := *g
			alt.Determinize(uint64(i))
			if !bytes.Equal(append(decisionJSON(t, g), peek(g)...), append(decisionJSON(t, &alt), peek(&alt)...)) {
				caught++
			}
		}
		if caught == 0 {
			t.Errorf("a view with %s never differed between the worlds", name)
		}
	}
}

func TestOptionIDsUnique(t *testing.T) {
	for i, g := range positions(t) {
		seen := map[string]bool{}
		for _, o := range Options(g, g.Legal(nil)) {
			if seen[o.ID] {
				t.Errorf("position %d: option id %q twice", i, o.ID)
			}
			seen[o.ID] = true
		}
	}
}
