package sim

import (
	"fmt"
	"slices"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
)

// Reading recorded games on the dial: each game is replayed from its
// seed and decisions, and at every decision with a choice the dial's
// reader (policy.DialReader) gives the learned scores and the search's
// pick, from which the decision's log-likelihood at every skill follows
// (policy.DialSetting.LogProb); the levels' policies, run along the same
// game, say whether they would have chosen as the tester did.

// FitStep is the spacing of the skills the likelihood is computed at: a
// tester's fit is read off this grid, from 0 to policy.MaxSkill.
const FitStep = 0.005

// fitBelow is how many grid skills lie below 1: 0, FitStep, … 1 − FitStep,
// the skills whose likelihood needs the learned scores (from 1 up it is a
// function of four counts, DecisionData).
const fitBelow = 200

// fitSkill is the skill of grid point k.
func fitSkill(k int) float64 { return float64(k) * FitStep }

// fitPoints is the number of grid skills, 0 to policy.MaxSkill.
const fitPoints = 2*fitBelow + 1

// gameRead is what one recorded game tells: the decisions' log-likelihood
// at each grid skill below 1, the counts of the upper half, the levels'
// matches and the game's end.
type gameRead struct {
	logLik                      [fitBelow]float64
	best, search, both, neither int64
	decisions, forced, hinted   int64
	matches                     []int64
	sums                        decisionSums // the test of fit's, by kind
	finished                    bool
	result                      engine.Result
}

// recordReader reads recorded games: one per worker.
type recordReader struct {
	rules  *engine.Rules
	opp    engine.Opposition
	reader *policy.DialReader
	// levels are the policies of the levels matched against; nil where
	// the reader's own best (skilled) or search pick (expert) is the
	// level's choice (policy.DialLevels' exact levels).
	levels []policy.Policy
	labels []string  // the levels' labels, for their errors
	exact  []float64 // the dial's skill of each level played by the reader, −1 for the others
	g      engine.Game
	buf    [engine.MaxOptions]engine.Option
}

func newRecordReader(r *engine.Rules, opp engine.Opposition, levels []policy.Spec, search bool) *recordReader {
	rr := &recordReader{rules: r, opp: opp, reader: policy.NewDialReader(policy.ShippedNet, search)}
	for _, lv := range levels {
		skill := -1.0
		for _, d := range policy.DialLevels {
			if d.Exact && d.Name == lv.Level {
				skill = d.Skill
			}
		}
		var p policy.Policy
		if skill < 0 || skill > 1 && !search {
			p, skill = lv.New(), -1
		}
		rr.levels, rr.exact, rr.labels = append(rr.levels, p), append(rr.exact, skill), append(rr.labels, lv.Label)
	}
	return rr
}

// Close releases the levels' policies.
func (rr *recordReader) Close() {
	for _, p := range rr.levels {
		if p != nil {
			policy.Close(p)
		}
	}
}

// follower is a level's policy that keeps state from one decision to the
// next (the search's tree): told what was played when it was not its
// choice, it follows the game as it went.
type follower interface{ Played(o engine.Option) }

// read replays rec and reads every decision into out.
func (rr *recordReader) read(rec *playtest.Game, out *gameRead) error {
	*out = gameRead{matches: make([]int64, len(rr.levels))}
	pol := rr.rules.PoliticianIndex(rec.Politician)
	if pol < 0 {
		return fmt.Errorf("%s:%d: politician %q is not in the rules", rec.File, rec.Line, rec.Politician)
	}
	if rec.Game >= MaxGames {
		return fmt.Errorf("%s:%d: game %d is outside 0..%d", rec.File, rec.Line, rec.Game, int64(MaxGames-1))
	}
	seed := deal.GameSeed(rec.Seed, rec.Game)
	g := &rr.g
	if err := (deal.Solo{Mode: rec.Mode, Politician: pol, Opposition: rr.opp}).Deal(g, rr.rules, seed); err != nil {
		return fmt.Errorf("%s:%d: %v", rec.File, rec.Line, err)
	}
	rr.reader.Reset(seed)
	for _, p := range rr.levels {
		if p != nil {
			p.Reset(seed)
		}
	}
	for i, d := range rec.Decisions {
		if g.Over() {
			return fmt.Errorf("%s: decision %d (%s): the game was already over", rec.Where(i), i+1, engine.OptionID(d.Option))
		}
		legal := g.Legal(rr.buf[:0])
		chosen := slices.Index(legal, d.Option)
		if chosen < 0 {
			return fmt.Errorf("%s: decision %d (%s) is not legal at that point of the game (round %d, %s decision): "+
				"the record is damaged, or from other rules or another version of the engine", rec.Where(i), i+1, engine.OptionID(d.Option), g.Round+1, g.Pending)
		}
		if len(legal) > 1 {
			if err := rr.readDecision(g, legal, chosen, d.Hinted, out); err != nil {
				return fmt.Errorf("%s: decision %d: %v", rec.Where(i), i+1, err)
			}
		} else {
			out.forced++
		}
		g.ApplyLegal(d.Option)
	}
	out.finished = g.Over()
	if out.finished {
		out.result = g.Result
	}
	if rec.Margin != nil {
		if !out.finished {
			return fmt.Errorf("%s:%d: the record states a final margin, but its decisions end before the game does", rec.File, rec.Line)
		}
		if m := int(g.Result.Margin()); m != *rec.Margin {
			return fmt.Errorf("%s:%d: the record states a final margin of %d, the replay ends at %d: other rules or another version of the engine", rec.File, rec.Line, *rec.Margin, m)
		}
	}
	return nil
}

// readDecision reads one decision with a choice, chosen the index of the
// option played among legal. Every policy follows the game, a hinted
// decision too; only the counts leave a hinted one out. A level that
// fails (an exec program that crashed, hung or answered nonsense) fails
// the calibration: its choice is none, and counting it as the option it
// falls back on would be counting a match that never was; nor is a
// program that hangs waited for again at every decision.
func (rr *recordReader) readDecision(g *engine.Game, legal []engine.Option, chosen int, hinted bool, out *gameRead) error {
	played := legal[chosen]
	scores, best, search := rr.reader.Read(g, legal, played)
	for k, p := range rr.levels {
		var pick int
		switch {
		case p == nil && rr.exact[k] == 1:
			pick = best
		case p == nil:
			pick = search
		default:
			pick = slices.Index(legal, p.Choose(g, legal))
			if f, ok := p.(policy.Fallible); ok && f.Err() != nil {
				return fmt.Errorf("the level %s failed: %v", rr.labels[k], f.Err())
			}
			if f, ok := p.(follower); ok {
				f.Played(played)
			}
		}
		if pick == chosen && !hinted {
			out.matches[k]++
		}
	}
	if hinted {
		out.hinted++
		return nil
	}
	out.decisions++
	switch {
	case chosen == best && chosen == search:
		out.both++
	case chosen == best:
		out.best++
	case chosen == search:
		out.search++
	default:
		out.neither++
	}
	for k := range out.logLik {
		out.logLik[k] += policy.DialSkill(fitSkill(k)).LogProb(scores, chosen, search)
	}
	out.sums.add(g.Pending, scores, chosen, best, search)
	return nil
}
