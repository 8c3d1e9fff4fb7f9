package policy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"tallywood/engine"
	"tallywood/sim/deal"
)

func init() {
	add(entry{
		name:    "mcts",
		summary: "information-set Monte Carlo tree search over determinized games",
		// As many paired games as fit a minute or two: mcts plays a
		// hundred times slower than greedy.
		compareGames: 500,
		params: []param{
			{"iters", "200", "iterations per decision (1..100000); the budget, reproducible", intIn(1, 100000)},
			{"rollout", "random", "rollout policy: random or greedy", oneOf("random", "greedy")},
			{"depth", "16", "player decisions a rollout plays before the hand score (HandEval) scores it (0: to the end)", intIn(0, 1000)},
			{"c", "0.7", "UCB exploration constant, in units of the reward (0..10)", floatIn(0, 10)},
			{"scale", "10", "votes of margin that make one unit of reward (1..1000)", floatIn(1, 1000)},
			{"reuse", "true", "keep the searched subtree from one decision to the next (true or false)", oneOf("true", "false")},
			{"prior", "0", "tree depth to which the learned score (value.json) gives a node's options a prior and PUCT selects (0: none, 1: the root)", intIn(0, 64)},
			{"cp", "1.5", "PUCT exploration constant, where a prior is given (0..20)", floatIn(0, 20)},
			{"value", "0", "weight of the win chance (chance.json) in a leaf's reward, the rollout's the rest (0: rollouts only; 1: no rollout); solo game only", floatIn(0, 1)},
			{"vlevel", "skilled", "the skill level whose win chance value= weighs", chanceLevelIn},
			weightsParam,
		},
		build: func(p map[string]string) (func() Policy, error) {
			n, err := pinnedNet(p["weights"])
			if err != nil {
				return nil, err
			}
			if p["weights"] != "" && p["prior"] == "0" {
				return nil, fmt.Errorf("weights= needs prior= (without a prior mcts does not use the learned score)")
			}
			return mctsWith(p, n), nil
		},
		withNet: mctsWith,
	})
}

func mctsWith(p map[string]string, n *Net) func() Policy {
	cfg := MCTSConfig{
		Iters:   atoi(p, "iters"),
		Rollout: p["rollout"],
		Depth:   atoi(p, "depth"),
		C:       atof(p, "c"),
		Scale:   atof(p, "scale"),
		Reuse:   p["reuse"] == "true",
	}
	if cfg.PriorDepth = atoi(p, "prior"); cfg.PriorDepth > 0 {
		cfg.Net, cfg.CP = n, atof(p, "cp")
	}
	if cfg.Value = atof(p, "value"); cfg.Value > 0 {
		cfg.Chance, _ = ShippedChance().For(p["vlevel"]) // checked by chanceLevelIn
	}
	return func() Policy { return NewMCTS(cfg) }
}

// MCTSConfig are the parameters of the search player.
type MCTSConfig struct {
	Iters   int     // iterations per decision
	Rollout string  // "random" or "greedy"
	Depth   int     // player decisions per rollout before HandEval (0: to the end)
	C       float64 // UCB exploration constant
	Scale   float64 // margin in votes per unit of reward
	Reuse   bool    // keep the subtree of the option played for the next decision
	// PriorDepth > 0: the nodes of the tree's first PriorDepth levels get
	// a prior over their options from the learned score Net (a softmax of
	// each option's score, as the net was trained), and select by PUCT
	// with constant CP (see priorsOf, selectPUCT).
	PriorDepth int
	CP         float64
	Net        *Net
	// Value > 0: a leaf's reward is Value times the win chance's (2·chance
	// − 1, of Chance) plus 1 − Value times the rollout's; at 1 there is no
	// rollout. The win chance is the solo player's: games of several
	// players keep the rollouts.
	Value  float64
	Chance *WinChance
}

// MCTS is single-observer information-set Monte Carlo tree search
// (Cowling, Powley and Whitehouse 2012) for the player's seat.
//
// Every iteration starts from a fresh determinization of the game as the
// player sees it (engine.Game.Determinize, seeded from the policy's own
// stream): the decks, the piles, the face-down tiles and Initial Support
// values and the bag are resampled, never read. The tree's nodes are the
// player's information sets: an edge is an option, and below it the
// positions are told apart by what the player observes afterwards (a hash
// of the visible state: the Opposition's cards and board, cubes, revealed
// faces, the hand), so chance outcomes the player can see lead to
// different nodes and the ones it cannot see share one. Selection is UCB1
// with availability counts, since the legal options differ between
// determinizations; with PriorDepth, the first levels of the tree select
// by PUCT instead, with a prior from the learned score. A leaf is scored
// by a rollout (random or greedy) to the end of the game, or for Depth
// player decisions and then by HandEval;
// the reward is tanh(margin/Scale). The move played is the root's most
// visited option. With Reuse, the subtree below the option played and
// what was observed next becomes the next decision's root, so the small
// decisions of one turn share their search.
type MCTS struct {
	cfg     MCTSConfig
	rng     rand.PCG
	rollout Policy
	// The tree lives in three arenas, indexed by int32, reused from one
	// decision and one game to the next: their capacity is that of the
	// largest tree searched, so the retained memory levels off and a
	// long run allocates nothing once they have grown.
	nodes    []node
	edges    []edge
	outcomes []outcome
	path     []int32 // edges of the iteration, root first
	buf      [engine.MaxOptions]engine.Option
	avail    [engine.MaxOptions]int32 // unexpanded legal options, by index
	found    [engine.MaxOptions]int32 // edges of the expanded ones, in legal's order
	edgeOf   [engine.MaxOptions]int32 // each legal option's edge, -1: none (selectPUCT)
	// priors holds the nodes' priors (node.prior, node.nPrior).
	priors []prior
	score  [engine.MaxOptions]float64
	sim    engine.Game // the determinized game of the iteration
	// With a Net: the result of one option, the tables of the node's
	// position and the net's inputs (priorsOf).
	kid    engine.Game
	tables boardTables
	x      [NetInputs]float32
	// The root and option of the last decision, for Reuse.
	lastRoot int32
	lastOpt  engine.Option
	stop     *atomic.Bool // see Stopper; nil: never stopped
}

// SetStop makes Choose return early, with the most visited option so far,
// once stop is set.
func (p *MCTS) SetStop(stop *atomic.Bool) { p.stop = stop }

// node is an information set: its edges are p.edges[first:first+n], with
// room for room of them before they move to the end of the arena.
type node struct {
	first, n, room int32
	// The node's prior over its options is p.priors[prior:prior+nPrior]
	// (nPrior 0: none yet).
	prior, nPrior int32
}

// prior is the prior probability of one option at a node.
type prior struct {
	opt engine.Option
	p   float64
}

type edge struct {
	opt      engine.Option
	n, avail float64
	w        float64
	outcome  int32 // the first of its outcomes in p.outcomes, -1: none
}

// outcome is a node below an edge, by what the player observed.
type outcome struct {
	key  uint64
	node int32
	next int32 // the edge's next outcome, -1: none
}

// NewMCTS returns the search player.
func NewMCTS(cfg MCTSConfig) *MCTS {
	p := &MCTS{cfg: cfg, lastRoot: -1}
	switch cfg.Rollout {
	case "greedy":
		gr := NewGreedy(1)
		gr.determinized = true // simulations run in a determinized game already
		p.rollout = gr
	default:
		p.rollout = &Random{}
	}
	return p
}

// Reset seeds the policy's own stream (and its rollout policy's) from the
// game seed.
func (p *MCTS) Reset(gameSeed uint64) {
	p.rng.Seed(gameSeed, deal.StreamMCTS)
	p.clear()
	p.lastRoot = -1
	p.rollout.Reset(deal.RolloutSeed(gameSeed))
}

func (p *MCTS) clear() {
	p.nodes, p.edges, p.outcomes, p.priors = p.nodes[:0], p.edges[:0], p.outcomes[:0], p.priors[:0]
}

func (p *MCTS) newNode() int32 {
	p.nodes = append(p.nodes, node{})
	return int32(len(p.nodes) - 1)
}

// nodeEdges returns the edges of node ni (valid until an edge is added).
func (p *MCTS) nodeEdges(ni int32) []edge {
	nd := p.nodes[ni]
	return p.edges[nd.first : nd.first+nd.n]
}

// addEdge appends e to node ni's edges and returns its index. A node out
// of room moves its edges to the end of the arena with twice the room.
func (p *MCTS) addEdge(ni int32, e edge) int32 {
	nd := &p.nodes[ni]
	if nd.n == nd.room {
		room := max(4, 2*nd.room)
		first := len(p.edges)
		p.edges = slices.Grow(p.edges, int(room))[:first+int(room)]
		copy(p.edges[first:], p.edges[nd.first:nd.first+nd.n])
		nd.first, nd.room = int32(first), room
	}
	i := nd.first + nd.n
	p.edges[i] = e
	nd.n++
	return i
}

// findEdge returns the index of node ni's edge for o, or -1.
func (p *MCTS) findEdge(ni int32, o engine.Option) int32 {
	nd := p.nodes[ni]
	for i := nd.first; i < nd.first+nd.n; i++ {
		if p.edges[i].opt == o {
			return i
		}
	}
	return -1
}

// child returns the node below edge ei for observation key, or -1.
func (p *MCTS) child(ei int32, key uint64) int32 {
	for oc := p.edges[ei].outcome; oc >= 0; oc = p.outcomes[oc].next {
		if p.outcomes[oc].key == key {
			return p.outcomes[oc].node
		}
	}
	return -1
}

// Choose searches from g and returns the root's most visited option.
func (p *MCTS) Choose(g *engine.Game, legal []engine.Option) engine.Option {
	if len(legal) == 1 {
		return legal[0]
	}
	root := p.reuse(g)
	me := g.Decision().Seat
	for range p.cfg.Iters {
		if p.stop != nil && p.stop.Load() {
			break
		}
		p.sim = *g
		p.sim.SetRecorder(nil)
		p.sim.Determinize(p.rng.Uint64())
		p.iterate(&p.sim, root, me)
	}
	// The root's options are legal in every determinization: the root is
	// the true, fully visible decision.
	best, bestN := legal[0], -1.0
	for _, e := range p.nodeEdges(root) {
		if e.n > bestN {
			best, bestN = e.opt, e.n
		}
	}
	p.lastRoot, p.lastOpt = root, best
	return best
}

// Played tells the search which option was played at the decision it
// searched last, when that was not its choice (the dial plays another
// now and then): the next search reuses that option's subtree. Reusing
// its own choice's would hand the next decision the statistics of
// another position, since what the player observes does not tell apart
// every pair of options (two slots spent on the same action look alike).
func (p *MCTS) Played(o engine.Option) { p.lastOpt = o }

// maxNodes bounds the tree kept from one decision to the next.
const maxNodes = 1 << 18

// reuse returns the root for g: the node of the last search that the
// option played then and what the player has observed since lead to, with
// its statistics, or a new tree. Reuse only keeps what earlier searches
// learned from their own determinizations.
func (p *MCTS) reuse(g *engine.Game) int32 {
	if p.cfg.Reuse && p.lastRoot >= 0 && len(p.nodes) < maxNodes {
		if j := p.findEdge(p.lastRoot, p.lastOpt); j >= 0 {
			if next := p.child(j, observe(g, g.Decision().Seat)); next >= 0 {
				return next
			}
		}
	}
	p.clear()
	return p.newNode()
}

// iterate runs one selection, expansion, rollout and backup in d.
func (p *MCTS) iterate(d *engine.Game, cur int32, me int8) {
	p.path = p.path[:0]
	expanded := false
	for !d.Over() && !expanded {
		legal := d.Legal(p.buf[:0])
		if len(legal) == 1 {
			mustApply(d, legal[0])
			continue
		}
		if d.Decision().Seat != me {
			// Another player's decision (games of several players): the
			// rollout policy plays it, the tree holds only me's choices.
			mustApply(d, p.rollout.Choose(d, legal))
			continue
		}
		// Availability: every legal option's edge counts this visit; a
		// legal option without an edge is expanded first.
		unexpanded, found := 0, 0
		for i, o := range legal {
			j := p.findEdge(cur, o)
			p.edgeOf[i] = j
			if j < 0 {
				p.avail[unexpanded] = int32(i)
				unexpanded++
				continue
			}
			p.edges[j].avail++
			p.found[found] = j
			found++
		}
		var ei int32
		switch {
		case len(p.path) < p.cfg.PriorDepth:
			if p.nodes[cur].nPrior == 0 {
				p.priorsOf(d, cur, legal, me)
			}
			ei, expanded = p.selectPUCT(cur, legal)
		case unexpanded > 0:
			o := legal[p.avail[engine.IntN(&p.rng, unexpanded)]]
			ei = p.addEdge(cur, edge{opt: o, avail: 1, outcome: -1})
			expanded = true
		default:
			ei = p.selectUCB(p.found[:found])
		}
		p.path = append(p.path, ei)
		mustApply(d, p.edges[ei].opt)
		if expanded {
			break
		}
		p.advance(d, me)
		cur, expanded = p.descend(d, ei, me)
	}
	p.backup(p.leaf(d, me))
}

// leaf is the reward of the iteration's leaf d for me: the rollout's,
// the win chance's, or a mix of the two (MCTSConfig.Value).
func (p *MCTS) leaf(d *engine.Game, me int8) float64 {
	if p.cfg.Value == 0 || !d.IsSolo() {
		return math.Tanh(p.simulate(d, me) / p.cfg.Scale)
	}
	v := 2*p.cfg.Chance.Of(d) - 1
	if p.cfg.Value == 1 {
		return v
	}
	return p.cfg.Value*v + (1-p.cfg.Value)*math.Tanh(p.simulate(d, me)/p.cfg.Scale)
}

// backup adds reward r to the edges of the iteration's path.
func (p *MCTS) backup(r float64) {
	for _, ei := range p.path {
		p.edges[ei].n++
		p.edges[ei].w += r
	}
}

// descend returns the node below edge ei for what the player observes
// at its next real decision in d, and whether it is new.
func (p *MCTS) descend(d *engine.Game, ei int32, me int8) (int32, bool) {
	key := observe(d, me)
	if next := p.child(ei, key); next >= 0 {
		return next, false
	}
	next := p.newNode()
	p.outcomes = append(p.outcomes, outcome{key: key, node: next, next: p.edges[ei].outcome})
	p.edges[ei].outcome = int32(len(p.outcomes) - 1)
	return next, true
}

// priorsOf gives node cur its prior over legal, the options of d: the
// softmax of each option's learned score in d (the determinization of the
// iteration), at the temperature the net was trained with, priorTemp.
// legal lives in p.buf, which nothing here reuses.
func (p *MCTS) priorsOf(d *engine.Game, cur int32, legal []engine.Option, me int8) {
	p.tables.reset(d)
	top := math.Inf(-1)
	sc := p.score[:len(legal)]
	for i, o := range legal {
		p.kid = *d
		mustApply(&p.kid, o)
		sc[i] = netEval(&p.kid, p.cfg.Net, me, &p.tables, &p.x) / priorTemp
		top = max(top, sc[i])
	}
	sum := 0.0
	for i := range sc {
		sc[i] = math.Exp(sc[i] - top)
		sum += sc[i]
	}
	nd := &p.nodes[cur]
	nd.prior, nd.nPrior = int32(len(p.priors)), int32(len(legal))
	for i, o := range legal {
		p.priors = append(p.priors, prior{o, sc[i] / sum})
	}
}

// priorTemp is the temperature, in votes, of the softmax the learned
// score was trained under (sim/policy/internal/train).
const priorTemp = 1

// selectPUCT picks, of the legal options at node cur (which has priors;
// p.edgeOf holds their edges), the one maximising Q + CP·P·√(2N−1)/(1+n),
// N the largest availability of the node's options and n the option's
// visits; an option without visits counts the node's mean reward as Q
// (first-play urgency). It returns the option's edge, created if it had
// none, and whether it was created. An option another determinization
// did not offer has the mean prior.
func (p *MCTS) selectPUCT(cur int32, legal []engine.Option) (int32, bool) {
	nd := p.nodes[cur]
	pri := p.priors[nd.prior : nd.prior+nd.nPrior]
	var sumW, sumN, avail float64
	for i := range legal {
		if j := p.edgeOf[i]; j >= 0 {
			e := &p.edges[j]
			sumW, sumN = sumW+e.w, sumN+e.n
			avail = max(avail, e.avail)
		}
	}
	fpu := 0.0
	if sumN > 0 {
		fpu = sumW / sumN
	}
	// The visit count of PUCT's exploration term: √(2N − 1), N the
	// largest availability of the node's options (counted by iterate; 1
	// before any has an edge), the form the guided search was measured
	// and its cp chosen with.
	sqrtN := math.Sqrt(max(1, 2*avail-1))
	best, bestV := -1, math.Inf(-1)
	for i, o := range legal {
		pr := 1 / float64(len(pri))
		for _, q := range pri {
			if q.opt == o {
				pr = q.p
				break
			}
		}
		q, n := fpu, 0.0
		if j := p.edgeOf[i]; j >= 0 {
			if e := &p.edges[j]; e.n > 0 {
				q, n = e.w/e.n, e.n
			}
		}
		if v := q + p.cfg.CP*pr*sqrtN/(1+n); v > bestV {
			best, bestV = i, v
		}
	}
	if j := p.edgeOf[best]; j >= 0 {
		return j, false
	}
	return p.addEdge(cur, edge{opt: legal[best], avail: 1, outcome: -1}), true
}

// advance plays the decisions that are not me's choice until me has a
// real choice or the game is over: a single legal option, or another
// player's decision, which the rollout policy plays.
func (p *MCTS) advance(d *engine.Game, me int8) {
	for !d.Over() {
		legal := d.Legal(p.buf[:0])
		switch {
		case len(legal) == 1:
			mustApply(d, legal[0])
		case d.Decision().Seat != me:
			mustApply(d, p.rollout.Choose(d, legal))
		default:
			return
		}
	}
}

// selectUCB picks, of the edges of the legal options (in their order),
// the one maximising UCB1 with availability.
func (p *MCTS) selectUCB(edges []int32) int32 {
	best := int32(-1)
	bestV := math.Inf(-1)
	for _, j := range edges {
		e := &p.edges[j]
		v := math.Inf(1)
		if e.n > 0 {
			v = e.w/e.n + p.cfg.C*math.Sqrt(math.Log(e.avail)/e.n)
		}
		if v > bestV {
			best, bestV = j, v
		}
	}
	return best
}

// simulate plays the rollout policy from d and returns me's margin: the
// true one at the end (its lead over the best other seat), or the hand
// score's after Depth player decisions.
func (p *MCTS) simulate(d *engine.Game, me int8) float64 {
	steps := 0
	for !d.Over() {
		if p.cfg.Depth > 0 && steps >= p.cfg.Depth {
			return evalFor(d, &DefaultWeights, me)
		}
		legal := d.Legal(p.buf[:0])
		o := legal[0]
		if len(legal) > 1 {
			o = p.rollout.Choose(d, legal)
			steps++
		}
		mustApply(d, o)
	}
	return float64(d.Result.Lead(me, d.NSeats))
}

// mustApply applies an option the search took from g.Legal.
func mustApply(g *engine.Game, o engine.Option) { g.ApplyLegal(o) }

// observe hashes what the player sees of g: everything but the hidden
// information (the decks' order, face-down faces and values, the
// generators). Two determinizations reach the same node after the same
// options exactly when they look the same to the player. Of another
// player's hand (games of several players) me sees only the decks the
// cards come from.
func observe(g *engine.Game, me int8) uint64 {
	h := uint64(14695981039346656037)
	mix := func(x int) { h = (h ^ uint64(uint32(x))) * 1099511628211 }
	mix(int(g.Round))
	mix(int(g.Turn))
	mix(int(g.Phase))
	mix(int(g.Pending))
	for s := range g.NSeats {
		st := &g.Seats[s]
		mix(int(st.Money))
		mix(int(st.Popularity))
		for _, v := range st.Polling {
			mix(int(v))
		}
		for _, c := range st.Hand[:st.NHand] {
			if s != me && !g.IsSolo() {
				mix(int(g.Rules().Cards[c].Deck))
				continue
			}
			mix(int(c))
		}
		for _, c := range st.Columns {
			mix(int(c.Card))
		}
		for _, a := range st.Assistants {
			mix(int(a.Region)<<8 | int(a.Spot))
		}
	}
	for d := range g.Districts {
		ds := &g.Districts[d]
		for _, c := range ds.Cubes {
			mix(int(c))
		}
		if ds.SupportFaceUp {
			mix(int(ds.InitialSupport))
		}
		for _, e := range ds.Endorsements {
			mix(int(e))
		}
	}
	for _, c := range g.Plaza {
		mix(int(c))
	}
	for i := range g.NPlaced {
		t := &g.Placed[i]
		if t.FaceUp {
			mix(int(t.Face) | 1<<8)
		} else {
			mix(int(t.Tier))
		}
	}
	return h
}

// Visits writes to out, for each option of legal (the options of the
// decision Choose last searched), the visits the search gave it at the
// root: the trainer of the learned value imitates them.
func (p *MCTS) Visits(legal []engine.Option, out []float64) {
	for i, o := range legal {
		out[i] = 0
		if j := p.findEdge(p.lastRoot, o); j >= 0 {
			out[i] = p.edges[j].n
		}
	}
}
