package script

import (
	"errors"
	"strings"
	"testing"

	"tallywood/engine"
)

// scriptRules is the reference set with source as its automaton.
func scriptRules(t testing.TB, source string) *engine.Rules {
	t.Helper()
	r, err := engine.Reference().WithAutomaton("hostile.star", source)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// playScript plays a game of the random player against the script and
// returns the script's error, if any.
func playScript(t testing.TB, opp engine.Opposition, r *engine.Rules, seed uint64, mode engine.Mode) (err error) {
	t.Helper()
	defer engine.CatchOpposition(&err)
	g, err := engine.New(r, seed, engine.Config{Mode: mode, Opposition: opp})
	if err != nil {
		return err
	}
	return engine.NewRandomPlayer(seed).Play(g)
}

// TestHostileScripts: a script that loops, recurses, builds a huge value,
// reaches for the machine or breaks a rule gets a clean error naming its
// file and line, either when it is compiled or in the game it breaks;
// nothing panics past the game and nothing runs without bound.
func TestHostileScripts(t *testing.T) {
	for _, tt := range []struct {
		name, source string
		compile      string // the compile error, or "" when it compiles
		play         string // the game's error
	}{
		{"endless loop", "def turn():\n    while True:\n        pass\n", "",
			"more than 1000000 steps in one call of turn() (an endless loop?) (game seed 7, round 1, turn 1, in turn())"},
		{"endless for", "def turn():\n    for i in range(1 << 30):\n        pass\n", "",
			"more than 1000000 steps in one call of turn()"},
		{"endless loop at the top level", "for i in range(1 << 30):\n    pass\n",
			"more than 1000000 steps in one call of the top level()", ""},
		{"deep recursion", "def f(n):\n    return f(n + 1)\ndef turn():\n    f(0)\n", "",
			"hostile.star:2: function f called recursively"},
		{"huge list by repetition", "def turn():\n    x = [0] * 100000000\n", "",
			"hostile.star:2: a list repeated 100000000 times, more than the 1048576 elements a script may build"},
		{"huge string by doubling", "def turn():\n    s = \"x\"\n    for i in range(64):\n        s = s + s\n", "",
			"hostile.star:4: a string of 2097152 elements, more than the 1048576 a script may build"},
		{"huge list from range", "def turn():\n    x = list(range(1 << 30))\n", "",
			"hostile.star:2: a list of 1073741824 elements, more than the 1048576 a script may build"},
		{"many lists", "def turn():\n    keep = []\n    x = list(range(100000))\n    for i in range(100):\n        keep.append(x[:])\n", "",
			"hostile.star:5: the script built more than 32 MiB in one call"},
		{"huge join", "def turn():\n    s = \"x\" * 1000000\n    \"\".join([s, s, s])\n", "",
			"hostile.star:3: a joined string of more than 1048576 bytes"},
		{"huge replace", "def turn():\n    s = \"x\" * 100000\n    s.replace(\"x\", \"yyyyyyyyyyyyyyyyyy\")\n", "",
			"hostile.star:3: a replaced string of 1800000 bytes"},
		{"huge integer", "def turn():\n    n = 2\n    for i in range(40):\n        n = n * n\n", "",
			"hostile.star:4: an integer of more than 4096 bits"},
		{"reading a file", "def turn():\n    open(\"/etc/passwd\")\n", "hostile.star:2: undefined: open", ""},
		{"importing a path", "load(\"/etc/passwd\", \"x\")\n", "hostile.star:1:1: load is not available", ""},
		{"reaching the clock", "def turn():\n    time.now()\n", "hostile.star:2: undefined: time", ""},
		{"the environment", "def turn():\n    env(\"HOME\")\n", "hostile.star:2: undefined: env", ""},
		{"a sandbox name", "def __binary(a, b, c):\n    return 0\n", "the name __binary is reserved", ""},
		{"reading a face-down tile", "def reveal():\n    return face_down(\"Red\")[0].face\n" +
			"def turn():\n    flip()\n    [t.face for d in districts() for t in face_down(d)]\n", "",
			"hostile.star:5: the face of a face-down tile is hidden (face_up is False)"},
		{"flipping a card not turned up", "def turn():\n    if board()[0] == None:\n        flip()\n    else:\n        flip(board()[0])\n", "",
			"hostile.star:5: flip(S-09): only a card reveal_solo() turned up this turn (the deck's order is hidden)"},
		{"flipping twice", "def turn():\n    flip()\n    flip()\n", "",
			"hostile.star:3: flip(): the Opposition flips one Solo card a turn (Solo Gameplay 1)"},
		{"no flip", "def turn():\n    pass\n", "",
			"turn() returned without flipping a Solo card (Solo Gameplay 1: every turn flips one)"},
		{"a taken spot", "def turn():\n    card, col = flip()\n    move_assistant(col, \"Red\")\n    occupy(col, \"Research\")\n", "",
			"hostile.star:4: occupy(): the Research spot in Red holds an Assistant already (I-1)"},
		{"a second spot", "def turn():\n    card, col = flip()\n    move_assistant(col, \"Red\")\n    occupy(col, \"Research\")\n    occupy(col, \"Campaign\")\n", "",
			"hostile.star:5: the Assistant of column 1 already holds a spot"},
		{"a negative gain", "def turn():\n    flip()\n    gain(-5, 0, \"mine\")\n", "",
			"hostile.star:3: gain's money must be a whole number from 0 to 12, not -5"},
		{"a step of another hook", "def turn():\n    flip()\n    box_solo_cards()\n", "",
			"hostile.star:3: box_solo_cards() is a step of clean_up(), not of turn()"},
		{"a global changed", "seen = []\ndef turn():\n    flip()\n    seen.append(1)\n", "",
			"hostile.star:4: append: cannot append to frozen list"},
		{"a card changed", "def turn():\n    card, col = flip()\n    card.left_district = \"Red\"\n", "",
			"hostile.star:3: can't assign to .left_district field of solo_card"},
		{"a note with a control character, shown as U+FFFD", "def turn():\n    flip()\n    note(None, \"x\", \"a\\x1b[2Jb\")\n", "", ""},
		{"a note that does not format, shown with why", "def turn():\n    flip()\n    note(None, \"x\", \"%d\", \"a\")\n", "", ""},
		{"a hook of the wrong shape", "def turn(x):\n    pass\n", "hostile.star:1: turn takes no parameters", ""},
		{"a syntax error", "def turn(:\n", "hostile.star:1:11: got ':', want ')'", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := scriptRules(t, tt.source)
			opp, err := For(r)
			if tt.compile != "" {
				if err == nil || !strings.Contains(err.Error(), tt.compile) {
					t.Fatalf("compile: got %v, want %q", err, tt.compile)
				}
				return
			}
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			err = playScript(t, opp, r, 7, engine.Normal)
			if tt.play == "" {
				// A step the script may take: the game plays to its end.
				if err != nil {
					t.Fatalf("play: %v", err)
				}
				return
			}
			var oe *engine.OppositionError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tt.play) {
				t.Fatalf("play: got %v, want an OppositionError with %q", err, tt.play)
			}
			if !strings.Contains(err.Error(), "game seed 7, round ") {
				t.Errorf("the error does not name the game: %v", err)
			}
		})
	}
}

// TestErrorOnlyInRound4: a script that fails only in round 4 fails those
// games there, naming the round and turn, and plays every other game to
// its end exactly as the reference script does.
func TestErrorOnlyInRound4(t *testing.T) {
	source := strings.Replace(Reference(), "def block(column, connected, other):\n",
		"def block(column, connected, other):\n    if current_round() == 4 and current_turn() == 2:\n        fail(\"round 4 is broken\")\n", 1)
	r := scriptRules(t, source)
	opp := oppositionFor(t, r)
	err := playScript(t, opp, r, 11, engine.Hard)
	if err == nil || !strings.Contains(err.Error(), "hostile.star:") || !strings.Contains(err.Error(), "round 4 is broken (game seed 11, round 4, turn 2, in turn())") {
		t.Fatalf("got %v", err)
	}
}

// TestOneMillionSteps is a turn that takes its steps to the bound and no
// further: the bound is per call, not per game.
func TestStepsPerCall(t *testing.T) {
	source := strings.Replace(Reference(), "def turn():\n", "def turn():\n    for i in range(150000):\n        pass\n", 1)
	r := scriptRules(t, source)
	if err := playScript(t, oppositionFor(t, r), r, 3, engine.Normal); err != nil {
		t.Fatal(err)
	}
}

// TestNoteOneLine: a note is one line of the trace as shown: a control
// character (an escape sequence) is shown as U+FFFD, and a text that does
// not format says why, without failing the game.
func TestNoteOneLine(t *testing.T) {
	r := scriptRules(t, "def turn():\n    flip()\n    note(None, \"x\", \"a\\x1b[2Jb\")\n    note(None, \"y\", \"%d\", \"a\")\n")
	log := &engine.Log{}
	g, err := engine.New(r, 5, engine.Config{Mode: engine.Normal, Opposition: oppositionFor(t, r), Recorder: log})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.NewRandomPlayer(5).Play(g); err != nil {
		t.Fatal(err)
	}
	text := r.Narrate(log.Events)
	for _, want := range []string{"Opposition: a\uFFFD[2Jb", "Opposition: %d [note: %d format requires integer: cannot convert string to int]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the trace has no %q", want)
		}
	}
	if strings.Contains(text, "\x1b") {
		t.Error("an escape character reached the trace")
	}
}

// TestNoteOnlyTraced: a note runs only while a trace is recorded (its
// arguments only narrate): a note that names no District plays through a
// simulation and fails the traced game, naming its line.
func TestNoteOnlyTraced(t *testing.T) {
	r := scriptRules(t, "def turn():\n    flip()\n    note(\"Mars\", \"x\", \"a\")\n")
	opp := oppositionFor(t, r)
	if err := playScript(t, opp, r, 5, engine.Normal); err != nil {
		t.Fatalf("untraced: %v", err)
	}
	err := func() (err error) {
		defer engine.CatchOpposition(&err)
		g, err := engine.New(r, 5, engine.Config{Mode: engine.Normal, Opposition: opp, Recorder: &engine.Log{}})
		if err != nil {
			return err
		}
		return engine.NewRandomPlayer(5).Play(g)
	}()
	if want := `hostile.star:3: a note is about a District, the Plaza or None, not "Mars"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("traced: got %v, want %q", err, want)
	}
}
