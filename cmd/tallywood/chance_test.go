package main

import (
	"encoding/json"
	"strings"
	"testing"

	"tallywood/cmd/tallywood/play"
)

// TestTraceChance: with --chance the narration has the win chance under
// the header of every turn (the player's 14 and the Opposition's 14),
// each with its interval, and at the end, the three biggest swings marked
// once each, in the block of the turn that made them (issue 42: not under
// the next turn's header), with the change the next turn's line gives;
// without the chance's and swings' lines it is the narration without
// --chance. The JSON lines are
// the events without --chance, with a win_chance object before every
// turn's events and one at the end.
func TestTraceChance(t *testing.T) {
	_, plain, _ := runCLI(t, "trace", "--seed", "4", "--policy", "skilled")
	code, out, errs := runCLI(t, "trace", "--seed", "4", "--policy", "skilled", "--chance")
	if code != exitOK || !strings.Contains(errs, "win chance: model") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var kept []string
	lines, turns := 0, 0
	inChance := false // the line continues a chance line
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "  Your win chance (as skilled plays on): "):
			lines++
			inChance = true
			if !strings.Contains(l, "% (95% interval ") {
				t.Errorf("a chance without its interval: %q", l)
			}
		case inChance && strings.HasPrefix(l, "      "):
		case strings.HasPrefix(l, "  This turn made the "):
			inChance = true
		case strings.HasPrefix(l, "Your win chance at the end: "):
			inChance = true
		default:
			kept = append(kept, l)
			inChance = false
		}
		if strings.Contains(l, ", turn ") && strings.Contains(l, " — ") {
			turns++
		}
	}
	if lines != 28 || turns != 28 {
		t.Errorf("%d chance lines for %d turns, want 28 each", lines, turns)
	}
	for _, w := range []string{"This turn made the biggest swing of the game", "This turn made the 2nd biggest swing", "This turn made the 3rd biggest swing"} {
		if strings.Count(unwrapped(out), w) != 1 {
			t.Errorf("%q is not there once:\n%s", w, out)
		}
	}
	checkSwingsInTheirTurns(t, unwrapped(out))
	if !strings.Contains(unwrapped(out), "over the Opposition's turn just played") || !strings.Contains(unwrapped(out), "over your turn just played") {
		t.Errorf("the changes do not name the turn that made them:\n%s", out)
	}
	if strings.Join(kept, "\n") != plain {
		t.Error("without its chance lines, the narration differs from the one without --chance")
	}
	_, plainJSON, _ := runCLI(t, "trace", "--seed", "4", "--policy", "skilled", "--format", "jsonl")
	_, withJSON, _ := runCLI(t, "trace", "--seed", "4", "--policy", "skilled", "--format", "jsonl", "--chance")
	var events []string
	chances := 0
	for _, l := range strings.Split(strings.TrimSpace(withJSON), "\n") {
		var obj struct {
			Kind     string  `json:"kind"`
			Chance   float64 `json:"chance"`
			Interval float64 `json:"interval"`
		}
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatal(err)
		}
		if obj.Kind == "win_chance" {
			chances++
			// Every chance but the end's (the outcome) has an interval.
			last := chances == 29
			if obj.Chance < 0 || obj.Chance > 1 || (obj.Interval > 0 && obj.Interval <= 1) == last {
				t.Errorf("chance %v, interval %v (the end: %t)", obj.Chance, obj.Interval, last)
			}
			continue
		}
		events = append(events, l)
	}
	if chances != 29 || strings.Join(events, "\n") != strings.TrimSpace(plainJSON) {
		t.Errorf("%d win_chance lines, want 29; events the same: %t", chances, strings.Join(events, "\n") == strings.TrimSpace(plainJSON))
	}
	for _, args := range [][]string{
		{"--chance", "--policy", "pollster"},                           // no level: name one
		{"--chance", "--chance-level", "wizard"},                       // no such level
		{"--chance-level", "casual"},                                   // without --chance
		{"--chance", "--seats", "2"},                                   // not the solo game
		{"--chance", "--policy", "random", "--chance-level", "casual"}, // fine
	} {
		code, _, errs := runCLI(t, append([]string{"trace"}, args...)...)
		if fine := args[len(args)-1] == "casual" && args[0] == "--chance"; fine != (code == exitOK) {
			t.Errorf("trace %v: exit %d: %s", args, code, errs)
		}
	}
}

// TestPlayChance: with --chance, play says the win chance under the
// first turn's header, and the hint gives it after each option, advised
// by the chance's own level with no greedy margin beside it: the advice
// and its chance come from one level.
func TestPlayChance(t *testing.T) {
	code, out, errs := runPlayWith(t, "h\nq\ny\n", "--seed", "3", "--chance", "--chance-level", "casual")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"Your win chance (as casual plays on): ", "your win chance after each option (as casual plays on): 1) ", "Hint: casual would choose "} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in:\n%s", w, out)
		}
	}
	if strings.Contains(out, "estimated margin") {
		t.Errorf("greedy's margin beside the chance:\n%s", out)
	}
	if code, _, _ := runPlayWith(t, "q\ny\n", "--seed", "3", "--chance-level", "casual"); code == exitOK {
		t.Error("--chance-level without --chance is accepted")
	}
}

// TestIntervalText: the narration's interval says what it is and stays
// within 0–100%.
func TestIntervalText(t *testing.T) {
	for _, c := range []struct {
		p, half float64
		want    string
	}{
		{0.41, 0.18, " (95% interval 23–59%)"},
		{0.05, 0.18, " (95% interval 0–23%)"},
		{0.95, 0.20, " (95% interval 75–100%)"},
		{1, 0, ""},
	} {
		if got := play.IntervalText(c.p, c.half); got != c.want {
			t.Errorf("IntervalText(%v, %v) = %q, want %q", c.p, c.half, got, c.want)
		}
	}
}

// checkSwingsInTheirTurns: each swing line of a narration sits in the
// block of a turn (the last header before it is a turn's), and the next
// chance line names that turn as the one just played, with the same
// change.
func checkSwingsInTheirTurns(t *testing.T, narration string) {
	t.Helper()
	lines := strings.Split(narration, "\n")
	swings := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "  This turn made the ") {
			continue
		}
		swings++
		header := ""
		for j := i - 1; j >= 0 && header == ""; j-- {
			if !strings.HasPrefix(lines[j], " ") {
				header = lines[j]
			}
		}
		who := "your turn just played"
		if strings.HasSuffix(header, "— Opposition") {
			who = "the Opposition's turn just played"
		} else if !strings.HasSuffix(header, "— You") {
			t.Errorf("%q is in the block of %q, not a turn's", l, header)
			continue
		}
		_, change, _ := strings.Cut(l, "your win chance ")
		change, _, _ = strings.Cut(change, ",")
		next := ""
		for _, m := range lines[i+1:] {
			if strings.HasPrefix(m, "  Your win chance (as ") || strings.HasPrefix(m, "Your win chance at the end: ") {
				next = m
				break
			}
		}
		if !strings.Contains(next, ", "+change+" over "+who) {
			t.Errorf("%q in the block of %q, but the next chance line is %q", l, header, next)
		}
	}
	if swings != 3 {
		t.Errorf("%d swing lines, want 3", swings)
	}
}
