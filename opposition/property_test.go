package opposition_test

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

// checker is a Recorder that checks the Opposition's behaviour as the
// events arrive.
type checker struct {
	g       *engine.Game
	opp     int8
	inTurn  bool
	card    int16 // the Solo card of the Opposition's current turn, -1 between
	done    [engine.NumActions]int8
	flipped [engine.MaxRounds]int
	boxed   [engine.MaxRounds]int
	reshuf  bool
	err     error
}

func (c *checker) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("round %d turn %d: %s", c.g.Round+1, c.g.Turn+1, fmt.Sprintf(format, args...))
	}
}

func (c *checker) Record(e engine.Event) {
	r := c.g.Rules()
	switch e.Kind {
	case engine.EvTurn, engine.EvCleanup, engine.EvRound:
		c.checkSupply()
		c.inTurn = e.Kind == engine.EvTurn && e.Seat == c.opp
		c.card = -1
		c.done = [engine.NumActions]int8{}
	case engine.EvSoloCard:
		c.card = e.Item
		c.flipped[e.Round]++
	case engine.EvSoloBox:
		c.boxed[e.Round] += int(e.Item)
	case engine.EvReshuffle:
		if e.Action < 0 {
			c.reshuf = true
		}
	case engine.EvTracker:
		if e.Seat == c.opp && (e.Action == engine.TrackerMoney || e.Action == engine.TrackerPopularity) && e.To < e.From {
			c.fail("the Opposition spent: %s", r.Text(e))
		}
	}
	if e.Seat != c.opp {
		return
	}
	var a engine.Action
	switch {
	case e.Kind == engine.EvPublicWorks:
		a = engine.PublicWorks
		if e.From != 0 {
			c.fail("paid for Public Works: %s", r.Text(e))
		}
	case e.Kind == engine.EvCelebrity:
		a = engine.Celebrity
		if e.From != 0 || e.To != 0 {
			c.fail("paid for Celebrity: %s", r.Text(e))
		}
	case e.Kind == engine.EvFlip:
		a = engine.Research
	case e.Kind == engine.EvCampaign:
		a = engine.Campaign
		if e.From != 0 {
			c.fail("paid for Campaign: %s", r.Text(e))
		}
	default:
		return
	}
	if !c.inTurn || c.card < 0 {
		c.fail("an action outside its turn: %s", r.Text(e))
		return
	}
	// Every action is one shown on the current Solo card, in one of its
	// two Districts, each action as often as it is shown.
	sc := r.Solo[c.card]
	shown := int8(0)
	if sc.LeftAction == a {
		shown++
	}
	if sc.RightAction == a {
		shown++
	}
	c.done[a]++
	if c.done[a] > shown {
		c.fail("%s is not on %s (or done twice): %s", a, sc.ID, r.Text(e))
	}
	if e.District != int8(sc.LeftDistrict) && e.District != int8(sc.RightDistrict) {
		c.fail("%s in %s, not a District of %s", a, r.RegionName(e.District), sc.ID)
	}
}

// checkSupply: Badges and Assistants never exceed the Opposition's supply.
func (c *checker) checkSupply() {
	g, r := c.g, c.g.Rules()
	if err := g.Check(); err != nil {
		c.fail("%v", err)
	}
	if g.BadgesLeft(c.opp) < 0 {
		c.fail("%d Badges on the board, %d in all", r.BadgesPerPlayer-g.BadgesLeft(c.opp), r.BadgesPerPlayer)
	}
	st := &g.Seats[c.opp]
	out, cards := 0, 0
	for col := range st.Columns {
		if st.Assistants[col].Region != engine.Home {
			out++
			if st.Columns[col].Card < 0 {
				c.fail("the Assistant of column %d is out with no Solo card in its column", col+1)
			}
		}
		if st.Columns[col].Card >= 0 {
			cards++
		}
	}
	if out > engine.NumColumns || cards > engine.NumColumns {
		c.fail("%d Assistants out, %d cards on the board", out, cards)
	}
}

// finish checks the Solo card count of a whole game under the reference
// rules: 2 a turn in rounds 1–3 (played, then as many boxed), 1 in round 4,
// 24 in all, without reshuffling.
func (c *checker) finish() {
	r := c.g.Rules()
	// Cards used: those boxed at each Clean Up (the board's and as many
	// from the deck), and those played in the last round.
	total := c.flipped[r.LastRound()]
	for rd := range r.Rounds {
		turns := int(r.Rounds[rd].Turns)
		if c.flipped[rd] != turns {
			c.fail("round %d: %d Solo cards played, want %d", rd+1, c.flipped[rd], turns)
		}
		want := 2 * turns
		if rd == r.LastRound() {
			want = 0 // no Clean Up after round 4 (V-2 off)
		}
		if c.boxed[rd] != want {
			c.fail("round %d: %d Solo cards boxed, want %d", rd+1, c.boxed[rd], want)
		}
		total += c.boxed[rd]
	}
	if total != len(r.Solo) || c.g.Solo.N != 0 || c.reshuf {
		c.fail("%d Solo cards used, %d left in the deck, reshuffled %v; want all %d used once", total, c.g.Solo.N, c.reshuf, len(r.Solo))
	}
	if c.g.Seats[c.opp].Money < 0 || c.g.Seats[c.opp].Popularity < 0 {
		c.fail("negative resources")
	}
}

// playChecked plays games [from, to) of a difficulty with the random
// player and the checker; it returns the outcomes counted.
func playChecked(mode engine.Mode, from, to uint64) (wins, draws, losses int, err error) {
	g := new(engine.Game)
	p := engine.NewRandomPlayer(0)
	c := &checker{}
	for seed := from; seed < to; seed++ {
		// The Opposition is seat 1 (Solo Setup); on Hard its first turn
		// runs inside Reset, so the checker must know it beforehand.
		*c = checker{g: g, card: -1, opp: 1}
		if err := g.Reset(engine.Reference(), seed, engine.Config{Mode: mode, Opposition: opposition.Solo{}, Recorder: c}); err != nil {
			return 0, 0, 0, err
		}
		if g.Opponent() != c.opp {
			return 0, 0, 0, fmt.Errorf("the Opposition is seat %d, want %d", g.Opponent(), c.opp)
		}
		p.Reset(seed)
		if err := p.Play(g); err != nil {
			return 0, 0, 0, fmt.Errorf("seed %d: %v", seed, err)
		}
		c.finish()
		if err := g.Check(); err != nil {
			c.fail("at the end: %v", err)
		}
		if c.err != nil {
			return 0, 0, 0, fmt.Errorf("%s seed %d: %v", mode, seed, c.err)
		}
		switch g.Result.Outcome {
		case engine.Win:
			wins++
		case engine.Draw:
			draws++
		default:
			losses++
		}
	}
	return wins, draws, losses, nil
}

// TestProperties plays 10,000 complete random-player games per difficulty
// (500 with -short) and checks every Opposition event; it logs the random
// player's win rate.
func TestProperties(t *testing.T) {
	games := uint64(10000)
	if testing.Short() {
		games = 500
	}
	for _, mode := range []engine.Mode{engine.Normal, engine.Hard} {
		t.Run(mode.String(), func(t *testing.T) {
			workers := uint64(max(1, runtime.GOMAXPROCS(0)))
			var mu sync.Mutex
			var wg sync.WaitGroup
			var wins, draws, losses int
			for w := range workers {
				from, to := games*w/workers, games*(w+1)/workers
				wg.Add(1)
				go func() {
					defer wg.Done()
					wi, d, l, err := playChecked(mode, from, to)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						t.Error(err)
					}
					wins, draws, losses = wins+wi, draws+d, losses+l
				}()
			}
			wg.Wait()
			n := float64(games)
			t.Logf("random player vs %s, %d games (seeds 0..%d): win %.2f%%, draw %.2f%%, loss %.2f%%",
				mode, games, games-1, 100*float64(wins)/n, 100*float64(draws)/n, 100*float64(losses)/n)
		})
	}
}
