package engine

import "testing"

func TestSmoke(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		g := newTestGame(t, seed, Mode(seed%2))
		log := &Log{}
		if seed == 0 {
			g.SetRecorder(log)
		}
		p := NewRandomPlayer(seed)
		if err := p.Play(g); err != nil {
			t.Fatal(err)
		}
		if seed == 0 {
			t.Log(g.Rules().Narrate(log.Events))
		}
	}
}
