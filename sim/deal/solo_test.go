package deal_test

import (
	"reflect"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
	"tallywood/sim/deal"
)

// TestSoloDeal checks that Solo deals the game the engine sets up for the
// game seed, and that --politician random is RandomPolitician's draw.
func TestSoloDeal(t *testing.T) {
	r := engine.Reference()
	for _, i := range []uint64{0, 1, 7} {
		gs := deal.GameSeed(5, i)
		for _, pol := range []int{deal.RandomPoliticianIndex, 2} {
			want := pol
			if pol == deal.RandomPoliticianIndex {
				want = deal.RandomPolitician(gs, len(r.Politicians))
			}
			var g engine.Game
			if err := (deal.Solo{Mode: engine.Hard, Politician: pol, Opposition: opposition.Solo{}}).Deal(&g, r, gs); err != nil {
				t.Fatal(err)
			}
			e, err := engine.New(r, gs, engine.Config{Mode: engine.Hard, Politician: want, Opposition: opposition.Solo{}})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(&g, e) {
				t.Errorf("game %d, politician %d: Solo deals another game than engine.New with politician %d", i, pol, want)
			}
		}
	}
	var g engine.Game
	if err := (deal.Solo{Politician: len(r.Politicians), Opposition: opposition.Solo{}}).Deal(&g, r, 1); err == nil {
		t.Error("a politician past the rules' was dealt")
	}
}
