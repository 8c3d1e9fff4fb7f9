package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tallywood/engine"
)

// runPlayWith runs `tallywood play args...` with input as the player's.
func runPlayWith(t *testing.T, input string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	old := playStdin
	playStdin = strings.NewReader(input)
	defer func() { playStdin = old }()
	var out, errb bytes.Buffer
	code = run(append([]string{"play"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestPlayCommand(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "g.json")
	otherRules := filepath.Join(dir, "other.json")
	data := strings.Replace(string(engine.ReferenceJSON()), `"campaign_polling": 2`, `"campaign_polling": 3`, 1)
	if err := os.WriteFile(otherRules, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// A saved game to load: two decisions, then s.
	if code, _, errs := runPlayWith(t, "1\n1\ns\n", "--seed", "5", "--save", save); code != exitOK {
		t.Fatalf("setting up the save file: exit %d: %s", code, errs)
	}
	tests := []struct {
		name    string
		args    []string
		input   string
		code    int
		wantOut string
		wantErr string
	}{
		{"help", []string{"--help"}, "", exitOK, "usage: tallywood play", ""},
		{"quit", []string{"--seed", "3"}, "q\n", exitOK, "Quit at round 1, turn 1", ""},
		{"end of input", []string{"--mode", "hard", "--politician", "populist"}, "", exitOK, "End of input", ""},
		{"bad mode", []string{"--mode", "easy"}, "", exitBadArgs, "", `--mode "easy" is not normal or hard`},
		{"bad politician", []string{"--politician", "mayor"}, "", exitBadArgs, "", `--politician "mayor": not in the rules (one of magnate`},
		{"bad flag", []string{"--colour"}, "", exitBadArgs, "", "unknown flag"},
		{"argument", []string{"now"}, "", exitBadArgs, "", `unexpected argument "now"`},
		{"missing rules", []string{"--rules", filepath.Join(dir, "none.json")}, "", exitBadArgs, "", "rules file"},
		// Default was a file name in play only.
		{"rules default", []string{"--rules", "default", "--seed", "3"}, "q\n", exitOK, "Quit at round 1, turn 1", ""},
		{"load", []string{"--load", save}, "q\n", exitOK, "Resumed the saved game: seed 5, normal, moderate; 2 decisions replayed", ""},
		{"load with seed", []string{"--load", save, "--seed", "4"}, "", exitBadArgs, "", "--seed cannot be used with --load"},
		{"load missing", []string{"--load", filepath.Join(dir, "none.json")}, "", exitBadArgs, "", "no such file"},
		{"load other rules", []string{"--load", save, "--rules", otherRules}, "", exitBadArgs, "",
			"the save file was made under other rules"},
		{"load not json", []string{"--load", otherRules}, "", exitBadArgs, "", "save file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runPlayWith(t, tc.input, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errs)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Errorf("stdout lacks %q:\n%s", tc.wantOut, out)
			}
			if !strings.Contains(errs, tc.wantErr) {
				t.Errorf("stderr %q lacks %q", errs, tc.wantErr)
			}
			if strings.Contains(out, "\x1b[") {
				t.Error("colour written to a stream that is not a terminal")
			}
		})
	}
}

// TestPlayInTerminal runs `tallywood play` under a real pseudo-terminal
// (a tmux pane of 80x40) and checks what a player sees: no line wraps
// past 80 columns, the board and the first menu fit the screen at once,
// colour is on in a terminal and off with NO_COLOR. It needs tmux and is
// skipped without it (CI installs it).
func TestPlayInTerminal(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	if testing.Short() {
		t.Skip("builds the binary and drives a terminal")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tallywood")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	tests := []struct {
		name    string
		noColor bool
		args    string
	}{
		{"colour", false, "--seed 7"},
		{"NO_COLOR", true, "--seed 8 --mode hard"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A server of its own for each case: a server whose last
			// session ended may still be shutting down on its socket.
			tmuxServers++
			socket := fmt.Sprintf("tallywood-test-%d-%d", os.Getpid(), tmuxServers)
			tm := func(args ...string) (string, error) {
				cmd := exec.Command(tmux, append([]string{"-L", socket, "-f", "/dev/null"}, args...)...)
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			defer tm("kill-server")
			session := "play"
			env := "env -u NO_COLOR TERM=xterm-256color"
			if tc.noColor {
				env = "env NO_COLOR=1 TERM=xterm-256color"
			}
			// The pane stays after the program ends, so its last screen
			// can be read.
			shell := fmt.Sprintf("cd %s && %s %s play %s; sleep 30", dir, env, bin, tc.args)
			if out, err := tm("new-session", "-d", "-s", session, "-x", "80", "-y", "40", shell); err != nil {
				t.Fatalf("tmux new-session: %v: %s", err, out)
			}
			// Hard mode opens with the Opposition's turn, narrated step by
			// step: "a" shows the rest at once.
			sent := false
			screen := waitFor(t, tm, session, func(s string) bool {
				if !sent && strings.Contains(s, "Enter: next step") && !strings.Contains(s, "Your choice [") {
					tm("send-keys", "-t", session, "a", "Enter")
					sent = true
					return false
				}
				return strings.Contains(s, "Your choice [")
			})
			for _, want := range []string{"Tallywood Rally · Round 1 of 4", "Track 0-12", "Step 1: select a Strategy card", "Your choice ["} {
				if !strings.Contains(screen, want) {
					t.Errorf("the first screen lacks %q: board and menu do not fit 80x40:\n%s", want, screen)
				}
			}
			// -J joins lines the terminal wrapped: any longer than 80
			// columns would have wrapped.
			joined, err := tm("capture-pane", "-p", "-J", "-t", session)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range strings.Split(joined, "\n") {
				if n := utf8.RuneCountInString(l); n > 80 {
					t.Errorf("a line wraps on an 80-column terminal (%d columns):\n%s", n, l)
				}
			}
			escaped, _ := tm("capture-pane", "-p", "-e", "-t", session)
			if got := strings.Contains(escaped, "\x1b["); got == tc.noColor {
				t.Errorf("colour on the terminal: %v, want %v", got, !tc.noColor)
			}
			// q asks first, since a game is under way.
			tm("send-keys", "-t", session, "q", "Enter")
			waitFor(t, tm, session, func(s string) bool { return strings.Contains(s, "Type y to quit") })
			tm("send-keys", "-t", session, "y", "Enter")
			waitFor(t, tm, session, func(s string) bool { return strings.Contains(s, "Quit at ") })
		})
	}
}

// tmuxServers numbers the test's tmux servers, one socket each.
var tmuxServers int

// waitFor polls the pane until done accepts its screen, for up to 20 s.
func waitFor(t *testing.T, tm func(...string) (string, error), session string, done func(string) bool) string {
	t.Helper()
	var screen string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		s, err := tm("capture-pane", "-p", "-t", session)
		if err != nil {
			t.Fatalf("tmux capture-pane: %v: %s", err, s)
		}
		screen = s
		if done(s) {
			return s
		}
	}
	t.Fatalf("timed out; the screen:\n%s", screen)
	return ""
}

// TestPlayTableCommand checks play --seats: the exact messages of bad
// uses, a table game saved and loaded (the file holds seats, seat and
// lineup, so the flags cannot be given with --load), and trace --load
// narrating the saved table game.
func TestPlayTableCommand(t *testing.T) {
	save := filepath.Join(t.TempDir(), "table.json")
	code, out, errs := runPlayWith(t, "1\n1\ns\n", "--seats", "3", "--seat", "2", "--policy", "greedy,random", "--seed", "5", "--save", save)
	if code != exitOK || !strings.Contains(out, "You (Seat 2, ") || !strings.Contains(out, "Saved 2 decisions to "+save) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errs, out)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		wantOut string
		wantErr string
	}{
		{"seats 5", []string{"--seats", "5"}, exitBadArgs, "", "tallywood: play: --seats 5 is outside 1..4; see 'tallywood play --help'\n"},
		{"seat solo", []string{"--seat", "2"}, exitBadArgs, "", "tallywood: play: --seat only matters with --seats 2..4; see 'tallywood play --help'\n"},
		{"policy solo", []string{"--policy", "random"}, exitBadArgs, "", "tallywood: play: --policy only matters with --seats 2..4; see 'tallywood play --help'\n"},
		{"seat outside", []string{"--seats", "3", "--seat", "4"}, exitBadArgs, "", "tallywood: play: --seat 4 is outside 1..3; see 'tallywood play --help'\n"},
		{"mode at a table", []string{"--seats", "2", "--mode", "hard"}, exitBadArgs, "", "tallywood: play: --mode only matters with the solo game (--seats 1); see 'tallywood play --help'\n"},
		{"lineup length", []string{"--seats", "4", "--policy", "greedy,random"}, exitBadArgs, "",
			"tallywood: play: --policy \"greedy,random\" names 2 policies for the 3 other seats: give one for all, or one per other seat; see 'tallywood play --help'\n"},
		{"load with seats", []string{"--load", save, "--seats", "4"}, exitBadArgs, "", "tallywood: play: --seats cannot be used with --load: the save file holds it; see 'tallywood play --help'\n"},
		{"load with policy", []string{"--load", save, "--policy", "mcts"}, exitBadArgs, "", "tallywood: play: --policy cannot be used with --load: the save file holds it; see 'tallywood play --help'\n"},
		{"load", []string{"--load", save}, exitOK, "Resumed the saved game: seed 5, 3 players, you in seat 2, ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runPlayWith(t, "q\n", tc.args...)
			if code != tc.code || !strings.Contains(out, tc.wantOut) || errs != tc.wantErr {
				t.Errorf("exit %d, stderr %q, stdout:\n%s\nwant exit %d, stderr %q, stdout with %q", code, errs, out, tc.code, tc.wantErr, tc.wantOut)
			}
		})
	}
	code, out, errs = runCLI(t, "trace", "--load", save)
	out = unwrapped(out)
	if code != exitOK || !strings.HasPrefix(out, "Saved game "+save+": game 0 of seed 5") || !strings.Contains(out, "3 players, 2 decisions by a person in seat 2, policies greedy,random in the others") ||
		!strings.Contains(out, "Round 1, turn 1 — Seat 2\n") {
		t.Errorf("trace --load: exit %d, stderr %q:\n%s", code, errs, out)
	}
}
