package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// setAll is one assignment per element of an array field of the reference
// rules: path with %d for the index, value for element i.
func setAll(n int, path string, value func(i int) string) []Assignment {
	as := make([]Assignment, n)
	for i := range as {
		as[i] = Assignment{fmt.Sprintf(path, i), value(i)}
	}
	return as
}

func same(v string) func(int) string { return func(int) string { return v } }

// politicians is a politicians array of n entries p0…p(n-1).
func politicians(n int) []Assignment {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf(`{"id":"p%d","money":1}`, i)
	}
	return []Assignment{{"politicians", "[" + strings.Join(ids, ",") + "]"}}
}

// BoundCases (exported for bounds_policy_test.go) are the rules files at the bounds that rules check accepted
// though the engine could not hold them, each with a file at the bound.
// Reference set: research_polling 1, rounds of 3, 3, 4, 4 turns, 4 Vote
// Share icons, 64 Strategy cards.
var BoundCases = []struct {
	Name     string
	Over, At []Assignment
	Err      string
}{
	{
		Name: "vote_share rewards",
		Over: append(setAll(4, "rounds[%d].presence", same(`{"kind":"vote_share","amount":40}`)),
			setAll(4, "rounds[%d].district_majority", same(`{"kind":"vote_share","amount":40}`))...),
		// 4 icons + the token + 7 × 15 + 17 = 127.
		At: append(setAll(4, "rounds[%d].presence", same(`{"kind":"vote_share","amount":15}`)),
			setAll(4, "rounds[%d].district_majority", func(i int) string {
				if i == 3 {
					return `{"kind":"vote_share","amount":17}`
				}
				return `{"kind":"vote_share","amount":15}`
			})...),
		Err: ": rounds[1].district_majority.amount: a player's Vote Shares in a District reach 165 (4 icons, the token and the vote_share rewards up to this one), more than the limit of 127",
	},
	{
		Name: "research_bonus",
		Over: setAll(64, "strategy_cards[%d].ability", same(`{"kind":"research_bonus","polling":40}`)),
		// 1 + 3 × 28 + 30 = 115 = 127 - track.max with the four largest.
		At: setAll(64, "strategy_cards[%d].ability", func(i int) string {
			if i == 10 {
				return `{"kind":"research_bonus","polling":30}`
			}
			return `{"kind":"research_bonus","polling":28}`
		}),
		Err: "strategy_cards[2].ability.polling: one Research's Polling (actions.research_polling and research_bonus cards) reaches 121 with 3 cards played in a round of 4 turns, more than the limit of 115",
	},
	{
		Name: "Public Works discount",
		Over: setAll(64, "strategy_cards[%d].ability", same(`{"kind":"discount","action":"Public Works","money":40}`)),
		At: setAll(64, "strategy_cards[%d].ability", func(i int) string {
			if i == 5 {
				return `{"kind":"discount","action":"Public Works","money":34,"popularity":40}`
			}
			return `{"kind":"discount","action":"Public Works","money":31,"popularity":29}`
		}),
		Err: "strategy_cards[3].ability.money: the Public Works money discount reaches 160 with 4 cards played in a round of 4 turns, more than the limit of 127",
	},
	{
		Name: "politicians",
		Over: politicians(MaxPoliticians + 1),
		At:   politicians(MaxPoliticians),
		Err:  "politicians: has 129 politicians, want 1..128 (C-12)",
	},
}

// TestAccumulatorBounds: each file at the bounds is refused naming the field
// and the limit; the same file at the bound is accepted and plays within
// it (rules check accepted files that wrapped the engine's
// bytes).
func TestAccumulatorBounds(t *testing.T) {
	for _, tt := range BoundCases {
		t.Run(tt.Name, func(t *testing.T) {
			_, err := Reference().With(tt.Over...)
			if err == nil || !strings.HasSuffix(err.Error(), tt.Err) {
				t.Errorf("over the bound: got %v\nwant …%s", err, tt.Err)
			}
			r, err := Reference().With(tt.At...)
			if err != nil {
				t.Fatalf("at the bound: %v", err)
			}
			playBounded(t, r, 300)
		})
	}
}

// playBounded plays random games of r in solo and at a table of four,
// every politician in turn, checking the invariants at every decision; Check
// covers the accumulators.
func playBounded(t *testing.T, r *Rules, games int) {
	t.Helper()
	var buf [MaxOptions]Option
	for seed := uint64(1); seed <= uint64(games); seed++ {
		var g *Game
		var err error
		pol := int(seed) % len(r.Politicians)
		if seed%2 == 0 {
			g, err = New(r, seed, Config{Mode: Mode(seed / 2 % 2), Politician: pol, Opposition: scriptedOpposition{}})
		} else {
			n := len(r.Politicians)
			pols := []int{pol, (pol + 1) % n, (pol + 2) % n, (pol + 3) % n}
			g, err = NewTable(r, seed, TableConfig{Politicians: pols})
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		p := NewRandomPlayer(seed)
		for !g.Over() {
			if len(g.Legal(buf[:0])) == 0 {
				t.Fatalf("seed %d: %s decision with no options", seed, g.Pending)
			}
			if err := g.Apply(p.Choose(g)); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err := g.Check(); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
}

// TestMutatedRulesStayBounded is the property behind compileBounds: rules
// files mutated at random towards large accumulators (Research bonuses,
// discounts, vote_share rewards, turns) are either refused, naming the
// field and the limit, or play with every accumulator within its type:
// Check, after every decision, finds nothing wrapped.
func TestMutatedRulesStayBounded(t *testing.T) {
	files := 300
	if testing.Short() {
		files = 60
	}
	rng := rand.New(rand.NewPCG(22, 1))
	kinds := []string{"presence", "district_majority"}
	actions := []string{"Public Works", "Celebrity", "Research", "Campaign"}
	var accepted, refused int
	for f := range files {
		var as []Assignment
		for i := range 4 {
			as = append(as, Assignment{fmt.Sprintf("rounds[%d].turns", i), fmt.Sprint(3 + rng.IntN(2))})
			if rng.IntN(2) == 0 {
				as = append(as, Assignment{fmt.Sprintf("rounds[%d].%s", i, kinds[rng.IntN(2)]), fmt.Sprintf(`{"kind":"vote_share","amount":%d}`, 1+rng.IntN(40))})
			}
		}
		for range 1 + rng.IntN(30) {
			card := rng.IntN(64)
			switch rng.IntN(3) {
			case 0:
				as = append(as, Assignment{fmt.Sprintf("strategy_cards[%d].ability", card), fmt.Sprintf(`{"kind":"research_bonus","polling":%d}`, 1+rng.IntN(40))})
			case 1:
				as = append(as, Assignment{fmt.Sprintf("strategy_cards[%d].ability", card),
					fmt.Sprintf(`{"kind":"discount","action":%q,"money":%d,"popularity":%d}`, actions[rng.IntN(4)], 1+rng.IntN(40), rng.IntN(41))})
			default:
				as = append(as, Assignment{"actions.research_polling", fmt.Sprint(rng.IntN(41))})
			}
		}
		r, err := Reference().With(as...)
		if err != nil {
			if !strings.Contains(err.Error(), "more than the limit of") {
				t.Fatalf("file %d refused, not for a bound: %v", f, err)
			}
			refused++
			continue
		}
		accepted++
		playBounded(t, r, 4)
	}
	if accepted < files/10 || refused < files/10 {
		t.Errorf("%d accepted, %d refused: the mutations do not reach both sides of the bounds", accepted, refused)
	}
}
