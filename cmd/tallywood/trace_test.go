package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim"
)

func TestOutcomeWords(t *testing.T) {
	for _, tc := range []struct {
		margin int
		want   string
	}{
		{-17, "Outcome: you lost by 17 votes."},
		{-1, "Outcome: you lost by 1 vote."},
		{0, "Outcome: a draw (equal votes)."},
		{1, "Outcome: you won by 1 vote."},
		{12, "Outcome: you won by 12 votes."},
	} {
		if got := outcomeWords(tc.margin); got != tc.want {
			t.Errorf("margin %d: got %q, want %q", tc.margin, got, tc.want)
		}
	}
}

// TestTraceHeaders checks that Round Scoring and the Final Tally have
// their own headers in the narration, not the last turn's.
func TestTraceHeaders(t *testing.T) {
	code, out, errs := runCLI(t, "trace", "--seed", "5", "--policy", "random")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(out, "\n")
	index := func(line string) int {
		for i, l := range lines {
			if l == line {
				return i
			}
		}
		t.Fatalf("no line %q in:\n%s", line, out)
		return -1
	}
	r4 := index("Round Scoring, round 4")
	ft := index("Final Tally")
	if !(index("Round 4, turn 4 — You") < r4 || index("Round 4, turn 4 — Opposition") < r4) || r4 > ft {
		t.Errorf("headers out of order: Round Scoring at line %d, Final Tally at %d", r4+1, ft+1)
	}
	for _, l := range lines[r4+1 : ft] {
		if !strings.HasPrefix(l, "  ") {
			t.Errorf("line %q between Round Scoring and the Final Tally is not inside Round Scoring", l)
		}
	}
}

// TestTraceJSONL checks that --format jsonl writes the game's events one
// JSON object a line (engine.Rules.EventJSON, whose test checks the
// fields), ending with the result.
func TestTraceJSONL(t *testing.T) {
	code, out, errs := runCLI(t, "trace", "--seed", "5", "--game", "3", "--policy", "random", "--format", "jsonl")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !json.Valid([]byte(line)) {
			t.Fatalf("line %d is not JSON: %s", i+1, line)
		}
	}
	want := `{"round":4,"kind":"result","your_votes":`
	if last := out[strings.LastIndex(strings.TrimSpace(out), "\n")+1:]; !strings.HasPrefix(last, want) {
		t.Errorf("last line %q, want it to start %s", last, want)
	}
}

// failingWriter fails every write, as stdout redirected to /dev/full does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestTraceWriteError checks that a failed write of the trace is reported
// with exit 1, not passed off as success.
func TestTraceWriteError(t *testing.T) {
	var errb strings.Builder
	code := run([]string{"trace", "--policy", "random"}, failingWriter{}, &errb)
	if want := "tallywood: trace: the output could not be written: no space left on device\n"; code != exitFailed || errb.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errb.String(), want)
	}
}

// TestTraceKindsDocumented checks that docs/output.md's glossary has a row
// for every event kind a JSON line can carry.
func TestTraceKindsDocumented(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k := engine.EventKind(0); !strings.HasPrefix(k.String(), "event_"); k++ {
		n++
		if !strings.Contains(string(data), "| `"+k.String()+"` |") {
			t.Errorf("docs/output.md has no row for the event kind %q", k)
		}
	}
	if n < 30 {
		t.Errorf("only %d event kinds", n)
	}
}

// TestSeedAcrossCommands checks that `play --seed S` deals game 0 of
// `trace --seed S` (and so of `sim --seed S`): the same politician's
// opening hand, and a saved game narrated by trace --load agrees.
func TestSeedAcrossCommands(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "g.json")
	code, out, errs := runPlayWith(t, "s\nq\n", "--seed", "7", "--politician", "populist", "--save", save)
	if code != exitOK {
		t.Fatalf("play: exit %d: %s", code, errs)
	}
	hand := out[strings.Index(out, "Hand "):strings.Index(out, "Step 1:")]
	code, trace, errs := runCLI(t, "trace", "--seed", "7", "--politician", "populist", "--policy", "random")
	if code != exitOK {
		t.Fatalf("trace: exit %d: %s", code, errs)
	}
	// The first card played in the trace is one of play's opening hand,
	// and the first Solo card is the same.
	first := trace[strings.Index(trace, "You play ")+len("You play "):]
	first = first[:strings.Index(first, " ")]
	if !strings.Contains(hand, first) {
		t.Errorf("trace --seed 7 plays %s first, not in play --seed 7's hand:\n%s", first, hand)
	}
	_, loaded, _ := runCLI(t, "trace", "--load", save)
	solo := func(s string) string {
		i := strings.Index(s, "Opposition flips S-")
		if i < 0 {
			return ""
		}
		return s[i : i+len("Opposition flips S-00")]
	}
	// The saved game has no decision yet: its narration stops before the
	// Opposition's first turn in Normal mode, so compare Hard games.
	if !strings.Contains(loaded, "The save stops at round 1, turn 1: the game is not over.") {
		t.Errorf("trace --load of a fresh save:\n%s", loaded)
	}
	hardSave := filepath.Join(dir, "h.json")
	if code, _, errs := runPlayWith(t, "s\nq\n", "--seed", "7", "--mode", "hard", "--save", hardSave); code != exitOK {
		t.Fatalf("play --mode hard: %s", errs)
	}
	_, hardLoaded, _ := runCLI(t, "trace", "--load", hardSave)
	hardLoaded = unwrapped(hardLoaded)
	_, hardTrace, _ := runCLI(t, "trace", "--seed", "7", "--mode", "hard", "--politician", "moderate", "--policy", "random")
	if solo(hardLoaded) == "" || solo(hardLoaded) != solo(hardTrace) {
		t.Errorf("play --seed 7 --mode hard's first Solo card %q, trace's %q", solo(hardLoaded), solo(hardTrace))
	}
	if !strings.HasPrefix(hardLoaded, "Saved game "+hardSave+": game 0 of seed 7 (game seed ") {
		t.Errorf("trace --load header:\n%s", hardLoaded[:strings.Index(hardLoaded, "\n")])
	}
}

// TestRandomPoliticianAcrossCommands checks that --politician random draws
// the same politician in play as in trace for the same seed.
func TestRandomPoliticianAcrossCommands(t *testing.T) {
	for _, seed := range []string{"1", "7", "12"} {
		_, trace, _ := runCLI(t, "trace", "--seed", seed, "--policy", "random")
		trace = unwrapped(trace)
		header := trace[:strings.Index(trace, "\n")]
		pol := header[strings.Index(header, "politician ")+len("politician "):]
		pol = pol[:strings.Index(pol, ",")]
		code, out, errs := runPlayWith(t, "", "--seed", seed, "--politician", "random")
		if code != exitOK {
			t.Fatalf("play: %s", errs)
		}
		if !strings.Contains(out, "You ("+pol+")") {
			t.Errorf("seed %s: trace plays %s, play's board:\n%s", seed, pol, out)
		}
	}
}

// TestTraceLoadErrors checks the exact messages and exit codes of bad
// uses of trace --load.
func TestTraceLoadErrors(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "g.json")
	if code, _, errs := runPlayWith(t, "1\n1\n1\ns\nq\n", "--seed", "3", "--save", save); code != exitOK {
		t.Fatalf("play: %s", errs)
	}
	data, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "edited.json")
	if err := os.WriteFile(edited, []byte(strings.Replace(string(data), `"mode": "normal"`, `"mode": "hard"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "none.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"with seed", []string{"--load", save, "--seed", "4"}, "tallywood: trace: --seed cannot be used with --load: the save file holds the game; see 'tallywood trace --help'\n"},
		{"with policy", []string{"--load", save, "--policy", "random"}, "tallywood: trace: --policy cannot be used with --load: the save file holds the game; see 'tallywood trace --help'\n"},
		{"missing", []string{"--load", missing}, "tallywood: trace: play: open " + missing + ": no such file or directory\n"},
		{"edited mode", []string{"--load", edited}, "tallywood: trace: " + edited + `: play: save file: mode "hard" does not match the check saved with it: the file was edited or damaged, and a saved game cannot be changed by hand` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"trace"}, tc.args...)...)
			if code != exitBadArgs || out != "" || errs != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and stderr %q", code, out, errs, tc.want)
			}
		})
	}
	code, out, errs := runCLI(t, "trace", "--load", save)
	if code != exitOK || !strings.Contains(out, "You play ") || !strings.HasSuffix(out, "The save stops at round 1, turn 1: the game is not over.\n") {
		t.Errorf("exit %d, stderr %q, narration:\n%s", code, errs, out)
	}
}

// TestTraceTableMatchesSim checks that trace --seats narrates the games of
// sim --seats: over every deal and rotation of a small study, the votes and
// places the result lines give each lineup policy sum to what sim counted.
func TestTraceTableMatchesSim(t *testing.T) {
	const lineup, seats, deals = "greedy,random,pollster", 3, 2
	code, out, errs := runCLI(t, "sim", "--seats", "3", "--policy", lineup, "--games", "2", "--seed", "7", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("sim: exit %d: %s", code, errs)
	}
	var res sim.SeatsResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	votes := make([]int64, seats)
	places := make([]int64, seats)
	for game := range deals {
		for k := range seats {
			args := []string{"trace", "--seats", "3", "--policy", lineup, "--seed", "7", "--game", strconv.Itoa(game), "--rotation", strconv.Itoa(k)}
			code, out, errs := runCLI(t, append(args, "--format", "jsonl")...)
			if code != exitOK {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			var results []string
			for line := range strings.Lines(out) {
				var e struct {
					Kind  string
					Seat  string
					Votes int64
					Place int64
				}
				if err := json.Unmarshal([]byte(line), &e); err != nil {
					t.Fatalf("%v: %v: %s", args, err, line)
				}
				if e.Kind != "result" {
					continue
				}
				s := len(results)
				if want := "seat " + strconv.Itoa(s+1); e.Seat != want {
					t.Fatalf("%v: result %d is for %q, want %q", args, s+1, e.Seat, want)
				}
				// Lineup entry (s+k) mod n played seat s; the entries
				// are distinct, so entry j is policy row j.
				votes[(s+k)%seats] += e.Votes
				places[(s+k)%seats] += e.Place
				results = append(results, fmt.Sprintf("%s %s with %s", engine.TableSeatName(int8(s)), engine.Ordinal(int(e.Place)), kit.Count(int(e.Votes), "vote")))
			}
			if len(results) != seats {
				t.Fatalf("%v: %d result lines, want %d", args, len(results), seats)
			}
			// The text narration ends with the same result, best first.
			code, text, errs := runCLI(t, args...)
			last := text[strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n")+1:]
			for _, r := range results {
				if code != exitOK || !strings.HasPrefix(last, "Outcome: ") || !strings.Contains(last, r) {
					t.Errorf("%v: exit %d (%s), outcome line %q lacks %q", args, code, errs, last, r)
				}
			}
		}
	}
	for j, row := range res.Counts.Policies {
		if votes[j] != row.VotesSum || places[j] != row.PlaceSum {
			t.Errorf("policy %s: trace gives %d votes and place sum %d, sim counted %d and %d",
				res.Policies[j].Name, votes[j], places[j], row.VotesSum, row.PlaceSum)
		}
	}
}

// TestTraceTableErrors checks the exact messages of bad uses of
// trace --seats.
func TestTraceTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"seats 5", []string{"--seats", "5"}, "tallywood: trace: --seats 5 is outside 1..4; see 'tallywood trace --help'\n"},
		{"rotation solo", []string{"--rotation", "1"}, "tallywood: trace: --rotation only matters with --seats 2..4; see 'tallywood trace --help'\n"},
		{"rotation too big", []string{"--seats", "3", "--rotation", "3"}, "tallywood: trace: --rotation 3 is outside 0..2; see 'tallywood trace --help'\n"},
		{"mode", []string{"--seats", "2", "--mode", "hard"}, "tallywood: trace: --mode only matters with the solo game (--seats 1); see 'tallywood trace --help'\n"},
		{"politician", []string{"--seats", "2", "--politician", "magnate"}, "tallywood: trace: --politician only matters with the solo game (--seats 1); see 'tallywood trace --help'\n"},
		{"load", []string{"--seats", "3", "--load", "game.json"}, "tallywood: trace: --seats cannot be used with --load: the save file holds the game; see 'tallywood trace --help'\n"},
		{"lineup", []string{"--seats", "3", "--policy", "greedy,random"}, "tallywood: trace: --policy \"greedy,random\" names 2 policies for --seats 3: give one for every seat, or one per seat; see 'tallywood trace --help'\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"trace"}, tc.args...)...)
			if code != exitBadArgs || out != "" || errs != tc.want {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and stderr %q", code, out, errs, tc.want)
			}
		})
	}
}

// TestTraceWidth checks that no line of a narration is wider than a
// terminal's 100 characters (193), solo or at a table.
func TestTraceWidth(t *testing.T) {
	for _, args := range [][]string{
		{"trace", "--seed", "7", "--mode", "hard"},
		{"trace", "--seed", "3", "--game", "11", "--policy", "skilled"},
		{"trace", "--seats", "4", "--policy", "greedy,pollster,builder,random", "--game", "5", "--rotation", "1"},
	} {
		code, out, errs := runCLI(t, args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		for i, l := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(l); n > traceWidth {
				t.Errorf("%v: line %d is %d characters: %s", args, i+1, n, l)
			}
		}
	}
	// A continuation stays under its event, four spaces in.
	if got, want := wrapLines("  "+strings.Repeat("word ", 30)+"end\n"), "  "+strings.TrimSpace(strings.Repeat("word ", 19))+"\n      "+strings.Repeat("word ", 11)+"end\n"; got != want {
		t.Errorf("wrapLines = %q, want %q", got, want)
	}
}

// unwrapped joins the lines of a narration that wrapLines broke.
func unwrapped(s string) string {
	return regexp.MustCompile(`\n {4,}`).ReplaceAllString(s, " ")
}
