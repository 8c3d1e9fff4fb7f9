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
	"tallywood/sim/stats"
)

// The cards study (`tallywood cards`): one run of games, and for
// every Solo card, Strategy card, tile and politician the games with it and
// without it, so that each item's effect on the player's score and margin
// is a difference of two means. Every count is an integer sum, as in every
// other kind, so shards merge exactly.

// KindCards is the kind of a cards study's result.
const KindCards Kind = "cards"

// FormatCards names the JSON document of `tallywood cards`.
//
// /3 marks an item (significant, margin_significant) when its printed
// interval, simultaneous over the score and the margin of every item of
// its family (Bonferroni), excludes 0, with the p-values adjusted alike
// (score_p_adj, margin_p_adj); /2 and /1 marked the score alone by Holm's
// step-down beside Bonferroni's intervals, so a mark could stand beside an
// interval that held 0. /2 and /1 still read: the effects are derived.
//
// /2 says what each card and tile is (items); /1 reads without.
const FormatCards = "tallywood-cards/3"

func init() { registerKind(KindCards, func() Study { return &CardsResult{} }) }

// CardsConfig is a cards run: like Config, every cell plays the games of
// the shard, game i on seed deal.GameSeed(Seed, i).
type CardsConfig struct {
	RunConfig // an item is a game
	Rules     *engine.Rules
	Games     int64 // games per cell before sharding
	Cells     []CellSpec
}

// Sums are the mergeable sums of a set of games: how many, their score in
// halves (a win 2, a draw 1, a loss 0: integers) and their margin.
type Sums struct {
	Games       int64 `json:"games"`
	ScoreSum    int64 `json:"score_halves_sum"`
	ScoreSumSq  int64 `json:"score_halves_sum_sq"`
	MarginSum   int64 `json:"margin_sum"`
	MarginSumSq int64 `json:"margin_sum_sq"`
}

// gameSums are the sums of one game.
func gameSums(r *engine.Result) Sums {
	h := int64(0)
	switch r.Outcome {
	case engine.Win:
		h = 2
	case engine.Draw:
		h = 1
	}
	m := int64(r.Margin())
	return Sums{Games: 1, ScoreSum: h, ScoreSumSq: h * h, MarginSum: m, MarginSumSq: m * m}
}

// countsSums are the sums of every game of c.
func countsSums(c *Counts) Sums {
	return Sums{Games: c.Games, ScoreSum: 2*c.Wins + c.Draws, ScoreSumSq: 4*c.Wins + c.Draws, MarginSum: c.MarginSum, MarginSumSq: c.MarginSumSq}
}

func (s *Sums) add(o *Sums) {
	s.Games += o.Games
	s.ScoreSum += o.ScoreSum
	s.ScoreSumSq += o.ScoreSumSq
	s.MarginSum += o.MarginSum
	s.MarginSumSq += o.MarginSumSq
}

func (s Sums) minus(o Sums) Sums {
	return Sums{s.Games - o.Games, s.ScoreSum - o.ScoreSum, s.ScoreSumSq - o.ScoreSumSq, s.MarginSum - o.MarginSum, s.MarginSumSq - o.MarginSumSq}
}

// check verifies that s could be the sums of some of the games of all
// (what they are, with a %d for their number: "the cell's %d"): no more games, and sums that games
// of those scores and margins reach (the rest, all − s, too).
func (s Sums) check(all Sums, what string) error {
	for _, x := range []Sums{s, all.minus(s)} {
		n := x.Games
		switch {
		case n < 0:
			return fmt.Errorf("games %d: more than %s or negative", s.Games, fmt.Sprintf(what, all.Games))
		case x.ScoreSum < 0 || x.ScoreSum > 2*n || x.ScoreSumSq < x.ScoreSum || x.ScoreSumSq > 2*x.ScoreSum:
			return errors.New("score sums are not those of wins and draws of its games")
		case !(stats.Moments{N: n, Sum: x.MarginSum, SumSq: x.MarginSumSq}).Possible(MarginLimit):
			return errors.New("margin sums are not those of its games")
		}
	}
	return nil
}

// SoloCardCounts are the games in which a Solo card was played (turned
// into one of the Opposition's columns) at all, and in each round.
type SoloCardCounts struct {
	ID     string `json:"id"`
	Played Sums   `json:"played"`
	Rounds []Sums `json:"played_in_round"` // by round, the first first
}

// StrategyCardCounts are the games in which the player drew a Strategy
// card (the setup hand counts), played it, and held it at the end.
type StrategyCardCounts struct {
	ID     string `json:"id"`
	Drawn  Sums   `json:"drawn"`
	Played Sums   `json:"played"`
	Held   Sums   `json:"held_at_end"`
}

// ItemCounts are the games with an item: a tile the player took, a
// politician dealt to the player.
type ItemCounts struct {
	ID   string `json:"id"`
	With Sums   `json:"with"`
}

// CardEffect is one comparison of a cell: the games with an item against
// the games without it (see the family's words in CardFamilies),
// differences with minus without. Every field is derived.
type CardEffect struct {
	Family  string `json:"family"`
	Item    string `json:"item"`
	Round   int    `json:"round,omitempty"` // 1.. for the family solo_round
	Measure string `json:"measure"`         // "effect" (randomized) or "association"
	Rank    int    `json:"rank"`            // 1: first of its family
	With    int64  `json:"games_with"`
	Without int64  `json:"games_without"`
	// Score is a win 1, a draw ½; the intervals are Welch's, 95 %, and
	// adjusted: simultaneous over the family's tests (Tests: a score and a
	// margin per item), each at 0.05/Tests (Bonferroni). An item is
	// marked (Significant, MarginSignificant) exactly when its adjusted
	// interval excludes 0: the chance of any false mark in the family is
	// at most 5 %.
	Tests             int        `json:"family_tests"`
	ScoreDiff         float64    `json:"score_diff"`
	ScoreCI95         [2]float64 `json:"score_diff_ci95"`
	ScoreCIAdjusted   [2]float64 `json:"score_diff_ci_adjusted"`
	ScoreP            float64    `json:"score_p"`
	ScorePAdj         float64    `json:"score_p_adj"`
	Significant       bool       `json:"significant"`
	MarginDiff        float64    `json:"margin_diff"`
	MarginCI95        [2]float64 `json:"margin_diff_ci95"`
	MarginCIAdjusted  [2]float64 `json:"margin_diff_ci_adjusted"`
	MarginP           float64    `json:"margin_p"`
	MarginPAdj        float64    `json:"margin_p_adj"`
	MarginSignificant bool       `json:"margin_significant"`
}

// UnmarshalJSON reads a stored effect as nothing: derive computes every
// effect again from the counts on every decode, and a result before
// tallywood-cards/3 stored Holm's p-values, which /3 does not.
func (e *CardEffect) UnmarshalJSON([]byte) error { return nil }

// CardFamily is one family of comparisons: what "with" and "without" are,
// whether the item is dealt at random (an effect) or chosen by the player
// (an association), and whose item it is.
type CardFamily struct {
	Name, Measure, With, Without string
	// Opposition: the item is the Opposition's, ranked by how much it
	// lowers the player's score (the strongest for the Opposition first);
	// the player's items are ranked by how much they raise it.
	Opposition bool
}

// CardFamilies are the families of a cards study, in the order of the
// output.
var CardFamilies = []CardFamily{
	{"solo", "effect", "played", "not played", true},
	{"solo_round", "effect", "played in round r", "not in round r", true},
	{"strategy_drawn", "association", "drawn", "not drawn", false},
	{"strategy_played", "association", "played", "held (drawn, never played)", false},
	{"tile", "association", "taken", "not taken", false},
	{"politician", "effect", "dealt", "another dealt", false},
}

// CardsCell is one cell (difficulty × policy × politician) of a cards
// study: every game's summary and the counts of every item.
type CardsCell struct {
	Base        Cell                 `json:"all_games"`
	Solo        []SoloCardCounts     `json:"solo_cards"`
	Strategy    []StrategyCardCounts `json:"strategy_cards"`
	Tiles       []ItemCounts         `json:"tiles"`
	Politicians []ItemCounts         `json:"politicians"`
	Effects     []CardEffect         `json:"effects"` // derived, by family in the order of CardFamilies, ranked
}

// CardsResult is the output of `tallywood cards` (docs/output.md
// describes every field).
type CardsResult struct {
	Envelope
	RulesID
	GamesPerCell int64 `json:"games_per_cell"`
	// OldMethod reads how the items are compared, in words, that results
	// written before sim/report said it held, and drops it.
	OldMethod droppedText `json:"method,omitzero"`
	// Items is what the Solo cards, Strategy cards and tiles are, as the
	// rules played give them, so that a result read alone says what S-03
	// is; absent from results written before.
	Items *CardsItems `json:"items,omitempty"`
	Cells []CardsCell `json:"cells"`
}

// CardsItems is what each card and tile of a study's rules is.
type CardsItems struct {
	Solo     []SoloCardFacts     `json:"solo_cards"`
	Strategy []StrategyCardFacts `json:"strategy_cards"`
	Tiles    []TileFacts         `json:"tiles"`
}

// SoloCardFacts is a Solo card (C-16): its two Districts on top and its
// two actions below, left then right.
type SoloCardFacts struct {
	ID        string    `json:"id"`
	Districts [2]string `json:"districts"`
	Actions   [2]string `json:"actions"`
}

// StrategyCardFacts is a Strategy card (C-15): its deck, its slots' icons
// in the rules file's order (TL, BL, TR, BR; an action, money:N or
// popularity:N) and its ability as the rules file writes it.
type StrategyCardFacts struct {
	ID      string       `json:"id"`
	Deck    string       `json:"deck"`
	Slots   [4]string    `json:"slots"`
	Ability AbilityFacts `json:"ability"`
}

// AbilityFacts is a Strategy card's ability as the rules file writes it.
type AbilityFacts struct {
	Kind       string `json:"kind"`
	Action     string `json:"action,omitempty"`
	Money      int    `json:"money,omitempty"`
	Popularity int    `json:"popularity,omitempty"`
	Polling    int    `json:"polling,omitempty"`
}

// TileFacts is a tile face (C-14) by its item id (TileID): its cube
// icons, R, B, G, Y by the Districts in order and M multi-colour.
type TileFacts struct {
	ID   string `json:"id"`
	Face string `json:"face"`
}

// cardsItems says what each card and tile of r is.
func cardsItems(r *engine.Rules) *CardsItems {
	out := &CardsItems{}
	for _, c := range r.Solo {
		out.Solo = append(out.Solo, SoloCardFacts{ID: c.ID,
			Districts: [2]string{r.Districts[c.LeftDistrict], r.Districts[c.RightDistrict]},
			Actions:   [2]string{c.LeftAction.String(), c.RightAction.String()}})
	}
	for _, c := range r.Cards {
		f := StrategyCardFacts{ID: c.ID, Deck: c.Deck.String(), Ability: AbilityFacts{Kind: c.Ability.Kind.String(),
			Money: int(c.Ability.Money), Popularity: int(c.Ability.Popularity), Polling: int(c.Ability.Polling)}}
		if c.Ability.Kind == engine.AbilityDiscount {
			f.Ability.Action = c.Ability.Action.String()
		}
		for k, ic := range c.Slots {
			f.Slots[k] = ic.Notation()
		}
		out.Strategy = append(out.Strategy, f)
	}
	for k := range r.Tiles {
		for t := range r.Tiles[k] {
			for i, face := range r.Tiles[k][t] {
				out.Tiles = append(out.Tiles, TileFacts{ID: TileID(engine.TileKind(k), t+1, i), Face: face.String()})
			}
		}
	}
	return out
}

// check bounds what a decoded result says its items are.
func (it *CardsItems) check() error {
	if len(it.Solo) > maxItems || len(it.Strategy) > maxItems || len(it.Tiles) > maxItems {
		return errors.New("items: more than a rules file holds")
	}
	var texts []string
	for _, c := range it.Solo {
		texts = append(texts, c.ID, c.Districts[0], c.Districts[1], c.Actions[0], c.Actions[1])
	}
	for _, c := range it.Strategy {
		texts = append(texts, c.ID, c.Deck, c.Ability.Kind, c.Ability.Action)
		texts = append(texts, c.Slots[:]...)
	}
	for _, t := range it.Tiles {
		texts = append(texts, t.ID, t.Face)
	}
	for _, s := range texts {
		if len(s) > maxText {
			return fmt.Errorf("items: a name of %d bytes", len(s))
		}
	}
	return nil
}

// TileID names tile face of kind and tier (1..3) in a cards study:
// PW2-3 is the third Public Works face of tier 2, CE the Celebrity ones.
func TileID(k engine.TileKind, tier, face int) string {
	p := "CE"
	if k == engine.TilePublicWorks {
		p = "PW"
	}
	return fmt.Sprintf("%s%d-%d", p, tier, face+1)
}

// newCardsCell is the empty cell of spec under r.
func newCardsCell(r *engine.Rules, spec CellSpec) CardsCell {
	c := CardsCell{Base: Cell{labels: cellLabels(r, spec)}}
	for _, s := range r.Solo {
		c.Solo = append(c.Solo, SoloCardCounts{ID: s.ID, Rounds: make([]Sums, len(r.Rounds))})
	}
	for _, s := range r.Cards {
		c.Strategy = append(c.Strategy, StrategyCardCounts{ID: s.ID})
	}
	for k := range r.Tiles {
		for t := range r.Tiles[k] {
			for f := range r.Tiles[k][t] {
				c.Tiles = append(c.Tiles, ItemCounts{ID: TileID(engine.TileKind(k), t+1, f)})
			}
		}
	}
	for _, p := range r.Politicians {
		c.Politicians = append(c.Politicians, ItemCounts{ID: p.ID})
	}
	return c
}

// cardsRecorder notes, from the events of one game, what cards studies
// count that the final state does not keep: which Strategy cards the
// player drew and played, the round each Solo card was played in, and the
// tiles the player took. It reads the setup hand from g.
type cardsRecorder struct {
	g          *engine.Game
	drawn      []bool
	played     []bool
	soloRounds []uint8 // bit r: played in round r (I-19 may play a card again)
	tiles      []int   // indexes into g.Placed
	// held and taken are keep's buffers: the cards in the hand at the
	// end, the tile faces taken.
	held, taken []bool
}

func (c *cardsRecorder) reset() {
	clear(c.drawn)
	clear(c.played)
	clear(c.soloRounds)
	c.tiles = c.tiles[:0]
}

func (c *cardsRecorder) Record(e engine.Event) {
	switch e.Kind {
	case engine.EvSetup:
		st := &c.g.Seats[0]
		for _, card := range st.Hand[:st.NHand] {
			c.drawn[card] = true
		}
	case engine.EvDraw:
		if e.Seat == 0 {
			c.drawn[e.Item] = true
		}
	case engine.EvPlayCard:
		if e.Seat == 0 {
			c.played[e.Item] = true
		}
	case engine.EvSoloCard:
		// OPEN: "played" is a card turned into a column (Solo Gameplay
		// 1); the cards boxed from the top of the deck at Clean Up (Solo
		// Clean Up 1-3) are never played, their actions never taken, and
		// count as not played.
		c.soloRounds[e.Item] |= 1 << e.Round
	case engine.EvPublicWorks, engine.EvCelebrity:
		if e.Seat == 0 {
			c.tiles = append(c.tiles, int(e.Item))
		}
	}
}

// keep adds the game g, recorded by rec, to the cell; tileIndex maps a
// tile (kind, tier−1, face) to its item.
func (c *CardsCell) keep(g *engine.Game, rec *cardsRecorder, tileIndex [2][engine.NumTiers][]int) {
	c.Base.Counts.Add(g)
	s := gameSums(&g.Result)
	for i, m := range rec.soloRounds {
		if m == 0 {
			continue
		}
		sc := &c.Solo[i]
		sc.Played.add(&s)
		for r := range sc.Rounds {
			if m&(1<<r) != 0 {
				sc.Rounds[r].add(&s)
			}
		}
	}
	held := rec.held
	clear(held)
	st := &g.Seats[0]
	for _, card := range st.Hand[:st.NHand] {
		held[card] = true
	}
	for i := range c.Strategy {
		sc := &c.Strategy[i]
		if rec.drawn[i] {
			sc.Drawn.add(&s)
		}
		if rec.played[i] {
			sc.Played.add(&s)
		}
		// Held at the end and never played: a card played, shuffled back
		// (I-19) and drawn again counts as played, so that held is the
		// rest of the drawn.
		if held[i] && !rec.played[i] {
			sc.Held.add(&s)
		}
	}
	// A face counts once a game, however many of its copies were taken.
	taken := rec.taken
	clear(taken)
	for _, pi := range rec.tiles {
		t := &g.Placed[pi]
		taken[tileIndex[t.Kind][t.Tier-1][t.Face]] = true
	}
	for i, ok := range taken {
		if ok {
			c.Tiles[i].With.add(&s)
		}
	}
	c.Politicians[st.Politician].With.add(&s)
}

// add adds the counts of o, the same cell of other games.
func (c *CardsCell) add(o *CardsCell) {
	c.Base.add(&o.Base)
	for i := range c.Solo {
		c.Solo[i].Played.add(&o.Solo[i].Played)
		for r := range c.Solo[i].Rounds {
			c.Solo[i].Rounds[r].add(&o.Solo[i].Rounds[r])
		}
	}
	for i := range c.Strategy {
		c.Strategy[i].Drawn.add(&o.Strategy[i].Drawn)
		c.Strategy[i].Played.add(&o.Strategy[i].Played)
		c.Strategy[i].Held.add(&o.Strategy[i].Held)
	}
	for i := range c.Tiles {
		c.Tiles[i].With.add(&o.Tiles[i].With)
	}
	for i := range c.Politicians {
		c.Politicians[i].With.add(&o.Politicians[i].With)
	}
}

// Cards plays every cell of cfg and counts every item, as Run plays a sim
// run (the same games: the recorder changes no play), and with the same
// failure policy.
func Cards(ctx context.Context, cfg CardsConfig) (*CardsResult, error) {
	if cfg.Rules == nil {
		return nil, errors.New("sim: no rules")
	}
	if cfg.Games < 1 || cfg.Games > MaxGames {
		return nil, fmt.Errorf("sim: games %d is outside 1..%d", cfg.Games, int64(MaxGames))
	}
	if len(cfg.Cells) == 0 {
		return nil, errors.New("sim: no cells")
	}
	r := cfg.Rules
	pl := cfg.soloPool(ctx, cfg.Shard.Len(cfg.Games))
	defer pl.close()
	var tileIndex [2][engine.NumTiers][]int
	tiles := 0
	for k := range r.Tiles {
		for t := range r.Tiles[k] {
			tileIndex[k][t] = make([]int, len(r.Tiles[k][t]))
			for f := range tileIndex[k][t] {
				tileIndex[k][t][f] = tiles
				tiles++
			}
		}
	}
	recs := make([]*cardsRecorder, len(pl.players))
	for w, p := range pl.players {
		recs[w] = &cardsRecorder{g: &p.g, drawn: make([]bool, len(r.Cards)), played: make([]bool, len(r.Cards)),
			soloRounds: make([]uint8, len(r.Solo)), held: make([]bool, len(r.Cards)), taken: make([]bool, tiles)}
		p.rec = recs[w]
	}

	out := &CardsResult{
		Envelope:     newEnvelope(KindCards, FormatCards, cfg.Seed, cfg.Shard),
		RulesID:      rulesID(r),
		GamesPerCell: cfg.Games, Items: cardsItems(r),
		Cells: make([]CardsCell, len(cfg.Cells)),
	}
	games := cfg.Shard.Len(cfg.Games)
	for ci, spec := range cfg.Cells {
		start := time.Now()
		cells := make([]CardsCell, len(pl.players))
		for w := range cells {
			cells[w] = newCardsCell(r, spec)
		}
		err := pl.run(work{
			n: games, size: chunkFor(games, len(pl.players), chunkSize), games: 1,
			play: func(w int, _ int64, seed uint64) error {
				recs[w].reset()
				return pl.players[w].play(r, seed, spec.Mode, spec.Policy, spec.Politician)
			},
			keep: func(w int, _ int64) { cells[w].keep(&pl.players[w].g, recs[w], tileIndex) },
		})
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
	out.Interrupted = pl.interrupted()
	out.derive()
	if err := pl.tooMany(); err != nil {
		return out, err
	}
	return out, nil
}

// welch is Welch's difference of the means of a and b (stats.Welch): its
// interval of confidence 1 − alpha and the p-value of no difference. scale
// divides every figure (2: scores kept in halves).
func welch(a, b stats.Moments, alpha, scale float64) (diff float64, ci [2]float64, p float64) {
	d, c, p := stats.Welch(a, b, alpha)
	return d / scale, [2]float64{c.Lo / scale, c.Hi / scale}, p
}

// score are the moments of the games' scores, in halves.
func (s Sums) score() stats.Moments {
	return stats.Moments{N: s.Games, Sum: s.ScoreSum, SumSq: s.ScoreSumSq}
}

// margin are the moments of the games' margins.
func (s Sums) margin() stats.Moments {
	return stats.Moments{N: s.Games, Sum: s.MarginSum, SumSq: s.MarginSumSq}
}

// comparison is one item's games with and without, before the family's
// adjustment.
type comparison struct {
	item        string
	round       int
	with, total Sums
}

// comparisons lists every item of family f in cell c.
func (c *CardsCell) comparisons(f string) []comparison {
	all := countsSums(&c.Base.Counts)
	var cs []comparison
	switch f {
	case "solo":
		for _, s := range c.Solo {
			cs = append(cs, comparison{s.ID, 0, s.Played, all})
		}
	case "solo_round":
		for _, s := range c.Solo {
			for r, x := range s.Rounds {
				cs = append(cs, comparison{s.ID, r + 1, x, all})
			}
		}
	case "strategy_drawn":
		for _, s := range c.Strategy {
			cs = append(cs, comparison{s.ID, 0, s.Drawn, all})
		}
	case "strategy_played":
		for _, s := range c.Strategy {
			cs = append(cs, comparison{s.ID, 0, s.Played, s.Drawn})
		}
	case "tile":
		for _, s := range c.Tiles {
			cs = append(cs, comparison{s.ID, 0, s.With, all})
		}
	case "politician":
		// Only a cell whose politician is dealt at random compares them.
		if c.Base.Politician == "random" {
			for _, s := range c.Politicians {
				cs = append(cs, comparison{s.ID, 0, s.With, all})
			}
		}
	}
	return cs
}

// derive computes every cell's summary and effects, and the run's timing.
func (r *CardsResult) derive() {
	r.Format = FormatCards // an older format is read into this one
	var games int64
	var secs float64
	for i := range r.Cells {
		c := &r.Cells[i]
		c.Base.derive()
		games += c.Base.Games
		secs += c.Base.ElapsedSeconds
		c.Effects = c.Effects[:0:0]
		for _, f := range CardFamilies {
			c.Effects = append(c.Effects, familyEffects(f, c.comparisons(f.Name))...)
		}
	}
	r.setTiming(games, secs)
}

// minSide is the fewest games on each side an item is compared with:
// Welch's interval leans on the means being near normal, which a handful
// of games (a card drawn in 3 games and never played) is not.
const minSide = 30

// familyEffects compares each item of a family that has minSide games or
// more on each side, adjusts over those (the score and the margin of
// each: Bonferroni, so that a mark is read from the printed interval),
// and ranks them.
func familyEffects(f CardFamily, cs []comparison) []CardEffect {
	var es []CardEffect
	for _, x := range cs {
		without := x.total.minus(x.with)
		if x.with.Games < minSide || without.Games < minSide {
			continue
		}
		e := CardEffect{Family: f.Name, Item: x.item, Round: x.round, Measure: f.Measure, With: x.with.Games, Without: without.Games}
		e.ScoreDiff, e.ScoreCI95, e.ScoreP = welch(x.with.score(), without.score(), 0.05, 2)
		e.MarginDiff, e.MarginCI95, e.MarginP = welch(x.with.margin(), without.margin(), 0.05, 1)
		es = append(es, e)
	}
	// The family is the table: the score and the margin of each of its
	// items, each test at 0.05/tests, its interval the same.
	tests := 2 * len(es)
	alpha := stats.BonferroniLevel(0.05, max(tests, 1))
	for i, x := range comparisonsWithEffects(cs) {
		e := &es[i]
		without := x.total.minus(x.with)
		_, e.ScoreCIAdjusted, _ = welch(x.with.score(), without.score(), alpha, 2)
		_, e.MarginCIAdjusted, _ = welch(x.with.margin(), without.margin(), alpha, 1)
		e.Tests = tests
		e.ScorePAdj, e.MarginPAdj = math.Min(1, float64(tests)*e.ScoreP), math.Min(1, float64(tests)*e.MarginP)
		e.Significant = e.ScoreCIAdjusted[0] > 0 || e.ScoreCIAdjusted[1] < 0
		e.MarginSignificant = e.MarginCIAdjusted[0] > 0 || e.MarginCIAdjusted[1] < 0
	}
	sign := 1.0
	if f.Opposition {
		sign = -1 // the Opposition's strongest: the lowest score for the player
	}
	slices.SortStableFunc(es, func(a, b CardEffect) int {
		return cmp.Or(cmp.Compare(sign*b.ScoreDiff, sign*a.ScoreDiff), cmp.Compare(sign*b.MarginDiff, sign*a.MarginDiff),
			strings.Compare(a.Item, b.Item), cmp.Compare(a.Round, b.Round))
	})
	for i := range es {
		es[i].Rank = i + 1
	}
	return es
}

// comparisonsWithEffects are the comparisons familyEffects keeps, in its
// order.
func comparisonsWithEffects(cs []comparison) []comparison {
	var out []comparison
	for _, x := range cs {
		if x.with.Games >= minSide && x.total.Games-x.with.Games >= minSide {
			out = append(out, x)
		}
	}
	return out
}

func (r *CardsResult) formats() []string {
	return []string{FormatCards, "tallywood-cards/2", "tallywood-cards/1"}
}

func (r *CardsResult) sameRun(first Study) []field {
	f := first.(*CardsResult)
	return []field{
		{"rules", r.RulesHash == f.RulesHash && slices.Equal(r.Overrides, f.Overrides), r.RulesID.text(), f.RulesID.text()},
		sameField("games_per_cell", r.GamesPerCell, f.GamesPerCell),
		{"cells", sameCardsCells(r.Cells, f.Cells), cardsCellNames(r.Cells), cardsCellNames(f.Cells)},
	}
}

// check verifies that a decoded cards study adds up: every cell as a sim
// cell, and every item's sums those of some of the cell's games.
func (r *CardsResult) check(share func(int64) int64) error {
	if err := checkSolo(&r.RulesID, "games_per_cell", r.GamesPerCell, len(r.Cells)); err != nil {
		return err
	}
	if r.Items != nil {
		if err := r.Items.check(); err != nil {
			return err
		}
	}
	n := share(r.GamesPerCell)
	return checkCells(r.Cells, func(c *CardsCell) *Cell { return &c.Base }, func(c *CardsCell) error { return c.check(n, r.Interrupted) })
}

func (c *CardsCell) check(share int64, interrupted bool) error {
	if err := c.Base.validate(share, interrupted); err != nil {
		return err
	}
	all := countsSums(&c.Base.Counts)
	rounds := -1
	// An item's sums, each a part of other sums: a card's games played in
	// a round are some of its games played, a Strategy card held at the
	// end some of those it was drawn in and never played.
	type part struct {
		name   string
		sums   Sums
		of     Sums
		ofName string
	}
	type item struct {
		family, id string
		parts      []part
	}
	ofAll := func(name string, s Sums) part { return part{name, s, all, "the cell's %d"} }
	var items []item
	for _, s := range c.Solo {
		if rounds < 0 {
			rounds = len(s.Rounds)
		}
		if len(s.Rounds) != rounds || rounds < 1 || rounds > engine.MaxRounds {
			return fmt.Errorf("solo_cards %q: %d rounds, want the same 1..%d for every card", s.ID, len(s.Rounds), engine.MaxRounds)
		}
		parts := []part{ofAll("", s.Played)}
		for r, rs := range s.Rounds {
			parts = append(parts, part{fmt.Sprintf("played_in_round[%d]", r), rs, s.Played, "the %d played"})
		}
		items = append(items, item{"solo_cards", s.ID, parts})
	}
	for _, s := range c.Strategy {
		items = append(items, item{"strategy_cards", s.ID, []part{ofAll("drawn", s.Drawn),
			{"played", s.Played, s.Drawn, "the %d drawn"}, {"held_at_end", s.Held, s.Drawn.minus(s.Played), "the %d drawn and not played"}}})
	}
	for _, s := range c.Tiles {
		items = append(items, item{"tiles", s.ID, []part{ofAll("", s.With)}})
	}
	var dealt Sums
	for _, s := range c.Politicians {
		items = append(items, item{"politicians", s.ID, []part{ofAll("", s.With)}})
		dealt.add(&s.With)
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"solo_cards", len(c.Solo)}, {"strategy_cards", len(c.Strategy)}, {"tiles", len(c.Tiles)}, {"politicians", len(c.Politicians)}} {
		if f.n < 1 || f.n > maxItems {
			return fmt.Errorf("%s: %d items, want 1..%d", f.name, f.n, maxItems)
		}
	}
	ids := map[string]bool{}
	for _, it := range items {
		key := it.family + "\x00" + it.id
		if it.id == "" || len(it.id) > maxText || ids[key] {
			return fmt.Errorf("%s: id %q is empty, too long or repeated", it.family, it.id)
		}
		ids[key] = true
		for _, p := range it.parts {
			if err := p.sums.check(p.of, p.ofName); err != nil {
				where := fmt.Sprintf("%s %q", it.family, it.id)
				if p.name != "" {
					where += ": " + p.name
				}
				return fmt.Errorf("%s: %v", where, err)
			}
		}
	}
	// Every game deals the player one politician.
	if dealt != all {
		return errors.New("politicians: the games they were dealt in are not the cell's games")
	}
	return nil
}

func (r *CardsResult) clone() Study {
	out := *r
	out.Cells = slices.Clone(r.Cells)
	for i := range out.Cells {
		c := &out.Cells[i]
		c.Base.Failures = slices.Clone(c.Base.Failures)
		c.Solo = slices.Clone(c.Solo)
		for j := range c.Solo {
			c.Solo[j].Rounds = slices.Clone(c.Solo[j].Rounds)
		}
		c.Strategy = slices.Clone(c.Strategy)
		c.Tiles = slices.Clone(c.Tiles)
		c.Politicians = slices.Clone(c.Politicians)
		c.Effects = slices.Clone(c.Effects)
	}
	return &out
}

func (r *CardsResult) add(o Study) {
	for i := range r.Cells {
		r.Cells[i].add(&o.(*CardsResult).Cells[i])
	}
}

// FailedItems lists each cell's failed games.
func (r *CardsResult) FailedItems() []FailedItems {
	out := make([]FailedItems, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i].Base
		out[i] = FailedItems{Unit: "game", A: c, Errors: c.Errors, Failures: c.Failures}
	}
	return out
}

// Played is the games the result holds, of every cell's games.
func (r *CardsResult) Played() (n, total int64, unit string) {
	for _, c := range r.Cells {
		n += c.Base.Games
	}
	return n, int64(len(r.Cells)) * r.GamesPerCell, "games"
}

// cardsCellNames lists a cards study's cells in an error.
func cardsCellNames(cs []CardsCell) string {
	parts := make([]string, len(cs))
	for i := range cs {
		parts[i] = cs[i].Base.name()
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// sameCardsCells: the same cells, with the same items.
func sameCardsCells(a, b []CardsCell) bool {
	if len(a) != len(b) {
		return false
	}
	ids := func(c *CardsCell) string {
		var s []string
		for _, x := range c.Solo {
			s = append(s, x.ID, fmt.Sprint(len(x.Rounds)))
		}
		for _, x := range c.Strategy {
			s = append(s, x.ID)
		}
		for _, x := range c.Tiles {
			s = append(s, x.ID)
		}
		for _, x := range c.Politicians {
			s = append(s, x.ID)
		}
		return strings.Join(s, "\x00")
	}
	for i := range a {
		if a[i].Base.labels != b[i].Base.labels || ids(&a[i]) != ids(&b[i]) {
			return false
		}
	}
	return true
}
