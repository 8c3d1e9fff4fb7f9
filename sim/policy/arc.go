package policy

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"tallywood/engine"
	"tallywood/sim/deal"
)

// A game's arc: the win chance at every point of a game where something
// of one kind begins (each decision of the player, the start of each of
// the Opposition's turns) and the split of each step's change into the
// player's decision, the chance it set going (a draw, cubes or a reveal),
// the Solo card the Opposition flipped and what its automaton did with
// it. The steps telescope: their parts add up to the outcome minus the
// first point's chance, exactly, game by game.

// ArcKind is what happens from a point of the arc to the next.
type ArcKind uint8

const (
	// ArcDecision: the player decides, and the game runs on to the next
	// point (the chance the option set going, a draw or a cube pulled,
	// comes with it).
	ArcDecision ArcKind = iota
	// ArcOpposition: the Opposition flips a Solo card and acts on it, and
	// the game runs on to the next point (Round Scoring and Clean Up, when
	// its turn ends the round).
	ArcOpposition
	// ArcEnd: the game is over; the chance is its outcome.
	ArcEnd
)

// LuckSource is what a decision set going: the hidden information its
// step consumed or uncovered.
type LuckSource uint8

const (
	LuckNone   LuckSource = iota // nothing hidden: the step has no luck
	LuckDraw                     // a card drawn, a deck reformed, a tile taken from a pile
	LuckCubes                    // cubes drawn from the bag
	LuckReveal                   // a tile or an Initial Support token turned face up
)

// ArcPoint is one point of a game's arc and the step from it to the next.
type ArcPoint struct {
	Kind  ArcKind
	What  engine.DecisionKind // ArcDecision: what the player decided
	Round int8                // the round (0 the first)
	// PlayerTurn is the player's turn of the game about to start (0 the
	// first), at a decision that chooses its card; -1 elsewhere.
	PlayerTurn int
	Chance     float64 // the win chance at the point
	// Interval is the half-width of the chance's 95% interval
	// (WinChance.Interval): 0 at the end, and without an interval.
	Interval float64
	// The step to the next point, whose chance minus this one's is the
	// sum of the four parts. At an ArcDecision point: the player's
	// decision's (Decided − Chance; the mean chance, over determinized
	// copies, that the decision leads to, when it set chance going, and
	// otherwise the next point's chance) and the chance it set going
	// (Luck, of Source). At an ArcOpposition point: the Solo card's flip
	// (Flip: the change that revealing the card made, since the
	// automaton is deterministic given the card; see flipMeans), what
	// else its turn drew (Luck, of Source: a Celebrity's cubes and tile),
	// and the rest (Opposition: what the automaton's turn changes on
	// average over the cards it might have flipped, and what follows it
	// to the next point, Round Scoring and Clean Up when its turn ends
	// the round).
	Decision, Luck, Flip, Opposition float64
	Source                           LuckSource
	// Card is the Solo card the Opposition played at an ArcOpposition
	// point (index into Rules.Solo), -1 elsewhere.
	Card int16
}

// Arc follows one game at a time: deal the game with Opposition(inner)
// as its Opposition after Start, pass Arc as the Watcher of PlaySolo, and
// call End when the game is over. It reads only what the player sees:
// the win chance, and determinized copies (Determinize) for the decisions
// that set chance going.
type Arc struct {
	Chance *WinChance
	// Probes is how many determinized copies estimate what a decision that
	// set chance going leads to.
	Probes int
	Points []ArcPoint
	// FinalTally is the chance when the Final Tally began, before its
	// first reveal (the outcome, when it had nothing to reveal): set by
	// End.
	FinalTally float64
	// Record, when set, is handed the game at every point, before
	// anything else (the trainer records the net's inputs there). With
	// no Chance, the points have no chance and the steps are not split.
	Record func(g *engine.Game)

	watch    OppWatch
	game     *engine.Game
	rng      rand.PCG
	before   engine.Game // the game at the open decision point
	probe    engine.Game
	open     bool // the last point is a decision whose step is not yet split
	lastOpt  engine.Option
	beforeAt hiddenUse
	bag      int // the bag's cubes and the tiles turned up at the open decision
	flips    int
	cols     [engine.NumColumns]int16 // the Opposition's columns at its turn's start
	// oppAt is the game at the start of the Opposition's turn being
	// played, for the copies that measure its Solo card's flip.
	oppAt engine.Game
	// dealt is a copy of oppAt determinized for a probe, kept so that the
	// probe's second turn starts from the same copy without determinizing
	// it again.
	dealt   engine.Game
	tallied bool // FinalTally is set
	// probing: a probe is being played; hit and hitChance hold the first
	// Opposition turn it reached and the chance there.
	probing   bool
	hit       bool
	hitChance float64
}

// NewArc returns an Arc of the win chance c, with probes determinized
// copies per decision that sets chance going.
func NewArc(c *WinChance, probes int) *Arc {
	a := &Arc{Chance: c, Probes: max(1, probes)}
	a.watch.Start, a.watch.End, a.watch.Revealing = a.oppStart, a.oppEnd, a.oppReveal
	return a
}

// Opposition returns inner, watched: the Arc notes the start and end of
// each of its turns in the game followed (not in the copies the policies
// look ahead on, which share it).
func (a *Arc) Opposition(inner engine.Opposition) engine.Opposition {
	a.watch.Opposition = inner
	return &a.watch
}

// Start begins following game g, about to be dealt with game seed seed.
func (a *Arc) Start(g *engine.Game, seed uint64) {
	a.game, a.Points, a.open, a.probing = g, a.Points[:0], false, false
	a.FinalTally, a.tallied = 0, false
	a.watch.Game = g
	a.rng.Seed(seed, deal.StreamArc)
}

// Decided adds the point of the player's decision o at g, before it is
// applied (the Watcher of PlaySolo).
func (a *Arc) Decided(g *engine.Game, o engine.Option) {
	if g != a.game {
		return
	}
	a.record(g)
	a.close(g)
	turn := -1
	if g.Pending == engine.DecCard {
		turn = gameTurns(g.Rules()) - turnsLeft(g)
	}
	chance := a.chanceOf(g)
	a.Points = append(a.Points, ArcPoint{Kind: ArcDecision, What: g.Pending, Round: g.Round, PlayerTurn: turn,
		Chance: chance, Interval: a.intervalOf(g), Card: -1})
	if g.Pending == engine.DecReveal {
		a.tally(chance)
	}
	if a.Chance == nil {
		return
	}
	a.before = *g
	a.before.SetRecorder(nil)
	a.beforeAt, a.bag, a.flips = touched(g), g.BagCount(), g.Flips()
	a.open = true
	a.lastOpt = o
}

// End adds the last point, the outcome, once g is over.
func (a *Arc) End(g *engine.Game) {
	a.close(g)
	a.Points = append(a.Points, ArcPoint{Kind: ArcEnd, Round: g.Round, PlayerTurn: -1, Chance: OutcomeScore(g), Card: -1})
	a.tally(OutcomeScore(g))
	a.open = false
	a.game, a.watch.Game = nil, nil
}

// close splits the step of the last point, now that g has reached the
// next point.
func (a *Arc) close(g *engine.Game) {
	n := len(a.Points)
	if n == 0 {
		return
	}
	last := &a.Points[n-1]
	next := a.chanceOf(g)
	switch {
	case last.Kind == ArcOpposition:
		last.Opposition = next - last.Chance - last.Flip - last.Luck
	case a.open:
		decided := next
		if touched(g) != a.beforeAt {
			decided = a.expected()
			switch {
			case g.BagCount() != a.bag:
				last.Source = LuckCubes
			case g.Flips() != a.flips:
				last.Source = LuckReveal
			default:
				last.Source = LuckDraw
			}
		}
		last.Decision = decided - last.Chance
		last.Luck = next - decided
		a.open = false
	}
}

// tally notes the chance when the Final Tally begins, the first time.
func (a *Arc) tally(chance float64) {
	if !a.tallied {
		a.FinalTally, a.tallied = chance, true
	}
}

// expected is the mean chance, over Probes determinized copies of the
// open decision's game, at the point the decision leads to: the next
// Opposition turn's start, or the next decision, or the end.
func (a *Arc) expected() float64 {
	a.probing = true
	defer func() { a.probing = false }()
	sum := 0.0
	for range a.Probes {
		a.probe = a.before
		a.probe.Determinize(a.rng.Uint64())
		a.hit = false
		a.watch.Probe = &a.probe
		a.probe.ApplyLegal(a.lastOpt)
		a.watch.Probe = nil
		if a.hit {
			sum += a.hitChance
		} else {
			sum += a.Chance.Of(&a.probe)
		}
	}
	return sum / float64(a.Probes)
}

// oppStart adds the point of an Opposition turn about to start in g.
func (a *Arc) oppStart(g *engine.Game, seat int8) {
	if a.probing {
		if !a.hit {
			a.hit, a.hitChance = true, a.Chance.Of(g)
		}
		return
	}
	a.record(g)
	a.close(g)
	for c := range a.cols {
		a.cols[c] = g.Seats[seat].Columns[c].Card
	}
	a.Points = append(a.Points, ArcPoint{Kind: ArcOpposition, Round: g.Round, PlayerTurn: -1, Chance: a.chanceOf(g), Interval: a.intervalOf(g), Card: -1})
	if a.Chance != nil {
		a.oppAt = *g
		a.oppAt.SetRecorder(nil)
	}
}

// oppReveal notes the chance before the Opposition's first reveal of the
// Final Tally in g, when it reveals before the player does.
func (a *Arc) oppReveal(g *engine.Game, _ int8) {
	if !a.probing {
		a.tally(a.chanceOf(g))
	}
}

func (a *Arc) record(g *engine.Game) {
	if a.Record != nil {
		a.Record(g)
	}
}

// chanceOf is the win chance at g, 0 without a Chance.
func (a *Arc) chanceOf(g *engine.Game) float64 {
	if a.Chance == nil {
		return 0
	}
	return a.Chance.Of(g)
}

// intervalOf is the half-width of the chance's interval at g, 0 without
// a Chance or an interval.
func (a *Arc) intervalOf(g *engine.Game) float64 {
	if a.Chance == nil {
		return 0
	}
	h, _ := a.Chance.Interval(g)
	return h
}

// oppEnd notes the Solo card the Opposition's turn just played in g.
func (a *Arc) oppEnd(g *engine.Game, seat int8) {
	if a.probing {
		return
	}
	last := &a.Points[len(a.Points)-1]
	for c := range a.cols {
		if card := g.Seats[seat].Columns[c].Card; card != a.cols[c] && card >= 0 {
			last.Card = card
		}
	}
	if a.Chance == nil || last.Card < 0 {
		return
	}
	all, card := a.flipMeans(seat, uint8(last.Card))
	last.Flip = card - all
	last.Luck = a.Chance.Of(g) - card
	if touched(g) != touched(&a.oppAt) && last.Luck != 0 {
		last.Source = LuckDraw
		if g.BagCount() != a.oppAt.BagCount() {
			last.Source = LuckCubes
		}
	}
}

// flipMeans are the mean chances, over Probes copies of the game at the
// Opposition's turn's start determinized from what the player sees, once
// the automaton has played its turn in them: in all, with the Solo card
// the copy's shuffled deck puts on top (the chance before the card is
// known); in card, the same copies with the card it flipped put on top
// (the chance once the card is known, and what else its turn drew is
// not). Both are read at the same stage of the turn as the chance after
// it. The copies are the same in both, so a card whose turn is that of
// any other card it might have flipped has a flip of 0 exactly.
//
// Each copy is determinized once and kept (a.dealt): the second turn is
// played from the kept copy, restored into a.probe's buffer, the only
// copy OppWatch tells of besides the game.
func (a *Arc) flipMeans(seat int8, flipped uint8) (all, card float64) {
	for range a.Probes {
		a.probe = a.oppAt
		a.probe.Determinize(a.rng.Uint64())
		a.dealt = a.probe
		a.watch.Opposition.Turn(&a.probe, seat)
		all += a.Chance.Of(&a.probe)
		a.probe = a.dealt
		p := &a.probe
		if p.Solo.N == 0 {
			// The deck is reformed from the box before the flip (I-19).
			p.Solo, p.SoloBox = p.SoloBox, engine.Deck{}
		}
		top := int(p.Solo.N) - 1
		if i := slices.Index(p.Solo.Cards[:p.Solo.N], flipped); i >= 0 {
			p.Solo.Cards[i], p.Solo.Cards[top] = p.Solo.Cards[top], p.Solo.Cards[i]
		}
		a.watch.Opposition.Turn(p, seat)
		card += a.Chance.Of(p)
	}
	n := float64(a.Probes)
	return all / n, card / n
}

// OppWatch is an Opposition that tells Start and End of each of the
// inner Opposition's turns in the game Game, or in Probe, and in no
// other: not in the copies of it that policies look ahead on, which share
// it. Start is told before the turn, End after, and Revealing before each
// of its Final Tally reveals.
type OppWatch struct {
	engine.Opposition
	Game, Probe           *engine.Game
	Start, End, Revealing func(g *engine.Game, seat int8)
}

// Reveal picks the inner Opposition's reveal, telling Revealing first.
func (w *OppWatch) Reveal(g *engine.Game, seat int8) int {
	if (g == w.Game || g == w.Probe) && w.Revealing != nil {
		w.Revealing(g, seat)
	}
	return w.Opposition.Reveal(g, seat)
}

// Turn plays the inner Opposition's turn, telling Start and End.
func (w *OppWatch) Turn(g *engine.Game, seat int8) {
	watched := g == w.Game || g == w.Probe
	if watched && w.Start != nil {
		w.Start(g, seat)
	}
	w.Opposition.Turn(g, seat)
	if watched && w.End != nil {
		w.End(g, seat)
	}
}

// TurnChance is the win chance at the start of a turn (the player's or
// the Opposition's), or at the end, and its change since the one before.
type TurnChance struct {
	Point          int // its index among the arc's points
	Chance, Change float64
	Interval       float64 // the chance's (ArcPoint.Interval)
	// Swing ranks the biggest changes of the game: 1 the biggest, up to
	// the number asked for; 0 for the others.
	Swing int
}

// TurnChances lists the points of pts that start a turn, and the end,
// ranking the top biggest changes between them.
func TurnChances(pts []ArcPoint, top int) []TurnChance {
	var out []TurnChance
	for i, p := range pts {
		if p.PlayerTurn < 0 && p.Kind == ArcDecision {
			continue
		}
		tc := TurnChance{Point: i, Chance: p.Chance, Interval: p.Interval}
		if len(out) > 0 {
			tc.Change = p.Chance - out[len(out)-1].Chance
		}
		out = append(out, tc)
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(math.Abs(out[b].Change), math.Abs(out[a].Change)) })
	for k, i := range order[:min(top, len(order))] {
		if out[i].Change != 0 {
			out[i].Swing = k + 1
		}
	}
	return out
}
