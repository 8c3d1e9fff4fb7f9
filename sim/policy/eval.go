package policy

import (
	"math/bits"
	"sync/atomic"

	"tallywood/engine"
)

// Eval estimates the final vote margin (your votes minus the
// Opposition's) of a position, from what the player can see. It weighs
// the terms of the evaluation (the features, FeatTally...FeatPotential)
// by a calibration fitted to the final margins of self-play games, with
// weights for each stage of the game (your turns left, and whether it is
// the Strategy Phase; see Stage):
//
//	margin ≈ Intercept[s] + Σ_k Coef[s][k] · feature_k
//
// The features are:
//
//	tally      Σ_d V_d · (s_d − o_d) / (s_d + o_d)      provisional Final Tally
//	held       held Endorsements net − the Opposition's resource bonus
//	strength   your Strength × the share of the game's turns to come
//	resources  your Money and Popularity, concave, worth nothing at the end
//	hand       Strategy decks represented in your hand
//	round      the current Round card's rewards, by today's Strength
//	potential  the actions still open in your turn in progress
//	hard       1 on Hard (the Opposition's stronger play still to come)
//
// where V_d counts the District's votes as the Final Tally would (Plaza
// cubes go home to their colour; a face-down Initial Support token counts
// as the mean of the face-down values, never its own face), and s_d, o_d
// are Vote Shares with fractional progress towards the next icon. The
// calibration (calibration.go) is written by
// sim/policy/internal/fiteval; EvalError gives its typical error. Once the
// game is over Eval is the true margin.
//
// Eval never reads hidden information: not the decks, the piles, the
// faces of face-down tiles or the values of face-down Initial Support
// tokens one by one.
func Eval(g *engine.Game) float64 {
	if g.Over() {
		return float64(g.Result.Margin())
	}
	f, s := Features(g)
	return calibration.Estimate(f, s)
}

// EvalError is the typical error of Eval at g's stage of the game: the
// root mean square of (Eval − final margin) on held-out self-play games at
// the same stage. It is 0 once the game is over.
func EvalError(g *engine.Game) float64 {
	if g.Over() {
		return 0
	}
	return calibration.RMSE[Stage(g)]
}

// Features returns the terms of the evaluation at g, each at weight 1
// (shaped by DefaultWeights' inner parameters), and g's stage, which the
// calibration is indexed by.
func Features(g *engine.Game) ([NumFeatures]float64, int) {
	var e evaluator
	e.init(g, &DefaultWeights, engine.NoSeat, nil)
	return e.features(), stageOf(g, e.turns)
}

// MaxStageTurns is the most turns left the stages tell apart: 14, all of
// the reference game's (C-13: 3+3+4+4), the game the calibration is
// fitted on. It sizes the calibration, so it is a constant rather than
// the rules' count (gameTurns): a game with more turns uses the weights
// of 14 turns left for the earlier ones.
const MaxStageTurns = 14

// The kinds of position a stage tells apart, whose features mean
// different things.
const (
	// stageOther is outside the Strategy Phase: Clean Up, the Final
	// Tally's reveals.
	stageOther = iota
	// stageTurnStart is in the Strategy Phase before your turn's card is
	// chosen: the turn's worth is not yet in the potential feature.
	stageTurnStart
	// stageInTurn is in your turn, its card chosen.
	stageInTurn
	stageKinds
)

// NumStages is the number of stages the calibration has weights for: for
// each number of your turns left (the current one included), 0 to
// MaxStageTurns, the three kinds of position: outside the Strategy Phase,
// in it before your turn's card is chosen, and in your turn.
const NumStages = stageKinds * (MaxStageTurns + 1)

// Stage is g's stage: 3 × your turns left, plus 1 in the Strategy Phase
// before your card is chosen, or 2 after.
func Stage(g *engine.Game) int { return stageOf(g, turnsLeft(g)) }

func stageOf(g *engine.Game, turns int) int {
	s := stageKinds * min(max(turns, 0), MaxStageTurns)
	switch {
	case g.Phase != engine.PhaseStrategy:
		s += stageOther
	case g.CurrentTurn().Card < 0:
		s += stageTurnStart
	default:
		s += stageInTurn
	}
	return s
}

// Calibration maps the features to an estimate of the final margin.
type Calibration struct {
	Intercept [NumStages]float64
	Coef      [NumStages][NumFeatures]float64
	// RMSE is the held-out root mean square error at each stage.
	RMSE [NumStages]float64
}

// Estimate is the calibrated margin for features f at stage s.
func (c *Calibration) Estimate(f [NumFeatures]float64, s int) float64 {
	m := c.Intercept[s]
	for k, x := range f {
		m += c.Coef[s][k] * x
	}
	return m
}

// HandEval is the hand-weighted score of g with DefaultWeights: the
// features added with the weights greedy plays by. It orders positions
// as greedy does but is not a calibrated margin (early in the game it is
// tens of votes too high). Once the game is over it is the true margin.
func HandEval(g *engine.Game) float64 { return EvalWith(g, &DefaultWeights) }

// Weights shape the features and, for the hand-weighted score (EvalWith,
// HandEval) that greedy and the style players choose by, weigh them. All
// are in votes.
type Weights struct {
	// Resource is the worth of one Money or Popularity with at least
	// ResourceTurns of your turns left; it falls linearly to 0 at the end.
	Resource      float64
	ResourceTurns float64
	// ResourceCap is the Money + Popularity a turn can usefully spend;
	// resources are worth less the closer they come to that cap.
	ResourceCap float64
	// Progress scales the fractional share of a polling tracker between
	// two Vote Share icons (1: counted in full).
	Progress float64
	// Majority scales the current Round card's rewards by today's Strength
	// (the round is not over; Strength can still change).
	Majority float64
	// Strength is a bonus per point of your Strength in the Districts,
	// scaled by the share of the game's turns still to come (majorities and
	// presence pay every round; Badges stay).
	Strength float64
	// Potential scales the value of the actions still open in your turn.
	Potential float64
	// Polling is a style bonus per point of your polling (pollster).
	Polling float64
	// Hand is the worth of each Strategy deck represented in your hand
	// (a hand of one type leaves actions out of reach).
	Hand float64
	// Block is a style bonus per spot your Assistants hold where the
	// Opposition would act (builder).
	Block float64
}

// DefaultWeights are the weights of greedy and of mcts's leaf scores,
// tuned with greedy on seeds 300000 and up (not the ladder's seeds).
var DefaultWeights = Weights{
	Resource:      0.8,
	ResourceTurns: 4,
	ResourceCap:   4,
	Progress:      1.0,
	Majority:      0.7,
	Strength:      0.5,
	Potential:     0.8,
	Hand:          1.0,
}

// evaluator holds the per-position quantities Eval and the turn potential
// share.
type evaluator struct {
	g       *engine.Game
	r       *engine.Rules
	w       *Weights
	me, opp int8
	resVal  float64 // worth of one more Money or Popularity for you
	resCap  float64 // Money + Popularity you can still spend
	turns   int     // your turns left, the current one included
	votes   [engine.NumDistricts]float64
	held    heldEndorsements
	poll    [2][engine.NumDistricts]int8
	str     [2][engine.NumDistricts + 1]int8
	all     [engine.MaxSeats][engine.NumDistricts + 1]int8 // every seat's Strength
	tab     *rulesTable
	// Each District's margin and what it would become (see districtCalc,
	// and dist): in the tables when there are some, at calc[d], else in
	// own (not pointed to from calc: a pointer into e would move e to the
	// heap).
	calc [engine.NumDistricts]*districtCalc
	own  [engine.NumDistricts]districtCalc
}

// rulesTable holds what the evaluation derives from a rule set, worked
// out once per rule set.
type rulesTable struct {
	rules *engine.Rules
	// frac is the fraction of the way to the next share icon (C-8) at each
	// track position (C-7).
	frac [engine.MaxTrack + 1]float64
	// gameTurns is the Strategy Phase turns each player plays in the whole
	// game, the turns of every Round card added up (C-13: 3+3+4+4 = 14 in
	// the reference set). The Strength term is scaled by turns left over
	// gameTurns, the share of the game still to come.
	gameTurns float64
}

var lastTable atomic.Pointer[rulesTable]

func tableFor(r *engine.Rules) *rulesTable {
	if t := lastTable.Load(); t != nil && t.rules == r {
		return t
	}
	t := &rulesTable{rules: r, gameTurns: float64(gameTurns(r))}
	for p := int8(0); p <= r.TrackMax; p++ {
		prev := int8(0)
		for _, ic := range r.ShareIcons {
			if p < ic {
				t.frac[p] = float64(p-prev) / float64(ic-prev)
				break
			}
			prev = ic
		}
	}
	lastTable.Store(t)
	return t
}

// EvalWith is the hand-weighted score with the given weights: the
// features weighed by w, plus the style terms. Once the game is over it is
// the true margin.
func EvalWith(g *engine.Game, w *Weights) float64 {
	return evalFor(g, w, engine.NoSeat)
}

// evalFor is the hand-weighted score for seat me (engine.NoSeat: the
// player of the solo game). In a game of several players it scores me
// against its leading rival (see rival), and once the game is over it is
// me's lead over the best other seat.
func evalFor(g *engine.Game, w *Weights, me int8) float64 {
	return evalFrom(g, w, me, nil)
}

// evalFrom is evalFor taking from t what it holds of g's board (nil:
// nothing; see boardTables).
func evalFrom(g *engine.Game, w *Weights, me int8, t *boardTables) float64 {
	if g.Over() {
		if me == engine.NoSeat {
			return float64(g.Result.Margin())
		}
		return float64(g.Result.Lead(me, g.NSeats))
	}
	if t != nil {
		// init sets every field of the evaluator that an evaluation with
		// tables reads, so the tables' own serves without the clearing of
		// a fresh one (most of a kilobyte, own included).
		t.e.init(g, w, me, t)
		return t.e.total()
	}
	var e evaluator
	e.init(g, w, me, nil)
	return e.total()
}

// heldEndorsements lists the Endorsements held, District by District and
// level by level: who holds each and its votes.
type heldEndorsements struct {
	n    int8
	list [engine.NumDistricts * engine.NumLevels]struct{ seat, votes int8 }
}

func heldOf(g *engine.Game) heldEndorsements {
	var h heldEndorsements
	r := g.Rules()
	for d := range g.Districts {
		for l, s := range g.Districts[d].Endorsements {
			if s != engine.NoSeat {
				h.list[h.n].seat, h.list[h.n].votes = s, r.Endorsements[l].Votes
				h.n++
			}
		}
	}
	return h
}

// cubeVotes is the votes of a Voter cube in its District (rulebook Final
// Tally 3.b, I-18; the engine's DistrictVotes counts it the same way).
const cubeVotes = 2

// boardVotes counts each District's votes as the Final Tally would
// (Plaza cubes go home to their colour), a face-down Initial Support token
// at the mean of the face-down values: the player knows which values are
// still face down, not where.
func boardVotes(g *engine.Game) [engine.NumDistricts]float64 {
	r := g.Rules()
	var sum, n float64
	for d := range engine.NumDistricts {
		if !g.Districts[d].SupportFaceUp {
			sum += float64(g.Districts[d].InitialSupport)
			n++
		}
	}
	hiddenSupport := 0.0
	if n > 0 {
		hiddenSupport = sum / n
	}
	var votes [engine.NumDistricts]float64
	for d := range int8(engine.NumDistricts) {
		ds := &g.Districts[d]
		v := hiddenSupport
		if ds.SupportFaceUp {
			v = float64(ds.InitialSupport)
		}
		for _, c := range ds.Cubes {
			v += cubeVotes * float64(c)
		}
		v += cubeVotes * float64(g.Plaza[d]) // Final Tally 2: Plaza cubes go home
		for l, h := range ds.Endorsements {
			if h == engine.NoSeat {
				v += float64(r.Endorsements[l].Votes)
			}
		}
		votes[d] = v
	}
	return votes
}

// init prepares the evaluation of g for seat; engine.NoSeat is the solo
// game's player, against the Opposition. t, if not nil, holds tables of
// the position g was reached from.
func (e *evaluator) init(g *engine.Game, w *Weights, seat int8, t *boardTables) {
	e.g, e.r, e.w = g, g.Rules(), w
	e.tab = tableFor(e.r)
	if seat == engine.NoSeat || g.IsSolo() {
		e.opp = g.Opponent()
		e.me = 0
		if e.opp == 0 {
			e.me = 1
		}
	} else {
		e.me = seat
	}
	e.turns = turnsLeft(g)
	e.resVal = w.Resource * min(1, float64(e.turns)/w.ResourceTurns)
	// What can be spent is bounded by the turns left: beyond ResourceCap a
	// turn, more Money and Popularity are worth nothing.
	e.resCap = w.ResourceCap * float64(e.turns)
	me := &g.Seats[e.me]
	if x := float64(me.Money + me.Popularity); e.resCap > 0 {
		e.resVal *= max(0, 1-x/e.resCap)
	}

	if t != nil {
		var h *heldEndorsements
		e.votes, h = t.votesOf(g)
		e.held = *h
	} else {
		e.votes, e.held = boardVotes(g), heldOf(g)
	}
	if !g.IsSolo() {
		e.opp = e.rival()
	}
	if t != nil && (t.distRules != e.r || t.distW != w) {
		// The calcs hold for one rule set and one Progress weight.
		t.distRules, t.distW, t.nDist, t.next = e.r, w, [engine.NumDistricts]uint8{}, [engine.NumDistricts]uint8{}
	}
	for d := range int8(engine.NumDistricts) {
		pm, po := g.Seats[e.me].Polling[d], g.Seats[e.opp].Polling[d]
		e.poll[0][d], e.poll[1][d] = pm, po
		poll, fixed := [2]int8{pm, po}, [2]int8{fixedShares(g, e.me, d), fixedShares(g, e.opp, d)}
		k := makeDistrictKey(poll, fixed, e.turns > 0, e.votes[d])
		ok := false
		if t != nil {
			e.calc[d], ok = t.districtOf(d, k)
		}
		if !ok {
			e.newDistrict(e.dist(d), d, k, poll, fixed)
		}
	}
	// Strength of all, in one pass.
	if t != nil {
		e.all = t.strengthsOf(g)
	} else {
		e.all = g.Strengths()
	}
	e.str[0], e.str[1] = e.all[e.me], e.all[e.opp]
}

// fixedShares is seat s's Vote Shares in d as the Final Tally counts them:
// I-7 plus the Round 4 majority share (C-13).
func fixedShares(g *engine.Game, s, d int8) int8 {
	return g.VoteShares(s, d) + g.Seats[s].MajorityShares[d]
}

// rival is, in a game of several players, the other seat the evaluation
// plays against: the one with the most votes if the game were tallied now
// (each District's votes split by everyone's Vote Shares, I-7 with the
// Round 4 majority shares, I-18). The score is a two-player margin against
// it; the others count only through it. Ties go to the lowest seat.
func (e *evaluator) rival() int8 {
	g := e.g
	var total [engine.NumDistricts]float64
	var shares [engine.MaxSeats][engine.NumDistricts]float64
	for s := range g.NSeats {
		for d := range int8(engine.NumDistricts) {
			shares[s][d] = float64(fixedShares(g, s, d))
			total[d] += shares[s][d]
		}
	}
	best, bestV := engine.NoSeat, -1.0
	for s := range g.NSeats {
		if s == e.me {
			continue
		}
		v := 0.0
		for d := range engine.NumDistricts {
			if total[d] > 0 {
				v += e.votes[d] * shares[s][d] / total[d]
			}
		}
		if v > bestV {
			best, bestV = s, v
		}
	}
	return best
}

// resources is the worth of x Money + Popularity: concave, flat beyond
// what the turns left can spend. It adds up the worth of each unit, w at
// the first falling linearly to 0 at resCap: w·(x − x²/(2·resCap)).
func (e *evaluator) resources(x float64) float64 {
	w := e.w.Resource * min(1, float64(e.turns)/e.w.ResourceTurns)
	if e.resCap <= 0 {
		return 0
	}
	x = min(x, e.resCap)
	return w * (x - x*x/(2*e.resCap))
}

// turnsLeft counts your Strategy Phase turns still to play, the current
// one included.
func turnsLeft(g *engine.Game) int {
	if g.Phase >= engine.PhaseReveal {
		return 0
	}
	r := g.Rules()
	n := 0
	for i := int(g.Round); i < len(r.Rounds); i++ {
		n += int(r.Rounds[i].Turns)
	}
	if g.Phase == engine.PhaseStrategy {
		n -= int(g.Turn)
	}
	return n
}

// gameTurns counts the Strategy Phase turns each player plays in a game
// of r, the turns of every Round card (C-13); a valid rules file has at
// least one round of at least one turn.
func gameTurns(r *engine.Rules) int {
	n := 0
	for _, rd := range r.Rounds {
		n += int(rd.Turns)
	}
	return n
}

// The terms of the evaluation, the features its calibration weighs.
const (
	FeatTally     = iota // provisional Final Tally margin over the Districts
	FeatHeld             // held Endorsements net, less the Opposition's resource bonus
	FeatStrength         // your Strength, times the share of the game's turns to come
	FeatResources        // the worth of your Money and Popularity (concave, capped)
	FeatHand             // Strategy decks represented in your hand
	FeatRound            // the current Round card's rewards by today's Strength
	FeatPotential        // the actions still open in your turn in progress
	FeatHard             // 1 on Hard: the Opposition's stronger play still to come
	NumFeatures
)

// FeatureNames names the features, in order, for reports.
var FeatureNames = [NumFeatures]string{"tally", "held", "strength", "resources", "hand", "round", "potential", "hard"}

// features computes the terms, each at weight 1 (the inner parameters of
// e.w shape them: Resource, ResourceTurns, ResourceCap, Progress).
func (e *evaluator) features() [NumFeatures]float64 {
	g := e.g
	var f [NumFeatures]float64
	for d := range int8(engine.NumDistricts) {
		f[FeatTally] += e.dist(d).base
		f[FeatStrength] += float64(e.str[0][d])
	}
	f[FeatStrength] *= float64(e.turns) / e.tab.gameTurns
	f[FeatHeld] = e.addHeld(0)
	me := &g.Seats[e.me]
	f[FeatResources] = e.resources(float64(me.Money + me.Popularity))
	if e.turns > 0 {
		f[FeatHand] = float64(e.decksInHand())
	}
	if g.Phase == engine.PhaseStrategy {
		f[FeatRound] = e.roundRewards()
		if g.Decision().Seat == e.me {
			f[FeatPotential] = e.potential()
		}
	}
	if g.Mode == engine.Hard {
		f[FeatHard] = 1
	}
	return f
}

// total is the hand-weighted score: the features weighted by e.w, plus
// the style terms (hard, the same for every option, is left out). It adds
// the terms in the order the score always has, so that greedy's choices
// do not move with the rounding.
func (e *evaluator) total() float64 {
	g, w := e.g, e.w
	m := 0.0
	for d := range int8(engine.NumDistricts) {
		m += e.dist(d).base
		m += w.Polling * float64(e.poll[0][d])
		m += w.Strength * float64(e.str[0][d]) * float64(e.turns) / e.tab.gameTurns
	}
	m = e.addHeld(m)
	me := &g.Seats[e.me]
	m += e.resources(float64(me.Money + me.Popularity))
	if e.turns > 0 && w.Hand != 0 {
		for range e.decksInHand() {
			m += w.Hand // one addition per deck, as the score always added it
		}
	}
	if g.Phase == engine.PhaseStrategy {
		m += w.Majority * e.roundRewards()
		if g.Decision().Seat == e.me {
			m += w.Potential * e.potential()
		}
		if w.Block != 0 {
			m += w.Block * e.blocks()
		}
	}
	return m
}

// addHeld adds to m the held Endorsements net (when they score for their
// holder), less the Opposition's resource bonus, one term at a time.
func (e *evaluator) addHeld(m float64) float64 {
	g := e.g
	if e.r.Variants.EndorsementsScoreForHolder {
		for _, h := range e.held.list[:e.held.n] {
			switch h.seat {
			case e.me:
				m += float64(h.votes)
			case e.opp:
				m -= float64(h.votes)
			}
		}
	}
	if !g.Seats[e.opp].Automaton {
		return m // only the Opposition has a resource bonus
	}
	return m - float64(g.ResourceBonus(e.opp))
}

// decksInHand counts the Strategy decks represented in your hand.
func (e *evaluator) decksInHand() int {
	me := &e.g.Seats[e.me]
	var decks uint
	for _, c := range me.Hand[:me.NHand] {
		decks |= 1 << e.r.Cards[c].Deck
	}
	return bits.OnesCount(decks)
}

// roundRewards values the current Round card's rewards as today's
// Strength would share them (C-13, I-17).
func (e *evaluator) roundRewards() float64 {
	g := e.g
	rd := &e.r.Rounds[g.Round] // g.RoundCard(), without the copy
	v := 0.0
	for d := range int8(engine.NumDistricts) {
		if e.str[0][d] > 0 {
			v += e.reward(rd.Presence, d, false)
		}
		if e.str[1][d] > 0 {
			v += e.reward(rd.Presence, d, true)
		}
		switch e.majority(d) {
		case e.me:
			v += e.reward(rd.DistrictMajority, d, false)
		case e.opp:
			v += e.reward(rd.DistrictMajority, d, true)
		}
	}
	best := max(e.str[0][engine.Plaza], e.str[1][engine.Plaza])
	if best > 0 {
		if e.str[0][engine.Plaza] == best {
			v += e.reward(rd.PlazaMajority, engine.Plaza, false)
		}
		if e.str[1][engine.Plaza] == best {
			if rd.OppositionPlazaAdvance {
				// I-14: its lowest polling tracker advances.
				low := int8(0)
				for d := range int8(engine.NumDistricts) {
					if e.poll[1][d] < e.poll[1][low] {
						low = d
					}
				}
				v += e.pollingValue(low, rd.PlazaMajority.Amount, true) * float64(e.r.Difficulties[g.Mode].PlazaLowestTrackers)
			} else {
				v += e.reward(rd.PlazaMajority, engine.Plaza, true)
			}
		}
	}
	return v
}

// majority is DistrictMajority from the Strength table; only a tie asks
// the engine for its tie-break (I-17).
func (e *evaluator) majority(d int8) int8 {
	a, b := e.str[0][d], e.str[1][d]
	switch {
	case a > b:
		return e.me
	case b > a:
		return e.opp
	case a == 0:
		return engine.NoSeat
	}
	return e.g.DistrictMajorityIn(d, &e.all)
}

// bonusTrackers is the Opposition's resource trackers, Money and
// Popularity, of which its bonus counts only the lower (rulebook Solo
// Final Tally): reward takes a gain to one of them to raise the lower by
// 1/bonusTrackers of the amount, either tracker being as likely the lower.
const bonusTrackers = 2

// reward values one reward for you, or against you for the Opposition.
func (e *evaluator) reward(w engine.Reward, d int8, opp bool) float64 {
	switch w.Kind {
	case engine.RewardMoney, engine.RewardPopularity:
		if opp {
			// Only the lower of its trackers counts, through its bonus.
			return -float64(w.Amount) / (bonusTrackers * float64(e.r.Difficulties[e.g.Mode].BonusDivisor))
		}
		return e.resVal * float64(w.Amount)
	case engine.RewardPolling:
		if d >= engine.NumDistricts {
			return 0
		}
		return e.pollingValue(d, w.Amount, opp)
	case engine.RewardVoteShare:
		if d >= engine.NumDistricts {
			return 0
		}
		return e.shareValue(d, opp) * float64(w.Amount)
	}
	return 0
}

// blockPolling is the Opposition's polling in a District at which a spot
// your Assistant holds there counts double in blocks: the more it polls
// there, the more the actions it is kept from would have gained it. It is
// the builder style's own scale, set by hand with Weights.Block (6, half
// the reference track, C-7), not a quantity of the rules.
const blockPolling = 6

// blocks counts the spots your Assistants hold in Districts where the
// Opposition is strong (its likely actions there are then blocked), each
// 1 plus the Opposition's polling there over blockPolling.
func (e *evaluator) blocks() float64 {
	n := 0.0
	for d := range engine.NumDistricts {
		for _, h := range e.g.Districts[d].Spots {
			if h == e.me {
				n += 1 + float64(e.poll[1][d])/blockPolling
			}
		}
	}
	return n
}
