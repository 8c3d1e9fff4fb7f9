package policy

import (
	"math"
	"testing"

	"tallywood/engine"
	"tallywood/opposition"
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

// TestStrengthScalesByTheGamesTurns: the Strength term is your Strength
// times your turns left over the game's turns, the turns of the rules'
// own Round cards (C-13: 3+3+4+4 = 14 in the reference set), in the
// features and in the hand-weighted score alike, at every Strategy Phase
// decision of a greedy game.
func TestStrengthScalesByTheGamesTurns(t *testing.T) {
	const (
		round1 = `{"turns": 3, "hand_size": 4, "presence": {"kind": "money", "amount": 1}, "district_majority": {"kind": "popularity", "amount": 1}, "plaza_majority": {"kind": "popularity", "amount": 2}}`
		round4 = `{"turns": 4, "hand_size": 5, "presence": {"kind": "polling", "amount": 1}, "district_majority": {"kind": "vote_share", "amount": 1}, "plaza_majority": {"kind": "popularity", "amount": 3}, "opposition_plaza_advance": true}`
	)
	tests := []struct {
		name  string
		set   []string
		turns int
	}{
		{"the reference set, C-13", nil, 14},
		{"rounds 1 and 2 of 4 turns", []string{"rounds[0].turns=4", "rounds[1].turns=4"}, 16},
		{"rounds 3 and 4 of 1 turn", []string{"rounds[2].turns=1", "rounds[3].turns=1"}, 8},
		{"two rounds, C-13's first and last", []string{"rounds=[" + round1 + "," + round4 + "]"}, 7},
		{"five rounds, more turns than the stages tell apart", []string{"rounds=[" + round1 + "," + round1 + "," + round4 + "," + round4 + "," + round4 + "]"}, 18},
	}
	strengthOnly := DefaultWeights
	strengthOnly.Strength, strengthOnly.Potential = 1, 0
	noStrength := strengthOnly
	noStrength.Strength = 0
	buf := make([]engine.Option, 0, engine.MaxOptions)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var as []engine.Assignment
			for _, s := range tt.set {
				a, err := engine.ParseAssignment(s)
				if err != nil {
					t.Fatal(err)
				}
				as = append(as, a)
			}
			r, err := engine.Reference().With(as...)
			if err != nil {
				t.Fatal(err)
			}
			if got := gameTurns(r); got != tt.turns {
				t.Fatalf("gameTurns = %d, want %d", got, tt.turns)
			}
			g, err := engine.New(r, 5, engine.Config{Politician: 0, Opposition: opposition.Solo{}})
			if err != nil {
				t.Fatal(err)
			}
			me := int8(0)
			if g.Opponent() == 0 {
				me = 1
			}
			p := NewGreedy(1)
			p.Reset(5)
			scaled := 0 // positions where the share of the game to come is neither 0 nor 1
			for !g.Over() {
				if left := turnsLeft(g); g.Phase == engine.PhaseStrategy {
					strength := 0
					for d := range engine.NumDistricts {
						strength += int(g.Strengths()[me][d])
					}
					want := float64(strength) * float64(left) / float64(tt.turns)
					f, _ := Features(g)
					if math.Abs(f[FeatStrength]-want) > 1e-9 {
						t.Fatalf("round %d, %d turns left: strength feature %v, want %d Strength × %d/%d = %v", g.Round+1, left, f[FeatStrength], strength, left, tt.turns, want)
					}
					if got := EvalWith(g, &strengthOnly) - EvalWith(g, &noStrength); math.Abs(got-want) > 1e-9 {
						t.Fatalf("round %d, %d turns left: the hand score's Strength term is %v, want %v", g.Round+1, left, got, want)
					}
					if strength > 0 && left > 0 && left < tt.turns {
						scaled++
					}
				}
				if err := g.Apply(p.Choose(g, g.Legal(buf[:0]))); err != nil {
					t.Fatal(err)
				}
			}
			if scaled == 0 {
				t.Fatal("no position with Strength part way through the game")
			}
		})
	}
}

// TestMaxStageTurnsIsTheReferenceGame: the calibration tells apart the
// turns left of the game it is fitted on, the reference set's (C-13).
func TestMaxStageTurnsIsTheReferenceGame(t *testing.T) {
	if got := gameTurns(engine.Reference()); got != MaxStageTurns {
		t.Errorf("the reference game has %d turns, MaxStageTurns is %d", got, MaxStageTurns)
	}
}
