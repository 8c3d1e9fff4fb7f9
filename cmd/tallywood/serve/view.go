package serve

import (
	"fmt"
	"math"
	"strings"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim/policy"
)

// What a page shows of a game is built here, from what the tester may see
// only: the board as every player sees it, their own hand, the events
// narrated (which name nothing hidden), the options. Nothing of the
// game's hidden state (face-down Initial Support and tiles, deck orders,
// the bag's draws) goes into a view.

// homeView is the tester's list of games.
type homeView struct {
	Tester, Plan, Mode string
	Token, CSRF        string
	Hint, Chance       bool
	Deals              []dealEntry
}

type dealEntry struct {
	Deal, Number      int
	GameID            int64
	Started, Finished bool
	Decisions         int
	Result            string
}

// gameView is one game's page.
type gameView struct {
	Token, CSRF  string
	GameID       int64
	Tester, Plan string
	Number       int // the deal, from 1
	Deals        int
	Mode         string
	Politician   string
	N            int // decisions made
	Over         bool
	Status       string
	Chance       string
	Title, Help  string
	Options      []optionView
	HintOn       bool
	Hint         string
	Steps        []stepView
	Board        boardView
	Tally        *tallyView
}

type optionView struct {
	Num       int
	ID, Label string
	Key       string // the key that picks it: 1-9, 0 for the tenth
}

// stepView is one step of what happened since the tester's last
// decision: the decision's effects, then each step of the Opposition's
// turn, Round Scoring, Clean Up, under its header.
type stepView struct {
	Header string
	Lines  []lineView
}

// lineView is one event in words, the rule it followed apart.
type lineView struct {
	Who  string // "you", "opp" or "" (the game)
	Text string
	Rule string
}

// chanceLevel is the skill the win chance assumes the tester plays on at.
const chanceLevel = "skilled"

func (s *Server) gameView(g *liveGame) gameView {
	sess := g.sess
	game := sess.Game()
	r := game.Rules()
	rec := sess.Record()
	v := gameView{
		Token: g.tester.Token, CSRF: s.csrfFor(g.tester.Token), GameID: g.row.ID, Tester: g.tester.Name,
		Plan: g.plan.Name, Number: g.row.Deal + 1, Deals: g.plan.Deals, Mode: modeName(game.Mode),
		Politician: r.Politicians[game.Seats[0].Politician].ID, N: len(rec.Decisions), Over: game.Over(),
		HintOn: g.plan.Hint && !game.Over(), Hint: g.hint,
	}
	v.Status = status(game)
	if g.plan.Chance {
		v.Chance = chanceText(game)
	}
	v.Steps = steps(r, sess.Events()[g.from:])
	v.Board = newBoard(sess)
	if game.Over() {
		v.Tally = newTally(game)
		return v
	}
	v.Title, v.Help = sess.Title(), strings.ReplaceAll(sess.Help(), "\n", " ")
	for i, o := range sess.Legal(nil) {
		ov := optionView{Num: i + 1, ID: engine.OptionID(o), Label: sess.Describe(o)}
		if i < 10 {
			ov.Key = fmt.Sprint((i + 1) % 10)
		}
		v.Options = append(v.Options, ov)
	}
	return v
}

// status says where the game stands.
func status(g *engine.Game) string {
	r := g.Rules()
	first := "you play first this round"
	if g.Order[0] != 0 {
		first = "the Opposition plays first this round"
	}
	switch g.Phase {
	case engine.PhaseStrategy:
		return fmt.Sprintf("Round %d of %d, turn %d of %d; %s", g.Round+1, len(r.Rounds), g.Turn+1, g.RoundCard().Turns, first)
	case engine.PhaseCleanupDiscard, engine.PhaseCleanupDraw:
		return fmt.Sprintf("Clean Up after round %d: you draw up to %d cards", g.Round+1, r.Rounds[g.Round+1].HandSize)
	case engine.PhaseReveal:
		return "Final Tally: the face-down tiles are revealed"
	}
	return "The game is over"
}

// chanceText is the tester's chance of winning as a skilled player
// would play on, with its interval.
func chanceText(g *engine.Game) string {
	c, err := policy.ShippedChance().For(chanceLevel)
	if err != nil || !g.IsSolo() {
		return ""
	}
	p := c.Of(g)
	text := fmt.Sprintf("Your chance of winning, if you play on as a skilled player would: %.0f%%", 100*p)
	if half, ok := c.Interval(g); ok && math.Round(100*half) > 0 {
		text += fmt.Sprintf(" (give or take %.0f)", 100*half)
	}
	return text
}

// steps words the events since the tester's last decision in the
// narration's steps; the Final Tally's own lines are left to its table.
func steps(r *engine.Rules, evs []engine.Event) []stepView {
	var out []stepView
	for _, step := range play.Steps(evs, 0) {
		var sv stepView
		for _, e := range step {
			switch e.Kind {
			case engine.EvTally, engine.EvSeatTally, engine.EvResult:
				continue
			}
			text := r.Text(e)
			rule := e.Rule
			if rule != "" {
				text = strings.TrimSuffix(text, " ("+rule+")")
			}
			if e.Kind.Header() {
				if sv.Header != "" || len(sv.Lines) > 0 {
					out = append(out, sv)
					sv = stepView{}
				}
				sv.Header = text
				continue
			}
			who := ""
			switch {
			case e.Seat == 0:
				who = "you"
			case e.Seat != engine.NoSeat:
				who = "opp"
			}
			sv.Lines = append(sv.Lines, lineView{Who: who, Text: text, Rule: rule})
		}
		if sv.Header != "" || len(sv.Lines) > 0 {
			out = append(out, sv)
		}
	}
	return out
}

// hintText words a hint for the page.
func hintText(g *liveGame, adv play.Hint) string {
	text := fmt.Sprintf("The %s bot would choose: %s.", adv.Policy, g.sess.Describe(adv.Option))
	if adv.HasMargin {
		text += fmt.Sprintf(" It expects the game to end with you %s votes", signedVotes(adv.Margin))
		if adv.Error > 0 {
			text += fmt.Sprintf(", give or take %.0f", adv.Error)
		}
		text += "."
	}
	return text
}

func signedVotes(m float64) string {
	if m >= 0 {
		return fmt.Sprintf("ahead by %.0f", m)
	}
	return fmt.Sprintf("behind by %.0f", -m)
}

// tallyView is the Final Tally laid out like the scoring board, each line
// explained (rulebook Final Tally 3.a–4.c, Solo Final Tally, I-18).
type tallyView struct {
	Districts []string
	Rows      []tallyRow
	Totals    []tallyTotal
	Verdict   string
}

type tallyRow struct {
	Label, Why string
	Cells      []string
	Sum        bool
}

type tallyTotal struct {
	Who                                   string
	Districts, Endorsements, Bonus, Total string
}

func newTally(g *engine.Game) *tallyView {
	r := g.Rules()
	res := &g.Result
	you, opp := int8(0), g.Opponent()
	t := &tallyView{Districts: r.Districts[:]}
	row := func(label, why string, sum bool, cell func(d int) string) {
		tr := tallyRow{Label: label, Why: why, Sum: sum}
		for d := range engine.NumDistricts {
			tr.Cells = append(tr.Cells, cell(d))
		}
		t.Rows = append(t.Rows, tr)
	}
	cubes := func(d int) int {
		n := 0
		for _, c := range g.Districts[d].Cubes {
			n += int(c)
		}
		return n
	}
	unclaimed := func(d int) int {
		n := 0
		for l, h := range g.Districts[d].Endorsements {
			if h == engine.NoSeat {
				n += int(r.Endorsements[l].Votes)
			}
		}
		return n
	}
	num := func(v int) string { return fmt.Sprint(v) }
	row("Initial Support", "the District's token, now face up (3.a)", false, func(d int) string { return num(int(g.Districts[d].InitialSupport)) })
	row("Voter cubes × 2", "two votes for every cube in the District (3.b)", false, func(d int) string { return num(2 * cubes(d)) })
	row("Endorsements left", "the votes of the Endorsements no one took (3.c)", false, func(d int) string { return num(unclaimed(d)) })
	row("Made even", "added so that the votes divide by the Vote Shares (3.d)", false, func(d int) string {
		return fmt.Sprintf("+%d", int(res.Districts[d].Votes)-int(g.Districts[d].InitialSupport)-2*cubes(d)-unclaimed(d))
	})
	row("District votes", "the District's votes to share out", true, func(d int) string { return num(int(res.Districts[d].Votes)) })
	row("Your Vote Shares", "from your polling on the track, and the majority share (4.a, 4.c)", false, func(d int) string { return num(int(res.Districts[d].Shares[you])) })
	row("Opposition's Vote Shares", "the same for the Opposition (4.a, 4.c)", false, func(d int) string { return num(int(res.Districts[d].Shares[opp])) })
	row("Votes per share", "District votes ÷ all the Vote Shares (4.b)", false, func(d int) string { return num(int(res.Districts[d].PerShare)) })
	row("Your votes", "your shares × votes per share", true, func(d int) string { return num(int(res.Districts[d].SeatVotes[you])) })
	row("Opposition's votes", "its shares × votes per share", true, func(d int) string { return num(int(res.Districts[d].SeatVotes[opp])) })
	for _, seat := range []int8{you, opp} {
		districts := 0
		for d := range engine.NumDistricts {
			districts += int(res.Districts[d].SeatVotes[seat])
		}
		tt := tallyTotal{Who: "You", Districts: num(districts), Endorsements: num(int(res.Endorsements[seat])), Bonus: "—", Total: num(int(res.Total[seat]))}
		if seat == opp {
			tt.Who, tt.Bonus = "Opposition", num(int(res.Bonus[seat]))
		}
		t.Totals = append(t.Totals, tt)
	}
	m := res.Margin()
	switch res.Outcome {
	case engine.Win:
		t.Verdict = fmt.Sprintf("You win by %d votes (%d to %d): your politician is elected mayor.", m, res.Total[you], res.Total[opp])
	case engine.Loss:
		t.Verdict = fmt.Sprintf("The Opposition wins by %d votes (%d to %d).", -m, res.Total[opp], res.Total[you])
	default:
		t.Verdict = fmt.Sprintf("A draw at %d votes each: the victory is shared.", res.Total[you])
	}
	return t
}
