package policy

import (
	"math"
	"slices"
	"testing"

	"tallywood/engine"
)

// playLog plays game seed in mode with p and returns every decision taken.
func playLog(t *testing.T, p Policy, seed uint64, mode engine.Mode) []engine.Option {
	t.Helper()
	g := newGame(t, seed, mode)
	p.Reset(seed)
	var log []engine.Option
	buf := make([]engine.Option, 0, engine.MaxOptions)
	for !g.Over() {
		o := p.Choose(g, g.Legal(buf[:0]))
		log = append(log, o)
		if err := g.Apply(o); err != nil {
			t.Fatal(err)
		}
	}
	return log
}

func mustNew(t *testing.T, spec string) Policy {
	t.Helper()
	sp, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return sp.New()
}

// The named levels on the dial: skill 1 plays the skilled level's games
// and skill 2 the expert's, decision for decision.
func TestDialMeetsTheLevels(t *testing.T) {
	tests := []struct {
		dial, level string
		games       uint64
	}{
		{"dial:skill=1", "skilled", 4},
		{"dial", "skilled", 1},
		{"dial:skill=2", "expert", 1},
	}
	for _, tt := range tests {
		t.Run(tt.dial, func(t *testing.T) {
			for seed := uint64(1); seed <= tt.games; seed++ {
				mode := engine.Mode(seed % 2)
				got, want := playLog(t, mustNew(t, tt.dial), seed, mode), playLog(t, mustNew(t, tt.level), seed, mode)
				if !slices.Equal(got, want) {
					t.Errorf("game seed %d: the games differ", seed)
				}
			}
		})
	}
}

func TestDialSkill(t *testing.T) {
	tests := []struct {
		skill float64
		want  DialSetting
	}{
		{0, DialSetting{Tau: math.Inf(1)}},
		{0.5, DialSetting{Tau: dialTau0}},
		{1, DialSetting{}},
		{1.25, DialSetting{Mix: 0.25}},
		{2, DialSetting{Mix: 1}},
	}
	for _, tt := range tests {
		if got := DialSkill(tt.skill); got != tt.want {
			t.Errorf("skill %g: %+v, want %+v", tt.skill, got, tt.want)
		}
	}
	// The temperature falls along the lower half.
	for s := 0.05; s < 1; s += 0.05 {
		if DialSkill(s).Tau >= DialSkill(s-0.05).Tau {
			t.Errorf("tau at %g is not below tau at %g", s, s-0.05)
		}
	}
}

// LogProb gives every option a probability, they add up to 1, and the
// player draws by them: 20,000 draws at one decision land within 1.5
// points of each option's probability.
func TestDialLogProb(t *testing.T) {
	scores := []float64{1, 0.2, 1.4, -3, 1.4}
	for _, set := range []DialSetting{DialSkill(0), DialSkill(0.3), DialSkill(0.8), DialSkill(1), DialSkill(1.4), DialSkill(2)} {
		sum := 0.0
		for i := range scores {
			sum += math.Exp(set.LogProb(scores, i, 0))
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%+v: the probabilities add up to %g", set, sum)
		}
	}
	d := NewDial(DialSkill(0.5), ShippedNet)
	d.Reset(13002)
	const n = 20000
	counts := make([]int, len(scores))
	for range n {
		counts[d.draw(scores)]++
	}
	for i, c := range counts {
		if p := math.Exp(DialSkill(0.5).LogProb(scores, i, -1)); math.Abs(float64(c)/n-p) > 0.015 {
			t.Errorf("option %d drawn %.3f of the time, probability %.3f", i, float64(c)/n, p)
		}
	}
}

// The reader sees what the dial saw: along the dial's own games, every
// decision it took has a probability above zero at its setting (above 1,
// the search's pick or the learned score's best; a reader whose search
// went another way than the player's would find decisions with none).
func TestDialReaderFollowsTheDial(t *testing.T) {
	for _, skill := range []float64{0.6, 1.5} {
		set := DialSkill(skill)
		p := NewDial(set, ShippedNet)
		r := NewDialReader(ShippedNet, true)
		for seed := uint64(1); seed <= 2; seed++ {
			mode := engine.Mode(seed % 2)
			log := playLog(t, p, seed, mode)
			g := newGame(t, seed, mode)
			r.Reset(seed)
			buf := make([]engine.Option, 0, engine.MaxOptions)
			read := 0
			for _, o := range log {
				legal := g.Legal(buf[:0])
				if len(legal) > 1 {
					scores, _, search := r.Read(g, legal, o)
					if lp := set.LogProb(scores, slices.Index(legal, o), search); math.IsInf(lp, -1) {
						t.Fatalf("skill %g, game seed %d, decision %d: the reader gives the dial's choice no chance", skill, seed, read)
					}
					read++
				}
				if err := g.Apply(o); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
