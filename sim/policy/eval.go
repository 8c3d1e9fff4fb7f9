package policy

import (
	"math"
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
// the reference game's. A game with more turns uses the weights of 14
// turns left for the earlier ones.
const MaxStageTurns = 14

// NumStages is the number of stages the calibration has weights for: for
// each number of your turns left (the current one included), 0 to
// MaxStageTurns, three kinds of position, whose features mean different
// things: outside the Strategy Phase (Clean Up, the Final Tally's
// reveals); in the Strategy Phase before your turn's card is chosen (the
// turn's worth is not yet in the potential feature); and in your turn.
const NumStages = 3 * (MaxStageTurns + 1)

// Stage is g's stage: 3 × your turns left, plus 1 in the Strategy Phase
// before your card is chosen, or 2 after.
func Stage(g *engine.Game) int { return stageOf(g, turnsLeft(g)) }

func stageOf(g *engine.Game, turns int) int {
	s := 3 * min(max(turns, 0), MaxStageTurns)
	switch {
	case g.Phase != engine.PhaseStrategy:
	case g.CurrentTurn().Card < 0:
		s++
	default:
		s += 2
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
	tab     *trackTable
	// Each District's margin and what it would become (see districtCalc,
	// and dist): in the tables when there are some, at calc[d], else in
	// own (not pointed to from calc: a pointer into e would move e to the
	// heap).
	calc [engine.NumDistricts]*districtCalc
	own  [engine.NumDistricts]districtCalc
}

// dist is the calc of District d.
func (e *evaluator) dist(d int8) *districtCalc {
	if c := e.calc[d]; c != nil {
		return c
	}
	return &e.own[d]
}

// districtKey is all a District's margin depends on (with the rules and
// Weights.Progress): both sides' polling and fixed Vote Shares (icons,
// token and majority shares), whether there are turns left for progress
// to count, and the District's votes (as bits, so that equal keys mean
// the same bits). It is packed into two words, as districtOf compares
// keys a few times per District per evaluation.
type districtKey struct {
	sides uint64 // polling, you then the Opposition, fixed shares likewise, a byte each; bit 32: turns left
	votes uint64
}

func makeDistrictKey(poll, fixed [2]int8, live bool, votes float64) districtKey {
	k := districtKey{votes: math.Float64bits(votes)}
	k.sides = uint64(uint8(poll[0])) | uint64(uint8(poll[1]))<<8 | uint64(uint8(fixed[0]))<<16 | uint64(uint8(fixed[1]))<<24
	if live {
		k.sides |= 1 << 32
	}
	return k
}

// districtCalc is one District's margin as it stands and, worked out on
// demand, the changes pollingValue and shareValue ask for. All of it is
// a function of its key alone, so one calc serves every position with
// that key: the results of a decision's options mostly change one
// District, or none.
type districtCalc struct {
	key         districtKey
	poll, fixed [2]int8 // as in the key, you first
	base        float64 // the margin as it stands
	// The fractional shares of both, and the shares of today's polling,
	// that base was worked out from (pollingValue changes one side).
	sBase, oBase float64
	at           [2]int8
	// gain caches pollingValue, you first: gain[i][n] for n ≤ 4, valid
	// when gainOK[i] has bit n; share caches shareValue likewise.
	gain    [2][5]float64
	gainOK  [2]uint8
	share   [2]float64
	shareOK [2]bool
}

// trackTable caches, per rule set, the fraction of the way to the next
// share icon at each track position.
type trackTable struct {
	rules *engine.Rules
	frac  [engine.MaxTrack + 1]float64
}

var lastTable atomic.Pointer[trackTable]

func tableFor(r *engine.Rules) *trackTable {
	if t := lastTable.Load(); t != nil && t.rules == r {
		return t
	}
	t := &trackTable{rules: r}
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

// boardTables are the parts of an evaluation that most options of a
// decision leave as they were: the Districts' votes, every seat's Strength
// and each District's margin (districtCalc). They hold the last ones
// worked out with what they were worked out from, and an evaluation takes
// them from here when what it would compute them from is the same: the
// same numbers, without the work.
type boardTables struct {
	// The votes and the held Endorsements, from the fields of the
	// Districts and the Plaza they read (not the Districts whole: the
	// spots, Favors and Vote Share tokens that options change would only
	// make the tables miss).
	votesOK bool
	voteKey votesKey
	votes   [engine.NumDistricts]float64
	held    heldEndorsements
	// The Strengths, from the Assistants and Plaza Badges, and the placed
	// tiles, which never change once placed: among a position and the
	// results of its options their number stands for them, so these serve
	// only results with the tiles of the position the tables were reset
	// at (two options placing one tile each leave the same number).
	nPlaced    uint8
	strOK      bool
	nSeats     int8
	assistants [engine.MaxSeats][engine.NumColumns]engine.AssistantState
	plazaBadge [engine.MaxSeats]bool
	all        [engine.MaxSeats][engine.NumDistricts + 1]int8
	// dist keeps the last calcs of each District (districtCalc), for the
	// rules and weights they were worked out with (weights are never
	// changed in place); next is the way the next new one goes to.
	distRules *engine.Rules
	distW     *Weights
	dist      [engine.NumDistricts][distWays]districtCalc
	nDist     [engine.NumDistricts]uint8
	next      [engine.NumDistricts]uint8
	// e is the evaluator of the evaluations with these tables.
	e evaluator
}

// distWays is how many calcs the tables keep per District: the position's
// own and those of a few options that changed the District.
const distWays = 4

// districtOf returns the calc of d for key k, and whether the tables hold
// it; if not, the caller works it out into the one returned.
func (t *boardTables) districtOf(d int8, k districtKey) (c *districtCalc, ok bool) {
	ways := &t.dist[d]
	for i := range t.nDist[d] {
		if ways[i].key == k {
			return &ways[i], true
		}
	}
	i := t.next[d]
	t.next[d] = (i + 1) % distWays
	t.nDist[d] = max(t.nDist[d], i+1)
	return &ways[i], false
}

// reset readies the tables for the results of g's options (greedy's
// decision at g).
func (t *boardTables) reset(g *engine.Game) { t.nPlaced, t.strOK = g.NPlaced, false }

// votesKey is what boardVotes and heldOf read of the board.
type votesKey struct {
	cubes   [engine.NumDistricts][engine.NumDistricts]int8
	support [engine.NumDistricts]int8
	faceUp  [engine.NumDistricts]bool
	endorse [engine.NumDistricts][engine.NumLevels]int8
	plaza   [engine.NumDistricts]int8
}

// votesOf is boardVotes(g) and heldOf(g), from the tables when they hold
// them.
func (t *boardTables) votesOf(g *engine.Game) ([engine.NumDistricts]float64, *heldEndorsements) {
	k := votesKey{plaza: g.Plaza}
	for d := range g.Districts {
		ds := &g.Districts[d]
		k.cubes[d], k.support[d], k.faceUp[d], k.endorse[d] = ds.Cubes, ds.InitialSupport, ds.SupportFaceUp, ds.Endorsements
	}
	if !t.votesOK || t.voteKey != k {
		t.voteKey, t.votes, t.votesOK = k, boardVotes(g), true
		t.held = heldOf(g)
	}
	return t.votes, &t.held
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

// strengthsOf is g.Strengths(), from the tables when they hold it. g must
// be the position the tables were reset at, a copy of it with other hidden
// information (Determinize), or the result of one of its options.
func (t *boardTables) strengthsOf(g *engine.Game) [engine.MaxSeats][engine.NumDistricts + 1]int8 {
	if g.NPlaced != t.nPlaced {
		return g.Strengths()
	}
	same := t.strOK && t.nSeats == g.NSeats
	for s := range g.NSeats {
		if !same {
			break
		}
		same = t.assistants[s] == g.Seats[s].Assistants && t.plazaBadge[s] == g.Seats[s].PlazaBadge
	}
	if !same {
		t.all, t.nSeats, t.strOK = g.Strengths(), g.NSeats, true
		for s := range g.NSeats {
			t.assistants[s], t.plazaBadge[s] = g.Seats[s].Assistants, g.Seats[s].PlazaBadge
		}
	}
	return t.all
}

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
			v += 2 * float64(c)
		}
		v += 2 * float64(g.Plaza[d]) // Final Tally 2: Plaza cubes go home
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

// newDistrict works out c, the calc of d for key k: district at today's
// polling, without its share differences (both 0: adding them would not
// change a bit of the result).
func (e *evaluator) newDistrict(c *districtCalc, d int8, k districtKey, poll, fixed [2]int8) {
	*c = districtCalc{key: k, poll: poll, fixed: fixed}
	s := float64(fixed[0]) + e.progress(poll[0])
	o := float64(fixed[1]) + e.progress(poll[1])
	c.sBase, c.oBase = s, o
	c.at[0], c.at[1] = e.r.SharesAt(poll[0]), e.r.SharesAt(poll[1])
	c.base = e.margin(d, s, o)
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
// what the turns left can spend.
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

// progress is the fractional Vote Share of a tracker at p: its share icons
// reached plus the way to the next one, scaled by Progress while there is
// time to get there.
func (e *evaluator) progress(p int8) float64 {
	if e.turns == 0 {
		return 0
	}
	return e.w.Progress * e.tab.frac[p]
}

// district is your margin in d with your polling at pMe and the
// Opposition's at pOpp, plus extra fixed shares.
func (e *evaluator) district(d int8, pMe, pOpp int8, extraMe, extraOpp float64) float64 {
	r, c := e.r, e.dist(d)
	dMe := float64(r.SharesAt(pMe) - r.SharesAt(c.poll[0]))
	dOpp := float64(r.SharesAt(pOpp) - r.SharesAt(c.poll[1]))
	s := float64(c.fixed[0]) + dMe + extraMe + e.progress(pMe)
	o := float64(c.fixed[1]) + dOpp + extraOpp + e.progress(pOpp)
	return e.margin(d, s, o)
}

// margin is your margin in d with fractional shares s against o.
func (e *evaluator) margin(d int8, s, o float64) float64 {
	if s+o <= 0 {
		return 0
	}
	return e.votes[d] * (s - o) / (s + o)
}

// pollingValue is the change of your margin when you (or, with opp, the
// Opposition) gain n polling in d.
func (e *evaluator) pollingValue(d int8, n int8, opp bool) float64 {
	i := 0
	if opp {
		i = 1
	}
	c := e.dist(d)
	if n >= 0 && n < 5 && c.gainOK[i]&(1<<n) != 0 {
		return c.gain[i][n]
	}
	// district with one side's polling moved: the other side's fractional
	// shares are those of base (its share difference is 0, which adds
	// nothing to a single bit).
	var v float64
	p := po2(c.poll[i], n, e.r)
	x := float64(c.fixed[i]) + float64(e.r.SharesAt(p)-c.at[i]) + e.progress(p)
	if opp {
		v = e.margin(d, c.sBase, x) - c.base
	} else {
		v = e.margin(d, x, c.oBase) - c.base
	}
	if n >= 0 && n < 5 {
		c.gain[i][n], c.gainOK[i] = v, c.gainOK[i]|1<<n
	}
	return v
}

func po2(p, n int8, r *engine.Rules) int8 { return min(r.TrackMax, p+n) }

// shareValue is the change of your margin when you (or, with opp, the
// Opposition) gain one more fixed share in d.
func (e *evaluator) shareValue(d int8, opp bool) float64 {
	c := e.dist(d)
	i := 0
	if opp {
		i = 1
	}
	if !c.shareOK[i] {
		pm, po := c.poll[0], c.poll[1]
		if opp {
			c.share[i] = e.district(d, pm, po, 0, 1) - c.base
		} else {
			c.share[i] = e.district(d, pm, po, 1, 0) - c.base
		}
		c.shareOK[i] = true
	}
	return c.share[i]
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
	f[FeatStrength] *= float64(e.turns) / 14
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
		m += w.Strength * float64(e.str[0][d]) * float64(e.turns) / 14
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

// reward values one reward for you, or against you for the Opposition.
func (e *evaluator) reward(w engine.Reward, d int8, opp bool) float64 {
	switch w.Kind {
	case engine.RewardMoney, engine.RewardPopularity:
		if opp {
			// Only the lower of its trackers counts, through its bonus.
			return -float64(w.Amount) / (2 * float64(e.r.Difficulties[e.g.Mode].BonusDivisor))
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

// blocks counts the spots your Assistants hold in Districts where the
// Opposition is strong (its likely actions there are then blocked).
func (e *evaluator) blocks() float64 {
	n := 0.0
	for d := range engine.NumDistricts {
		for _, h := range e.g.Districts[d].Spots {
			if h == e.me {
				n += 1 + float64(e.poll[1][d])/6
			}
		}
	}
	return n
}

// potential values what is still open in your turn in progress: the
// Strategy icons connected (or, before the card is placed, connectable)
// and not spent, and the unused ability. It makes the choices before the
// actions (card, column, row, region) worth something to a one-step
// lookahead.
func (e *evaluator) potential() float64 {
	g := e.g
	tv := g.CurrentTurn()
	if tv.Card < 0 {
		return 0
	}
	card := &e.r.Cards[tv.Card]
	region := int8(-1)
	switch g.Pending {
	case engine.DecAction, engine.DecAttract:
		region = g.Seats[e.me].Assistants[tv.Column].Region
	case engine.DecColumn, engine.DecRow, engine.DecRegion:
	default:
		return 0
	}
	// iconVal[a] is actionValue(a, region), worked out when first needed
	// (valued[a]): once the card is placed only the connected, unspent
	// icons count, and most of a turn's evaluations come after.
	var iconVal [engine.NumActions]float64
	var valued [engine.NumActions]bool
	if g.Pending == engine.DecColumn || g.Pending == engine.DecRow {
		for sl := range engine.NumSlots {
			if ic := card.Slots[sl]; ic.IsAction && !valued[ic.Action] {
				iconVal[ic.Action], valued[ic.Action] = e.actionValue(ic.Action, region), true
			}
		}
	}
	slotVal := func(slot int8, connected bool) float64 {
		ic := card.Slots[slot]
		if ic.IsAction {
			return iconVal[ic.Action]
		}
		if connected {
			return 0 // income already gained
		}
		return e.resVal * float64(ic.Money+ic.Popularity)
	}
	v := 0.0
	switch g.Pending {
	case engine.DecColumn, engine.DecRow:
		best := -1e9
		st := &g.Seats[e.me]
		for c := range int8(engine.NumColumns) {
			if st.Columns[c].Card >= 0 || (g.Pending == engine.DecRow && c != tv.Column) {
				continue
			}
			for row := range int8(engine.NumRows) {
				p := e.r.Columns[c][row]
				x := e.resVal * float64(p.Money+p.Popularity)
				seen := [engine.NumActions]bool{}
				for _, sl := range p.Slots {
					ic := card.Slots[sl]
					if ic.IsAction {
						if seen[ic.Action] {
							x += iconVal[ic.Action] * 0.5
						} else {
							x += iconVal[ic.Action]
						}
						seen[ic.Action] = true
					} else {
						x += slotVal(int8(sl), false)
					}
				}
				best = max(best, x)
			}
		}
		if best > -1e9 {
			v += best
		}
	default:
		seen := [engine.NumActions]bool{}
		for sl := range int8(engine.NumSlots) {
			bit := uint8(1) << sl
			ic := card.Slots[sl]
			if tv.Connected&bit == 0 || tv.Used&bit != 0 || !ic.IsAction {
				continue
			}
			if !valued[ic.Action] {
				iconVal[ic.Action], valued[ic.Action] = e.actionValue(ic.Action, region), true
			}
			if seen[ic.Action] {
				v += iconVal[ic.Action] * 0.5
			} else {
				v += iconVal[ic.Action]
			}
			seen[ic.Action] = true
		}
	}
	if !tv.AbilityUsed {
		v += e.abilityValue(card.Ability, region)
	}
	return v
}

// actionValue estimates the margin one Strategy icon of action a can
// still buy in region (-1: any District, as the Assistant is not yet
// placed), net of its cost.
func (e *evaluator) actionValue(a engine.Action, region int8) float64 {
	if region == engine.Plaza {
		return e.plazaValue()
	}
	var c actionCosts
	priced := false
	best := 0.0
	for d := range int8(engine.NumDistricts) {
		if region >= 0 && d != region {
			continue
		}
		v := e.resVal * float64(e.str[0][d]) // the wild Fundraise is always there
		if region < 0 {
			v += e.resVal // the Assistant itself will add Strength there
		}
		if e.g.SpotFree(d, a) {
			if !priced {
				c, priced = e.costsOf(a), true
			}
			v = max(v, e.districtAction(a, d, &c))
		}
		best = max(best, v)
	}
	return best
}

// actionCosts is what districtAction needs of an action that is the same
// in every District, worked out once for all four: whether each tier is
// affordable (and its tiles left) and the worth of what it costs.
type actionCosts struct {
	ok   [engine.NumTiers + 1]bool    // tier 0: Campaign and Research
	cost [engine.NumTiers + 1]float64 // resVal × (Money + Popularity)
	// research marks the Districts where a Research has something to turn.
	research [engine.NumDistricts]bool
	// works is the value of Public Works, which does not depend on where.
	works float64
}

func (e *evaluator) costsOf(a engine.Action) actionCosts {
	g, me := e.g, e.me
	var c actionCosts
	switch a {
	case engine.Campaign:
		m, p := g.Cost(me, engine.Campaign, 0)
		c.ok[0], c.cost[0] = g.CanPay(me, m, p), e.resVal*float64(m+p)
	case engine.Celebrity:
		for t := int8(1); t <= engine.NumTiers; t++ {
			m, p := g.Cost(me, engine.Celebrity, t)
			c.ok[t] = g.TilesLeft(engine.TileCelebrity, t) > 0 && g.CanPay(me, m, p)
			c.cost[t] = e.resVal * float64(m+p)
		}
	case engine.Research:
		// A face-down Celebrity or Public Works tile, or the face-down
		// Initial Support token, is something to turn.
		for i := range g.NPlaced {
			t := &g.Placed[i]
			if !t.FaceUp && t.District >= 0 && t.District < engine.NumDistricts &&
				(t.Kind == engine.TileCelebrity || t.Kind == engine.TilePublicWorks) {
				c.research[t.District] = true
			}
		}
		for d := range engine.NumDistricts {
			c.research[d] = c.research[d] || !g.Districts[d].SupportFaceUp
		}
	case engine.PublicWorks:
		if g.BadgesLeft(me) > 0 {
			for t := int8(1); t <= engine.NumTiers; t++ {
				m, p := g.Cost(me, engine.PublicWorks, t)
				if g.TilesLeft(engine.TilePublicWorks, t) > 0 && g.CanPay(me, m, p) {
					c.works = max(c.works, float64(t)*(e.w.Strength*float64(e.turns)/14+1.5)-e.resVal*float64(m+p))
				}
			}
		}
	}
	return c
}

// districtAction is the margin action a buys in d, net of its cost c.
func (e *evaluator) districtAction(a engine.Action, d int8, c *actionCosts) float64 {
	best := 0.0
	switch a {
	case engine.Campaign:
		if c.ok[0] {
			best = e.pollingValue(d, e.r.Costs.CampaignPolling, false) - c.cost[0]
		}
	case engine.Celebrity:
		for t := int8(1); t <= engine.NumTiers; t++ {
			if c.ok[t] {
				best = max(best, e.pollingValue(d, t, false)-c.cost[t])
			}
		}
	case engine.Research:
		if c.research[d] {
			best = e.pollingValue(d, e.r.Costs.ResearchPolling+e.g.Seats[e.me].ResearchBonus, false) + 1
		}
	case engine.PublicWorks:
		best = c.works
	}
	return best
}

// plazaValue is the best wild Plaza action for one icon.
func (e *evaluator) plazaValue() float64 {
	c := e.r.Costs
	rally := float64(c.RallyPopularityPerStrength) * float64(e.str[0][engine.Plaza]+1)
	n := 0
	for d := range engine.NumDistricts {
		if e.str[0][d] > 0 {
			n++
		}
	}
	fund := float64(c.PlazaFundraiseMoneyPerDistrict) * float64(n)
	return e.resVal * max(rally, fund)
}

// abilityValue is a rough worth of an unused card ability.
func (e *evaluator) abilityValue(a engine.Ability, region int8) float64 {
	switch a.Kind {
	case engine.AbilityPollingHere:
		if region >= 0 && region < engine.NumDistricts {
			return e.pollingValue(region, a.Polling, false)
		}
		if region < 0 {
			return e.bestPolling(a.Polling)
		}
	case engine.AbilityPollingAny:
		return e.bestPolling(a.Polling)
	case engine.AbilityGain:
		return e.resVal * float64(a.Money+a.Popularity)
	case engine.AbilityAttractCube, engine.AbilityDrawAttract, engine.AbilityDrawCube:
		return 1
	}
	return 0
}

func (e *evaluator) bestPolling(n int8) float64 {
	best := 0.0
	for d := range int8(engine.NumDistricts) {
		best = max(best, e.pollingValue(d, n, false))
	}
	return best
}
