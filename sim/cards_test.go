package sim

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
)

func init() {
	example(KindCards, func(t testing.TB, shard Shard) Study { return runCards(t, cardsConfig(t, 160, 1, shard)) })
}

// strongCard is the Opposition of the reference rules with one Solo card
// made clearly stronger: the turn that plays it campaigns three more
// times in each of its two Districts. No
// field of the rules file makes one card stronger by itself (a Solo card
// is two distinct Districts and two actions, C-16), so the test changes
// the Opposition instead.
type strongCard struct {
	opposition.Solo
	card int
}

func (o strongCard) Turn(g *engine.Game, seat int8) {
	o.Solo.Turn(g, seat)
	st := &g.Seats[seat]
	last := -1
	for c := range st.Columns {
		if st.Columns[c].Card >= 0 {
			last = c
		}
	}
	if last >= 0 && int(st.Columns[last].Card) == o.card {
		sc := g.Rules().Solo[o.card]
		for range 3 {
			g.Campaign(seat, int8(sc.LeftDistrict))
			g.Campaign(seat, int8(sc.RightDistrict))
		}
	}
}

func cardsConfig(t testing.TB, games int64, workers int, shard Shard) CardsConfig {
	return CardsConfig{RunConfig: RunConfig{Seed: 11, Workers: workers, Shard: shard}, Rules: engine.Reference(), Games: games, Cells: []CellSpec{
		{Mode: engine.Hard, Policy: mustSpec(t, "random"), Politician: RandomPoliticianIndex},
		{Mode: engine.Normal, Policy: mustSpec(t, "builder"), Politician: 1},
	}}
}

func runCards(t testing.TB, cfg CardsConfig) *CardsResult {
	t.Helper()
	r, err := Cards(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// untimedCards is a cards result's JSON without its timing.
func untimedCards(r *CardsResult) []byte {
	c := *r.clone().(*CardsResult)
	c.GamesPerSecond, c.ElapsedSeconds = 0, 0
	for i := range c.Cells {
		c.Cells[i].Base.GamesPerSecond, c.Cells[i].Base.ElapsedSeconds = 0, 0
	}
	return Encode(&c)
}

// TestCardsStrongSoloCardRanksFirst: a Solo card made
// clearly stronger ranks first among the Solo cards, significant after
// its family's adjustment, its adjusted interval below every other card's
// effect, on a small budget.
func TestCardsStrongSoloCardRanksFirst(t *testing.T) {
	cfg := cardsConfig(t, 2000, 2, Shard{})
	cfg.Cells = cfg.Cells[:1]
	cfg.Cells[0].Policy = mustSpec(t, "greedy")
	const card = 12 // S-13
	cfg.Opposition = strongCard{card: card}
	r := runCards(t, cfg)
	var solo []CardEffect
	for _, e := range r.Cells[0].Effects {
		if e.Family == "solo" {
			solo = append(solo, e)
		}
	}
	if len(solo) != 24 {
		t.Fatalf("%d Solo card effects, want 24 (C-16)", len(solo))
	}
	first := solo[0]
	if first.Item != "S-13" || !first.Significant {
		t.Fatalf("first: %+v, want S-13, significant", first)
	}
	if testing.Verbose() {
		t.Logf("S-13 %+.3f %v; second %s %+.3f %v", first.ScoreDiff, first.ScoreCIAdjusted, solo[1].Item, solo[1].ScoreDiff, solo[1].ScoreCIAdjusted)
	}
	for _, e := range solo[1:] {
		if first.ScoreCIAdjusted[1] >= e.ScoreDiff {
			t.Errorf("S-13's interval %v reaches %s's effect %+.3f", first.ScoreCIAdjusted, e.Item, e.ScoreDiff)
		}
	}
}

// TestCardsMarkIsTheInterval: an item's score or margin is marked exactly
// when the interval printed beside it, simultaneous over the family's
// tests (a score and a margin per item), excludes 0, and its adjusted p
// is below 0.05 then too; a tallywood-cards/1 result (Holm's p-values)
// reads, its effects derived again.
func TestCardsMarkIsTheInterval(t *testing.T) {
	cfg := cardsConfig(t, 600, 2, Shard{})
	cfg.Cells = cfg.Cells[:1]
	r := runCards(t, cfg)
	items := map[string]int{}
	for _, e := range r.Cells[0].Effects {
		items[e.Family]++
	}
	marks := 0
	for _, e := range r.Cells[0].Effects {
		if e.Tests != 2*items[e.Family] {
			t.Errorf("%s %s: %d tests, want %d", e.Family, itemName(e), e.Tests, 2*items[e.Family])
		}
		for _, m := range []struct {
			ci     [2]float64
			p      float64
			marked bool
		}{{e.ScoreCIAdjusted, e.ScorePAdj, e.Significant}, {e.MarginCIAdjusted, e.MarginPAdj, e.MarginSignificant}} {
			excludes := m.ci[0] > 0 || m.ci[1] < 0
			if m.marked != excludes || (m.p < 0.05) != excludes {
				t.Errorf("%s %s: marked %v, adjusted p %.4g, interval %v", e.Family, itemName(e), m.marked, m.p, m.ci)
			}
			if m.marked {
				marks++
			}
		}
	}
	t.Logf("%d marks among %d effects", marks, len(r.Cells[0].Effects))
	old := bytes.Replace(Encode(r), []byte(`"`+FormatCards+`"`), []byte(`"tallywood-cards/1"`), 1)
	got, err := Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.(*CardsResult).Cells[0].Effects, r.Cells[0].Effects) {
		t.Error("a tallywood-cards/1 result does not read to the same effects")
	}
}

func itemName(e CardEffect) string { return fmt.Sprintf("%s r%d", e.Item, e.Round) }

// TestCardsPlaysAsSim: the recorder changes no game: every cell holds the
// games sim plays on the same seeds; and the reference set's 24 Solo cards
// are played 14 a game (turns 3, 3, 4, 4: reference set section 3), each
// at most once.
func TestCardsPlaysAsSim(t *testing.T) {
	cfg := cardsConfig(t, 120, 2, Shard{})
	r := runCards(t, cfg)
	sim := run(t, Config{RunConfig: RunConfig{Seed: cfg.Seed, Workers: 2}, Rules: cfg.Rules, Games: cfg.Games, Cells: cfg.Cells})
	for i, c := range r.Cells {
		if c.Base.Counts != sim.Cells[i].Counts {
			t.Errorf("cell %d: counts differ from sim's", i+1)
		}
		var played, byRound int64
		for _, s := range c.Solo {
			played += s.Played.Games
			for _, x := range s.Rounds {
				byRound += x.Games
			}
		}
		if played != 14*c.Base.Games || byRound != played {
			t.Errorf("cell %d: %d Solo cards played, %d by round, want 14 a game of %d", i+1, played, byRound, c.Base.Games)
		}
		for _, s := range c.Strategy {
			if s.Played.Games > s.Drawn.Games || s.Held.Games > s.Drawn.Games {
				t.Errorf("cell %d: %s played or held in more games than drawn", i+1, s.ID)
			}
		}
	}
	// A fixed politician: no politician family.
	for _, e := range r.Cells[1].Effects {
		if e.Family == "politician" {
			t.Fatalf("a cell of one politician compares politicians: %+v", e)
		}
	}
}

// TestCardsDeterministic: the same result for 1 and 2 workers, and for
// two shards merged.
func TestCardsDeterministic(t *testing.T) {
	want := untimedCards(runCards(t, cardsConfig(t, 90, 1, Shard{})))
	if got := untimedCards(runCards(t, cardsConfig(t, 90, 2, Shard{}))); !bytes.Equal(got, want) {
		t.Errorf("workers 2 differ from workers 1")
	}
	a := runCards(t, cardsConfig(t, 90, 2, Shard{K: 1, N: 2}))
	b := runCards(t, cardsConfig(t, 90, 1, Shard{K: 2, N: 2}))
	m, err := Merge([]Study{mustDecode(t, Encode(b)), a}, []string{"b", "a"}, MergeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := untimedCards(m.(*CardsResult)); !bytes.Equal(got, want) {
		t.Errorf("merged shards differ from the whole run")
	}
}

// TestCardsDecodeChecks: a decoded result whose items do not add up is
// refused, naming where.
func TestCardsDecodeChecks(t *testing.T) {
	data := Encode(runCards(t, cardsConfig(t, 20, 2, Shard{})))
	for _, tc := range []struct {
		name  string
		spoil func(d map[string]any)
		want  string
	}{
		{"more games with a card than the cell", func(d map[string]any) {
			card(d)["played"].(map[string]any)["games"] = 21.0
		}, `cell 1 (hard/random/random): solo_cards "S-01": games 21: more than the cell's 20`},
		{"scores no games reach", func(d map[string]any) {
			card(d)["played"].(map[string]any)["score_halves_sum"] = -1.0
		}, `solo_cards "S-01": score sums`},
		{"rounds differ", func(d map[string]any) {
			card(d)["played_in_round"] = []any{}
		}, `solo_cards "S-01": 0 rounds`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(edit(t, data, tc.spoil))
			if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestCardsOldMethod: a cards result stores no sentence; the "method" in
// words that older results held still reads (a string only), and is
// dropped.
func TestCardsOldMethod(t *testing.T) {
	data := Encode(runCards(t, cardsConfig(t, 20, 2, Shard{})))
	if bytes.Contains(data, []byte(`"method"`)) {
		t.Fatal("a cards result stores its method in words")
	}
	r, err := Decode(edit(t, data, func(d map[string]any) { d["method"] = "each item compares the games with it" }))
	if err != nil {
		t.Fatalf("a result with its method in words: %v", err)
	}
	if bytes.Contains(Encode(r), []byte(`"method"`)) {
		t.Error("the method read is written again")
	}
	if _, err := Decode(edit(t, data, func(d map[string]any) { d["method"] = 1.0 })); err == nil {
		t.Error("a method that is not words reads")
	}
}

// card is the first Solo card of the first cell of a decoded result.
func card(d map[string]any) map[string]any {
	return d["cells"].([]any)[0].(map[string]any)["solo_cards"].([]any)[0].(map[string]any)
}

// BenchmarkCards is BenchmarkSim's greedy cell played by the cards study:
// the games and what the recorder and the item counts add to them.
func BenchmarkCards(b *testing.B) {
	const games = 256
	cfg := CardsConfig{RunConfig: RunConfig{Seed: 1, Workers: 1},
		Rules: engine.Reference(), Games: games, Cells: []CellSpec{{Mode: engine.Normal, Policy: mustSpec(b, "greedy"), Politician: RandomPoliticianIndex}}}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, err := Cards(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n*games)/b.Elapsed().Seconds(), "games/s")
}
