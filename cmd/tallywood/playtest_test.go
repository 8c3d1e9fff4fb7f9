package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// firstOption is a player who takes the first option of every menu: it
// watches play's output for the prompt and answers with the prompt's
// first number, so a test can play a whole game through play's input.
type firstOption struct {
	out     bytes.Buffer
	seen    int // how much of out was searched for prompts
	answers chan string
	pending []byte
}

var promptFirst = regexp.MustCompile(`Your choice \[(\d+)`)

func (p *firstOption) Write(b []byte) (int, error) {
	p.out.Write(b)
	text := p.out.Bytes()[p.seen:]
	for _, m := range promptFirst.FindAllSubmatchIndex(text, -1) {
		p.answers <- string(text[m[2]:m[3]]) + "\n"
	}
	if ms := promptFirst.FindAllIndex(text, -1); len(ms) > 0 {
		p.seen += ms[len(ms)-1][1]
	}
	return len(b), nil
}

func (p *firstOption) Read(b []byte) (int, error) {
	if len(p.pending) == 0 {
		select {
		case a := <-p.answers:
			p.pending = []byte(a)
		default:
			return 0, io.EOF // play asked nothing more
		}
	}
	n := copy(b, p.pending)
	p.pending = p.pending[n:]
	return n, nil
}

// A game played with --tester is saved when it ends, and calibrate reads
// the save: the tester is named, the decisions fitted, the result counted.
func TestPlayTesterCalibrate(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "ana.json")
	player := &firstOption{answers: make(chan string, 1000)}
	old := playStdin
	playStdin = player
	defer func() { playStdin = old }()
	var errb bytes.Buffer
	if code := run([]string{"play", "--seed", "13021", "--mode", "normal", "--tester", "ana", "--save", save}, player, &errb); code != exitOK {
		t.Fatalf("play: exit %d: %s", code, errb.String())
	}
	data, err := os.ReadFile(save)
	if err != nil {
		t.Fatalf("the finished game was not saved: %v\n%s", err, player.out.String())
	}
	if !strings.Contains(string(data), `"tester": "ana"`) {
		t.Errorf("the save does not name the tester:\n%.400s", data)
	}
	code, out, errs := runCLI(t, "calibrate", save, "--games", "20", "--search-games", "1", "--skills", "0,0.5,1,2",
		"--levels", "casual", "--format", "json", "--quiet")
	if code != exitOK {
		t.Fatalf("calibrate: exit %d: %s", code, errs)
	}
	var doc struct {
		Testers []struct {
			Name        string
			DecisionFit *struct{ Decisions int } `json:"decision_fit"`
			ResultFit   *struct{ Games int }     `json:"result_fit"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Testers) != 1 || doc.Testers[0].Name != "ana" || doc.Testers[0].DecisionFit == nil || doc.Testers[0].ResultFit == nil {
		t.Errorf("calibrate of one tester's save: %.800s", out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--tester", " "}, "--tester: a name, not empty"},
		{[]string{"--tester", "a\x07b"}, "a control or hidden character"},
		{[]string{"--tester", strings.Repeat("x", 300)}, "more than"},
		{[]string{"--load", save, "--tester", "bo"}, "--tester cannot be used with --load"},
	} {
		code, _, errs := runPlayWith(t, "", tt.args...)
		if code != exitBadArgs || !strings.Contains(errs, tt.want) {
			t.Errorf("play %q: exit %d, stderr %q; want %d and %q", tt.args, code, errs, exitBadArgs, tt.want)
		}
	}
}

// sim --record writes the same record for any number of workers, and
// only for the solo game to a file.
func TestSimRecord(t *testing.T) {
	dir := t.TempDir()
	var recs [2][]byte
	for w := range 2 {
		path := filepath.Join(dir, "rec.jsonl")
		if code, _, errs := runCLI(t, "sim", "--policy", "dial:skill=0.5", "--mode", "normal,hard", "--games", "6", "--seed", "13022",
			"--workers", []string{"1", "2"}[w], "--record", path, "--quiet"); code != exitOK {
			t.Fatalf("workers %d: exit %d: %s", w+1, code, errs)
		}
		var err error
		if recs[w], err = os.ReadFile(path); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(recs[0], recs[1]) {
		t.Error("the record differs between 1 and 2 workers")
	}
	if games := bytes.Count(recs[0], []byte(`"type":"game"`)); games != 12 {
		t.Errorf("%d games recorded, want 12 (6 on each difficulty)", games)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--record", "-"}, "--record -: the record needs a file"},
		{[]string{"--record", filepath.Join(dir, "same.json"), "--out", filepath.Join(dir, "same.json")}, "give each output a file of its own"},
		{[]string{"--record", filepath.Join(dir, "x.jsonl"), "--seats", "2"}, "--record"},
	} {
		code, _, errs := runCLI(t, append([]string{"sim", "--games", "2", "--quiet"}, tt.args...)...)
		if code == exitOK || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", tt.args, code, errs, tt.want)
		}
	}
}

// playToEnd plays a whole game of play args with the first option of
// every menu, in the current directory, and returns play's output.
func playToEnd(t *testing.T, args ...string) string {
	t.Helper()
	player := &firstOption{answers: make(chan string, 1000)}
	old := playStdin
	playStdin = player
	defer func() { playStdin = old }()
	var errb bytes.Buffer
	if code := run(append([]string{"play"}, args...), player, &errb); code != exitOK {
		t.Fatalf("play %q: exit %d: %s", args, code, errb.String())
	}
	return player.out.String()
}

// TestPlayTesterSavesApart: no playtest is lost. The default save name of
// a tester's game names the tester, and a tester's game never replaces a
// file it did not write: a second game of the same tester and seed, or of
// one --save, is saved beside the first. Before, bo's finished game
// replaced ana's (both tallywood-seed-21.json).
func TestPlayTesterSavesApart(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tt := range []struct {
		args []string
		file string
	}{
		{[]string{"--tester", "ana"}, "tallywood-seed-21-ana.json"},
		{[]string{"--tester", "bo"}, "tallywood-seed-21-bo.json"},
		{[]string{"--tester", "ana"}, "tallywood-seed-21-ana-2.json"},
		{[]string{"--tester", "../x/ana z"}, "tallywood-seed-21-x-ana-z.json"},
		{[]string{"--tester", "cy", "--save", "game.json"}, "game.json"},
		{[]string{"--tester", "dee", "--save", "game.json"}, "game-2.json"},
	} {
		args := append([]string{"--seed", "21", "--mode", "normal"}, tt.args...)
		out := playToEnd(t, args...)
		if want := "Saved the finished game to " + tt.file + ":"; !strings.Contains(out, want) {
			t.Errorf("play %q: no %q in the output:\n%s", args, want, out[max(0, len(out)-600):])
		}
	}
	testers := map[string]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec struct{ Tester string }
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		testers[filepath.Base(f)] = rec.Tester
	}
	want := map[string]string{"tallywood-seed-21-ana.json": "ana", "tallywood-seed-21-bo.json": "bo", "tallywood-seed-21-ana-2.json": "ana",
		"tallywood-seed-21-x-ana-z.json": "../x/ana z", "game.json": "cy", "game-2.json": "dee"}
	if fmt.Sprint(testers) != fmt.Sprint(want) {
		t.Errorf("the saves and their testers: %v, want %v", testers, want)
	}
}
