package policy

import (
	"math/rand/v2"

	"tallywood/engine"
	"tallywood/sim/deal"
)

func init() {
	add(entry{
		name:    "greedy",
		summary: "one-step lookahead: the option whose result Eval scores best",
		params: []param{
			{"samples", "1", "determinizations each option is scored on (1..64)", intIn(1, 64)},
		},
		build: func(p map[string]string) (func() Policy, error) {
			n := atoi(p, "samples")
			return func() Policy { return NewGreedy(n) }, nil
		},
	})
}

// Greedy applies each legal option to a copy of the game and picks the
// one whose result Eval scores best (ties: the first).
//
// Hidden information. Some options set chance going inside Apply: a
// Celebrity draws cubes from the bag, a Research or a Final Tally reveal
// turns a tile face up, a Clean Up draw takes a Strategy card, and the
// last decision of a turn runs the Opposition's turn, which flips a Solo
// card. Scoring those results on a plain copy would read the true future.
// Scoring them before the automatic part instead would make the choice of
// spot, which only matters through the Opposition's next turn, worthless.
// So Greedy scores every option on copies of one determinized game
// (engine.Game.Determinize, with a seed from its own stream): chance is sampled
// from what the player knows, and every option sees the same sample
// (common random numbers), so options are compared on equal terms. With
// samples > 1 the scores are averaged over that many samples.
//
// Only the options that touch hidden information need the determinized
// copy; the others are scored on a plain copy, which gives the same score
// for less work (most decisions touch nothing hidden).
type Greedy struct {
	w       Weights
	bias    func(g *engine.Game, o engine.Option) float64
	samples int
	stream  uint64
	// determinized marks a greedy that plays inside a simulation already
	// determinized (MCTS rollouts): it scores on plain copies.
	determinized bool
	rng          rand.PCG
	scores       [engine.MaxOptions]float64
	// Scratch games, kept here so that the copies do not escape to the
	// heap on every option.
	base, c engine.Game
	// tables holds the board's votes and Strengths, which most results of
	// a decision's options share.
	tables boardTables
	// net, when set, scores the results by the learned value instead of
	// the hand-weighted score (the learned player); x is its scratch.
	net *Net
	x   [NetInputs]float32
	// visit, when set, is handed each option's result instead of scoring
	// it (Afterstates).
	visit func(i int, c *engine.Game)
}

// score is the value of c, the result of option i, for seat me.
func (p *Greedy) score(i int, c *engine.Game, me int8) float64 {
	if p.visit != nil {
		p.visit(i, c)
		return 0
	}
	if p.net != nil {
		return netEval(c, p.net, me, &p.tables, &p.x)
	}
	return evalFrom(c, &p.w, me, &p.tables)
}

// NewGreedy returns the greedy policy with the default weights.
func NewGreedy(samples int) *Greedy {
	return &Greedy{w: DefaultWeights, samples: max(1, samples), stream: deal.StreamGreedy}
}

// Reset seeds the policy's own stream from the game seed.
func (p *Greedy) Reset(gameSeed uint64) { p.rng.Seed(gameSeed, p.stream) }

// Choose returns the option with the best score.
func (p *Greedy) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	if len(legal) == 1 {
		return legal[0]
	}
	scores := p.Scores(g, legal)
	best := 0
	for i := range scores {
		if scores[i] > scores[best] {
			best = i
		}
	}
	return legal[best]
}

// Scores returns the score of each option of legal (at least two), the
// sum over the samples, as Choose ranks them: the dial's softmax reads
// them. The slice is the policy's scratch, valid until the next call.
func (p *Greedy) Scores(g *engine.Game, legal []engine.Option) []float64 {
	scores := p.scores[:len(legal)]
	clear(scores)
	me := g.Decision().Seat // scored for the seat choosing, whoever moves next
	n := p.samples
	if p.determinized {
		n = 1
	}
	// First pass: every option on a plain copy. An option whose Apply
	// touched nothing hidden (see touched) has a result that is the same
	// in every world the player cannot tell apart, so its score stands.
	// The others are scored again, below, on determinized copies.
	var chance [engine.MaxOptions]bool
	anyChance := false
	switch g.Pending {
	case engine.DecSpot, engine.DecDraw, engine.DecReveal:
		// These always touch hidden information: the spot ends the turn
		// (the Opposition's turn or Clean Up follows), a draw takes a
		// card, a reveal turns a tile.
		if !p.determinized {
			for i := range legal {
				chance[i] = true
			}
			anyChance = true
		}
	}
	before := touched(g)
	p.tables.reset(g)
	for i, o := range legal {
		if !p.determinized && (o.Kind == engine.OptCelebrity || o.Kind == engine.OptResearch) {
			// A Celebrity draws cubes, a Research turns a tile or token.
			chance[i], anyChance = true, true
		}
		if chance[i] {
			continue
		}
		p.c = *g
		p.c.SetRecorder(nil)
		p.c.ApplyLegal(o) // legal holds g's options (the Policy contract)
		if !p.determinized && touched(&p.c) != before {
			chance[i], anyChance = true, true
			continue
		}
		scores[i] = float64(n) * p.score(i, &p.c, me)
	}
	for k := 0; anyChance && k < n; k++ {
		p.base = *g
		p.base.SetRecorder(nil)
		p.base.Determinize(p.rng.Uint64())
		for i, o := range legal {
			if !chance[i] {
				continue
			}
			p.c = p.base
			p.c.ApplyLegal(o)
			scores[i] += p.score(i, &p.c, me)
		}
	}
	if p.bias != nil {
		for i, o := range legal {
			scores[i] += float64(n) * p.bias(g, o)
		}
	}
	return scores
}

// hiddenUse counts what an Apply consumes or uncovers of the hidden
// information: cards left in each deck and the Solo deck, tiles left in
// each pile, cubes in the bag, tiles and Initial Support tokens face up.
// Nothing hidden can be read without one of them changing: a Solo card
// flipped, a Strategy card drawn or a deck reformed, a cube drawn, a tile
// placed from a pile or turned face up (engine.Game.Flips). The counts are packed a byte or
// two each into three words (every one fits: a deck holds at most
// engine.MaxSoloCards, a pile engine.MaxPile, the bag a few dozen cubes),
// so that greedy compares two in three instructions, once per option.
type hiddenUse struct {
	cards uint64 // per deck: cards left (high byte) and discarded (low byte)
	piles uint64 // tiles left in each pile
	rest  uint64 // Solo deck, Solo box, bag, tiles and tokens turned face up
}

// touched packs the counts field by field, not in loops: it runs once per
// option, and the loops cost more than the loads. There are four decks and
// three tiers.
const (
	_ = uint(4 - engine.NumDecks)
	_ = uint(engine.NumDecks - 4)
	_ = uint(3 - engine.NumTiers)
	_ = uint(engine.NumTiers - 3)
)

func touched(g *engine.Game) hiddenUse {
	dk, ds, p := &g.Decks, &g.Discards, &g.Piles
	return hiddenUse{
		cards: uint64(dk[0].N)<<56 | uint64(ds[0].N)<<48 | uint64(dk[1].N)<<40 | uint64(ds[1].N)<<32 |
			uint64(dk[2].N)<<24 | uint64(ds[2].N)<<16 | uint64(dk[3].N)<<8 | uint64(ds[3].N),
		piles: uint64(p[0][0].N)<<40 | uint64(p[0][1].N)<<32 | uint64(p[0][2].N)<<24 |
			uint64(p[1][0].N)<<16 | uint64(p[1][1].N)<<8 | uint64(p[1][2].N),
		rest: uint64(g.Solo.N) | uint64(g.SoloBox.N)<<8 | uint64(g.BagCount())<<16 | uint64(g.Flips())<<32,
	}
}
