package policy

import "tallywood/engine"

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
