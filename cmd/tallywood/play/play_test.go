package play

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/opposition"
)

// testConfig is a session against the real Opposition, echoing input so
// that transcripts read like terminal sessions.
func testConfig(seed uint64, mode engine.Mode, pol int) Config {
	return Config{Rules: engine.Reference(), Seed: seed, Mode: mode, Politician: pol, Opposition: opposition.Solo{}, Echo: true, Write: writeFile}
}

// writeFile stands for the command's writer of save files.
func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }

func newSession(t *testing.T, cfg Config) *Session {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run plays script through s and returns how it ended and what it wrote.
func run(t *testing.T, s *Session, script string) (End, string) {
	t.Helper()
	var out strings.Builder
	end, err := s.Run(strings.NewReader(script), &out)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return end, out.String()
}

// randomScript writes n input lines: numbers from a seeded stream, mostly
// 1..4 and sometimes up to 40 (Step 5 keeps its numbers, so after a few
// actions the low ones may be gone), so most are options and some are not
// (they are re-asked), mixed with help, board and hint requests.
func randomScript(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for range n {
		switch x := rng.IntN(40); {
		case x == 0:
			b.WriteString("?\n")
		case x == 1:
			b.WriteString("b\n")
		case x == 2:
			b.WriteString("h\n")
		case x >= 30:
			fmt.Fprintf(&b, "%d\n", 1+rng.IntN(40))
		default:
			fmt.Fprintf(&b, "%d\n", 1+x%4)
		}
	}
	return b.String()
}

// checkWidth fails on any output line wider than the terminal.
func checkWidth(t *testing.T, out string) {
	t.Helper()
	for i, l := range strings.Split(out, "\n") {
		if w := visible(l); w > Width {
			t.Fatalf("line %d is %d columns wide (max %d):\n%s", i+1, w, Width, l)
		}
	}
}

// stripped returns a clone of g without its recorder, for comparing games.
func stripped(g *engine.Game) engine.Game {
	c := *g
	c.SetRecorder(nil)
	return c
}

// TestWholeGame plays whole games through the input stream and checks the
// end: the Final Tally laid out, the result stated, every line within 80
// columns, and the record replaying to the very same game.
func TestWholeGame(t *testing.T) {
	tests := []struct {
		name  string
		seed  uint64
		mode  engine.Mode
		pol   int
		color bool
	}{
		{"normal moderate", 1, engine.Normal, 2, false},
		{"hard magnate", 2, engine.Hard, 0, false},
		{"normal populist colour", 3, engine.Normal, 5, true},
		{"hard starlet colour", 4, engine.Hard, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(tc.seed, tc.mode, tc.pol)
			cfg.Color = tc.color
			s := newSession(t, cfg)
			end, out := run(t, s, randomScript(tc.seed, 4000))
			if end != Finished {
				t.Fatalf("end = %v, want finished; tail:\n%s", end, tail(out, 20))
			}
			if !s.g.Over() {
				t.Fatal("the game is not over")
			}
			checkWidth(t, out)
			if got := strings.Contains(out, "\x1b["); got != tc.color {
				t.Errorf("colour codes in output: %v, want %v", got, tc.color)
			}
			res := s.g.Result
			for _, want := range []string{"FINAL TALLY", "3.a Initial Support", "votes per share", "Result: ",
				fmt.Sprintf("%d", res.Total[0]), fmt.Sprintf("%d", res.Total[1])} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q", want)
				}
			}
			if strings.Contains(out, "The engine refused") {
				t.Error("the engine refused an option the menu offered")
			}
			rec := s.Record()
			r2, err := Resume(cfg, &rec)
			if err != nil {
				t.Fatalf("Resume: %v", err)
			}
			if stripped(r2.g) != stripped(s.g) {
				t.Error("replaying the record gives another game")
			}
		})
	}
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestInvalidInput checks that input that is not an option is re-asked
// with a reason and changes nothing.
func TestInvalidInput(t *testing.T) {
	tests := []struct {
		input string
		want  string
	}{
		{"0", "There is no option 0: choose 1-4."},
		{"99", "There is no option 99: choose 1-4."},
		{"-1", "There is no option -1"},
		{"abc", `"abc" is not an option or a command`},
		{"", "Type the number of an option (1-4)"},
		{"1 2", "One choice at a time"},
		{"u", "Nothing to undo: no decision yet this turn."},
		{"?", "Step 1: select a Strategy card"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%q", tc.input), func(t *testing.T) {
			s := newSession(t, testConfig(5, engine.Normal, 2))
			before := stripped(s.g)
			end, out := run(t, s, tc.input+"\n")
			if end != EndOfInput {
				t.Errorf("end = %v, want end of input", end)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q; tail:\n%s", tc.want, tail(out, 8))
			}
			if len(s.rec.Decisions) != 0 || stripped(s.g) != before {
				t.Error("invalid input changed the game")
			}
			if n := strings.Count(out, "Your choice ["); n != 2 {
				t.Errorf("prompted %d times, want 2 (ask, re-ask)", n)
			}
		})
	}
}

// TestEndOfInput checks that the session ends cleanly wherever the input
// runs out, and says so.
func TestEndOfInput(t *testing.T) {
	tests := []struct {
		name, script string
		mode         engine.Mode
		decisions    int
	}{
		{"empty input", "", engine.Normal, 0},
		{"mid turn", "1\n1\n", engine.Normal, 2},
		{"no final newline", "1\n1", engine.Normal, 2},
		// Hard: the Opposition opens, so the input ends at a pause.
		{"at a pause", "\n", engine.Hard, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(6, tc.mode, 2)
			cfg.Pause = true
			s := newSession(t, cfg)
			end, out := run(t, s, tc.script)
			if end != EndOfInput {
				t.Fatalf("end = %v, want end of input", end)
			}
			if !strings.Contains(out, "End of input: the game stops at round 1") || !strings.Contains(out, "It was not saved.") {
				t.Errorf("no end-of-input message; tail:\n%s", tail(out, 5))
			}
			if got := len(s.rec.Decisions); got < tc.decisions {
				t.Errorf("%d decisions made, want at least %d", got, tc.decisions)
			}
		})
	}
}

func TestQuit(t *testing.T) {
	s := newSession(t, testConfig(7, engine.Normal, 2))
	end, out := run(t, s, "1\nq\nn\nq\ny\n1\n")
	if end != Quit {
		t.Fatalf("end = %v, want quit", end)
	}
	ask := "Quit and lose 1 decision not saved? Type y to quit, anything else to go on (s saves): "
	if strings.Count(out, ask) != 2 || !strings.Contains(out, ask+"n\nNot quitting.\n") {
		t.Errorf("q did not ask twice before quitting; tail:\n%s", tail(out, 8))
	}
	if !strings.Contains(out, "Quit at round 1, turn 1 after 1 decision. It was not saved.") {
		t.Errorf("no quit message; tail:\n%s", tail(out, 4))
	}
	if len(s.rec.Decisions) != 1 {
		t.Errorf("%d decisions, want 1: input after q must not be read", len(s.rec.Decisions))
	}
}

// TestQuitAsksWhileUnderWay checks that q asks before it ends a game under
// way even when nothing would be lost: at the start and right after a save.
func TestQuitAsksWhileUnderWay(t *testing.T) {
	save := filepath.Join(t.TempDir(), "game.json")
	tests := []struct{ name, script, ask string }{
		{"at the start", "q\nn\nq\ny\n", "Quit the game at its start? Type y to quit, anything else to go on: "},
		{"saved", "1\ns " + save + "\nq\nn\nq\ny\n", "Quit? The game is saved. Type y to quit, anything else to go on: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, testConfig(7, engine.Normal, 2))
			end, out := run(t, s, tc.script)
			if end != Quit {
				t.Fatalf("end = %v, want quit", end)
			}
			if strings.Count(out, tc.ask) != 2 || !strings.Contains(out, tc.ask+"n\nNot quitting.\n") {
				t.Errorf("q did not ask %q twice before quitting; tail:\n%s", tc.ask, tail(out, 8))
			}
		})
	}
}

// playUntil applies the first legal option until want finds one in the
// pending decision, and returns its menu number.
func playUntil(t *testing.T, s *Session, want func(o engine.Option) bool) int {
	t.Helper()
	for range 2000 {
		if s.g.Over() {
			break
		}
		legal := s.g.Legal(s.buf[:0])
		for i, o := range legal {
			if want(o) {
				s.narrated = len(s.log.Events)
				return i + 1
			}
		}
		if err := s.apply(legal[0]); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no such option came up")
	return 0
}

// TestUndo checks undo within the turn and its limits.
func TestUndo(t *testing.T) {
	kind := func(k engine.OptionKind) func(engine.Option) bool {
		return func(o engine.Option) bool { return o.Kind == k }
	}
	tests := []struct {
		name   string
		reach  func(engine.Option) bool // play first options until this is offered
		script string                   // then this
		undone int                      // decisions taken back
		want   string
	}{
		{"card", kind(engine.OptCard), "1\nu\n", 1, "Undone: play "},
		{"card and column", kind(engine.OptCard), "1\n2\nu\nu\n", 2, "Undone: column 2"},
		{"nothing at turn start", kind(engine.OptCard), "u\n", 0, "Nothing to undo: no decision yet this turn."},
		{"not past a flip", kind(engine.OptResearch), "RESEARCH\nu\n", 0, "Nothing to undo: the flip showed a hidden tile."},
		{"not past the turn", kind(engine.OptSpot), "1\nu\n", 0, "Nothing to undo: "},
		{"not past a draw", kind(engine.OptDraw), "1\nu\n", 0, "Nothing to undo: you drew a card."},
		{"back to the card", kind(engine.OptCard), "1\n1\n1\n1\nu\nu\nu\nu\n", 4, "Undone: play "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSession(t, testConfig(8, engine.Normal, 2))
			n := playUntil(t, s, tc.reach)
			start := stripped(s.g)
			startDecisions := len(s.rec.Decisions)
			script := strings.Replace(tc.script, "RESEARCH", fmt.Sprint(n), 1)
			_, out := run(t, s, script)
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q; tail:\n%s", tc.want, tail(out, 6))
			}
			steps := strings.Count(script, "\n") - strings.Count(script, "u\n")
			if got := len(s.rec.Decisions) - startDecisions; got != steps-tc.undone {
				t.Errorf("%d decisions kept, want %d", got, steps-tc.undone)
			}
			if tc.undone == steps && stripped(s.g) != start {
				t.Error("undoing every decision did not restore the game")
			}
		})
	}
}

// TestUndoRestoresExactly checks that an undone decision, made again,
// gives the same game as making it once.
func TestUndoRestoresExactly(t *testing.T) {
	a := newSession(t, testConfig(9, engine.Hard, 3))
	run(t, a, "1\n1\n1\n1\n")
	b := newSession(t, testConfig(9, engine.Hard, 3))
	run(t, b, "1\n1\n2\nu\n1\nu\n1\n1\n")
	if stripped(a.g) != stripped(b.g) {
		t.Error("undo and redo differ from playing straight")
	}
	if fmt.Sprint(a.Record()) != fmt.Sprint(b.Record()) {
		t.Errorf("records differ:\n%v\n%v", a.Record(), b.Record())
	}
}

// TestSaveLoad saves part-way, resumes from the file and checks the
// continuation is identical to the uninterrupted game, output included.
func TestSaveLoad(t *testing.T) {
	for _, cut := range []int{0, 3, 40, 130} {
		t.Run(fmt.Sprint("after line ", cut), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.json")
			lines := strings.SplitAfter(randomScript(11, 3000), "\n")
			before, after := strings.Join(lines[:cut], ""), strings.Join(lines[cut:], "")
			cfg := testConfig(11, engine.Normal, 4)

			whole := newSession(t, cfg)
			end, out1 := run(t, whole, before+"s "+path+"\n"+after)
			if end != Finished {
				t.Fatalf("uninterrupted game: %v", end)
			}
			saved := strings.Index(out1, "Saved ")
			if saved < 0 {
				t.Fatalf("no save message")
			}
			cfg.Seed, cfg.Politician = 999, 0 // the file holds them
			resumed, err := LoadFile(cfg, path)
			if err != nil {
				t.Fatal(err)
			}
			checkResumed(t, whole, resumed, out1, after, "Resumed the saved game: seed 11")
		})
	}
}

// checkResumed plays the rest of the script in the resumed session and
// checks that it ends as the uninterrupted game did, with the same
// transcript from the first prompt after the save, and that it opened with
// banner.
func checkResumed(t *testing.T, whole, resumed *Session, out1, after, banner string) {
	t.Helper()
	end, out2 := run(t, resumed, after)
	if end != Finished {
		t.Fatalf("resumed game: %v", end)
	}
	if stripped(resumed.g) != stripped(whole.g) {
		t.Error("the resumed game ended in another state")
	}
	// The uninterrupted game re-prompts after saving; the resumed
	// one shows the board first. From the first answer on, the
	// two transcripts must be the same.
	cont1 := out1[strings.Index(out1, "Saved "):]
	cont1 = cont1[strings.Index(cont1, "Your choice ["):]
	cont2 := out2[strings.Index(out2, "Your choice ["):]
	if cont1 != cont2 {
		t.Errorf("continuations differ:\n--- uninterrupted ---\n%s\n--- resumed ---\n%s", head(cont1, 30), head(cont2, 30))
	}
	if !strings.Contains(out2, banner) {
		t.Errorf("no resume banner:\n%s", head(out2, 3))
	}
}

func head(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestLoadOtherRules checks a save file made under other rules is refused
// with a message that says so.
func TestLoadOtherRules(t *testing.T) {
	s := newSession(t, testConfig(12, engine.Normal, 2))
	run(t, s, "1\n1\n")
	rec := s.Record()
	data := strings.Replace(string(engine.ReferenceJSON()), `"campaign_polling": 2`, `"campaign_polling": 3`, 1)
	other, err := engine.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(12, engine.Normal, 2)
	cfg.Rules = other
	_, err = Resume(cfg, &rec)
	if !errors.Is(err, ErrOtherRules) {
		t.Fatalf("Resume under other rules: %v, want ErrOtherRules", err)
	}
	for _, want := range []string{"other rules", engine.ShortHash(engine.Reference().Hash), engine.ShortHash(other.Hash), "--rules"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestLoadDamaged checks that a record whose decisions do not fit the game
// is refused, not half played.
func TestLoadDamaged(t *testing.T) {
	good := newSession(t, testConfig(13, engine.Normal, 2))
	run(t, good, "1\n1\n1\n")
	tests := []struct {
		name string
		edit func(r *Record)
		want string
	}{
		{"illegal decision", func(r *Record) { r.Decisions[1] = Decision{Opt: "column", A: 9} }, "decisions[1]"},
		{"wrong kind", func(r *Record) { r.Decisions[0] = Decision{Opt: "end"} }, "decisions[0]"},
		{"unknown politician", func(r *Record) { r.Politician = "mayor" }, `politician "mayor"`},
		{"bad mode", func(r *Record) { r.Mode = "easy" }, `mode "easy"`},
		{"unknown option kind", func(r *Record) { r.Decisions[2].Opt = "teleport" }, `decisions[2]: "teleport"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := good.Record()
			tc.edit(&rec)
			_, err := Resume(testConfig(0, 0, 0), &rec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Resume: %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

// TestLoadEditedField checks that an edit of any field of a save file is
// refused, naming the field: another mode or politician
// would otherwise replay as a different game.
func TestLoadEditedField(t *testing.T) {
	s := newSession(t, testConfig(13, engine.Normal, 2))
	run(t, s, "1\n1\n1\n")
	good := string(s.Record().Marshal())
	if _, err := ParseRecord([]byte(good)); err != nil {
		t.Fatalf("the unedited file: %v", err)
	}
	const tail = " does not match the check saved with it: the file was edited or damaged, and a saved game cannot be changed by hand"
	hash := engine.Reference().Hash
	tests := []struct {
		name, from, to, want string
	}{
		{"mode", `"mode": "normal"`, `"mode": "hard"`, `play: save file: mode "hard"` + tail},
		{"seed", `"seed": 13,`, `"seed": 14,`, `play: save file: seed 14` + tail},
		{"politician", `"politician": "moderate",`, `"politician": "magnate",`, `play: save file: politician "magnate"` + tail},
		{"rules_version", `"rules_version": "reference-set 1`, `"rules_version": "reference-set 2`, `play: save file: rules_version "reference-set 2 (reconstruction, not the printed components)"` + tail},
		{"rules_hash", `"rules_hash": "` + hash, `"rules_hash": "` + strings.Repeat("0", 64), `play: save file: rules_hash "` + strings.Repeat("0", 64) + `"` + tail},
		{"decisions", `{"opt":"row"}`, `{"opt":"row","a":1}`, `play: save file: decisions (3)` + tail},
		{"decision removed", `,
    {"opt":"row"}`, ``, `play: save file: decisions (2)` + tail},
		{"no check", `"check": {`, `"x": {`, `play: save file: json: unknown field "x"`},
		// Every string of a save is checked for what it may be.
		{"politician bidi", `"politician": "moderate",`, `"politician": "mod\u202eerate",`, `play: save file: politician: "mod\u202eerate" holds U+202E, a control or hidden character`},
		{"rules_version newline", `"rules_version": "reference-set 1`, `"rules_version": "reference-set\n1`, `play: save file: rules_version: "reference-set\n1 (reconstruction, not the printed components)" holds U+000A, a control or hidden character`},
		{"format 1", `"tallywood-play 2"`, `"tallywood-play 1"`, `play: save file: format "tallywood-play 1" is from an earlier version of tallywood, whose seeds dealt other games; it cannot be resumed`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.from) {
				t.Fatalf("the file lacks %s:\n%s", tc.from, good)
			}
			_, err := ParseRecord([]byte(strings.Replace(good, tc.from, tc.to, 1)))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	empty := strings.Replace(good, good[strings.Index(good, `  "check"`):strings.Index(good, `  "decisions"`)], "", 1)
	if _, err := ParseRecord([]byte(empty)); err == nil || err.Error() != "play: save file: check missing: the file was not written by tallywood play" {
		t.Errorf("without a check: %v", err)
	}
}

// TestSaveCommand checks `s` with and without a file name.
func TestSaveCommand(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, savePath, script, want, file string
	}{
		{"named", "", "1\ns " + filepath.Join(dir, "a.json") + "\n", "Saved 1 decision to ", "a.json"},
		{"default", filepath.Join(dir, "b.json"), "1\n1\ns\n", "Saved 2 decisions to ", "b.json"},
		{"nowhere", "", "s\n", "Save where? Type s FILE.", ""},
		{"bad directory", "", "s " + filepath.Join(dir, "no", "such", "c.json") + "\n", "Could not save:", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(14, engine.Normal, 2)
			cfg.SavePath = tc.savePath
			s := newSession(t, cfg)
			_, out := run(t, s, tc.script)
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q; tail:\n%s", tc.want, tail(out, 4))
			}
			if tc.file == "" {
				return
			}
			data, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := ParseRecord(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Record(); fmt.Sprint(*rec) != fmt.Sprint(got) {
				t.Errorf("file holds %v, want %v", *rec, got)
			}
			if !strings.Contains(out, "It is saved.") {
				t.Errorf("end message does not say the game is saved")
			}
		})
	}
}

// TestPause checks the step-by-step narration of the Opposition's turn.
func TestPause(t *testing.T) {
	// Hard mode: the Opposition opens round 1, so its turn is narrated
	// before the first decision.
	tests := []struct {
		name, script string
		end          End
		minPauses    int
		maxPauses    int
	}{
		{"enter each step", strings.Repeat("\n", 30) + "q\n", Quit, 3, 30},
		{"all at once", "a\nq\n", Quit, 1, 1},
		{"quit at a pause", "\nq\n", Quit, 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(15, engine.Hard, 2)
			cfg.Pause = true
			s := newSession(t, cfg)
			end, out := run(t, s, tc.script)
			if end != tc.end {
				t.Errorf("end = %v, want %v", end, tc.end)
			}
			n := strings.Count(out, "Enter: next step")
			if n < tc.minPauses || n > tc.maxPauses {
				t.Errorf("%d pauses, want %d..%d:\n%s", n, tc.minPauses, tc.maxPauses, head(out, 30))
			}
			flip, pause := strings.Index(out, "Opposition flips S-"), strings.Index(out, "Enter: next step")
			if flip < 0 || flip > pause {
				t.Errorf("the first step (the Solo card flip) is not shown before the first pause:\n%s", head(out, 12))
			}
		})
	}
}

type fakeHinter struct {
	pick   int
	margin float64
	err    error
}

func (f fakeHinter) Hint(g *engine.Game, legal []engine.Option) (Hint, error) {
	if f.err != nil {
		return Hint{}, f.err
	}
	if g.Recording() {
		return Hint{}, errors.New("the hinter got the live recorder")
	}
	return Hint{Policy: "fake", Option: legal[f.pick], Margin: f.margin, HasMargin: true}, nil
}

func TestHint(t *testing.T) {
	tests := []struct {
		name   string
		hinter Hinter
		want   string
	}{
		{"fake", fakeHinter{pick: 1, margin: -3.25}, "Hint: fake would choose 2) play "},
		{"fake margin", fakeHinter{pick: 0, margin: 4}, "estimated margin (your votes minus the Opposition's): +4.0"},
		{"failing", fakeHinter{err: errors.New("thinking hurts")}, "No hint available: thinking hurts"},
		{"unknown policy", PolicyHinter{Spec: "no-such-policy"}, "No hint available: "},
		{"greedy", nil, "Hint: greedy would choose "},
		{"greedy's typical error", nil, "give or take 13 votes (its typical error at this point of the game)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(16, engine.Normal, 2)
			cfg.Hinter = tc.hinter
			s := newSession(t, cfg)
			before := stripped(s.g)
			_, out := run(t, s, "h\n")
			if !strings.Contains(out, tc.want) {
				t.Errorf("output lacks %q; tail:\n%s", tc.want, tail(out, 4))
			}
			if stripped(s.g) != before {
				t.Error("the hint changed the game")
			}
		})
	}
}

// TestBoardFitsScreen plays random games and checks every screen (board,
// menu, prompt) fits 80 columns, and nearly every one 40 lines: only the
// rare menus with dozens of options (a Direct Appeal table, an attract
// ability and Favors at once) may scroll the top of the board away.
func TestBoardFitsScreen(t *testing.T) {
	for _, color := range []bool{false, true} {
		screens, tall := 0, 0
		for seed := uint64(20); seed < 60; seed++ {
			cfg := testConfig(seed, engine.Mode(seed%2), int(seed%6))
			cfg.Color = color
			s := newSession(t, cfg)
			rng := rand.New(rand.NewPCG(seed, 3))
			for !s.g.Over() {
				legal := s.g.Legal(s.buf[:0])
				nums := s.number(legal)
				screen := s.board() + s.menu(legal, nums) + s.prompt(nums)
				checkWidth(t, screen)
				screens++
				n := strings.Count(screen, "\n") + 1
				if n > 40 {
					tall++
				}
				if n > 40 && len(legal) <= 8 {
					t.Errorf("seed %d: board and a menu of %d options take %d lines:\n%s", seed, len(legal), n, screen)
				}
				if err := s.apply(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("colour %v: %d of %d screens are taller than 40 lines", color, tall, screens)
		if tall*100 > screens {
			t.Errorf("colour %v: %d of %d screens are taller than 40 lines, want at most 1%%", color, tall, screens)
		}
	}
}

// FuzzParseRecord feeds the save-file parser arbitrary bytes: it must
// never panic, and what it accepts must survive a write and a re-read
// unchanged and replay (or be refused) without a panic.
func FuzzParseRecord(f *testing.F) {
	s, err := New(testConfig(17, engine.Normal, 2))
	if err != nil {
		f.Fatal(err)
	}
	s.w = &errWriter{w: new(strings.Builder)}
	for range 12 {
		legal := s.g.Legal(s.buf[:0])
		if err := s.apply(legal[0]); err != nil {
			f.Fatal(err)
		}
	}
	good := s.rec.Marshal()
	f.Add(good)
	f.Add([]byte(`{}`))
	f.Add([]byte(``))
	f.Add([]byte(`{"format":"tallywood-play 1"} trailing`))
	f.Add([]byte(strings.Replace(string(good), `"opt":"card"`, `"opt":"teleport"`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"seed": 17`, `"seed": -1`, 1)))
	f.Add([]byte(strings.Replace(string(good), `"a":`, `"a":300,"x":`, 1)))
	// Forged lineups that start a program or a long search.
	for _, lineup := range []string{`exec:sh -c "exit 3"`, "mcts:iters=100000", "expert"} {
		rec := Record{Format: RecordFormat, RulesHash: engine.Reference().Hash, Seed: 5, Politician: "moderate", Seats: 2, Seat: 2, Lineup: []string{lineup}}
		f.Add(rec.Marshal())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseRecord(data)
		if err != nil {
			return
		}
		again, err := ParseRecord(rec.Marshal())
		if err != nil {
			t.Fatalf("re-reading a written record: %v", err)
		}
		if fmt.Sprint(*again) != fmt.Sprint(*rec) {
			t.Fatalf("round trip changed the record:\n%v\n%v", *rec, *again)
		}
		if len(rec.Decisions) > 400 {
			return // a whole game is shorter; keep the fuzzer fast
		}
		rec.RulesHash = engine.Reference().Hash
		r, err := Resume(testConfig(0, 0, 0), rec)
		if err != nil {
			return
		}
		defer r.Close()
		if len(r.rec.Decisions) != len(rec.Decisions) {
			t.Fatalf("resumed %d of %d decisions", len(r.rec.Decisions), len(rec.Decisions))
		}
		// Nothing that runs a program or a search of unknown size loads
		// without TrustLineup.
		for _, spec := range rec.Lineup {
			if untrusted(spec) != "" {
				t.Fatalf("resumed a save whose lineup holds %q", spec)
			}
		}
	})
}

// TestRecordFormat checks a written save file is valid UTF-8 JSON with one
// decision a line.
func TestRecordFormat(t *testing.T) {
	s := newSession(t, testConfig(18, engine.Normal, 2))
	run(t, s, "1\n1\n1\n")
	data := s.Record().Marshal()
	if !utf8.Valid(data) {
		t.Fatal("not UTF-8")
	}
	rec := s.Record()
	if got, want := strings.Count(string(data), `{"opt":`), len(rec.Decisions); got != want {
		t.Errorf("%d decision lines, want %d:\n%s", got, want, data)
	}
	for _, want := range []string{`"format": "tallywood-play 2"`, `"check": {"rules_hash": "`, `"rules_hash": "` + engine.Reference().Hash, `"seed": 18`, `"mode": "normal"`, `"politician": "moderate"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lacks %s:\n%s", want, data)
		}
	}
}

// TestHelpFits checks the help of every decision fits 80 columns.
func TestHelpFits(t *testing.T) {
	for k := engine.DecCard; k <= engine.DecReveal; k++ {
		t.Run(k.String(), func(t *testing.T) {
			if decisionHelp[k] == "" || decisionTitles[k] == "" {
				t.Fatalf("no help or title for the %s decision", k)
			}
			s := newSession(t, testConfig(1, engine.Normal, 2))
			s.g.Pending = k // only the help text is read
			checkWidth(t, s.help()+decisionTitles[k])
		})
	}
}

// TestTitlesDistinct checks that no two decisions share a menu title, so
// that choosing the column and choosing the row read as two decisions,
// and that the Strategy Phase's are numbered as the rulebook numbers its
// steps: 1 the card, 2 its place (column, then row), 3 the income (which
// asks nothing, said with the row), 4 the Assistant, 5 the actions.
func TestTitlesDistinct(t *testing.T) {
	seen := map[string]engine.DecisionKind{}
	for k, title := range decisionTitles {
		if other, ok := seen[title]; ok {
			t.Errorf("the %s and %s decisions are both %q", k, other, title)
		}
		seen[title] = k
	}
	for k, step := range map[engine.DecisionKind]string{engine.DecCard: "Step 1:", engine.DecColumn: "Step 2:", engine.DecRow: "Step 2:",
		engine.DecRegion: "Step 4:", engine.DecAction: "Step 5:", engine.DecAttract: "Step 5:"} {
		if !strings.HasPrefix(decisionTitles[k], step) {
			t.Errorf("the %s decision's title %q is not the rulebook's %s", k, decisionTitles[k], step)
		}
	}
	if !strings.Contains(decisionTitles[engine.DecRow], "Step 3: its income") {
		t.Errorf("the row's title %q does not say that Step 3, the income, follows at once", decisionTitles[engine.DecRow])
	}
}

func TestSpan(t *testing.T) {
	tests := []struct {
		nums []int
		want string
	}{
		{[]int{1}, "1"},
		{[]int{1, 2}, "1-2"},
		{countFrom1(17), "1-17"},
		{[]int{1, 2, 5}, "1-2, 5"},
		{[]int{2, 4, 5, 6, 9}, "2, 4-6, 9"},
	}
	for _, tc := range tests {
		if got := span(tc.nums); got != tc.want {
			t.Errorf("span(%v) = %q, want %q", tc.nums, got, tc.want)
		}
	}
}

// TestNumbersFromOne checks that every menu numbers its options from 1:
// after the ability is used in Step 5, the options left are 1 to n (the
// prompt's range starts at 1), the hint names the number the menu shows,
// and typing the number of "end the actions" ends them.
func TestNumbersFromOne(t *testing.T) {
	for seed := uint64(1); seed < 40; seed++ {
		s := newSession(t, testConfig(seed, engine.Normal, 2))
		s.w = &errWriter{w: new(strings.Builder)}
		playUntil(t, s, func(o engine.Option) bool { return o.Kind == engine.OptAbility })
		legal := s.g.Legal(s.buf[:0])
		var ability engine.Option
		for _, o := range legal {
			if o.Kind == engine.OptAbility {
				ability = o
			}
		}
		if err := s.apply(ability); err != nil {
			t.Fatal(err)
		}
		if s.g.Decision().Kind != engine.DecAction {
			continue // the ability asks for a cube first; try another game
		}
		legal = s.g.Legal(s.buf[:0])
		nums := s.number(legal)
		if !strings.HasPrefix(s.prompt(nums), "Your choice [1") {
			t.Errorf("seed %d: prompt %q does not start at 1", seed, s.prompt(nums))
		}
		end := 0
		for i, o := range legal {
			if nums[i] != i+1 {
				t.Errorf("seed %d: option %d is numbered %d", seed, i+1, nums[i])
			}
			if o.Kind == engine.OptEnd {
				end = nums[i]
			}
		}
		// The hint names the menu's number, not the position in the list.
		s.cfg.Hinter = fakeHinter{pick: len(legal) - 1}
		want := fmt.Sprintf("would choose %d) %s", nums[len(legal)-1], s.describe(legal[len(legal)-1]))
		if got := s.hint(legal, nums); !strings.Contains(got, want) {
			t.Errorf("seed %d: hint %q lacks %q", seed, got, want)
		}
		_, out := run(t, s, fmt.Sprintf("%d\n", end))
		if !strings.Contains(out, "> end the actions") {
			t.Errorf("seed %d: typing %d did not end the actions:\n%s", seed, end, out)
		}
		return
	}
	t.Fatal("no game of seeds 1-39 used an ability that needs no cube")
}

func TestWrap(t *testing.T) {
	tests := []struct {
		text  string
		width int
		want  string
	}{
		{"short line", 80, "short line"},
		{"aaa bbb ccc", 7, "aaa bbb\n  ccc"},
		{"aaaaaaaaaa bb", 5, "aaaaaaaaaa\n  bb"},
		{"one-long-word", 5, "one-long-word"},
	}
	for _, tc := range tests {
		if got := Wrap(tc.text, tc.width, "  "); got != tc.want {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestFirstScreenGolden freezes the layout of the first screen of a game
// (board, menu, prompt). In Normal mode you move first, so it depends on
// the engine's setup only. Refresh with -update and read the diff.
func TestFirstScreenGolden(t *testing.T) {
	tests := []struct {
		name  string
		seed  uint64
		pol   int
		color bool
	}{
		{"first-screen", 7, 2, false},
		{"first-screen-colour", 7, 2, true},
		{"first-screen-populist", 42, 5, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(tc.seed, engine.Normal, tc.pol)
			cfg.Color = tc.color
			s := newSession(t, cfg)
			_, out := run(t, s, "")
			path := filepath.Join("..", "..", "..", "testdata", "play", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out != string(want) {
				t.Errorf("the first screen changed; run with -update and read the diff.\n--- got ---\n%s\n--- want ---\n%s", out, want)
			}
		})
	}
}

// TestBoardHeaderCleanUp checks that during Clean Up the header names the
// hand size being drawn to: the next Round card's (C-13, Clean Up 1 and 7).
func TestBoardHeaderCleanUp(t *testing.T) {
	s := newSession(t, testConfig(5, engine.Normal, 2))
	for _, want := range []struct{ head, card string }{
		{"Clean Up after round 1: draw up to 4 cards", "Round 2: presence 1 Money, majority 1 Polling, Plaza 2 Popularity; hand 4"},
		{"Clean Up after round 2: draw up to 5 cards", "Round 3: presence 1 Money, majority 1 Polling, Plaza 3 Popularity; hand 5"},
	} {
		playUntil(t, s, func(o engine.Option) bool { return o.Kind == engine.OptKeep })
		lines := strings.Split(s.board(), "\n")
		if !strings.Contains(lines[0], " · "+want.head+" · ") || lines[1] != want.card {
			t.Errorf("header:\n%s\n%s\nwant %q and %q", lines[0], lines[1], want.head, want.card)
		}
		if err := s.apply(engine.Option{Kind: engine.OptKeep}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBoardPendingAssistant checks that the Assistant of the turn in
// progress is not shown as standing on no spot before it chooses one
// (I-1).
func TestBoardPendingAssistant(t *testing.T) {
	s := newSession(t, testConfig(5, engine.Normal, 2))
	s.w = &errWriter{w: new(strings.Builder)}
	playUntil(t, s, func(o engine.Option) bool { return o.Kind == engine.OptRegion && o.A == 0 })
	if err := s.apply(engine.Option{Kind: engine.OptRegion, A: 0}); err != nil {
		t.Fatal(err)
	}
	board := s.board()
	if strings.Contains(board, "no spot: Y") || !strings.Contains(board, " · Y spot after the actions") {
		t.Errorf("the Assistant just sent to Red:\n%s", board)
	}
}

// TestLongInputLine: a 10 MB input line is skipped with a note, not
// echoed back (it came back twice, in the echo and the error).
func TestLongInputLine(t *testing.T) {
	s := newSession(t, testConfig(3, engine.Normal, 0))
	_, out := run(t, s, strings.Repeat("x", 10<<20)+"\n1\nq\ny\n")
	if len(out) > 64<<10 {
		t.Errorf("%d bytes of output", len(out))
	}
	if !strings.Contains(out, "(skipped a line longer than 4096 bytes)") {
		t.Errorf("no note of the skipped line; tail:\n%s", tail(out, 6))
	}
	if !strings.Contains(out, "> ") {
		t.Error("the next line was not read as a choice")
	}
}

// A tester's game records who played and the decisions taken after a
// hint (an undone one's hint still counts for the next), is saved when it
// ends, and loads back with them.
func TestTesterSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ana.json")
	cfg := testConfig(11, engine.Normal, 4)
	cfg.Tester, cfg.SavePath, cfg.Hinter = "ana", path, fakeHinter{pick: 0}
	s := newSession(t, cfg)
	// h, decide (hinted: 0), decide, h, decide (hinted: 2), undo it,
	// decide again (hinted: 2 still), then the rest without hints.
	script := "h\n1\n1\nh\n1\nu\n1\n" + strings.ReplaceAll(randomScript(11, 3000), "h\n", "b\n")
	end, out := run(t, s, script)
	if end != Finished || !strings.Contains(out, "Saved the finished game to "+path+": tallywood calibrate "+path+" reads it.") {
		t.Fatalf("end %v; tail:\n%s", end, tail(out, 3))
	}
	rec, err := ReadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Tester != "ana" || !slices.Equal(rec.Hinted, []int{0, 2}) {
		t.Errorf("tester %q, hinted %v; want ana, [0 2]", rec.Tester, rec.Hinted)
	}
	// Editing either is caught by the check, as any field.
	for _, edit := range []struct{ from, to, field string }{
		{`"tester": "ana"`, `"tester": "bo"`, "tester"},
		{`"hinted": [0,2]`, `"hinted": [0,3]`, "hinted"},
	} {
		data, _ := os.ReadFile(path)
		spoilt := strings.Replace(string(data), edit.from, edit.to, 1)
		if spoilt == string(data) {
			t.Fatalf("no %s in the save file:\n%s", edit.from, data)
		}
		if _, err := ParseRecord([]byte(spoilt)); err == nil || !strings.Contains(err.Error(), edit.field+" ") {
			t.Errorf("edited %s: %v", edit.field, err)
		}
	}
}
