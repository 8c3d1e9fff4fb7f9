package script

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAPIDocumented holds docs/automaton.md to the API: every function is
// documented with its parameters as a row of a table ("| `name(params)` |"),
// every function a row documents exists, and every hook is in the table of
// hooks.
func TestAPIDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/automaton.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)\\(([^`]*)\\)` \\|").FindAllStringSubmatch(doc, -1) {
		documented[m[1]+"("+m[2]+")"] = true
	}
	known := map[string]bool{}
	for _, f := range api {
		sig := f.name + f.params
		known[sig] = true
		if !documented[sig] {
			t.Errorf("docs/automaton.md has no row for %s", sig)
		}
	}
	for h := range numHooks {
		sig := hookNames[h] + "()"
		if h == hookPlaza {
			sig = hookNames[h] + "(amount)"
		}
		known[sig] = true
		if !documented[sig] {
			t.Errorf("docs/automaton.md's hooks have no row for %s", sig)
		}
	}
	for sig := range documented {
		if !known[sig] {
			t.Errorf("docs/automaton.md documents %s, which the API does not have", sig)
		}
	}
	// The bounds the docs state are the sandbox's.
	for _, want := range []string{"| steps | 1,000,000", "| memory | 32 MiB built |", "1,048,576 elements", "4,096 bits"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/automaton.md does not state %q", want)
		}
	}
	if maxSteps != 1_000_000 || maxMemory != 32<<20 || maxValueLen != 1<<20 || maxIntBits != 4096 {
		t.Error("the bounds changed: say so in docs/automaton.md and here")
	}
}
