package policy

import (
	"math"
	"testing"

	"tallywood/engine"
)

// handBuilt returns a fresh game whose board the test then edits: the
// evaluation reads only the board, so a position is built by setting it.
func handBuilt(t *testing.T, mode engine.Mode) *engine.Game {
	t.Helper()
	g := newGame(t, 11, mode)
	for d := range engine.NumDistricts {
		g.Districts[d].SupportFaceUp = true
		g.Districts[d].Cubes = [engine.NumDistricts]int8{}
	}
	g.Plaza = [engine.NumDistricts]int8{}
	for s := range 2 {
		g.Seats[s].Money, g.Seats[s].Popularity = 0, 0
		g.Seats[s].Polling = [engine.NumDistricts]int8{2, 2, 2, 2}
	}
	return g
}

func TestEvalOrders(t *testing.T) {
	const red, blue = 0, 1
	tests := []struct {
		name          string
		mode          engine.Mode
		worse, better func(g *engine.Game)
	}{
		{
			name:   "more Vote Shares",
			worse:  func(g *engine.Game) {},
			better: func(g *engine.Game) { g.Seats[0].Polling[red] = 5 },
		},
		{
			name:   "the Vote Share token",
			worse:  func(g *engine.Game) { g.Seats[0].Polling[blue] = 11 },
			better: func(g *engine.Game) { g.Seats[0].Polling[blue] = 12; g.Districts[blue].VoteShareToken = 0 },
		},
		{
			name:   "more votes per share where you lead",
			worse:  func(g *engine.Game) { g.Seats[0].Polling[red] = 8 },
			better: func(g *engine.Game) { g.Seats[0].Polling[red] = 8; g.Districts[red].Cubes[red] = 4 },
		},
		{
			name:   "fewer votes per share where you trail",
			worse:  func(g *engine.Game) { g.Seats[1].Polling[red] = 8; g.Districts[red].Cubes[red] = 4 },
			better: func(g *engine.Game) { g.Seats[1].Polling[red] = 8 },
		},
		{
			name:   "Plaza cubes count for their District",
			worse:  func(g *engine.Game) { g.Seats[0].Polling[red] = 8 },
			better: func(g *engine.Game) { g.Seats[0].Polling[red] = 8; g.Plaza[red] = 2 },
		},
		{
			name:   "the Opposition's resource bonus counts against you (normal)",
			worse:  func(g *engine.Game) { g.Seats[1].Money, g.Seats[1].Popularity = 9, 9 },
			better: func(g *engine.Game) {},
		},
		{
			name:   "the Opposition's resource bonus counts against you (hard)",
			mode:   engine.Hard,
			worse:  func(g *engine.Game) { g.Seats[1].Money, g.Seats[1].Popularity = 1, 1 },
			better: func(g *engine.Game) {},
		},
		{
			name:   "your resources are worth something early",
			worse:  func(g *engine.Game) {},
			better: func(g *engine.Game) { g.Seats[0].Money = 4 },
		},
		{
			name: "an Endorsement held",
			worse: func(g *engine.Game) {
				g.Seats[0].Polling[red] = 6
			},
			better: func(g *engine.Game) {
				g.Seats[0].Polling[red] = 6
				g.Districts[red].Endorsements[1] = 0
			},
		},
		{
			name:   "the Opposition's Endorsement counts against you",
			worse:  func(g *engine.Game) { g.Districts[blue].Endorsements[2] = 1 },
			better: func(g *engine.Game) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, b := handBuilt(t, tt.mode), handBuilt(t, tt.mode)
			tt.worse(w)
			tt.better(b)
			if ew, eb := HandEval(w), HandEval(b); !(eb > ew) {
				t.Errorf("HandEval: got better %.3f, worse %.3f; want better > worse", eb, ew)
			}
		})
	}
}

func TestEvalBonusExact(t *testing.T) {
	// With every District's shares fixed, the bonus moves Eval by exactly
	// its votes: ⌊6/3⌋ = 2 on Normal, ⌈6/2⌉ = 3 on Hard.
	for _, tt := range []struct {
		mode engine.Mode
		want float64
	}{{engine.Normal, 2}, {engine.Hard, 3}} {
		a, b := handBuilt(t, tt.mode), handBuilt(t, tt.mode)
		b.Seats[1].Money, b.Seats[1].Popularity = 6, 7
		if got := HandEval(a) - HandEval(b); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: bonus of 6 costs %.3f votes, want %.0f", tt.mode, got, tt.want)
		}
	}
}

func TestEvalFinishedGameIsMargin(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		g := newGame(t, seed, engine.Mode(seed%2))
		p := NewGreedy(1)
		p.Reset(seed)
		if err := Play(g, p, nil); err != nil {
			t.Fatal(err)
		}
		want := float64(g.Result.Margin())
		if got, hand := Eval(g), HandEval(g); got != want || hand != want {
			t.Errorf("seed %d: Eval = %v, HandEval = %v, want the margin %v", seed, got, hand, want)
		}
		if e := EvalError(g); e != 0 {
			t.Errorf("seed %d: EvalError = %v at the end, want 0", seed, e)
		}
	}
}

// TestEvalIgnoresHidden: Eval, every one of its features, its stage and
// the hand score are the same in every world the player cannot tell
// apart.
func TestEvalIgnoresHidden(t *testing.T) {
	for i, g := range positions(t) {
		want, wantHand := Eval(g), HandEval(g)
		wantF, wantS := Features(g)
		for w := range 3 {
			alt := *g
			alt.Determinize(uint64(w))
			if got := Eval(&alt); got != want {
				t.Errorf("position %d, world %d: Eval = %v, want %v", i, w, got, want)
			}
			if got := HandEval(&alt); got != wantHand {
				t.Errorf("position %d, world %d: HandEval = %v, want %v", i, w, got, wantHand)
			}
			f, s := Features(&alt)
			if s != wantS {
				t.Errorf("position %d, world %d: stage %d, want %d", i, w, s, wantS)
			}
			for k := range f {
				if f[k] != wantF[k] {
					t.Errorf("position %d, world %d: feature %s = %v, want %v", i, w, FeatureNames[k], f[k], wantF[k])
				}
			}
		}
	}
}

// TestPoliciesDoNotChooseByEval: every policy plays the same games with
// the calibration replaced by nonsense, so the games fiteval fits Eval to
// do not depend on the calibration they replace.
func TestPoliciesDoNotChooseByEval(t *testing.T) {
	saved := calibration
	defer func() { calibration = saved }()
	for _, spec := range []string{"random", "greedy", "pollster", "builder", "mcts:iters=6"} {
		sp, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		var results [2][2]engine.Result
		for k := range 2 {
			calibration = saved
			if k == 1 {
				for s := range NumStages {
					calibration.Intercept[s] = float64(s*7%5) - 40
					calibration.Coef[s][FeatTally] = -3
				}
			}
			for seed := range uint64(2) {
				g := newGame(t, seed+1, engine.Mode(seed))
				p := sp.New()
				p.Reset(seed + 1)
				if err := Play(g, p, nil); err != nil {
					t.Fatal(err)
				}
				results[k][seed] = g.Result
			}
		}
		if results[0] != results[1] {
			t.Errorf("%s: the games changed with the calibration", spec)
		}
	}
}

// TestEvalCalibrated: Eval applies the calibration of the position's
// stage to its features, and EvalError is that stage's held-out error.
func TestEvalCalibrated(t *testing.T) {
	for i, g := range positions(t) {
		f, s := Features(g)
		if s != Stage(g) || s < 0 || s >= NumStages {
			t.Fatalf("position %d: Features gave stage %d, Stage %d", i, s, Stage(g))
		}
		want := calibration.Intercept[s]
		for k := range f {
			want += calibration.Coef[s][k] * f[k]
		}
		if got := Eval(g); math.Abs(got-want) > 1e-9 {
			t.Errorf("position %d: Eval = %v, want %v", i, got, want)
		}
		if got := EvalError(g); got != calibration.RMSE[s] || got <= 0 {
			t.Errorf("position %d: EvalError = %v, want the stage's RMSE %v > 0", i, got, calibration.RMSE[s])
		}
	}
}

// TestBoardTablesGiveTheSameScores: greedy's evaluations of its options'
// results through boardTables equal, bit for bit, those worked out from
// scratch, on the plain results and on those of a determinized copy, at
// every decision of greedy games on both difficulties (every option of a
// decision placing a tile included, which the tables must not serve).
func TestBoardTablesGiveTheSameScores(t *testing.T) {
	var tables boardTables
	var c, base engine.Game
	buf := make([]engine.Option, 0, engine.MaxOptions)
	p := NewGreedy(1)
	for seed := uint64(1); seed <= 6; seed++ {
		g := newGame(t, seed, engine.Mode(seed%2))
		p.Reset(seed)
		for !g.Over() {
			legal := g.Legal(buf[:0])
			tables.reset(g)
			base = *g
			base.SetRecorder(nil)
			base.Determinize(seed)
			for _, from := range []*engine.Game{g, &base} {
				for _, o := range legal {
					c = *from
					c.SetRecorder(nil)
					c.ApplyLegal(o)
					want := evalFor(&c, &DefaultWeights, engine.NoSeat)
					if got := evalFrom(&c, &DefaultWeights, engine.NoSeat, &tables); math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("seed %d, round %d, %s decision, %v: %v with the tables, %v without", seed, g.Round+1, g.Pending, o, got, want)
					}
				}
			}
			if err := g.Apply(p.Choose(g, legal)); err != nil {
				t.Fatal(err)
			}
		}
	}
}
