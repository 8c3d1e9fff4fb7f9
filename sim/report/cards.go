package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindCards, kindView[*sim.CardsResult]{text: cardsText, csv: cardsCSV, section: cardsSection})
}

// cardsTop is how many items of a family the text and the page show
// (every one with --all; the CSV and JSON hold them all).
const cardsTop = 10

// familyOf is the family named name.
func familyOf(name string) sim.CardFamily {
	for _, f := range sim.CardFamilies {
		if f.Name == name {
			return f
		}
	}
	return sim.CardFamily{Name: name}
}

// cardsMethod says how a cards study compares (sim's familyEffects), in
// the text and the page.
const cardsMethod = "each item compares the games with it against the games without it, on the player's score " +
	"(a win 1, a draw ½) and margin: a difference of means with Welch's 95% interval. Solo cards come in a random " +
	"order and politicians are dealt at random, so their differences are effects; Strategy cards and tiles are " +
	"chosen by the player, so theirs are associations, not causes. Multiplicity: within each family of a cell, " +
	"items with fewer than 30 games on either side are left out; the family is the score and the margin of each item left " +
	"(its tests, stated per table), and each interval is Bonferroni's, simultaneous at 95% over them. A * marks a score or " +
	"margin whose printed interval excludes 0: the chance of any false mark in a family is at most 5%, and a run of " +
	"several cells and families has that chance in each"

// familyTitle says what a family compares, for headings: "Solo cards: an
// effect, played vs not played".
func familyTitle(f sim.CardFamily) string {
	what := map[string]string{
		"solo": "Solo cards", "solo_round": "Solo cards by round", "strategy_drawn": "Strategy cards",
		"strategy_played": "Strategy cards", "tile": "tiles", "politician": "politicians",
	}[f.Name]
	order := "the player's best first"
	if f.Opposition {
		order = "the Opposition's best first"
	}
	return fmt.Sprintf("%s, %s: %s vs %s (%s)", capitalize(what), f.Measure, f.With, f.Without, order)
}

// effectsOf are the effects of family in c, ranked.
func effectsOf(c *sim.CardsCell, family string) []sim.CardEffect {
	var es []sim.CardEffect
	for _, e := range c.Effects {
		if e.Family == family {
			es = append(es, e)
		}
	}
	return es
}

// itemName is an effect's item, with its round for solo_round.
func itemName(e *sim.CardEffect) string {
	if e.Round > 0 {
		return fmt.Sprintf("%s r%d", e.Item, e.Round)
	}
	return e.Item
}

// cardsText writes a cards study: per cell and family, the ranked items
// (the first cardsTop unless all) and, under them, what they mean.
func cardsText(b *bytes.Buffer, r *sim.CardsResult, opt TextOptions) error {
	all := opt.All
	fmt.Fprintf(b, "rules %s, hash %s\n", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(b, "changed by %s\n", strings.Join(r.Overrides, ", "))
	}
	fmt.Fprintf(b, "seed %d, %d games per cell", r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	header := []string{"#", "ITEM", "WITH", "W/O", "SCORE pts [adj. CI]", "MARGIN [adj. CI]"}
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(b, "\n%s, %s, politician %s: %d games, win rate %s\n", capitalize(c.Base.Mode), playerName(c.Base.Policy), politicianName(c.Base.Politician),
			c.Base.Games, pct(c.Base.WinRate))
		for _, f := range sim.CardFamilies {
			es := effectsOf(c, f.Name)
			if len(es) == 0 {
				continue
			}
			fmt.Fprintf(b, "\n%s:\n  a family of %d tests (the score and the margin of %d items), simultaneous 95%%\n",
				familyTitle(f), es[0].Tests, es[0].Tests/2)
			shown := es
			if !all && len(es) > cardsTop {
				shown = es[:cardsTop]
			}
			var rows [][]string
			for _, e := range shown {
				rows = append(rows, []string{fmt.Sprint(e.Rank), itemName(&e), fmt.Sprint(e.With), fmt.Sprint(e.Without),
					fmt.Sprintf("%s [%s, %s]%s", pointsText(e.ScoreDiff), pointsText(e.ScoreCIAdjusted[0]), pointsText(e.ScoreCIAdjusted[1]), mark(e.Significant)),
					fmt.Sprintf("%s [%s, %s]%s", signedText(e.MarginDiff), signedText(e.MarginCIAdjusted[0]), signedText(e.MarginCIAdjusted[1]), mark(e.MarginSignificant))})
			}
			if err := writeTable(b, header, 2, rows); err != nil {
				return err
			}
			seen := map[string]bool{}
			for _, e := range shown {
				if w := itemWords(r.Items, e.Item); w != "" && !seen[e.Item] {
					seen[e.Item] = true
					fmt.Fprintf(b, "  %s: %s\n", e.Item, w)
				}
			}
			if len(shown) < len(es) {
				fmt.Fprintf(b, "  the first %d of %d (--all: every one; the CSV and JSON hold them all)\n", len(shown), len(es))
			}
		}
		if c.Base.Errors > 0 {
			fmt.Fprintf(b, "  FAILED: %d games failed and are not counted (see the errors).\n", c.Base.Errors)
		}
	}
	b.WriteString("\nSCORE: the mean score (win 1, draw ½) of the games with the item minus those without, in points;\n" +
		"MARGIN: the same in votes; [adj. CI]: simultaneous 95% over the family's tests (Bonferroni);\n" +
		"*: the interval beside it excludes 0 (any false * in a family: at most 5%).\n")
	b.WriteString(wrapText("Method: " + cardsMethod + "."))
	weightsNotes(b, "", cardsPolicies(r), r.RulesID)
	return nil
}

// mark is the * of a score or margin whose adjusted interval excludes 0.
func mark(significant bool) string {
	if significant {
		return " *"
	}
	return ""
}

func cardsPolicies(r *sim.CardsResult) []string {
	var ps []string
	for _, c := range r.Cells {
		ps = append(ps, c.Base.Policy)
	}
	return ps
}

// cardsCSVHeader lists the columns of a cards study: a row per effect.
var cardsCSVHeader = []string{
	"mode", "policy", "politician", "family", "measure", "rank", "item", "round", "games_with", "games_without",
	"score_diff", "score_ci95_lo", "score_ci95_hi", "score_ci_adjusted_lo", "score_ci_adjusted_hi", "score_p", "score_p_adj", "significant",
	"margin_diff", "margin_ci95_lo", "margin_ci95_hi", "margin_ci_adjusted_lo", "margin_ci_adjusted_hi", "margin_p", "margin_p_adj",
	"margin_significant", "family_tests", "what",
}

func cardsCSV(w *csv.Writer, r *sim.CardsResult) {
	f, i := csvFloat, csvInt
	w.Write(cardsCSVHeader)
	for _, c := range r.Cells {
		for _, e := range c.Effects {
			w.Write([]string{
				c.Base.Mode, levelName(c.Base.Policy), c.Base.Politician, e.Family, e.Measure, fmt.Sprint(e.Rank), e.Item, fmt.Sprint(e.Round),
				i(e.With), i(e.Without),
				f(e.ScoreDiff), f(e.ScoreCI95[0]), f(e.ScoreCI95[1]), f(e.ScoreCIAdjusted[0]), f(e.ScoreCIAdjusted[1]), f(e.ScoreP), f(e.ScorePAdj),
				fmt.Sprint(e.Significant),
				f(e.MarginDiff), f(e.MarginCI95[0]), f(e.MarginCI95[1]), f(e.MarginCIAdjusted[0]), f(e.MarginCIAdjusted[1]), f(e.MarginP), f(e.MarginPAdj),
				fmt.Sprint(e.MarginSignificant), fmt.Sprint(e.Tests), itemWords(r.Items, e.Item),
			})
		}
	}
}

// cardsCommand reconstructs the command line of r.
func cardsCommand(r *sim.CardsResult) string {
	var modes, policies []string
	for _, c := range r.Cells {
		modes, policies = uniq(modes, c.Base.Mode), uniq(policies, c.Base.Policy)
	}
	args := []string{"cards", "--games", fmt.Sprint(r.GamesPerCell), "--seed", fmt.Sprint(r.Seed),
		"--mode", strings.Join(modes, ","), "--policy", strings.Join(policies, ",")}
	args = append(args, rulesArgs("--rules", "--set", r.RulesID)...)
	return reproducing(args, r.Shard)
}

// cardsSection reports a cards study: per cell, a ranked dot and interval
// plot of each family's first items, with their table.
func cardsSection(idx int, src Source, r *sim.CardsResult) (section, error) {
	command := cardsCommand(r)
	s := newSection(idx, "cards", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Seed", Value: fmt.Sprint(r.Seed)},
		{Name: "Games per cell", Value: gamesOfShard(r.GamesPerCell, r.Shard)},
	}
	if len(r.Overrides) > 0 {
		s.Facts = append(s.Facts, fact{Name: "Rules changed by", Value: strings.Join(r.Overrides, " ")})
	}
	s.Facts = append(s.Facts, closingFacts(src, command)...)
	if r.Interrupted {
		s.Notes = append(s.Notes, "This run was interrupted: the figures are of the games played before it stopped.")
	}
	s.Notes = append(s.Notes, "How items are compared: "+cardsMethod+".",
		fmt.Sprintf("Each plot shows a family's first %d items, ranked by their difference in score; the bars are the adjusted (simultaneous) intervals. The JSON and CSV hold every item and round.", cardsTop))
	for ci := range r.Cells {
		c := &r.Cells[ci]
		g := group{}
		for _, f := range sim.CardFamilies {
			es := effectsOf(c, f.Name)
			if len(es) == 0 {
				continue
			}
			fig, err := cardsFigure(fmt.Sprintf("%s-cell%d-%s", s.ID, ci+1, f.Name), ci, c, r.Items, f, es[:min(len(es), cardsTop)])
			if err != nil {
				return section{}, err
			}
			g.Figures = append(g.Figures, fig)
		}
		s.Groups = append(s.Groups, g)
	}
	return s, nil
}

// cardsFigure draws the ranked effects es of family f in cell ci.
func cardsFigure(id string, ci int, c *sim.CardsCell, items *sim.CardsItems, f sim.CardFamily, es []sim.CardEffect) (figure, error) {
	title := fmt.Sprintf("%s: %s", CellTitle(&c.Base, &c.Base), familyTitle(f))
	rows := make([]forestRow, len(es))
	t := table{Header: []string{"rank", "item", "what it is", "games with", "games without", "score (pts)", "adj. low", "adj. high", "adj. p", "margin (votes)", "adj. low", "adj. high"}}
	for i, e := range es {
		rows[i] = forestRow{label: itemName(&e), est: 100 * e.ScoreDiff, lo: 100 * e.ScoreCIAdjusted[0], hi: 100 * e.ScoreCIAdjusted[1]}
		k := effectIndex(c, &e)
		path := fmt.Sprintf("cells.%d.effects.%d.", ci, k)
		t.Rows = append(t.Rows, []cell{
			text(fmt.Sprint(e.Rank)), text(rows[i].label), text(itemWords(items, e.Item)), count(e.With, path+"games_with"), count(e.Without, path+"games_without"),
			points(e.ScoreDiff, path+"score_diff"), points(e.ScoreCIAdjusted[0], path+"score_diff_ci_adjusted.0"), points(e.ScoreCIAdjusted[1], path+"score_diff_ci_adjusted.1"),
			num(e.ScorePAdj, "%.3g", path+"score_p_adj"),
			signed(e.MarginDiff, path+"margin_diff"), signed(e.MarginCIAdjusted[0], path+"margin_diff_ci_adjusted.0"), signed(e.MarginCIAdjusted[1], path+"margin_diff_ci_adjusted.1"),
		})
	}
	svg, err := forestSVG(title, "score with − without (points)", "", rows, nil, capitalize(f.Measure)+", simultaneous 95% interval", "no difference")
	if err != nil {
		return figure{}, err
	}
	note := fmt.Sprintf("%s vs %s. A family of %d tests (the score and the margin of %d items): each interval is simultaneous at 95%% over them, and an adjusted p below 0.05 is an interval that excludes 0.",
		capitalize(f.With), f.Without, es[0].Tests, es[0].Tests/2)
	if f.Measure == "association" {
		note += " The player chooses these: an association, not a cause."
	}
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t}, nil
}

// itemWords says what an item is: a Solo card's Districts and actions
// ("Red Public Works | Blue Celebrity", left | right), a Strategy card's
// deck, slots (TL BL | TR BR, the rules file's order) and ability, a
// tile's face; "" when the result does not say (written before results
// did) or the item is a politician.
func itemWords(items *sim.CardsItems, id string) string {
	if items == nil {
		return ""
	}
	for _, c := range items.Solo {
		if c.ID == id {
			return fmt.Sprintf("%s %s | %s %s", c.Districts[0], c.Actions[0], c.Districts[1], c.Actions[1])
		}
	}
	for _, c := range items.Strategy {
		if c.ID == id {
			return fmt.Sprintf("%s deck, %s %s | %s %s, %s", c.Deck, iconWord(c.Slots[0]), iconWord(c.Slots[1]),
				iconWord(c.Slots[2]), iconWord(c.Slots[3]), abilityWords(c.Ability))
		}
	}
	for _, t := range items.Tiles {
		if t.ID == id {
			return "face " + t.Face
		}
	}
	return ""
}

// iconWord writes a slot's icon short, as the board does: an action by
// two letters (PW, CE, RE, CA), a resource by its letter and amount (M1
// for 1 Money, P1 for 1 Popularity).
func iconWord(notation string) string {
	if a, ok := engine.ParseAction(notation); ok {
		name := a.String()
		if i := strings.IndexByte(name, ' '); i > 0 {
			return name[:1] + name[i+1:i+2]
		}
		return strings.ToUpper(name[:2])
	}
	kind, amount, _ := strings.Cut(notation, ":")
	return strings.ToUpper(kind[:1]) + amount
}

// abilityWords words a Strategy card's ability as its banner reads
// (engine.Ability's words), from the rules file's notation.
func abilityWords(a sim.AbilityFacts) string {
	k, ok := engine.ParseAbilityKind(a.Kind)
	if !ok {
		return a.Kind
	}
	ab := engine.Ability{Kind: k, Money: int8(a.Money), Popularity: int8(a.Popularity), Polling: int8(a.Polling)}
	if act, ok := engine.ParseAction(a.Action); ok {
		ab.Action = act
	}
	return ab.String()
}

// effectIndex is the index of e among c's effects, for a table cell's
// JSON path.
func effectIndex(c *sim.CardsCell, e *sim.CardEffect) int {
	for i := range c.Effects {
		if c.Effects[i].Family == e.Family && c.Effects[i].Item == e.Item && c.Effects[i].Round == e.Round {
			return i
		}
	}
	return -1
}
