package script

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"tallywood/engine"
)

// FuzzCompile feeds the loader any bytes as a script: compiling either
// fails with an error or gives an automaton, which plays a game to its end
// or fails it with an *engine.OppositionError; nothing panics past the
// game, and every bound holds (a run that never ends fails the fuzzer's
// time limit).
func FuzzCompile(f *testing.F) {
	f.Add(Reference())
	if files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "automata", "*.star")); err == nil {
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	for _, s := range []string{
		"def turn():\n    flip()\n",
		"def turn():\n    while True:\n        pass\n",
		"def turn():\n    x = [0] * 100000000\n",
		"def reveal():\n    return None\n",
		"def clean_up():\n    pass\n",
		"def plaza_majority(n):\n    gain_polling(\"Red\", n, \"x\")\n",
		"load(\"x\", \"y\")\n",
		"def __binary(): pass\n",
		"x = \"a\" * 10\ny = x[::-1] + str([x] * 3) % ()\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, source string) {
		r, err := engine.Reference().WithAutomaton("fuzz.star", source)
		if err != nil {
			return // the rules file refuses it (empty, not UTF-8, a NUL)
		}
		opp, err := For(r)
		if err != nil {
			return
		}
		err = playScript(t, opp, r, 1, engine.Hard)
		var oe *engine.OppositionError
		if err != nil && !errors.As(err, &oe) {
			t.Fatalf("not the script's error: %v", err)
		}
	})
}
