package engine

import (
	"strconv"
	"testing"
)

// TestMatchFields: globs name the numbers of the rules file as --set
// writes their paths, and every path listed is one With accepts.
func TestMatchFields(t *testing.T) {
	r := Reference()
	for _, tt := range []struct {
		glob string
		min  int
	}{
		{"difficulties.hard.*", 2},
		{"actions.campaign_polling", 1},
		{"strategy_cards[PW-01].*", 1},
	} {
		fs, err := MatchFields(r, tt.glob)
		if err != nil {
			t.Fatalf("%s: %v", tt.glob, err)
		}
		if len(fs) < tt.min {
			t.Errorf("%s: %d fields, want at least %d", tt.glob, len(fs), tt.min)
		}
		for _, f := range fs {
			if _, err := r.With(Assignment{f.Path, strconv.Itoa(f.Value)}); err != nil {
				t.Errorf("%s: its own value does not set: %v", f.Path, err)
			}
		}
	}
	if _, err := MatchFields(r, "no.such.*"); err == nil {
		t.Error("a glob that matches nothing was accepted")
	}
}
