package engine

import (
	"reflect"
	"testing"
)

// TestRandomGamesProperties plays 10,000 seeded random games and checks the
// invariants at every decision, that every game ends with a consistent
// result, and that legal options always apply.
func TestRandomGamesProperties(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 1000
	}
	var g Game
	p := NewRandomPlayer(0)
	var buf [MaxOptions]Option
	for seed := uint64(1); seed <= uint64(games); seed++ {
		if err := g.Reset(Reference(), seed, Config{Mode: Mode(seed % 2), Politician: int(seed % 6), Opposition: scriptedOpposition{}}); err != nil {
			t.Fatal(err)
		}
		p.Reset(seed)
		for steps := 0; !g.Over(); steps++ {
			if steps > 2000 {
				t.Fatalf("seed %d: no end after %d decisions", seed, steps)
			}
			if len(g.Legal(buf[:0])) == 0 {
				t.Fatalf("seed %d: %s decision with no options", seed, g.Pending)
			}
			if err := g.Apply(p.Choose(&g)); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err := g.Check(); err != nil {
				t.Fatalf("seed %d, round %d, turn %d, %s decision: %v", seed, g.Round+1, g.Turn+1, g.Pending, err)
			}
		}
		res := &g.Result
		sum := [2]int16{res.Endorsements[0] + res.Bonus[0], res.Endorsements[1] + res.Bonus[1]}
		for d := range res.Districts {
			for s := range 2 {
				sum[s] += res.Districts[d].SeatVotes[s]
			}
		}
		if sum[0] != res.Total[0] || sum[1] != res.Total[1] {
			t.Fatalf("seed %d: totals %v do not add up to %v", seed, res.Total[:2], sum)
		}
		if g.PlazaCount() != 0 || g.anyFaceDown() {
			t.Fatalf("seed %d: Final Tally left cubes in the Plaza or tiles face down", seed)
		}
	}
}

// TestReplayIdentical: the same seed replays to the identical event sequence.
func TestReplayIdentical(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		var logs [2]Log
		for i := range logs {
			g := newTestGame(t, seed, Mode(seed%2))
			g.SetRecorder(&logs[i])
			if err := NewRandomPlayer(seed).Play(g); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(logs[0].Events, logs[1].Events) {
			t.Fatalf("seed %d: two plays differ", seed)
		}
		if len(logs[0].Events) == 0 || logs[0].Events[len(logs[0].Events)-1].Kind != EvResult {
			t.Fatalf("seed %d: the trace does not end with the result", seed)
		}
	}
}

// TestRecorderDoesNotChangeGame: attaching a recorder changes nothing but
// the events.
func TestRecorderDoesNotChangeGame(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := newTestGame(t, seed, Normal), newTestGame(t, seed, Normal)
		b.SetRecorder(&Log{})
		NewRandomPlayer(seed).Play(a)
		NewRandomPlayer(seed).Play(b)
		b.SetRecorder(nil)
		if *a != *b {
			t.Fatalf("seed %d: recording changed the game", seed)
		}
	}
}

// TestNoAllocs guards the hot path: a whole game allocates nothing.
func TestNoAllocs(t *testing.T) {
	var g Game
	p := NewRandomPlayer(0)
	seed := uint64(0)
	allocs := testing.AllocsPerRun(50, func() {
		seed++
		g.Reset(Reference(), seed, Config{Opposition: scriptedOpposition{}})
		p.Reset(seed)
		p.Play(&g)
	})
	if allocs != 0 {
		t.Fatalf("a game allocates %v times, want 0", allocs)
	}
}

// TestIsLegalMatchesLegal: IsLegal accepts exactly the options Legal lists,
// checked at every decision of random games against every listed option
// and a spread of others of each kind.
func TestIsLegalMatchesLegal(t *testing.T) {
	var buf [MaxOptions]Option
	for seed := uint64(1); seed <= 300; seed++ {
		g := newTestGame(t, seed, Mode(seed%2))
		p := NewRandomPlayer(seed)
		for !g.Over() {
			legal := g.Legal(buf[:0])
			for _, o := range legal {
				if !g.IsLegal(o) {
					t.Fatalf("seed %d: listed %v refused", seed, o)
				}
			}
			for k := OptCard; k <= OptReveal; k++ {
				for _, a := range []int8{-1, 0, 1, 2, 3, 4, 5, 9, 40} {
					for _, b := range []int8{-1, 0, 1, 3, 7} {
						for _, c := range []int8{0, 2, 4} {
							o := Option{Kind: k, A: a, B: b, C: c}
							if g.IsLegal(o) != contains(legal, o) {
								t.Fatalf("seed %d, %s decision: IsLegal(%v) = %v, Legal disagrees", seed, g.Pending, o, g.IsLegal(o))
							}
						}
					}
				}
			}
			mustApply(t, g, p.Choose(g))
		}
	}
}

// TestStrengthsTable: the one-pass table agrees with Strength everywhere.
func TestStrengthsTable(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		g := newTestGame(t, seed, Normal)
		p := NewRandomPlayer(seed)
		for !g.Over() {
			tab := g.Strengths()
			for s := range g.NSeats {
				for r := range int8(NumDistricts + 1) {
					if tab[s][r] != g.Strength(s, r) {
						t.Fatalf("seed %d: seat %d region %d: table %d, Strength %d", seed, s, r, tab[s][r], g.Strength(s, r))
					}
				}
			}
			mustApply(t, g, p.Choose(g))
		}
	}
}

// TestFlipsCountsFaceUp: in games from Reset, where nothing starts face
// up, Flips is at every decision the number of tiles and Initial Support
// tokens face up (Research, Final Tally 1 and the reveals each turn one),
// so a search may compare Flips instead of counting the board.
func TestFlipsCountsFaceUp(t *testing.T) {
	var g Game
	p := NewRandomPlayer(0)
	for seed := uint64(1); seed <= 200; seed++ {
		if err := g.Reset(Reference(), seed, Config{Mode: Mode(seed % 2), Politician: int(seed % 6), Opposition: scriptedOpposition{}}); err != nil {
			t.Fatal(err)
		}
		p.Reset(seed)
		for {
			up := 0
			for i := range g.NPlaced {
				if g.Placed[i].FaceUp {
					up++
				}
			}
			for d := range g.Districts {
				if g.Districts[d].SupportFaceUp {
					up++
				}
			}
			if g.Flips() != up {
				t.Fatalf("seed %d, round %d, %s decision: Flips %d, face up %d", seed, g.Round+1, g.Pending, g.Flips(), up)
			}
			if g.Over() {
				break
			}
			if err := g.Apply(p.Choose(&g)); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
}
