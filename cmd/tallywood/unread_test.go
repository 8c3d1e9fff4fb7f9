package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestCompareWarnsUnreadField: compare --play-unread and compare --seats
// print the warning of sim's UnreadWarning and TableUnreadWarning (whose
// test has the cases) before playing, and none when a change is read;
// without --play-unread, compare refuses to play only cells that cannot
// read the change.
func TestCompareWarnsUnreadField(t *testing.T) {
	warning := "tallywood: compare: warning: no changed rules field can affect"
	for _, c := range []struct {
		name string
		args []string
		want string // "" for no warning
	}{
		{"Hard's divisor at Normal", []string{"--b-set", "difficulties.hard.bonus_divisor=3", "--mode", "normal", "--play-unread"},
			"difficulties.hard.bonus_divisor is read by only the solo game at hard"},
		{"Hard's divisor at both", []string{"--b-set", "difficulties.hard.bonus_divisor=3"}, ""},
		{"a Solo card at a table", []string{"--seats", "3", "--b-set", "solo_cards[S-03].left_action=Research"},
			"solo_cards[S-03].left_action is read by only the solo game (C-16"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"compare", "--games", "4", "--quiet", "--format", "json"}, c.args...)
			if code := run(args, &out, &errb); code != exitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			got := errb.String()
			switch {
			case c.want == "" && strings.Contains(got, warning):
				t.Errorf("warns on a field the games read:\n%s", got)
			case c.want != "" && (!strings.Contains(got, warning) || !strings.Contains(got, c.want)):
				t.Errorf("stderr\n%s\nwant the warning with %q", got, c.want)
			}
		})
	}
}

// TestCompareRefusesUnreadOnly: a change no cell can read plays nothing
// unless --play-unread, and the error says why and how.
func TestCompareRefusesUnreadOnly(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"compare", "--games", "4", "--quiet", "--b-set", "difficulties.hard.bonus_divisor=3", "--mode", "normal"}, &out, &errb)
	if code != exitBadArgs || out.Len() != 0 || !strings.Contains(errb.String(), "nothing to play: no changed rules field can affect") ||
		!strings.Contains(errb.String(), "(--play-unread plays it anyway)") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out.String(), errb.String())
	}
}
