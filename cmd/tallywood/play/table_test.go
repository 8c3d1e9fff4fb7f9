package play

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/policy"
)

// tableConfig is a game without the Opposition: the person in seat (0-based)
// and the policies of lineup in the other seats.
func tableConfig(t *testing.T, seed uint64, seats int, seat int8, lineup ...string) Config {
	t.Helper()
	cfg := Config{Rules: engine.Reference(), Seed: seed, Seats: seats, Seat: seat, Echo: true, Write: writeFile}
	for _, l := range lineup {
		spec, err := policy.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Lineup = append(cfg.Lineup, spec)
	}
	return cfg
}

func newTableSession(t *testing.T, cfg Config) *Session {
	t.Helper()
	s := newSession(t, cfg)
	t.Cleanup(s.Close)
	return s
}

// TestTableWholeGame plays whole games of three and four players through
// the input stream, the person in a middle seat: the game ends with every
// seat's result (rulebook Final Tally), no line is wider than the
// terminal, the solo game's words do not appear, and the record replays
// to the very same game.
func TestTableWholeGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		seed   uint64
		seats  int
		seat   int8
		lineup []string
		color  bool
	}{
		{"2 players, seat 1", 7, 2, 0, []string{"greedy"}, false},
		{"3 players, seat 2", 5, 3, 1, []string{"greedy", "random"}, false},
		{"4 players, seat 4, colour", 6, 4, 3, []string{"random", "pollster", "builder"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tableConfig(t, tc.seed, tc.seats, tc.seat, tc.lineup...)
			cfg.Color = tc.color
			s := newTableSession(t, cfg)
			end, out := run(t, s, randomScript(tc.seed, 6000))
			if end != Finished || !s.g.Over() {
				t.Fatalf("end = %v, want finished; tail:\n%s", end, tail(out, 20))
			}
			checkWidth(t, out)
			plain := out
			if tc.color {
				plain = stripANSI(out)
			}
			for seat := range s.g.NSeats {
				res := fmt.Sprintf("Result: %s, %s, %s place", engine.TableSeatName(seat),
					kit.Count(int(s.g.Result.Total[seat]), "vote"), engine.Ordinal(int(s.g.Result.Place[seat])))
				if !strings.Contains(plain, res) {
					t.Errorf("output lacks %q", res)
				}
			}
			if !strings.HasSuffix(plain, "\n"+Wrap(TableOutcome(s.g), Width, "    ")+"\n") {
				t.Errorf("the output does not end with the outcome %q:\n%s", TableOutcome(s.g), tail(plain, 5))
			}
			for _, bad := range []string{"Opposition", "pays nothing", "The engine refused"} {
				if strings.Contains(plain, bad) {
					t.Errorf("output contains %q", bad)
				}
			}
			// The other seats' draws and discards are hidden (Clean Up 4,
			// 7); the person's are not.
			others := regexp.MustCompile(`Seat [^` + fmt.Sprint(tc.seat+1) + `]: (draw|discard) [A-Z][A-Z]-[0-9]`)
			if m := others.FindString(plain); m != "" {
				t.Errorf("another seat's card shown: %q", m)
			}
			mine := regexp.MustCompile(fmt.Sprintf(`Seat %d: draw [A-Z][A-Z]-[0-9]`, tc.seat+1))
			if !mine.MatchString(plain) || !strings.Contains(plain, ": draw a card from the ") {
				t.Error("the person's draws not shown, or the others' not narrated")
			}
			// Clean Up 6; with two players the tokens swap with no
			// decision (I-20), narrated too.
			if n := strings.Count(plain, "exchanges the Initiative 1 token for"); n < 3 {
				t.Errorf("%d Initiative exchanges narrated, want one per Clean Up", n)
			}
			rec := s.Record()
			r2, err := Resume(cfg, &rec)
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			defer r2.Close()
			if stripped(r2.g) != stripped(s.g) {
				t.Error("replaying the record gives another game")
			}
		})
	}
}

// stripANSI removes colour codes.
func stripANSI(s string) string {
	var b strings.Builder
	esc := false
	for _, c := range s {
		switch {
		case esc:
			esc = c != 'm'
		case c == '\x1b':
			esc = true
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// TestTableBoardHidesHands checks that the board shows only the person's
// hand: no card in another seat's hand appears on it, every card of the
// person's does, and each other seat's hand size is shown.
func TestTableBoardHidesHands(t *testing.T) {
	s := newTableSession(t, tableConfig(t, 8, 4, 2, "greedy", "greedy", "random"))
	board := s.board()
	r := s.g.Rules()
	for seat := range s.g.NSeats {
		st := &s.g.Seats[seat]
		for _, c := range st.Hand[:st.NHand] {
			if shown := strings.Contains(board, r.Cards[c].ID); shown != (seat == s.me) {
				t.Errorf("%s's card %s on the board: %v", engine.TableSeatName(seat), r.Cards[c].ID, shown)
			}
		}
		if seat != s.me && !strings.Contains(board, fmt.Sprintf("%s greedy", engine.TableSeatName(seat))) && !strings.Contains(board, engine.TableSeatName(seat)+" random") {
			t.Errorf("no line for %s:\n%s", engine.TableSeatName(seat), board)
		}
	}
	if !strings.Contains(board, fmt.Sprintf("hand %d", s.g.Seats[0].NHand)) {
		t.Errorf("no hand size of the other seats:\n%s", board)
	}
	checkWidth(t, board)
}

// TestTableExchange plays to a Clean Up where the person holds the
// Initiative 1 token and must choose whom to exchange it with (Clean Up 6):
// the menu offers every other seat, and the choice gives that seat the 1.
func TestTableExchange(t *testing.T) {
	s := newTableSession(t, tableConfig(t, 3, 3, 0, "greedy", "greedy"))
	playUntil(t, s, func(o engine.Option) bool { return o.Kind == engine.OptExchange })
	legal := s.g.Legal(s.buf[:0])
	menu := s.menu(legal, s.number(legal))
	for _, want := range []string{"Clean Up 6: exchange your Initiative 1 token with another player's",
		" 1) exchange the Initiative 1 token with Seat 2 (Initiative ", " 2) exchange the Initiative 1 token with Seat 3 (Initiative "} {
		if !strings.Contains(menu, want) {
			t.Errorf("menu lacks %q:\n%s", want, menu)
		}
	}
	took := s.g.Initiative(2)
	_, out := run(t, s, "2\nq\ny\n")
	if s.g.Order[0] != 2 || s.g.Initiative(0) != took {
		t.Errorf("after choosing Seat 3: order %v, want Seat 3 first and Seat 1 with its token %d", s.g.Order, took)
	}
	want := fmt.Sprintf("Seat 1 exchanges the Initiative 1 token for Seat 3's %d: Seat 3 goes first (Clean Up 6)", took)
	if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("narration lacks %q:\n%s", want, out[strings.Index(out, "Your choice"):])
	}
}

// TestTableSaveLoad saves a table game part way, resumes it from the file
// and checks that the continuation is the uninterrupted game's, transcript
// and final state: the policies' streams are replayed too. The script
// undoes often, so an undo past the other players' decisions (which would
// leave their streams ahead of the record) would show.
func TestTableSaveLoad(t *testing.T) {
	var script strings.Builder
	for i, l := range strings.SplitAfter(randomScript(12, 5000), "\n") {
		script.WriteString(l)
		if i%5 == 4 {
			script.WriteString("u\n")
		}
	}
	for _, cut := range []int{0, 60, 400} {
		t.Run(fmt.Sprint("after line ", cut), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.json")
			lines := strings.SplitAfter(script.String(), "\n")
			before, after := strings.Join(lines[:cut], ""), strings.Join(lines[cut:], "")
			cfg := tableConfig(t, 12, 3, 2, "random", "greedy")
			whole := newTableSession(t, cfg)
			end, out1 := run(t, whole, before+"s "+path+"\n"+after)
			if end != Finished {
				t.Fatalf("uninterrupted game: %v", end)
			}
			saved := strings.Index(out1, "Saved ")
			if saved < 0 {
				t.Fatal("no save message")
			}
			other := tableConfig(t, 999, 2, 0, "mcts") // the file holds seed, seats, seat and lineup
			resumed, err := LoadFile(other, path)
			if err != nil {
				t.Fatal(err)
			}
			defer resumed.Close()
			checkResumed(t, whole, resumed, out1, after, "Resumed the saved game: seed 12, 3 players, you in seat 3")
		})
	}
}

// TestTableRecordEdited checks that an edit of a table save file's seats,
// seat or lineup is refused, naming the fields, and that a file whose
// table fields do not fit is refused before its check.
func TestTableRecordEdited(t *testing.T) {
	s := newTableSession(t, tableConfig(t, 13, 3, 1, "greedy", "random"))
	run(t, s, "1\n1\n1\n")
	good := string(s.Record().Marshal())
	if _, err := ParseRecord([]byte(good)); err != nil {
		t.Fatalf("the unedited file: %v\n%s", err, good)
	}
	const tail = " does not match the check saved with it: the file was edited or damaged, and a saved game cannot be changed by hand"
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"seat", `"seat": 2,`, `"seat": 3,`, `play: save file: seats, seat or lineup (seats 3, seat 3, lineup "greedy,random")` + tail},
		{"lineup", `"lineup": ["greedy","random"]`, `"lineup": ["random","greedy"]`, `play: save file: seats, seat or lineup (seats 3, seat 2, lineup "random,greedy")` + tail},
		{"seats", `"seats": 3,`, `"seats": 4,`, `play: save file: lineup has 2 policies for the 3 other seats`},
		{"seat outside", `"seat": 2,`, `"seat": 4,`, `play: save file: seat 4 is not one of the 3 seats`},
		{"mode", `"seed": 13,`, `"seed": 13, "mode": "hard",`, `play: save file: mode "hard" in a game without the Opposition`},
		// The lineup is parsed only once trusted, when the game resumes.
		{"unknown policy", `"lineup": ["greedy","random"]`, `"lineup": ["greedy","nobody"]`, `play: save file: seats, seat or lineup (seats 3, seat 2, lineup "greedy,nobody")` + tail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.from) {
				t.Fatalf("the file lacks %s:\n%s", tc.from, good)
			}
			_, err := ParseRecord([]byte(strings.Replace(good, tc.from, tc.to, 1)))
			// The list of known policies depends on what is registered.
			if err == nil || err.Error() != tc.want && !(strings.HasSuffix(tc.want, "(known: ") && strings.HasPrefix(err.Error(), tc.want)) {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}
