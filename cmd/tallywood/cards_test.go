package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCardsShardsMerge: cards from the command line, as shards merged by
// merge, gives the table of the whole run, for 1 and 2 workers; bad flags
// are named.
func TestCardsShardsMerge(t *testing.T) {
	dir := t.TempDir()
	args := []string{"cards", "--mode", "hard", "--policy", "greedy", "--games", "120", "--seed", "9800", "--quiet"}
	code, whole, errs := runCLI(t, append(args, "--workers", "1")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(whole, "Solo cards, effect: played vs not played") {
		t.Errorf("table:\n%s", whole)
	}
	var parts []string
	for _, k := range []string{"1", "2"} {
		f := filepath.Join(dir, "part"+k+".json")
		if code, _, errs := runCLI(t, append(args, "--workers", "2", "--shard", k+"/2", "--out", f)...); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", k, code, errs)
		}
		parts = append(parts, f)
	}
	code, merged, errs := runCLI(t, append([]string{"merge"}, parts...)...)
	if code != exitOK || merged != whole {
		t.Errorf("merge: exit %d, %s\n%s\nwant\n%s", code, errs, merged, whole)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cards", "--games", "0"}, "--games"},
		{[]string{"cards", "--set", "solo_cards[S-99].left_action=Campaign"}, "cards: --set"},
		{[]string{"cards", "--all", "--format", "json"}, "--all"},
	} {
		if code, _, errs := runCLI(t, tt.args...); code == exitOK || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to name %q", tt.args, code, errs, tt.want)
		}
	}
}
