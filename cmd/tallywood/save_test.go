package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/cmd/tallywood/play"
	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// forgeSave writes a save file of a table game whose other seats play
// lineup, in seat order, the person's seat last, with the check
// recomputed as anyone can.
func forgeSave(t *testing.T, path string, lineup ...string) {
	t.Helper()
	r := engine.Reference()
	seats := len(lineup) + 1
	pols := deal.SeatsPoliticians(deal.GameSeed(5, 0), seats, len(r.Politicians))
	rec := play.Record{Format: play.RecordFormat, RulesHash: r.Hash, RulesVersion: r.Version, Seed: 5,
		Politician: r.Politicians[pols[seats-1]].ID, Seats: seats, Seat: seats, Lineup: lineup}
	if err := os.WriteFile(path, rec.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadRunsNothing: a save file, which anyone can write, starts no
// program and no search beyond the skill levels without --trust-lineup, on
// trace --load and play --load, and the refusal says why. Every lineup
// that must not run ends with a sentinel, a program that touches a marker
// file when it starts, at the seat before the person's, so that it plays
// before them in the first round: a load that ran any of the lineup before
// refusing it would leave the mark. In the search's lineup the search
// comes first, so that it is what the load refuses. The trusted loads show
// that the sentinel does leave its mark when the lineup runs.
func TestLoadRunsNothing(t *testing.T) {
	tests := []struct {
		name   string
		lineup []string // sentinel: the sentinel program
		args   []string // the command, --load's argument and flags after it
		code   int
		err    string
		ran    bool // the sentinel ran
	}{
		{"trace exec", []string{"sentinel"}, []string{"trace"}, exitBadArgs,
			`lineup[0] "exec:sh -c \"touch MARKER\"" starts a program; a save file runs that only when the command line says so: if you trust the file, add --trust-lineup`, false},
		{"play exec", []string{"sentinel"}, []string{"play"}, exitBadArgs, `lineup[0] "exec:sh -c \"touch MARKER\"" starts a program`, false},
		{"trace search", []string{"mcts:iters=100000", "sentinel"}, []string{"trace"}, exitBadArgs,
			`lineup[0] "mcts:iters=100000" sets parameters beyond the defaults and the skill levels (a search of any size, or a file it reads)`, false},
		{"play search", []string{"mcts:iters=100000", "sentinel"}, []string{"play"}, exitBadArgs, `lineup[0] "mcts:iters=100000" sets parameters beyond`, false},
		// A file a parameter names is not opened before the trust check
		// (it was: the error told whether /etc/passwd exists, its first
		// character, and the keys of a JSON file).
		{"trace weights", []string{"learned:weights=SECRET"}, []string{"trace"}, exitBadArgs,
			`lineup[0] "learned:weights=SECRET" sets parameters beyond the defaults and the skill levels (a search of any size, or a file it reads)`, false},
		{"play weights", []string{"learned:weights=SECRET", "sentinel"}, []string{"play"}, exitBadArgs, `lineup[0] "learned:weights=SECRET" sets parameters beyond`, false},
		{"trace weights trusted", []string{"learned:weights=WEIGHTS"}, []string{"trace", "--trust-lineup"}, exitOK, "", false},
		{"trace level", []string{"expert"}, []string{"trace"}, exitOK, "", false},
		{"play level", []string{"expert"}, []string{"play"}, exitOK, "", false},
		// Trusted, the programs run (and fail: sh is no protocol player).
		{"trace exec trusted", []string{"sentinel"}, []string{"trace", "--trust-lineup"}, exitBadArgs, "exec: ", true},
		{"play exec trusted", []string{"sentinel"}, []string{"play", "--trust-lineup"}, exitBadArgs, "exec: ", true},
		{"trace second seat trusted", []string{"greedy", "sentinel"}, []string{"trace", "--trust-lineup"}, exitBadArgs, "exec: ", true},
		{"play second seat trusted", []string{"greedy", "sentinel"}, []string{"play", "--trust-lineup"}, exitBadArgs, "exec: ", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			marker := filepath.Join(dir, "ran")
			sentinel := `exec:sh -c "touch ` + marker + `"`
			secret := filepath.Join(dir, "secret.json")
			weights := filepath.Join(dir, "weights.json")
			os.WriteFile(secret, []byte(`{"password": "hunter2"}`), 0o600)
			os.WriteFile(weights, policy.ShippedNet.Encode(), 0o644)
			words := strings.NewReplacer("sentinel", sentinel, "SECRET", secret, "WEIGHTS", weights)
			var lineup []string
			for _, p := range tt.lineup {
				lineup = append(lineup, words.Replace(p))
			}
			save := filepath.Join(dir, "save.json")
			forgeSave(t, save, lineup...)
			args := append([]string{"--load", save}, tt.args[1:]...)
			var code int
			var stderr string
			if tt.args[0] == "trace" {
				code, _, stderr = runCLI(t, append([]string{"trace"}, args...)...)
			} else {
				code, _, stderr = runPlayWith(t, "q\n", args...)
			}
			if want := strings.NewReplacer("MARKER", marker, "SECRET", secret).Replace(tt.err); code != tt.code || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr %q\nwant exit %d, stderr with %q", code, stderr, tt.code, want)
			}
			if strings.Contains(stderr, "weights") && strings.Contains(stderr, "password") {
				t.Errorf("the refusal tells of the file's contents: %s", stderr)
			}
			if tt.ran && strings.Contains(stderr, "--trust-lineup") {
				t.Errorf("a trusted load was refused: %s", stderr)
			}
			_, err := os.Stat(marker)
			if ran := err == nil; ran != tt.ran {
				t.Errorf("the sentinel program ran: %v, want %v", ran, tt.ran)
			}
		})
	}
	if code, _, stderr := runCLI(t, "trace", "--trust-lineup"); code != exitBadArgs || !strings.Contains(stderr, "--trust-lineup only matters with --load") {
		t.Errorf("--trust-lineup without --load: exit %d, stderr %q", code, stderr)
	}
}

// TestSaveFollowsOutRules: play's s writes as --out does: a symlink's
// target is written and the link stays, a file keeps its mode, a FIFO is
// written into, a device is never replaced (s replaced them all
// and made a 0600 file 0644).
func TestSaveFollowsOutRules(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	_, out, _ := runPlayWith(t, "1\ns "+link+"\ns "+fifo+"\ns /dev/full\ns "+dir+"\nq\n", "--seed", "5")
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	st, err := os.Stat(target)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600: %v", st.Mode(), err)
	}
	if rec, err := play.ReadRecord(target); err != nil || len(rec.Decisions) != 1 {
		t.Errorf("the link's target does not hold the save: %v", err)
	}
	select {
	case b := <-got:
		if _, err := play.ParseRecord(b); err != nil {
			t.Errorf("the FIFO got %q: %v", b, err)
		}
	case <-time.After(10 * time.Second):
		t.Error("nothing written into the FIFO")
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	if st, err := os.Lstat("/dev/full"); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("/dev/full was replaced: %v", err)
	}
	for _, want := range []string{"Could not save: write /dev/full: no space left on device", "Could not save: save file \"" + dir + "\" is a directory"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}
