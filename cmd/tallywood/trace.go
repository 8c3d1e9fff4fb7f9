package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/opposition/script"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

func init() {
	register(command{name: "trace", summary: "play one game and narrate it (or write its events as JSON lines)", run: runTrace})
}

const traceUsage = `usage: tallywood trace [flags]
       tallywood trace --load FILE [--rules FILE] [--format text|jsonl] [--trust-lineup]
       tallywood trace --seats N --policy LINEUP [--seed S] [--game i] [--rotation K]

Plays game --game of a run with master seed --seed (the same game that
'tallywood sim --seed S' plays as game number --game; game 0 is the game
'tallywood play --seed S' deals) and narrates it as the rulebook would,
every Opposition decision citing its rule; --format jsonl writes one JSON
object per event instead. --load narrates a game saved by 'tallywood play'
as far as it was played.

--seats 2..4 plays the game without the Opposition as 'tallywood sim
--seats N --policy LINEUP' played deal --game in rotation --rotation: seat
s by lineup entry (s+rotation) mod N, the same Politicians, Initiative
tokens and policy streams.

flags:
`

func runTrace(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("trace")
	seed := fs.Uint64("seed", 1, seedUsage)
	game := fs.Uint64("game", 0, gameUsage)
	modeFlag := fs.String("mode", "normal", modeUsage)
	policyFlag := fs.String("policy", defaultPolicy, "player policy `SPEC`")
	politicianFlag := fs.String("politician", "random", politicianUsage)
	rulesFile := fs.String("rules", "", rulesFileUsage)
	format := fs.String("format", "text", "output `FORMAT`: text (rulebook narration) or jsonl")
	load := fs.String("load", "", "narrate the game saved by 'tallywood play' in `FILE`")
	trust := fs.Bool("trust-lineup", false, trustUsage)
	seats := fs.Int("seats", 1, seatsUsage)
	rotation := fs.Int("rotation", 0, "with --seats: the rotation `K` of the lineup (seat s played by entry (s+K) mod N)")
	chance := fs.Bool("chance", false, chanceUsage)
	chanceLevel := fs.String("chance-level", "", chanceLevelUsage)
	if code, done := parseFlags(fs, args, traceUsage, stdout, stderr); done {
		return code
	}
	if code, done := noArgs(fs, stderr); done {
		return code
	}
	if err := onlyWith(fs, "trust-lineup", "--load", *load != ""); err != nil {
		return fail(stderr, "trace: %v", err)
	}
	// Game numbers are those of a sim run, so below sim's most games.
	if *game >= sim.MaxGames {
		return fail(stderr, "trace: --game %d is outside 0..%d", *game, int64(sim.MaxGames-1))
	}
	*format = strings.ToLower(*format)
	if *format != "text" && *format != "jsonl" {
		return fail(stderr, "trace: --format %q is not text or jsonl", *format)
	}
	if *seats < 1 || *seats > engine.MaxSeats {
		return fail(stderr, "trace: --seats %d is outside 1..%d", *seats, engine.MaxSeats)
	}
	if err := onlyWith(fs, "chance-level", "--chance", *chance); err != nil {
		return fail(stderr, "trace: %v", err)
	}
	if *chance && (*load != "" || *seats > 1) {
		return fail(stderr, "trace: --chance follows a solo game trace plays, not --load or --seats")
	}
	if *seats == 1 && fs.Changed("rotation") && *load == "" {
		return fail(stderr, "trace: --rotation only matters with --seats 2..%d", engine.MaxSeats)
	}
	if *seats > 1 && *load == "" {
		for _, f := range []string{"mode", "politician"} {
			if fs.Changed(f) {
				return fail(stderr, "trace: --%s only matters with the solo game (--seats 1)", f)
			}
		}
		if *rotation < 0 || *rotation >= *seats {
			return fail(stderr, "trace: --rotation %d is outside 0..%d", *rotation, *seats-1)
		}
	}
	rules, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "trace: --rules: %v", err)
	}
	var g *engine.Game
	var events []engine.Event
	var header string
	// With --chance: the arc of the game, and the number of events before
	// each of its points.
	var arc *policy.Arc
	var marks []int
	if *load != "" {
		for _, f := range []string{"seed", "game", "mode", "policy", "politician", "seats", "rotation"} {
			if fs.Changed(f) {
				return fail(stderr, "trace: --%s cannot be used with --load: the save file holds the game", f)
			}
		}
		rec, err := play.ReadRecord(*load)
		if err != nil {
			return failInput(stderr, "trace: %v", err)
		}
		g, events, err = play.Replay(play.Config{Rules: rules, TrustLineup: *trust}, rec)
		if err != nil {
			return failInput(stderr, "trace: %s: %v", *load, err)
		}
		if rec.Seats != 0 {
			header = fmt.Sprintf("Saved game %s: game %d of seed %d (game seed %d): %d players, %s by a person in seat %d, policies %s in the others, rules %s\n",
				*load, rec.Game, rec.Seed, g.Seed, rec.Seats, kit.Count(len(rec.Decisions), "decision"), rec.Seat, strings.Join(rec.Lineup, ","), engine.ShortHash(rules.Hash))
		} else {
			header = fmt.Sprintf("Saved game %s: game %d of seed %d (game seed %d): %s, %s by a person, politician %s, rules %s\n",
				*load, rec.Game, rec.Seed, g.Seed, g.Mode, kit.Count(len(rec.Decisions), "decision"), rec.Politician, engine.ShortHash(rules.Hash))
		}
	} else if *seats > 1 {
		lineup, err := parseLineup(*policyFlag, *seats)
		if err != nil {
			return fail(stderr, "trace: %v", err)
		}
		if *seats > len(rules.Politicians) {
			return failInput(stderr, "trace: --seats %d: the rules have %d Politicians, one per player is needed", *seats, len(rules.Politicians))
		}
		gameSeed := deal.GameSeed(*seed, *game)
		log := &engine.Log{}
		p := sim.NewSeatsPlayer(lineup)
		defer p.Close()
		if err := p.Play(rules, gameSeed, *rotation, log); err != nil {
			return failRun(stderr, "trace: %v", err)
		}
		g, events = &p.Game, log.Events
		header = tableTraceHeader(g, *game, *seed, *rotation, lineup)
	} else {
		mode, err := parseMode("mode", *modeFlag)
		if err != nil {
			return fail(stderr, "trace: %v", err)
		}
		specs, err := parsePolicies("policy", *policyFlag)
		if err != nil {
			return fail(stderr, "trace: %v", err)
		}
		if len(specs) != 1 {
			return fail(stderr, "trace: --policy %q: one policy", *policyFlag)
		}
		pols, err := parsePoliticians(rules, "politician", *politicianFlag, false)
		if err != nil {
			return fail(stderr, "trace: %v", err)
		}
		gameSeed := deal.GameSeed(*seed, *game)
		log := &engine.Log{}
		g = new(engine.Game)
		pol := specs[0].New()
		defer policy.Close(pol)
		opp, err := script.For(rules) // checked when the rules were loaded
		if err != nil {
			return failInput(stderr, "trace: %v", err)
		}
		d := deal.Solo{Mode: mode, Politician: pols[0], Opposition: opp, Recorder: log}
		if *chance {
			c, err := winChance(specs[0], *chanceLevel)
			if err != nil {
				return fail(stderr, "trace: %v", err)
			}
			arc = policy.NewArc(c, 1)
			arc.Record = func(*engine.Game) { marks = append(marks, len(log.Events)) }
			arc.Start(g, gameSeed)
			d.Opposition = arc.Opposition(d.Opposition)
			err = policy.PlaySoloWatched(g, rules, gameSeed, d, pol, nil, arc)
			if err == nil {
				arc.End(g)
				fmt.Fprintln(stderr, policy.ShippedChance().Note(policy.PlayedRules(rules)))
			}
		} else {
			err = policy.PlaySolo(g, rules, gameSeed, d, pol, nil)
		}
		var undealt *policy.DealError
		switch {
		case errors.As(err, &undealt):
			fmt.Fprintf(stderr, "tallywood: trace: %v\n", err)
			return exitFailed
		case err != nil:
			fmt.Fprintf(stderr, "tallywood: trace: policy %s: %v\n", specs[0].Label, err)
			return exitFailed
		}
		events = log.Events
		header = fmt.Sprintf("Game %d of seed %d (game seed %d): %s, policy %s, politician %s, rules %s\n",
			*game, *seed, gameSeed, mode, specs[0].Label, rules.Politicians[g.Seats[0].Politician].ID, engine.ShortHash(rules.Hash))
	}
	// The win chance's lines, by the event they come before.
	before := map[int][]policy.TurnChance{}
	var last policy.TurnChance
	// by names the turn that made each change: the one whose start is
	// the chance before it. swings holds the lines that mark the biggest
	// changes, by the event they come before: the end of the block of
	// the turn that made it (the next header after its start; Round
	// Scoring and Clean Up, which its change includes, have their own).
	by := map[int]string{}
	swings := map[int][]string{}
	if arc != nil {
		tcs := policy.TurnChances(arc.Points, 3)
		for k, tc := range tcs {
			if k == 0 {
				continue
			}
			from := tcs[k-1]
			by[tc.Point] = turnWho(arc.Points[from.Point].Kind)
			if tc.Swing > 0 {
				end := marks[from.Point]
				for end < len(events) && !events[end].Kind.Header() {
					end++
				}
				swings[end] = append(swings[end], swingLine(tc.Swing, from.Chance, tc.Chance))
			}
		}
		for _, tc := range tcs[:len(tcs)-1] {
			before[marks[tc.Point]] = append(before[marks[tc.Point]], tc)
		}
		last = tcs[len(tcs)-1]
	}
	var b bytes.Buffer
	if *format == "jsonl" {
		for i, e := range events {
			for _, tc := range before[i] {
				b.Write(chanceJSON(arc.Points[tc.Point].Round, arc.Chance.Level, tc))
				b.WriteByte('\n')
			}
			b.Write(rules.EventJSON(e))
			b.WriteByte('\n')
		}
		if arc != nil {
			b.Write(chanceJSON(g.Round, arc.Chance.Level, last))
			b.WriteByte('\n')
		}
	} else {
		var n strings.Builder
		n.WriteString(header)
		for i, e := range events {
			for _, l := range swings[i] {
				n.WriteString(l + "\n")
			}
			for _, tc := range before[i] {
				n.WriteString(chanceLine(arc.Chance.Level, tc, by[tc.Point]) + "\n")
			}
			n.WriteString(rules.Narrate([]engine.Event{e}))
		}
		for _, l := range swings[len(events)] {
			n.WriteString(l + "\n")
		}
		n.WriteString(outcomeLine(g) + "\n")
		if arc != nil {
			fmt.Fprintf(&n, "Your win chance at the end: %.0f%%, %s over %s.\n", 100*last.Chance, changeText(last.Change), by[last.Point])
		}
		b.WriteString(wrapLines(n.String()))
	}
	if _, err := stdout.Write(b.Bytes()); err != nil {
		return exitFailed // run reports a failed write to stdout
	}
	return exitOK
}

// traceWidth is the most characters a line of the narration takes: a
// rule's explanation runs to 190, wider than a terminal.
const traceWidth = 100

// wrapLines breaks the lines of text longer than traceWidth at spaces;
// a line's continuations are indented four more than it, so that an event
// stays one block.
func wrapLines(text string) string {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		indent := body[:len(body)-len(strings.TrimLeft(body, " "))]
		lines[i] = play.Wrap(body, traceWidth, indent+"    ") + l[len(body):]
	}
	return strings.Join(lines, "")
}

// outcomeLine ends the narration: who won and by how much, or, for a saved
// game not played to the end, where it stops.
func outcomeLine(g *engine.Game) string {
	if !g.Over() {
		if g.Phase == engine.PhaseStrategy {
			return fmt.Sprintf("The save stops at round %d, turn %d: the game is not over.", g.Round+1, g.Turn+1)
		}
		return fmt.Sprintf("The save stops after round %d: the game is not over.", g.Round+1)
	}
	if !g.IsSolo() {
		return play.TableOutcome(g)
	}
	return outcomeWords(g.Result.Margin())
}

// tableTraceHeader opens the narration of a table game: the deal, and for
// every seat its policy, Politician and starting Initiative token.
func tableTraceHeader(g *engine.Game, game, seed uint64, rotation int, lineup []policy.Spec) string {
	r := g.Rules()
	var b strings.Builder
	fmt.Fprintf(&b, "Game %d of seed %d (game seed %d): %d players, rotation %d, rules %s\n",
		game, seed, g.Seed, g.NSeats, rotation, engine.ShortHash(r.Hash))
	first := engine.TableInitiative(g.Seed, int(g.NSeats))
	for s := range g.NSeats {
		token := 0
		for i, o := range first[:g.NSeats] {
			if o == s {
				token = i + 1
			}
		}
		fmt.Fprintf(&b, "  %s: policy %s, politician %s, Initiative %d\n", engine.TableSeatName(s),
			lineup[(int(s)+rotation)%len(lineup)].Label, r.Politicians[g.Seats[s].Politician].ID, token)
	}
	return b.String()
}

// outcomeWords words a finished game's margin (your votes minus the
// Opposition's).
func outcomeWords(margin int) string {
	switch {
	case margin > 0:
		return fmt.Sprintf("Outcome: you won by %s.", kit.Count(margin, "vote"))
	case margin < 0:
		return fmt.Sprintf("Outcome: you lost by %s.", kit.Count(-margin, "vote"))
	}
	return "Outcome: a draw (equal votes)."
}
