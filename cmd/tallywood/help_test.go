package main

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// helpFlag is one flag line of a command's --help: its placeholder and
// what it says.
type helpFlag struct{ placeholder, usage string }

// helpLine matches a flag line of helpText: "  -q, --quiet N   usage".
var helpLine = regexp.MustCompile(`^  (?:-\w, )?\s*--([\w-]+)(?: (\S+))?\s{3,}(.*)$`)

// commandFlags reads the flags of every command from its --help.
func commandFlags(t *testing.T) map[string]map[string]helpFlag {
	t.Helper()
	out := map[string]map[string]helpFlag{}
	for name := range commands {
		var stdout, stderr bytes.Buffer
		if code := run([]string{name, "--help"}, &stdout, &stderr); code != exitOK {
			t.Fatalf("%s --help: exit %d: %s", name, code, stderr.String())
		}
		flags := map[string]helpFlag{}
		for _, l := range strings.Split(stdout.String(), "\n") {
			if m := helpLine.FindStringSubmatch(l); m != nil {
				flags[m[1]] = helpFlag{m[2], m[3]}
			}
		}
		out[name] = flags
	}
	return out
}

// TestSharedFlagHelp checks that a flag several commands take says the
// same in each one's --help (--out FILE in one, --out VALUE in
// another; mode's default both in one, normal,hard in another), and that
// every flag that takes a value names it.
func TestSharedFlagHelp(t *testing.T) {
	// The flags whose meaning differs by command, and why: their
	// placeholders may differ, their words do.
	differs := map[string]string{
		"mode":       "one difficulty (play, trace, scenario) or a list of them (sim, compare, sweep)",
		"policy":     "one policy (trace), a list (sim, compare, sweep) or a lineup (play)",
		"politician": "yours (play), one (trace) or a list (sim, compare, sweep)",
		"rules":      "compare's are both arms' rules, sweep's the base of its points",
		"games":      "games per cell (sim), paired games (compare), per cell and point (sweep)",
		"set":        "one field's value (sim) or a field's values (sweep)",
		"format":     "the formats differ by command",
		"seats":      "compare compares rules at a table",
		"shard":      "compare's cannot be used with a sequential test",
		"quiet":      "scenario run's prints no traces; serve's logs no refused request; the others' no progress bar",
		"load":       "play resumes the saved game, trace narrates it",
		"target":     "a win rate (sweep) or a cell's win rate, MODE:POLICY=RATE (tune)",
		"out":        "tune's is the tuned rules file (its result goes to stdout or --result), the others' the result",
		"store":      "serve keeps its games in it (made when missing), calibrate reads them",
	}
	flags := commandFlags(t)
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	slices.Sort(names)
	type seen struct {
		cmd string
		f   helpFlag
	}
	first := map[string]seen{}
	for _, cmd := range names {
		for flag, f := range flags[cmd] {
			s, ok := first[flag]
			if !ok {
				first[flag] = seen{cmd, f}
				continue
			}
			if _, ok := differs[flag]; ok {
				continue
			}
			if s.f != f {
				t.Errorf("--%s: %s says %q %q, %s says %q %q", flag, s.cmd, s.f.placeholder, s.f.usage, cmd, f.placeholder, f.usage)
			}
		}
	}
	// A flag that takes a value names it with a word (FILE, N, LIST),
	// never with the Go type's VALUE.
	for _, cmd := range names {
		for flag, f := range flags[cmd] {
			// sprt-on's words belong with the verdicts' wiring, another change.
			if f.placeholder == "VALUE" && flag != "sprt-on" {
				t.Errorf("%s --%s: the placeholder is VALUE: name what it is in the usage (`FILE`)", cmd, flag)
			}
		}
	}
	for _, want := range []struct{ cmd, flag, placeholder string }{
		{"compare", "a-set", "PATH=VALUE"}, {"compare", "b-set", "PATH=VALUE"}, {"sim", "set", "PATH=VALUE"},
		{"compare", "out", "FILE"}, {"sweep", "out", "FILE"}, {"report", "out", "FILE"},
		{"scenario", "seed", "N"}, {"scenario", "game", "N"},
	} {
		if got := flags[want.cmd][want.flag].placeholder; got != want.placeholder {
			t.Errorf("%s --%s: placeholder %q, want %q", want.cmd, want.flag, got, want.placeholder)
		}
	}
	if !strings.Contains(flags["sim"]["mode"].usage, "(default normal,hard)") || flags["sim"]["mode"].usage != flags["compare"]["mode"].usage ||
		flags["sim"]["mode"].usage != flags["sweep"]["mode"].usage {
		t.Errorf("--mode: sim %q, compare %q, sweep %q: want one default normal,hard", flags["sim"]["mode"].usage, flags["compare"]["mode"].usage, flags["sweep"]["mode"].usage)
	}
}

// TestWorkersCapNoted checks that every command that caps --workers says
// so (compare was silent where sim said "capped").
func TestWorkersCapNoted(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "--games", "2", "--policy", "random", "--mode", "normal", "--politician", "moderate"},
		{"compare", "--games", "2", "--policy", "random", "--mode", "normal", "--politician", "moderate", "--b-mode", "hard"},
		{"sweep", "--games", "2", "--policy", "random", "--mode", "hard", "--politician", "moderate", "--set", "difficulties.hard.bonus_divisor=2,3"},
		{"curve", "--games", "2", "--skills", "0,0.5", "--mode", "hard"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append(args, "--workers", "1000", "--quiet"), &stdout, &stderr)
		if code != exitOK || !strings.Contains(stderr.String(), "--workers 1000 capped at") {
			t.Errorf("%s: exit %d, stderr %q: want the cap noted", args[0], code, stderr.String())
		}
	}
}
