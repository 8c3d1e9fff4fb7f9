package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(sim.KindCalibrate, kindView[*sim.CalibrateResult]{text: calibrateText, wide: true, csv: calibrateCSV, section: calibrateSection})
}

// The words of a calibration's methods, said under its tables and on its
// page.
const (
	calibrateSkillWords = "SKILL: the dial (dial:skill=S): 0 plays at random, 1 is the skilled level, 2 the expert level. " +
		"From decisions: the skill at which the dial would most likely have taken the recorded decisions, with its 95% " +
		"likelihood-ratio interval; a decision with one option or taken after a hint is left out. " +
		"From results: the skill whose win rates (and margins, where written) on the dial's curve best explain the games' results. " +
		"An interval that reaches an end of the dial is open there, written \"at most 0.12\" or \"at least 1.70\": the data bound it no further. " +
		"ON DIAL: whether the decisions agree with the dial's at the fitted skill, kind of decision by kind, as often as the dial's own would " +
		"(a test of fit; \"no\" when its p is below 0.001, a level set by simulation so that the dial's own testers are flagged at most 5% of the time): " +
		"decisions that do not fit say how alike a tester plays, not how well, and no win rate is predicted from them"
	calibrateMatchWords = "MATCHES: the share of the decisions read that each level would have taken as the tester did " +
		"(Maia-style move matching), with Wilson 95% intervals"
	calibratePredictWords = "PREDICTED: the win rate of players of the fitted skill on the dial's curve; the interval runs " +
		"from the curve's lowest to its highest band over the skill's 97.5% interval (wider than the 95% interval of the skill shown above), " +
		"the bands at 97.5% over every point, so that the fit's uncertainty and the simulation's together hold at least 95%. " +
		"OBSERVED: the tester's own games there. POOLED: like testers together, as one skill: those whose decisions fit the dial " +
		"(or, with no recorded decision at all, every tester's results)"
)

// fitText writes a fitted skill with its interval, "—" for none; an
// interval open at an end of the dial is written as the bound it has:
// "0.05, at most 0.12", "1.90, at least 1.70", "1.00, anywhere 0–2".
func fitText(f *sim.SkillFit) string {
	switch {
	case f == nil:
		return "—"
	case f.LowOpen && f.HighOpen:
		return skill2(f.Skill) + ", anywhere 0–2"
	case f.LowOpen:
		return fmt.Sprintf("%s, at most %s", skill2(f.Skill), skill2(f.CI95[1]))
	case f.HighOpen:
		return fmt.Sprintf("%s, at least %s", skill2(f.Skill), skill2(f.CI95[0]))
	}
	return fmt.Sprintf("%s [%s, %s]", skill2(f.Skill), skill2(f.CI95[0]), skill2(f.CI95[1]))
}

// skill2 writes a skill to two decimals.
func skill2(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// dialFits says whether t's decisions fit the dial: "yes", "no", or "—"
// with none.
func dialFits(t *sim.Tester) string {
	switch {
	case t.Decisions.Test == nil:
		return "—"
	case t.OffDial:
		return "no"
	}
	return "yes"
}

// curveLabel names curve c of r: "rules" for the base rules, else as the
// inputs named it.
func curveLabel(r *sim.CalibrateResult, c int) string {
	if c == 0 || r.Curves[c].Name == "" {
		return "these rules"
	}
	return r.Curves[c].Name
}

// observed says how a tester did on curve c's difficulty mode: "5 of 12
// won", or "" with no games there.
func observed(t *sim.Tester, c int, mode string) string {
	for _, res := range t.Results {
		if res.Curve == c && res.Mode == mode {
			wins, games := res.Wins+res.MarginWins, res.Wins+res.Draws+res.Losses+res.MarginGames
			return fmt.Sprintf("%d of %d won", wins, games)
		}
	}
	return ""
}

// testersOf are r's testers, then the pooled one.
func testersOf(r *sim.CalibrateResult) []*sim.Tester {
	var ts []*sim.Tester
	for i := range r.Testers {
		ts = append(ts, &r.Testers[i])
	}
	if r.Pooled != nil {
		ts = append(ts, r.Pooled)
	}
	return ts
}

// predictionOf is t's prediction from src on curve c's difficulty mode.
func predictionOf(t *sim.Tester, src sim.FitSource, c int, mode string) *sim.Prediction {
	for i := range t.Predictions {
		if p := &t.Predictions[i]; p.From == src && p.Curve == c && p.Mode == mode {
			return p
		}
	}
	return nil
}

func predictionText(p *sim.Prediction) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%s [%s, %s]", pct(p.WinRate), pct(p.WinCI[0]), pct(p.WinCI[1]))
}

// calibrateText writes a calibration: the fitted skills, the levels'
// matches (their intervals with opt.Wide: five levels' would not fit 100
// columns), the predicted win rates, and each tester's results in words.
func calibrateText(b *bytes.Buffer, r *sim.CalibrateResult, opt TextOptions) error {
	wrapTo(b, fmt.Sprintf("rules %s, hash %s", r.RulesVersion, engine.ShortHash(r.RulesHash)), "")
	weightsNotes(b, "", []string{"dial"}, r.RulesID)
	wrapTo(b, calibrateInputWords(r), "")
	var rows [][]string
	for _, t := range testersOf(r) {
		d := &t.Decisions
		rows = append(rows, []string{t.Name, strconv.FormatInt(d.Games, 10), strconv.FormatInt(d.Decisions, 10),
			fitText(t.DecisionFit), dialFits(t), resultsWords(t), fitText(t.ResultFit)})
	}
	b.WriteString("\nSkill on the dial, from the decisions and from the results\n")
	if err := writeTable(b, []string{"TESTER", "GAMES", "DECISIONS", "FROM DECISIONS", "ON DIAL", "WON", "FROM RESULTS"}, 1, rows); err != nil {
		return err
	}
	if len(r.Levels) > 0 {
		rows = nil
		for _, t := range testersOf(r) {
			if len(t.Matches) == 0 {
				continue
			}
			row := []string{t.Name}
			for _, m := range t.Matches {
				if opt.Wide {
					row = append(row, fmt.Sprintf("%s [%s, %s]", pct(m.Rate), pct(m.CI95[0]), pct(m.CI95[1])))
				} else {
					row = append(row, pct(m.Rate))
				}
			}
			rows = append(rows, row)
		}
		if len(rows) > 0 {
			b.WriteString("\nMatches: the decisions each level would have taken alike\n")
			header := []string{"TESTER"}
			for _, lv := range r.Levels {
				header = append(header, strings.ToUpper(lv))
			}
			if err := writeTable(b, header, 1, rows); err != nil {
				return err
			}
			if !opt.Wide {
				wrapTo(b, "--wide also shows the matches' 95% intervals.", "")
			}
		}
	}
	b.WriteString("\nPredicted win rates of players of the fitted skill\n")
	rows = nil
	for _, t := range testersOf(r) {
		for c := range r.Curves {
			if t.OffDial {
				rows = append(rows, []string{t.Name, curveLabel(r, c), "decisions", "not given: off the dial", withheldWhere(t)})
			}
			for _, src := range []sim.FitSource{sim.FromDecisions, sim.FromResults} {
				if predictionOf(t, src, c, "normal") == nil {
					continue
				}
				rows = append(rows, []string{t.Name, curveLabel(r, c), fitSourceWords[src],
					predictionText(predictionOf(t, src, c, "normal")), predictionText(predictionOf(t, src, c, "hard"))})
			}
			if n, h := observed(t, c, "normal"), observed(t, c, "hard"); n != "" || h != "" {
				rows = append(rows, []string{t.Name, curveLabel(r, c), "observed", n, h})
			}
		}
	}
	if err := writeTable(b, []string{"TESTER", "RULES", "FROM", "NORMAL [95%]", "HARD [95%]"}, 3, rows); err != nil {
		return err
	}
	for _, w := range calibrateSentences(r) {
		wrapTo(b, w, "")
	}
	for _, c := range r.FailedItems() {
		if c.Errors > 0 {
			fmt.Fprintf(b, "FAILED: %d seeds of the curves failed and are not counted (see the errors).\n", c.Errors)
			break
		}
	}
	b.WriteString("\n")
	for _, w := range []string{calibrateSkillWords, calibrateMatchWords, calibratePredictWords} {
		wrapTo(b, w+".", "")
	}
	return nil
}

// fitSourceWords name a fit in the tables.
var fitSourceWords = map[sim.FitSource]string{sim.FromDecisions: "decisions", sim.FromResults: "results"}

// calibrateInputWords says what a calibration read and played.
func calibrateInputWords(r *sim.CalibrateResult) string {
	var games, decisions, forced, hinted int64
	for _, t := range r.Testers {
		d := t.Decisions
		games, decisions, forced, hinted = games+d.Games, decisions+d.Decisions, forced+d.Forced, hinted+d.Hinted
	}
	pts := r.Curves[0].Points
	cr := &sim.CurveResult{Points: pts}
	read := fmt.Sprintf("%s, %d decisions read (%d without a choice and %d after a hint left out)", fmt.Sprintf("%d recorded %s", games, plural(games, "game")), decisions, forced, hinted)
	if games == 0 {
		read = "results only (no recorded game, so no decisions)"
	}
	s := fmt.Sprintf("%s; %s; curves: the dial at %d skills, %s, seed %d",
		fmt.Sprintf("%d %s", len(r.Testers), plural(int64(len(r.Testers)), "tester")), read, len(pts), curveGamesWords(cr), r.Seed)
	if r.Shard != "" {
		s += ", shard " + r.Shard
	}
	if r.Interrupted {
		s += ", INTERRUPTED (the curves hold fewer games)"
	}
	return s
}

// resultsWords sums a tester's results: "5 of 12" (won).
func resultsWords(t *sim.Tester) string {
	var wins, games int64
	for _, res := range t.Results {
		wins += res.Wins + res.MarginWins
		games += res.Wins + res.Draws + res.Losses + res.MarginGames
	}
	if games == 0 {
		return "—"
	}
	return fmt.Sprintf("%d of %d", wins, games)
}

// resultSentence says what a tester's results tell, as a designer would
// write it: "ana: 5 wins in 12 on Normal: skill between 0.31 and 0.88
// (most likely 0.55); predicted on Hard 12.0% to 41.5%".
func resultSentence(r *sim.CalibrateResult, t *sim.Tester) string {
	f := t.ResultFit
	if f == nil {
		return ""
	}
	var played []string
	for _, res := range t.Results {
		wins, games := res.Wins+res.MarginWins, res.Wins+res.Draws+res.Losses+res.MarginGames
		where := capitalize(res.Mode)
		if res.Curve != 0 {
			where += " under " + curveLabel(r, res.Curve)
		}
		played = append(played, fmt.Sprintf("%d %s in %d on %s", wins, plural(wins, "win"), games, where))
	}
	skill := fmt.Sprintf("skill between %s and %s (most likely %s)", skill2(f.CI95[0]), skill2(f.CI95[1]), skill2(f.Skill))
	switch {
	case f.LowOpen && f.HighOpen:
		skill = "any skill on the dial (the results do not tell)"
	case f.LowOpen:
		skill = fmt.Sprintf("skill at most %s (most likely %s; nothing bounds it below)", skill2(f.CI95[1]), skill2(f.Skill))
	case f.HighOpen:
		skill = fmt.Sprintf("skill at least %s (most likely %s; nothing bounds it above but the top of the dial)", skill2(f.CI95[0]), skill2(f.Skill))
	}
	var preds []string
	for c := range r.Curves {
		for _, mode := range []string{"normal", "hard"} {
			p := predictionOf(t, sim.FromResults, c, mode)
			if p == nil {
				continue
			}
			where := capitalize(mode)
			if c != 0 {
				where += " under " + curveLabel(r, c)
			}
			preds = append(preds, fmt.Sprintf("%s %s to %s", where, pct(p.WinCI[0]), pct(p.WinCI[1])))
		}
	}
	return fmt.Sprintf("%s: %s: %s; predicted: %s.", t.Name, strings.Join(played, ", "), skill, strings.Join(preds, ", "))
}

// calibrateSentences say, tester by tester, what the results tell, which
// decisions do not fit the dial and what two fits that do not meet mean;
// then who is pooled, and rules predicted for that are these rules.
func calibrateSentences(r *sim.CalibrateResult) []string {
	var out []string
	for _, t := range testersOf(r) {
		if w := resultSentence(r, t); w != "" {
			out = append(out, w)
		}
		switch {
		case t.OffDial:
			out = append(out, offDialSentence(t))
		case t.FitsDisagree:
			out = append(out, disagreeSentence(t))
		}
	}
	if len(r.PooledOf) > 0 {
		w := fmt.Sprintf("pooled: %s, as one skill", strings.Join(r.PooledOf, ", "))
		var left []string
		for _, t := range r.Testers {
			if !slices.Contains(r.PooledOf, t.Name) {
				why := "results only"
				if t.OffDial {
					why = "off the dial"
				}
				left = append(left, fmt.Sprintf("%s (%s)", t.Name, why))
			}
		}
		if len(left) > 0 {
			w += "; left out, as unlike them: " + strings.Join(left, ", ")
		}
		out = append(out, w+".")
	}
	if r.PredictSame != "" {
		out = append(out, fmt.Sprintf("%s (--predict-rules): the same rules as these (hash %s), so its predictions are those under these rules.",
			r.PredictSame, engine.ShortHash(r.RulesHash)))
	}
	return out
}

// offDialSentence says that t's decisions do not fit the dial, where
// they differ most, and what is predicted instead.
func offDialSentence(t *sim.Tester) string {
	x := t.Decisions.Test
	kinds := slices.Clone(x.Kinds)
	slices.SortStableFunc(kinds, func(a, b sim.KindTest) int { return cmp.Compare(b.Statistic, a.Statistic) })
	var most []string
	for _, k := range kinds[:min(2, len(kinds))] {
		most = append(most, fmt.Sprintf("%s decisions, %d of %d %s where the dial would take %.0f", k.Kind, k.Agree, k.Decisions, agreeWhat(x), k.Expected))
	}
	p := fmt.Sprintf("p = %.2g", x.P)
	if x.P < 0.001 {
		p = "p < 0.001"
	}
	instead := "there are no results, so no win rate is predicted: add their results (--outcomes) to have one"
	if t.ResultFit != nil {
		instead = "the predictions from their results are the answer"
	}
	return fmt.Sprintf("%s: the decisions do not fit the dial at their skill %s (test of fit by kind of decision: χ² %.1f on %d degrees of freedom, %s; "+
		"most unlike the dial: %s): %s plays in another style than the dial's, so the decisions say how alike they play, not how well, "+
		"and no win rate is predicted from them; %s.",
		t.Name, skill2(x.Skill), x.Statistic, x.DF, p, strings.Join(most, "; "), t.Name, instead)
}

// agreeWhat is what a test of fit's agreements count.
func agreeWhat(x *sim.DecisionTest) string {
	if x.Skill >= 1 {
		return "took the search's pick"
	}
	return "took the learned score's best"
}

// withheldWhere says where to look instead of the predictions from
// decisions that do not fit the dial.
func withheldWhere(t *sim.Tester) string {
	if t.ResultFit != nil {
		return "see results"
	}
	return "no results: none"
}

// disagreeSentence says what two fits that do not meet mean when the
// decisions fit the dial: the decisions' predictions stand.
func disagreeSentence(t *sim.Tester) string {
	return fmt.Sprintf("%s: the skill from decisions (%s) and from results (%s) do not meet, though the decisions fit the dial kind by kind; "+
		"results this far from the decisions' skill come by chance to a few in a hundred of the dial's own testers, "+
		"so the predictions from the decisions stand (docs/calibration.md).",
		t.Name, fitText(t.DecisionFit), fitText(t.ResultFit))
}

func plural(n int64, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func calibrateCSV(w *csv.Writer, r *sim.CalibrateResult) {
	f := csvFloat
	w.Write([]string{"tester", "from", "skill", "skill_ci95_lo", "skill_ci95_hi", "low_open", "high_open",
		"rules", "mode", "win_rate", "win_ci_lo", "win_ci_hi", "mean_margin", "margin_ci_lo", "margin_ci_hi"})
	for _, t := range testersOf(r) {
		for _, p := range t.Predictions {
			fit := t.DecisionFit
			if p.From == sim.FromResults {
				fit = t.ResultFit
			}
			w.Write([]string{t.Name, fitSourceWords[p.From], f(fit.Skill), f(fit.CI95[0]), f(fit.CI95[1]),
				strconv.FormatBool(fit.LowOpen), strconv.FormatBool(fit.HighOpen), curveLabel(r, p.Curve), p.Mode,
				f(p.WinRate), f(p.WinCI[0]), f(p.WinCI[1]), f(p.MeanMargin), f(p.MarginCI[0]), f(p.MarginCI[1])})
		}
	}
}

// calibrateSection reports a calibration: the testers' fits, matches and
// predictions in tables, the relative likelihood of every skill, and the
// dial's curve under the base rules.
func calibrateSection(idx int, src Source, r *sim.CalibrateResult) (section, error) {
	s := newSection(idx, "calibrate", src)
	s.Facts = []fact{
		{Name: "Result", Value: src.Name},
		{Name: "Rules", Value: r.RulesVersion},
		{Name: "Rules hash", Value: r.RulesHash},
		{Name: "Read and played", Value: calibrateInputWords(r)},
		versionFact(src),
	}
	s.Notes = []string{calibrateSkillWords + ".", calibrateMatchWords + ".", calibratePredictWords + "."}
	s.List = append(s.List, calibrateSentences(r)...)
	var decisions, results []bandSeries
	ft := table{Header: []string{"tester", "games", "decisions", "skill from decisions", "low", "high", "skill from results", "low", "high"}}
	for i, t := range testersOf(r) {
		path := fmt.Sprintf("testers.%d.", i)
		if t == r.Pooled {
			path = "pooled."
		}
		row := []cell{text(t.Name), count(t.Decisions.Games, path+"decisions.games"), count(t.Decisions.Decisions, path+"decisions.decisions")}
		for _, fp := range []struct {
			f    *sim.SkillFit
			name string
		}{{t.DecisionFit, "decision_fit"}, {t.ResultFit, "result_fit"}} {
			if fp.f == nil {
				row = append(row, text("—"), text(""), text(""))
				continue
			}
			row = append(row, num(fp.f.Skill, "%.2f", path+fp.name+".skill"), num(fp.f.CI95[0], "%.2f", path+fp.name+".ci95.0"),
				num(fp.f.CI95[1], "%.2f", path+fp.name+".ci95.1"))
		}
		ft.Rows = append(ft.Rows, row)
		skills, dl, rl := r.Profiles(t)
		if dl != nil {
			decisions = append(decisions, relativeLikelihood(t.Name, skills, dl))
		}
		if rl != nil {
			results = append(results, relativeLikelihood(t.Name, skills, rl))
		}
	}
	g := group{}
	for _, fig := range []struct {
		id, title string
		series    []bandSeries
	}{{"decisions", "How likely each skill makes the decisions", decisions}, {"results", "How likely each skill makes the results", results}} {
		if len(fig.series) == 0 {
			continue
		}
		f, err := bandFigure(s.ID+"-"+fig.id, fig.title, "skill (the dial: 1 skilled, 2 expert)", "relative likelihood (1 at the best fit)", fig.series, -1, ft)
		if err != nil {
			return section{}, err
		}
		g.Figures = append(g.Figures, f)
	}
	var series []bandSeries
	pt := table{Header: []string{"tester", "rules", "from", "difficulty", "win rate", "low", "high"}}
	for i, t := range testersOf(r) {
		path := fmt.Sprintf("testers.%d.", i)
		if t == r.Pooled {
			path = "pooled."
		}
		for k, p := range t.Predictions {
			pp := fmt.Sprintf("%spredictions.%d.", path, k)
			pt.Rows = append(pt.Rows, []cell{text(t.Name), text(curveLabel(r, p.Curve)), text(fitSourceWords[p.From]), text(p.Mode),
				percent(p.WinRate, pp+"win_rate"), percent(p.WinCI[0], pp+"win_ci.0"), percent(p.WinCI[1], pp+"win_ci.1")})
		}
	}
	for j, mode := range []string{"normal", "hard"} {
		var b bandSeries
		b.name = capitalize(mode)
		for _, p := range r.Curves[0].Points {
			c := &p.Cells[j]
			b.add(p.Skill, 100*c.WinRate, 100*c.WinBand[0], 100*c.WinBand[1])
		}
		series = append(series, b)
	}
	f, err := bandFigure(s.ID+"-curve", "The dial's win rate by skill, these rules", "skill (the dial: 1 skilled, 2 expert)",
		"win rate (% of games won)", series, -1, pt)
	if err != nil {
		return section{}, err
	}
	g.Figures = append(g.Figures, f)
	s.Groups = append(s.Groups, g)
	return s, nil
}

// relativeLikelihood is a series of exp(ll − its most) over skills: 1 at
// the best fit, 0.15 at the ends of the 95% interval; the skills it rules
// out are 0.
func relativeLikelihood(name string, skills, ll []float64) bandSeries {
	top := math.Inf(-1)
	for _, v := range ll {
		top = max(top, v)
	}
	s := bandSeries{name: name, dense: true}
	for k, x := range skills {
		v := math.Exp(ll[k] - top)
		if math.IsNaN(v) {
			v = 0
		}
		s.add(x, v, v, v)
	}
	return s
}
