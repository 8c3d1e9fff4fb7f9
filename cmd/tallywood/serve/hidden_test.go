package serve

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"tallywood/engine"
)

// TestNoHiddenInformation plays a whole game over HTTP, the hint and the
// win chance on, and reads every response:
//
//   - none names a Solo card still in the Opposition's deck or boxed
//     unseen, nor a Strategy card in a deck that no event has shown;
//   - before each decision the page (HTML and JSON) is read twice, the
//     second time after the server's game had its hidden information
//     resampled (engine.Game.Determinize: other face-down Initial Support
//     values and tiles, other deck orders, another bag): the two must be
//     byte for byte the same, so nothing hidden reached them.
func TestNoHiddenInformation(t *testing.T) {
	ts := newTestServer(t)
	if _, err := ts.store.db.Exec("UPDATE plans SET chance = 1, hint = 1"); err != nil {
		t.Fatal(err)
	}
	token := ts.invite("ana")
	id := ts.start(token, 1)
	rng := rand.New(rand.NewPCG(5, 6))
	live := func() *liveGame {
		ts.srv.games.mu.Lock()
		defer ts.srv.games.mu.Unlock()
		return ts.srv.games.games[id]
	}
	read := func() []byte {
		page := ts.page(fmt.Sprintf("/t/%s/games/%d", token, id))
		_, js := ts.do("GET", fmt.Sprintf("/t/%s/games/%d", token, id), "", nil)
		return append(page, js...)
	}
	a := ts.state(token, id)
	responses := 0
	for step := 0; !a.Over; step++ {
		before := read()
		g := live()
		g.mu.Lock()
		checkHidden(t, g, before, fmt.Sprintf("decision %d", a.N))
		g.sess.Game().Determinize(uint64(1000 + step))
		g.mu.Unlock()
		after := read()
		if !bytes.Equal(before, after) {
			t.Fatalf("decision %d: the page changed when only hidden information did:\n%s", a.N, firstDiff(before, after))
		}
		if step%7 == 3 {
			code, body := ts.do("POST", fmt.Sprintf("/t/%s/games/%d/hint", token, id), "application/json", []byte(`{"csrf":"`+ts.srv.csrfFor(token)+`"}`))
			if code != http.StatusOK {
				t.Fatalf("hint: %d %s", code, body)
			}
			g.mu.Lock()
			checkHidden(t, g, body, fmt.Sprintf("hint at decision %d", a.N))
			g.mu.Unlock()
			responses++
		}
		code, next, body := ts.decide(token, id, a.N, a.Options[rng.IntN(len(a.Options))])
		if code != http.StatusOK {
			t.Fatalf("decision %d: %d %s", a.N, code, body)
		}
		g.mu.Lock()
		checkHidden(t, g, body, fmt.Sprintf("answer to decision %d", a.N))
		g.mu.Unlock()
		responses += 3
		a = next
	}
	t.Logf("%d responses read over %d decisions", responses, a.N)
}

// checkHidden fails when body names a card the tester cannot have seen.
func checkHidden(t *testing.T, g *liveGame, body []byte, where string) {
	t.Helper()
	game := g.sess.Game()
	r := game.Rules()
	text := string(body)
	boxSeen := map[uint8]bool{}
	for _, c := range game.SoloBoxSeen(nil) {
		boxSeen[c] = true
	}
	var hidden []string
	for _, c := range game.Solo.Cards[:game.Solo.N] {
		hidden = append(hidden, r.Solo[c].ID)
	}
	for _, c := range game.SoloBox.Cards[:game.SoloBox.N] {
		if !boxSeen[c] {
			hidden = append(hidden, r.Solo[c].ID)
		}
	}
	// Strategy cards in a deck that no event named: never drawn, played
	// or discarded where the tester saw it.
	shown := map[int16]bool{}
	for _, e := range g.sess.Events() {
		switch e.Kind {
		case engine.EvDraw, engine.EvDiscard, engine.EvPlayCard, engine.EvAbility:
			shown[e.Item] = true
		}
	}
	for d := range engine.NumDecks {
		for _, c := range game.Decks[d].Cards[:game.Decks[d].N] {
			if !shown[int16(c)] {
				hidden = append(hidden, r.Cards[c].ID)
			}
		}
	}
	for _, id := range hidden {
		if strings.Contains(text, id) {
			t.Fatalf("%s: the response names %s, which the tester cannot have seen", where, id)
		}
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return fmt.Sprintf("...%s\n--- became ---\n...%s", a[lo:min(len(a), i+200)], b[lo:min(len(b), i+200)])
}
