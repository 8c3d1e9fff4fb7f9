package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"tallywood/engine"
	"tallywood/sim/playtest"
	"tallywood/sim/policy"
	"tallywood/sim/stats"
)

// The arc study (`tallywood arc`): how a game feels on the way to its end.
// Every game is followed by its win chance (policy.Arc, the model of the
// cell's skill level) at each decision of the player and each start of an
// Opposition turn. A cell counts the chance's spread by turn and by
// round, the crossings of 50%, the comebacks, the turn that decided the
// game, the winner's lowest chance, both sides' final votes and Vote
// Shares by round, and each game's change in chance split exactly into
// the player's decisions, luck (the draws, cubes and reveals that set
// chance going, the Opposition's Solo card flips, and the deal: the
// opening chance against the cell's mean opening chance) and what the
// Opposition's automaton did with its cards, per decision kind and per
// Solo card. Chances are counted in
// basis points (1/10,000) and in histograms of one point a bin: every
// count is an integer sum, so results merge exactly.

// KindArc is the kind of an arc study's result.
const KindArc Kind = "arc"

// FormatArc names the JSON document of `tallywood arc`.
// (/2: the luck split into its sources, the Solo card flips apart from
// the automaton, the Final Tally apart in decided_by, the leader by round;
// a /1 file cannot be split again and is refused.)
const FormatArc = "tallywood-arc/2"

func init() {
	registerKind(KindArc, func() Study { return &ArcResult{} })
	registerRetired("tallywood-arc/1", "its luck is one sum (draws, cubes and reveals, with the Solo card flips counted in the Opposition's turns and the deal not at all), "+
		"and its counts cannot be split by source again; run tallywood arc again (the same command) to get a tallywood-arc/2 result")
}

// ArcConfig is an arc run: like Config, every cell plays the games of the
// shard, game i on seed deal.GameSeed(Seed, i). Levels names, per cell,
// the skill level whose win chance follows its games.
type ArcConfig struct {
	RunConfig // an item is a game
	Rules     *engine.Rules
	Games     int64
	Cells     []CellSpec
	Levels    []string
	Model     *policy.ChanceModel
	Probes    int // determinized copies per decision that sets chance going
}

// ChanceBins is the number of bins of a chance histogram: one point each,
// and 100% its own.
const ChanceBins = 101

// maxLeadChanges is the last bin of the lead changes' histogram: that
// many crossings or more.
const maxLeadChanges = 40

// VoteBins is the number of bins of a votes histogram: one vote each, the
// last one that many or more.
const VoteBins = 400

// bp is a chance in basis points.
const bp = 10000

// BP are the mergeable sums of values in basis points of chance: how
// many, their sum and their sum of squares.
type BP struct {
	N     int64 `json:"n"`
	Sum   int64 `json:"sum"`
	SumSq int64 `json:"sum_sq"`
}

func (b *BP) add(x float64) {
	v := int64(math.Round(x * bp))
	b.N++
	b.Sum += v
	b.SumSq += v * v
}

func (b *BP) merge(o BP) { b.N, b.Sum, b.SumSq = b.N+o.N, b.Sum+o.Sum, b.SumSq+o.SumSq }

func (b BP) moments() stats.Moments { return stats.Moments{N: b.N, Sum: b.Sum, SumSq: b.SumSq} }

// Comeback counts, for one round, the games that started it with the
// player's chance below 25% and how many of them the player won, and
// those above 75% and how many it lost; and by the 50% line, the games
// the player led into the round (above 50%) and lost, and trailed (below
// 50%) and won: the leader into the round lost.
type Comeback struct {
	Below      int64 `json:"below_25"`
	BelowWon   int64 `json:"below_25_won"`
	Above      int64 `json:"above_75"`
	AboveLost  int64 `json:"above_75_lost"`
	Led        int64 `json:"above_50"`
	LedLost    int64 `json:"above_50_lost"`
	Trailed    int64 `json:"below_50"`
	TrailedWon int64 `json:"below_50_won"`
}

// VoteCounts are one side's final votes: their sum and sum of squares
// and a histogram of one vote a bin.
type VoteCounts struct {
	Sum   int64   `json:"sum"`
	SumSq int64   `json:"sum_sq"`
	Hist  []int64 `json:"histogram"`
}

// KindParts are the parts of one kind of decision, per game: its
// decisions' own part and the chance they set going, and how many.
type KindParts struct {
	Kind      string `json:"kind"`
	Decisions int64  `json:"decisions"`
	Decision  BP     `json:"decision_bp"`
	Luck      BP     `json:"luck_bp"`
}

// SoloParts are the Opposition's turns that played one Solo card: the
// change in chance of each such turn (its flip, what else it drew and the
// rest), in every round and by round.
type SoloParts struct {
	ID     string `json:"id"`
	All    BP     `json:"turns_bp"`
	Rounds []BP   `json:"turns_by_round_bp"`
}

// The parts a game's change in chance is split into (policy.ArcPoint):
// the player's decisions, four of luck, and the Opposition's automaton.
// The fifth of luck, the deal, is the opening chance against the cell's
// mean (ArcSummary.Deal): it is not a step of a game.
const (
	PartDecision   = iota // the player's decisions
	PartDraws             // the chance set going by cards and tiles drawn
	PartCubes             // by cubes drawn from the bag (the player's and the Opposition's)
	PartReveals           // by tiles and tokens turned face up
	PartFlips             // the Opposition's Solo card flips
	PartOpposition        // the rest of the Opposition's turns: what its automaton did with the card
	NumParts
)

// PartNames name the parts in JSON.
var PartNames = [NumParts]string{"decisions", "draws", "cubes", "reveals", "solo_flips", "opposition"}

// luckPart is the part that luck of source s counts in.
func luckPart(s policy.LuckSource) int {
	switch s {
	case policy.LuckCubes:
		return PartCubes
	case policy.LuckReveal:
		return PartReveals
	}
	return PartDraws
}

// ArcCell is one cell (difficulty × policy × politician) of an arc study.
type ArcCell struct {
	Base  Cell   `json:"all_games"`
	Level string `json:"chance_level"`
	// Opening is the chance at the game's first point.
	Opening BP `json:"opening_bp"`
	// ByTurn and ByRound count games by the chance at the start of each of
	// the player's turns, and at the first point of each round.
	ByTurn  [][]int64 `json:"chance_by_turn"`
	ByRound [][]int64 `json:"chance_by_round"`
	// LeadChanges counts games by how often the chance crossed 50% from
	// one turn's start to the next (both sides' turns, and the outcome).
	LeadChanges []int64    `json:"lead_changes"`
	Comebacks   []Comeback `json:"comebacks"` // by round
	// DecidedBy counts the games won or lost by the player's turn from
	// whose start the winner's chance stayed at 90% or more (the turns'
	// starts of both sides counted); one past the last turn: from the
	// Final Tally's start (decided by the last turns); two past: only in
	// the Final Tally, whose start found the winner below 90% (the games
	// still open at the Final Tally).
	DecidedBy []int64 `json:"decided_by"`
	// WinnerLowest counts the games won or lost by the winner's lowest
	// chance at a turn's start.
	WinnerLowest []int64 `json:"winner_lowest"`
	// Votes are the player's and the Opposition's final votes.
	Votes [2]VoteCounts `json:"votes"`
	// Shares are the Vote Shares each side holds at the end of each
	// round (the Final Tally's for the last), summed over the games, and
	// their squares.
	Shares   [][2]int64 `json:"shares_by_round"`
	SharesSq [][2]int64 `json:"shares_by_round_sq"`
	// Parts are each game's change in chance split into PartNames, per
	// game; PartsSq the squares of every step's parts, summed.
	Parts   [NumParts]BP    `json:"parts_bp"`
	PartsSq [NumParts]int64 `json:"parts_step_sq"`
	Kinds   []KindParts     `json:"decision_kinds"`
	Solo    []SoloParts     `json:"solo_cards"`
	Summary ArcSummary      `json:"summary"` // derived
}

// ArcDeals are the paired deals of the cells of one difficulty and
// politician that several policies played: the score (in halves) of
// every policy on each deal, as a two-way table, and the deals every
// policy won or every one lost.
type ArcDeals struct {
	Mode       string       `json:"mode"`
	Politician string       `json:"politician"`
	Policies   []string     `json:"policies"`
	Table      stats.TwoWay `json:"scores"`
	AllWon     int64        `json:"all_won"`
	AllLost    int64        `json:"all_lost"`
	// Derived: the share of the score's variance the deal explains
	// (stats.TwoWay.RowShare) and the shares of deals all won, all lost.
	DealShare     float64    `json:"deal_share"`
	DealShareCI95 [2]float64 `json:"deal_share_ci95"`
	AllWonRate    float64    `json:"all_won_rate"`
	AllWonCI95    [2]float64 `json:"all_won_ci95"`
	AllLostRate   float64    `json:"all_lost_rate"`
	AllLostCI95   [2]float64 `json:"all_lost_ci95"`
}

// ArcResult is the output of `tallywood arc` (docs/output.md describes
// every field).
type ArcResult struct {
	Envelope
	RulesID
	GamesPerCell int64      `json:"games_per_cell"`
	Model        string     `json:"chance_model"` // the win-chance file's hash
	Probes       int        `json:"probes"`
	Cells        []ArcCell  `json:"cells"`
	Deals        []ArcDeals `json:"paired_deals"`
}

// newArcCell is the empty cell of spec under r, followed by level's
// chance.
func newArcCell(r *engine.Rules, spec CellSpec, level string) ArcCell {
	turns, rounds := 0, len(r.Rounds)
	for _, rd := range r.Rounds {
		turns += int(rd.Turns)
	}
	hist := func(n int) [][]int64 {
		out := make([][]int64, n)
		for i := range out {
			out[i] = make([]int64, ChanceBins)
		}
		return out
	}
	c := ArcCell{Base: Cell{labels: cellLabels(r, spec)}, Level: level,
		ByTurn: hist(turns), ByRound: hist(rounds), LeadChanges: make([]int64, maxLeadChanges+1),
		Comebacks: make([]Comeback, rounds), DecidedBy: make([]int64, turns+2), WinnerLowest: make([]int64, ChanceBins),
		Shares: make([][2]int64, rounds), SharesSq: make([][2]int64, rounds)}
	for s := range c.Votes {
		c.Votes[s].Hist = make([]int64, VoteBins)
	}
	for k := engine.DecCard; k <= engine.DecInitiative; k++ {
		c.Kinds = append(c.Kinds, KindParts{Kind: k.String()})
	}
	for _, s := range r.Solo {
		c.Solo = append(c.Solo, SoloParts{ID: s.ID, Rounds: make([]BP, rounds)})
	}
	return c
}

// chanceBin is the bin of chance p.
func chanceBin(p float64) int { return min(max(int(p*100), 0), ChanceBins-1) }

// arcScratch is a worker's scratch for the game it follows: each side's
// Vote Shares at the end of each round, noted by the Arc's Record at
// every point, and the game's turn sequence.
type arcScratch struct {
	round  int8
	shares [][2]int64 // per round, the game's
	// seq is the chance at the start of every turn (both sides') and the
	// outcome; started, for each, the player's turns started by then.
	seq     []float64
	started []int
}

func (s *arcScratch) reset(rounds int) {
	s.round = 0
	if len(s.shares) != rounds {
		s.shares = make([][2]int64, rounds)
	}
	clear(s.shares)
}

func (s *arcScratch) record(g *engine.Game) {
	// The first point of a new round: the rounds before it have ended.
	for ; s.round < g.Round && int(s.round) < len(s.shares); s.round++ {
		s.shares[s.round] = sharesOf(g)
	}
}

// sharesOf is each side's Vote Shares in g, as the Final Tally counts
// them (I-7, with the Round 4 majority shares).
func sharesOf(g *engine.Game) [2]int64 {
	var out [2]int64
	for s := range int8(2) {
		for d := range int8(engine.NumDistricts) {
			out[s] += int64(g.VoteShares(s, d) + g.Seats[s].MajorityShares[d])
		}
	}
	return out
}

// keep adds game g, followed by a (its points, and the chance when its
// Final Tally began) and sh, to the cell.
func (c *ArcCell) keep(g *engine.Game, pts []policy.ArcPoint, finalTally float64, sh *arcScratch) {
	c.Base.Counts.Add(g)
	res := &g.Result
	if len(pts) == 0 {
		return
	}
	c.Opening.add(pts[0].Chance)
	// The turn sequence: the start of every turn (both sides'), then the
	// outcome.
	seq, started := sh.seq[:0], sh.started[:0]
	turns, seenRound := 0, -1
	for _, p := range pts {
		if int(p.Round) != seenRound && p.Kind != policy.ArcEnd && int(p.Round) < len(c.ByRound) {
			seenRound = int(p.Round)
			c.ByRound[p.Round][chanceBin(p.Chance)]++
			cb := &c.Comebacks[p.Round]
			switch {
			case p.Chance < 0.25:
				cb.Below++
				if res.Outcome == engine.Win {
					cb.BelowWon++
				}
			case p.Chance > 0.75:
				cb.Above++
				if res.Outcome == engine.Loss {
					cb.AboveLost++
				}
			}
			switch {
			case p.Chance > 0.5:
				cb.Led++
				if res.Outcome == engine.Loss {
					cb.LedLost++
				}
			case p.Chance < 0.5:
				cb.Trailed++
				if res.Outcome == engine.Win {
					cb.TrailedWon++
				}
			}
		}
		if p.PlayerTurn >= 0 {
			turns++
			if p.PlayerTurn < len(c.ByTurn) {
				c.ByTurn[p.PlayerTurn][chanceBin(p.Chance)]++
			}
		}
		if p.PlayerTurn >= 0 || p.Kind == policy.ArcOpposition || p.Kind == policy.ArcEnd {
			seq, started = append(seq, p.Chance), append(started, turns)
		}
	}
	sh.seq, sh.started = seq, started
	n := len(seq)
	crossings, side := 0, 0
	for _, x := range seq[:n] {
		s := 0
		switch {
		case x > 0.5:
			s = 1
		case x < 0.5:
			s = -1
		}
		if s != 0 && side != 0 && s != side {
			crossings++
		}
		if s != 0 {
			side = s
		}
	}
	c.LeadChanges[min(crossings, maxLeadChanges)]++
	if res.Outcome != engine.Draw {
		won := res.Outcome == engine.Win
		winner := func(x float64) float64 {
			if won {
				return x
			}
			return 1 - x
		}
		// Decided by the first turn of the player to start after the last
		// turn's start where the winner's chance was below 90% (0: none
		// was; every turn: from the Final Tally's start), or only in the
		// Final Tally if its start found the winner below 90%.
		last := len(c.DecidedBy) - 1
		decided, lowest := 0, 1.0
		if winner(finalTally) < 0.9 {
			decided = last
		} else {
			for k := n - 2; k >= 0; k-- {
				if winner(seq[k]) < 0.9 {
					decided = min(started[k], last-1)
					break
				}
			}
		}
		for _, x := range seq[:n-1] {
			lowest = min(lowest, winner(x))
		}
		c.DecidedBy[decided]++
		c.WinnerLowest[chanceBin(lowest)]++
	}
	for s := range 2 {
		v := int64(res.Total[s])
		vc := &c.Votes[s]
		vc.Sum += v
		vc.SumSq += v * v
		vc.Hist[min(max(v, 0), VoteBins-1)]++
	}
	final := len(c.Shares) - 1
	for r := range c.Shares {
		var x [2]int64
		if r < final {
			x = sh.shares[r]
		} else {
			for d := range res.Districts {
				x[0] += int64(res.Districts[d].Shares[0])
				x[1] += int64(res.Districts[d].Shares[1])
			}
		}
		for s := range 2 {
			c.Shares[r][s] += x[s]
			c.SharesSq[r][s] += x[s] * x[s]
		}
	}
	var parts [NumParts]float64
	var kinds [int(engine.DecInitiative) + 1][2]float64
	for _, p := range pts {
		var step [NumParts]float64
		step[PartDecision], step[PartFlips], step[PartOpposition] = p.Decision, p.Flip, p.Opposition
		step[luckPart(p.Source)] += p.Luck
		for k, x := range step {
			parts[k] += x
			v := math.Round(x * bp)
			c.PartsSq[k] += int64(v * v)
		}
		switch p.Kind {
		case policy.ArcDecision:
			k := int(p.What)
			kinds[k][0] += p.Decision
			kinds[k][1] += p.Luck
			c.Kinds[k-1].Decisions++
		case policy.ArcOpposition:
			if p.Card >= 0 && int(p.Card) < len(c.Solo) {
				s := &c.Solo[p.Card]
				turn := p.Flip + p.Luck + p.Opposition
				s.All.add(turn)
				if int(p.Round) < len(s.Rounds) {
					s.Rounds[p.Round].add(turn)
				}
			}
		}
	}
	for k := range parts {
		c.Parts[k].add(parts[k])
	}
	for k := range c.Kinds {
		kp := &c.Kinds[k]
		kp.Decision.add(kinds[k+1][0])
		kp.Luck.add(kinds[k+1][1])
	}
}

// add adds the counts of o, the same cell of other games.
func (c *ArcCell) add(o *ArcCell) {
	c.Base.add(&o.Base)
	c.Opening.merge(o.Opening)
	addHists(c.ByTurn, o.ByTurn)
	addHists(c.ByRound, o.ByRound)
	addHists([][]int64{c.LeadChanges, c.DecidedBy, c.WinnerLowest, c.Votes[0].Hist, c.Votes[1].Hist},
		[][]int64{o.LeadChanges, o.DecidedBy, o.WinnerLowest, o.Votes[0].Hist, o.Votes[1].Hist})
	for r := range c.Comebacks {
		a, b := &c.Comebacks[r], o.Comebacks[r]
		a.Below, a.BelowWon, a.Above, a.AboveLost = a.Below+b.Below, a.BelowWon+b.BelowWon, a.Above+b.Above, a.AboveLost+b.AboveLost
		a.Led, a.LedLost, a.Trailed, a.TrailedWon = a.Led+b.Led, a.LedLost+b.LedLost, a.Trailed+b.Trailed, a.TrailedWon+b.TrailedWon
	}
	for s := range c.Votes {
		c.Votes[s].Sum += o.Votes[s].Sum
		c.Votes[s].SumSq += o.Votes[s].SumSq
	}
	for r := range c.Shares {
		for s := range 2 {
			c.Shares[r][s] += o.Shares[r][s]
			c.SharesSq[r][s] += o.SharesSq[r][s]
		}
	}
	for k := range c.Parts {
		c.Parts[k].merge(o.Parts[k])
		c.PartsSq[k] += o.PartsSq[k]
	}
	for k := range c.Kinds {
		c.Kinds[k].Decisions += o.Kinds[k].Decisions
		c.Kinds[k].Decision.merge(o.Kinds[k].Decision)
		c.Kinds[k].Luck.merge(o.Kinds[k].Luck)
	}
	for i := range c.Solo {
		c.Solo[i].All.merge(o.Solo[i].All)
		for r := range c.Solo[i].Rounds {
			c.Solo[i].Rounds[r].merge(o.Solo[i].Rounds[r])
		}
	}
}

func addHists(a, b [][]int64) {
	for i := range a {
		for j := range a[i] {
			a[i][j] += b[i][j]
		}
	}
}

// Arc plays every cell of cfg and follows every game's win chance, as Run
// plays a sim run (the same games: following them changes no play), and
// with the same failure policy.
func Arc(ctx context.Context, cfg ArcConfig) (*ArcResult, error) {
	if cfg.Rules == nil || cfg.Model == nil {
		return nil, errors.New("sim: no rules or no win-chance model")
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("sim: games %d is outside 1..%d", cfg.Games, int64(MaxGames))
	}
	if len(cfg.Cells) == 0 || len(cfg.Levels) != len(cfg.Cells) {
		return nil, errors.New("sim: no cells, or not one win-chance level per cell")
	}
	chances := make([]*policy.WinChance, len(cfg.Cells))
	for i, l := range cfg.Levels {
		c, err := cfg.Model.For(l)
		if err != nil {
			return nil, err
		}
		chances[i] = c
	}
	r := cfg.Rules
	pl := cfg.soloPool(ctx, cfg.Shard.Len(cfg.Games))
	defer pl.close()
	probes := max(1, cfg.Probes)
	shares := make([]*arcScratch, len(pl.players))
	for w := range shares {
		shares[w] = &arcScratch{}
	}
	out := &ArcResult{
		Envelope:     newEnvelope(KindArc, FormatArc, cfg.Seed, cfg.Shard),
		RulesID:      rulesID(r),
		GamesPerCell: cfg.Games,
		Model:        cfg.Model.Hash(),
		Probes:       probes,
		Cells:        make([]ArcCell, len(cfg.Cells)),
	}
	games := cfg.Shard.Len(cfg.Games)
	// scores[i][j] is the score in halves of game j of cell i, or
	// notPlayed: the paired deals are counted from them.
	scores := make([][]uint8, len(cfg.Cells))
	for ci, spec := range cfg.Cells {
		start := time.Now()
		cells := make([]ArcCell, len(pl.players))
		for w := range cells {
			cells[w] = newArcCell(r, spec, cfg.Levels[ci])
			a := policy.NewArc(chances[ci], probes)
			sh := shares[w]
			a.Record = sh.record
			pl.players[w].arc = a
		}
		scores[ci] = make([]uint8, games)
		for j := range scores[ci] {
			scores[ci][j] = notPlayed
		}
		err := pl.run(work{
			n: games, size: chunkFor(games, len(pl.players), chunkSize), games: 1,
			play: func(w int, _ int64, seed uint64) error {
				shares[w].reset(len(r.Rounds))
				return pl.players[w].play(r, seed, spec.Mode, spec.Policy, spec.Politician)
			},
			keep: func(w int, j int64) {
				p := pl.players[w]
				cells[w].keep(&p.g, p.arc.Points, p.arc.FinalTally, shares[w])
				scores[ci][j] = uint8(2 * policy.OutcomeScore(&p.g))
			},
		})
		for _, p := range pl.players {
			p.arc = nil
		}
		if err != nil {
			return nil, err
		}
		total := &cells[0]
		for w := 1; w < len(cells); w++ {
			total.add(&cells[w])
		}
		var failures []Failure
		total.Base.Counts.Errors, failures = pl.cellFailures()
		total.Base = newCell(total.Base.labels, &total.Base.Counts, r.Districts[:], time.Since(start).Seconds())
		total.Base.Failures = failures
		out.Cells[ci] = *total
	}
	out.Deals = pairedDeals(out.Cells, scores)
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// notPlayed marks a game a cell did not count (failed, or cut short).
const notPlayed = 255

// pairedDeals groups the cells by difficulty and politician and, for
// every group of two policies or more, counts the deals every one of them
// played.
func pairedDeals(cells []ArcCell, scores [][]uint8) []ArcDeals {
	var out []ArcDeals
	done := make([]bool, len(cells))
	for i := range cells {
		if done[i] {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(cells); j++ {
			if cells[j].Base.Mode == cells[i].Base.Mode && cells[j].Base.Politician == cells[i].Base.Politician &&
				!slices.ContainsFunc(group, func(k int) bool { return cells[k].Base.Policy == cells[j].Base.Policy }) {
				group = append(group, j)
			}
		}
		for _, k := range group {
			done[k] = true
		}
		if len(group) < 2 {
			continue
		}
		d := ArcDeals{Mode: cells[i].Base.Mode, Politician: cells[i].Base.Politician}
		for _, k := range group {
			d.Policies = append(d.Policies, cells[k].Base.Policy)
		}
		row := make([]int64, len(group))
		for j := range scores[i] {
			ok, won, lost := true, true, true
			for g, k := range group {
				x := scores[k][j]
				if x == notPlayed {
					ok = false
					break
				}
				row[g] = int64(x)
				won, lost = won && x == 2, lost && x == 0
			}
			if !ok {
				continue
			}
			d.Table.AddRow(row)
			if won {
				d.AllWon++
			}
			if lost {
				d.AllLost++
			}
		}
		out = append(out, d)
	}
	return out
}

// ArcSummary is what a cell's counts say (derived). Chances and their
// changes are in points (0–100); intervals are 95%.
type ArcSummary struct {
	Opening     float64    `json:"opening"`
	OpeningCI95 [2]float64 `json:"opening_ci95"`
	// FanByTurn and FanByRound are the 10th, 25th, 50th, 75th and 90th
	// percentiles of the chance at each turn's and round's start.
	FanByTurn       [][5]int          `json:"fan_by_turn"`
	FanByRound      [][5]int          `json:"fan_by_round"`
	LeadChanges     float64           `json:"lead_changes_mean"`
	LeadChangesCI95 [2]float64        `json:"lead_changes_ci95"`
	Comebacks       []ComebackRates   `json:"comeback_rates"`
	Decided         int64             `json:"decided_games"` // won or lost
	DecidedMedian   int               `json:"decided_by_median"`
	DecidedMean     float64           `json:"decided_by_mean"`
	OpenAtTally     float64           `json:"open_at_the_final_tally"` // share of decided games whose winner was below 90% at the Final Tally's start
	LowestMedian    int               `json:"winner_lowest_median"`
	WinnerBehind    float64           `json:"winner_below_50"` // share of decided games whose winner was below 50% at some turn
	WinnerBehind25  float64           `json:"winner_below_25"`
	Votes           [2]VoteSummary    `json:"votes"`
	SharesByRound   [][2]float64      `json:"shares_by_round_mean"`
	Parts           [NumParts]PartSum `json:"parts"`
	// Deal is the deal's part: each game's opening chance less the cell's
	// mean opening chance (the prior: the chance before the deal is known,
	// the mean over the deals), whose mean is 0; its share of variance is
	// its squares' share. Luck is the share of variance of draws, cubes,
	// reveals, Solo card flips and the deal together.
	Deal  PartSum       `json:"deal"`
	Luck  float64       `json:"luck_variance_share"`
	Kinds []KindSummary `json:"decision_kinds"`
	Solo  []SoloEffect  `json:"solo_effects"` // ranked: the most costly for the player first
}

// ComebackRates are the comeback rates of one round.
type ComebackRates struct {
	Round      int        `json:"round"`
	Below      int64      `json:"below_25"`
	WonRate    float64    `json:"won_from_below_25"`
	WonCI95    [2]float64 `json:"won_ci95"`
	Above      int64      `json:"above_75"`
	LostRate   float64    `json:"lost_from_above_75"`
	LostCI95   [2]float64 `json:"lost_ci95"`
	BelowShare float64    `json:"below_25_share"`
	AboveShare float64    `json:"above_75_share"`
	// Leaders are the games with a leader into the round by the 50% line
	// (the player's chance above or below it), and LeaderLost the share
	// of them the leader lost (a draw is no loss); LedShare the share of
	// the games the player led.
	Leaders        int64      `json:"leader_games"`
	LeaderLost     float64    `json:"leader_lost"`
	LeaderLostCI95 [2]float64 `json:"leader_lost_ci95"`
	LedShare       float64    `json:"above_50_share"`
}

// VoteSummary is one side's final votes.
type VoteSummary struct {
	Mean      float64    `json:"mean"`
	MeanCI95  [2]float64 `json:"mean_ci95"`
	SD        float64    `json:"sd"`
	Quantiles [5]int     `json:"quantiles"` // 10th, 25th, 50th, 75th, 90th percentiles
}

// PartSum is one part of the games' change in chance: its mean per game
// and its share of the squared changes, the steps' and the deal's (the
// variance of the outcome around the prior, for a chance that is a
// martingale).
type PartSum struct {
	Mean     float64    `json:"mean"`
	MeanCI95 [2]float64 `json:"mean_ci95"`
	VarShare float64    `json:"variance_share"`
}

// KindSummary is one kind of decision: per game, how many, its part and
// the luck it set going.
type KindSummary struct {
	Kind         string     `json:"kind"`
	PerGame      float64    `json:"per_game"`
	Decision     float64    `json:"decision"`
	DecisionCI95 [2]float64 `json:"decision_ci95"`
	Luck         float64    `json:"luck"`
	LuckCI95     [2]float64 `json:"luck_ci95"`
}

// SoloEffect is the mean change in chance of the Opposition turns that
// played a Solo card (in one round, or in every round: Round 0), with its
// interval and rank among the cards (in its round).
type SoloEffect struct {
	Card     string     `json:"card"`
	Round    int        `json:"round,omitempty"`
	Turns    int64      `json:"turns"`
	Mean     float64    `json:"mean"`
	MeanCI95 [2]float64 `json:"mean_ci95"`
	Rank     int        `json:"rank"`
}

// minTurns is the fewest turns a Solo card's effect is shown with.
const minTurns = 30

// fan is the 10th..90th percentiles of a chance histogram.
func fan(h []int64) [5]int {
	var q [5]int
	for i, p := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
		q[i] = stats.HistQuantile(h, p)
	}
	return q
}

func pointsCI(m stats.Moments) (float64, [2]float64) {
	ci := m.MeanInterval(0.05)
	return 100 * m.Mean() / bp, [2]float64{100 * ci.Lo / bp, 100 * ci.Hi / bp}
}

func wilson(k, n int64) (float64, [2]float64) {
	if n == 0 {
		return 0, [2]float64{0, 1}
	}
	ci := stats.Wilson(k, n, 0.05)
	return float64(k) / float64(n), [2]float64{ci.Lo, ci.Hi}
}

func (c *ArcCell) derive() {
	c.Base.derive()
	s := ArcSummary{}
	s.Opening, s.OpeningCI95 = pointsCI(c.Opening.moments())
	for _, h := range c.ByTurn {
		s.FanByTurn = append(s.FanByTurn, fan(h))
	}
	for _, h := range c.ByRound {
		s.FanByRound = append(s.FanByRound, fan(h))
	}
	var lead stats.Moments
	for k, n := range c.LeadChanges {
		lead.N += n
		lead.Sum += int64(k) * n
		lead.SumSq += int64(k*k) * n
	}
	s.LeadChanges = lead.Mean()
	ci := lead.MeanInterval(0.05)
	s.LeadChangesCI95 = [2]float64{ci.Lo, ci.Hi}
	games := c.Base.Games
	for r, cb := range c.Comebacks {
		x := ComebackRates{Round: r + 1, Below: cb.Below, Above: cb.Above}
		x.WonRate, x.WonCI95 = wilson(cb.BelowWon, cb.Below)
		x.LostRate, x.LostCI95 = wilson(cb.AboveLost, cb.Above)
		x.Leaders = cb.Led + cb.Trailed
		x.LeaderLost, x.LeaderLostCI95 = wilson(cb.LedLost+cb.TrailedWon, x.Leaders)
		if games > 0 {
			x.BelowShare, x.AboveShare = float64(cb.Below)/float64(games), float64(cb.Above)/float64(games)
			x.LedShare = float64(cb.Led) / float64(games)
		}
		s.Comebacks = append(s.Comebacks, x)
	}
	for k, n := range c.DecidedBy {
		s.Decided += n
		s.DecidedMean += float64(k * int(n))
	}
	if s.Decided > 0 {
		s.DecidedMean /= float64(s.Decided)
		s.OpenAtTally = float64(c.DecidedBy[len(c.DecidedBy)-1]) / float64(s.Decided)
		var below50, below25 int64
		for k, n := range c.WinnerLowest {
			if k < 50 {
				below50 += n
			}
			if k < 25 {
				below25 += n
			}
		}
		s.WinnerBehind, s.WinnerBehind25 = float64(below50)/float64(s.Decided), float64(below25)/float64(s.Decided)
	}
	s.DecidedMedian = stats.HistQuantile(c.DecidedBy, 0.5)
	s.LowestMedian = stats.HistQuantile(c.WinnerLowest, 0.5)
	for side, v := range c.Votes {
		m := stats.Moments{N: games, Sum: v.Sum, SumSq: v.SumSq}
		vs := VoteSummary{Mean: m.Mean()}
		ci := m.MeanInterval(0.05)
		vs.MeanCI95 = [2]float64{ci.Lo, ci.Hi}
		if games > 1 {
			n := float64(games)
			vs.SD = math.Sqrt(math.Max(0, (n*float64(v.SumSq)-float64(v.Sum)*float64(v.Sum))/(n*(n-1))))
		}
		for i, p := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
			vs.Quantiles[i] = stats.HistQuantile(v.Hist, p)
		}
		s.Votes[side] = vs
	}
	for r := range c.Shares {
		var x [2]float64
		if games > 0 {
			x = [2]float64{float64(c.Shares[r][0]) / float64(games), float64(c.Shares[r][1]) / float64(games)}
		}
		s.SharesByRound = append(s.SharesByRound, x)
	}
	// The deal's squares: the opening chances' around their mean.
	var deal float64
	if o := c.Opening; o.N > 0 {
		deal = max(0, float64(o.SumSq)-float64(o.Sum)*float64(o.Sum)/float64(o.N))
	}
	sq := deal
	for _, v := range c.PartsSq {
		sq += float64(v)
	}
	for k := range c.Parts {
		p := &s.Parts[k]
		p.Mean, p.MeanCI95 = pointsCI(c.Parts[k].moments())
		if sq > 0 {
			p.VarShare = float64(c.PartsSq[k]) / sq
		}
	}
	if sq > 0 {
		s.Deal.VarShare = deal / sq
	}
	s.Luck = s.Deal.VarShare
	for _, k := range []int{PartDraws, PartCubes, PartReveals, PartFlips} {
		s.Luck += s.Parts[k].VarShare
	}
	for _, kp := range c.Kinds {
		if kp.Decisions == 0 {
			continue
		}
		ks := KindSummary{Kind: kp.Kind}
		if games > 0 {
			ks.PerGame = float64(kp.Decisions) / float64(games)
		}
		ks.Decision, ks.DecisionCI95 = pointsCI(kp.Decision.moments())
		ks.Luck, ks.LuckCI95 = pointsCI(kp.Luck.moments())
		s.Kinds = append(s.Kinds, ks)
	}
	s.Solo = soloEffects(c.Solo)
	c.Summary = s
}

// soloEffects ranks the Solo cards by the mean change in chance of the
// turns that played them, the most costly for the player first: over
// every round, then round by round, each card with minTurns turns or
// more.
func soloEffects(cards []SoloParts) []SoloEffect {
	var out []SoloEffect
	rounds := 0
	if len(cards) > 0 {
		rounds = len(cards[0].Rounds)
	}
	for r := 0; r <= rounds; r++ {
		var es []SoloEffect
		for _, sc := range cards {
			b := sc.All
			if r > 0 {
				b = sc.Rounds[r-1]
			}
			if b.N < minTurns {
				continue
			}
			e := SoloEffect{Card: sc.ID, Round: r, Turns: b.N}
			e.Mean, e.MeanCI95 = pointsCI(b.moments())
			es = append(es, e)
		}
		slices.SortStableFunc(es, func(a, b SoloEffect) int { return cmp.Or(cmp.Compare(a.Mean, b.Mean), strings.Compare(a.Card, b.Card)) })
		for i := range es {
			es[i].Rank = i + 1
		}
		out = append(out, es...)
	}
	return out
}

func (r *ArcResult) derive() {
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.derive()
		games += c.Base.Games
		secs += c.Base.ElapsedSeconds
	}
	for i := range r.Deals {
		d := &r.Deals[i]
		share, ci := d.Table.RowShare(0.05)
		d.DealShare, d.DealShareCI95 = share, [2]float64{ci.Lo, ci.Hi}
		d.AllWonRate, d.AllWonCI95 = wilson(d.AllWon, d.Table.Rows)
		d.AllLostRate, d.AllLostCI95 = wilson(d.AllLost, d.Table.Rows)
	}
	r.setTiming(games, secs)
}

func (r *ArcResult) formats() []string { return []string{FormatArc} }

func (r *ArcResult) sameRun(first Study) []field {
	f := first.(*ArcResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_cell", r.GamesPerCell, f.GamesPerCell),
		sameField("chance_model", r.Model, f.Model),
		sameField("probes", r.Probes, f.Probes),
		{"cells", sameArcCells(r.Cells, f.Cells), arcCellNames(r.Cells), arcCellNames(f.Cells)},
		{"paired_deals", sameDeals(r.Deals, f.Deals), fmt.Sprint(len(r.Deals)), fmt.Sprint(len(f.Deals))},
	}
}

func arcCellNames(cs []ArcCell) string {
	parts := make([]string, len(cs))
	for i := range cs {
		parts[i] = cs[i].Base.name() + "@" + cs[i].Level
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func sameArcCells(a, b []ArcCell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Base.labels != b[i].Base.labels || a[i].Level != b[i].Level || len(a[i].ByTurn) != len(b[i].ByTurn) ||
			len(a[i].ByRound) != len(b[i].ByRound) || len(a[i].Solo) != len(b[i].Solo) {
			return false
		}
		for k := range a[i].Solo {
			if a[i].Solo[k].ID != b[i].Solo[k].ID {
				return false
			}
		}
	}
	return true
}

func sameDeals(a, b []ArcDeals) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Mode != b[i].Mode || a[i].Politician != b[i].Politician || !slices.Equal(a[i].Policies, b[i].Policies) {
			return false
		}
	}
	return true
}

// check verifies that a decoded arc study adds up: every cell as a sim
// cell, every histogram of its games, every sum one its games can reach.
func (r *ArcResult) check(share func(int64) int64) error {
	if err := checkSolo(&r.RulesID, "games_per_cell", r.GamesPerCell, len(r.Cells)); err != nil {
		return err
	}
	if len(r.Model) > maxText || r.Probes < 1 || r.Probes > 1000 {
		return fmt.Errorf("chance_model %q or probes %d out of bounds", r.Model, r.Probes)
	}
	n := share(r.GamesPerCell)
	if err := checkCells(r.Cells, func(c *ArcCell) *Cell { return &c.Base }, func(c *ArcCell) error { return c.check(n, r.Interrupted) }); err != nil {
		return err
	}
	for i, d := range r.Deals {
		if err := d.check(r.Cells); err != nil {
			return fmt.Errorf("paired_deals[%d]: %v", i, err)
		}
	}
	return nil
}

func (c *ArcCell) check(share int64, interrupted bool) error {
	if err := c.Base.validate(share, interrupted); err != nil {
		return err
	}
	games := c.Base.Games
	decided := c.Base.Wins + c.Base.Losses
	if len(c.Level) > maxText {
		return errors.New("chance_level: too long")
	}
	turns, rounds := len(c.ByTurn), len(c.ByRound)
	if turns < 1 || turns > engine.MaxRounds*16 || rounds < 1 || rounds > engine.MaxRounds {
		return fmt.Errorf("%d turns and %d rounds: want 1..%d and 1..%d", turns, rounds, engine.MaxRounds*16, engine.MaxRounds)
	}
	hists := []struct {
		name  string
		h     []int64
		bins  int
		total int64
		upTo  bool // at most total
	}{
		{"lead_changes", c.LeadChanges, maxLeadChanges + 1, games, false},
		{"decided_by", c.DecidedBy, turns + 2, decided, false},
		{"winner_lowest", c.WinnerLowest, ChanceBins, decided, false},
		{"votes[0]", c.Votes[0].Hist, VoteBins, games, false},
		{"votes[1]", c.Votes[1].Hist, VoteBins, games, false},
	}
	for t, h := range c.ByTurn {
		hists = append(hists, struct {
			name  string
			h     []int64
			bins  int
			total int64
			upTo  bool
		}{fmt.Sprintf("chance_by_turn[%d]", t), h, ChanceBins, games, true})
	}
	for t, h := range c.ByRound {
		hists = append(hists, struct {
			name  string
			h     []int64
			bins  int
			total int64
			upTo  bool
		}{fmt.Sprintf("chance_by_round[%d]", t), h, ChanceBins, games, true})
	}
	for _, h := range hists {
		if len(h.h) != h.bins {
			return fmt.Errorf("%s: %d bins, want %d", h.name, len(h.h), h.bins)
		}
		var n int64
		for _, x := range h.h {
			// A bin above the total would let the bins wrap round to it.
			if x < 0 || x > h.total {
				return fmt.Errorf("%s: a count outside 0..%d", h.name, h.total)
			}
			n += x
		}
		if n != h.total && !(h.upTo && n <= h.total) {
			return fmt.Errorf("%s counts %d games, want %d", h.name, n, h.total)
		}
	}
	if len(c.Comebacks) != rounds || len(c.Shares) != rounds || len(c.SharesSq) != rounds {
		return fmt.Errorf("comebacks, shares_by_round: want %d rounds", rounds)
	}
	for r, cb := range c.Comebacks {
		if cb.Below < 0 || cb.Above < 0 || cb.BelowWon < 0 || cb.AboveLost < 0 || cb.BelowWon > cb.Below || cb.AboveLost > cb.Above || cb.Below+cb.Above > games ||
			cb.Led < 0 || cb.Trailed < 0 || cb.LedLost < 0 || cb.TrailedWon < 0 || cb.LedLost > cb.Led || cb.TrailedWon > cb.Trailed || cb.Led+cb.Trailed > games {
			return fmt.Errorf("comebacks[%d]: counts are not those of its games", r)
		}
	}
	if err := c.checkVotes(); err != nil {
		return err
	}
	if err := c.checkParts(turns); err != nil {
		return err
	}
	if len(c.Solo) < 1 || len(c.Solo) > maxItems {
		return fmt.Errorf("solo_cards: %d, want 1..%d", len(c.Solo), maxItems)
	}
	ids := map[string]bool{}
	for _, s := range c.Solo {
		if s.ID == "" || len(s.ID) > maxText || ids[s.ID] || len(s.Rounds) != rounds {
			return fmt.Errorf("solo_cards %q: empty, too long, repeated or not %d rounds", s.ID, rounds)
		}
		ids[s.ID] = true
		var n int64
		for _, b := range append([]BP{s.All}, s.Rounds...) {
			// A turn's change in chance: one value of at most ±1.
			if !stats.Bounded(b.N, games, int64(turns)) || b.N < 0 || !b.moments().Possible(bp) {
				return fmt.Errorf("solo_cards %q: sums are not those of its turns", s.ID)
			}
		}
		for _, b := range s.Rounds {
			n += b.N
		}
		if n != s.All.N {
			return fmt.Errorf("solo_cards %q: its turns by round are not its turns", s.ID)
		}
	}
	return nil
}

// maxArcDecisions bounds the player's decisions in one game, far above
// any (a game has a few hundred): a decoded cell's counts of decisions
// are bounded by it, and the sums of their parts by those counts.
const maxArcDecisions = playtest.MaxGameDecisions

// maxSharesPerGame bounds one side's Vote Shares at a round's end: each
// District's shares and majority shares, each at most maxPerGame.
const maxSharesPerGame = 2 * engine.NumDistricts * maxPerGame

// checkVotes checks the final votes and the Vote Shares by round: the
// votes are the base counts' and within their histogram, the shares
// those some games can hold, the last round's the Final Tally's.
func (c *ArcCell) checkVotes() error {
	games := c.Base.Games
	total := [2]int64{c.Base.Counts.PlayerVotes, c.Base.Counts.OppVotes}
	for s, v := range c.Votes {
		// The histogram's bins are one vote each, the last that many or
		// more: they bound the sums from below, and from above with the
		// last bin's games at the most a game can hold.
		var lo, hi, loSq, hiSq int64
		last := int64(VoteBins - 1)
		for b, k := range v.Hist {
			x := int64(b)
			lo, loSq = lo+k*x, loSq+k*x*x
			if x < last {
				hi, hiSq = hi+k*x, hiSq+k*x*x
			}
		}
		top := v.Hist[last]
		switch {
		case v.Sum != total[s]:
			return fmt.Errorf("votes[%d]: sum %d is not the games' votes (%d)", s, v.Sum, total[s])
		case !(stats.Moments{N: games, Sum: v.Sum, SumSq: v.SumSq}).Possible(maxPerGame):
			return fmt.Errorf("votes[%d]: sum %d and sum_sq %d are not those of %d games' votes", s, v.Sum, v.SumSq, games)
		case v.Sum < lo || v.SumSq < loSq || v.Sum-hi > top*maxPerGame || !stats.Bounded(v.SumSq-hiSq, top, maxPerGame*maxPerGame):
			return fmt.Errorf("votes[%d]: sum %d and sum_sq %d are not those of its histogram", s, v.Sum, v.SumSq)
		}
	}
	var final [2]int64
	for _, d := range c.Base.Counts.Districts {
		final[0] += d.PlayerShares
		final[1] += d.OppositionShares
	}
	for r := range c.Shares {
		for s := range 2 {
			if !(stats.Moments{N: games, Sum: c.Shares[r][s], SumSq: c.SharesSq[r][s]}).Possible(maxSharesPerGame) {
				return fmt.Errorf("shares_by_round[%d][%d]: sum %d and sum_sq %d are not those of %d games' Vote Shares", r, s, c.Shares[r][s], c.SharesSq[r][s], games)
			}
		}
	}
	if c.Shares[len(c.Shares)-1] != final {
		return fmt.Errorf("shares_by_round: the last round's %v are not the Final Tally's (%v)", c.Shares[len(c.Shares)-1], final)
	}
	return nil
}

// checkParts checks the chance's sums: the opening chance of every game,
// and each game's change split into parts, by part and by decision kind.
// A step's part is a difference of two chances, at most ±1 (bp basis
// points), so a game's part is at most its steps' count; and the parts
// telescope, game by game, to the outcome minus the opening chance, so
// their sums add up to the cell's outcomes within the rounding of each
// game's parts to a basis point.
func (c *ArcCell) checkParts(turns int) error {
	games := c.Base.Games
	if b := c.Opening; b.N != games || !b.moments().Possible(bp) {
		return fmt.Errorf("opening_bp: sums are not those of %d values of chance", games)
	}
	if len(c.Kinds) != int(engine.DecInitiative) {
		return fmt.Errorf("decision_kinds: %d, want %d", len(c.Kinds), int(engine.DecInitiative))
	}
	var decisions int64 // the player's decisions, every kind's
	var kindSums [2]int64
	for k, kp := range c.Kinds {
		if kp.Kind != engine.DecisionKind(k+1).String() || kp.Decisions < 0 || !stats.Bounded(kp.Decisions, games, maxArcDecisions) {
			return fmt.Errorf("decision_kinds[%d]: not the counts of kind %s over its games", k, engine.DecisionKind(k+1))
		}
		decisions += kp.Decisions
		for i, b := range []BP{kp.Decision, kp.Luck} {
			if b.N != games || !stats.Bounded(b.Sum, bp, kp.Decisions) || !b.moments().Possible(bp*maxArcDecisions) {
				return fmt.Errorf("decision_kinds[%d] (%s): sums are not those of its %d decisions", k, kp.Kind, kp.Decisions)
			}
			kindSums[i] += b.Sum
		}
	}
	if !stats.Bounded(decisions, games, maxArcDecisions) {
		return fmt.Errorf("decision_kinds: %d decisions in %d games", decisions, games)
	}
	// A game's Opposition has a turn of each of the player's: it flips a
	// Solo card and acts at each, and luck follows decisions and turns
	// alike (the Opposition draws cubes too).
	opp := games * int64(turns)
	luck := decisions + opp
	steps := [NumParts]int64{PartDecision: decisions, PartDraws: luck, PartCubes: luck, PartReveals: luck, PartFlips: opp, PartOpposition: opp}
	var total int64
	for k, p := range c.Parts {
		if p.N != games || !stats.Bounded(p.Sum, bp, steps[k]) || !p.moments().Possible(bp*maxArcDecisions) ||
			c.PartsSq[k] < 0 || !stats.Bounded(c.PartsSq[k], bp*bp, steps[k]) {
			return fmt.Errorf("parts_bp[%d] (%s): sums are not those of %d steps", k, PartNames[k], steps[k])
		}
		total += p.Sum
	}
	// Each game's parts are rounded apart: each part by at most half a
	// basis point, and the opening chance by less than a half.
	outcomes := bp*c.Base.Wins + bp/2*c.Base.Draws - c.Opening.Sum
	if !stats.Bounded(total-outcomes, NumParts/2+1, games) {
		return fmt.Errorf("parts_bp: the parts add up to %d, the games' outcomes less their opening chances to %d", total, outcomes)
	}
	// A decision's part is its kind's: the kinds' sums are the part's,
	// within the rounding of each kind's, a basis point a kind a game.
	// (The kinds' luck is the luck after the player's decisions only; the
	// luck parts hold the Opposition's too, so they bound it by steps.)
	if !stats.Bounded(kindSums[0]-c.Parts[PartDecision].Sum, int64(len(c.Kinds)+1), games) {
		return fmt.Errorf("decision_kinds: their %s parts add up to %d, not to parts_bp[%d] (%d)", PartNames[PartDecision], kindSums[0], PartDecision, c.Parts[PartDecision].Sum)
	}
	return nil
}

func (d *ArcDeals) check(cells []ArcCell) error {
	if len(d.Policies) < 2 || len(d.Table.ColSum) != len(d.Policies) {
		return errors.New("want two policies or more, a column each")
	}
	var most int64 = math.MaxInt64
	for _, p := range d.Policies {
		i := slices.IndexFunc(cells, func(c ArcCell) bool {
			return c.Base.Mode == d.Mode && c.Base.Politician == d.Politician && c.Base.Policy == p
		})
		if i < 0 {
			return fmt.Errorf("no cell %s/%s/%s", d.Mode, p, d.Politician)
		}
		most = min(most, cells[i].Base.Games)
	}
	// A score is 0, 1 or 2 (halves): a deal's row sums to at most 2 a
	// policy, and the sums of squares follow (x² ≤ 2x; a row's square at
	// least its scores' squares and at most their sum times the policies,
	// Cauchy–Schwarz).
	t := d.Table
	p := int64(len(d.Policies))
	if t.Rows < 0 || t.Rows > most || d.AllWon < 0 || d.AllLost < 0 || d.AllWon+d.AllLost > t.Rows ||
		t.Sum < 0 || t.Sum > 2*t.Rows*p || t.SumSq < t.Sum || t.SumSq > 2*t.Sum ||
		!(stats.Moments{N: t.Rows, Sum: t.Sum, SumSq: t.RowSq}).Possible(2*p) || t.RowSq < t.SumSq || !stats.Bounded(t.RowSq, p, t.SumSq) {
		return errors.New("scores are not those of its deals")
	}
	var cols int64
	for _, c := range t.ColSum {
		if c < 0 || c > 2*t.Rows {
			return errors.New("scores: a column's sum is not one of its deals' scores")
		}
		cols += c
	}
	if cols != t.Sum {
		return fmt.Errorf("scores: the columns add up to %d, not to the sum %d", cols, t.Sum)
	}
	return nil
}

func (r *ArcResult) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		c := &out.Cells[i]
		c.Base.Failures = slices.Clone(c.Base.Failures)
		c.ByTurn = cloneHists(c.ByTurn)
		c.ByRound = cloneHists(c.ByRound)
		c.LeadChanges, c.DecidedBy, c.WinnerLowest = slices.Clone(c.LeadChanges), slices.Clone(c.DecidedBy), slices.Clone(c.WinnerLowest)
		c.Comebacks = slices.Clone(c.Comebacks)
		for s := range c.Votes {
			c.Votes[s].Hist = slices.Clone(c.Votes[s].Hist)
		}
		c.Shares, c.SharesSq = slices.Clone(c.Shares), slices.Clone(c.SharesSq)
		c.Kinds = slices.Clone(c.Kinds)
		c.Solo = slices.Clone(c.Solo)
		for k := range c.Solo {
			c.Solo[k].Rounds = slices.Clone(c.Solo[k].Rounds)
		}
		c.Summary = ArcSummary{}
	}
	out.Deals = slices.Clone(r.Deals)
	for i := range out.Deals {
		out.Deals[i].Policies = slices.Clone(out.Deals[i].Policies)
		out.Deals[i].Table.ColSum = slices.Clone(out.Deals[i].Table.ColSum)
	}
	return &out
}

func cloneHists(h [][]int64) [][]int64 {
	out := make([][]int64, len(h))
	for i := range h {
		out[i] = slices.Clone(h[i])
	}
	return out
}

func (r *ArcResult) add(o Study) {
	a := o.(*ArcResult)
	for i := range r.Cells {
		r.Cells[i].add(&a.Cells[i])
	}
	for i := range r.Deals {
		d, e := &r.Deals[i], a.Deals[i]
		d.Table.Merge(e.Table)
		d.AllWon += e.AllWon
		d.AllLost += e.AllLost
	}
}

// FailedItems lists each cell's failed games.
func (r *ArcResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i].Base
		out[i] = FailedItems{Unit: "game", A: c, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the games the result holds, of every cell's games.
func (r *ArcResult) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Base.Games
	}
	return n, int64(len(r.Cells)) * r.GamesPerCell, "games"
}
