package main

import (
	"bufio"
	"bytes"
	"encoding/json"

	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tallywood/cmd/tallywood/serve"
)

// served is one run of `tallywood serve` as a process.
type served struct {
	cmd       *exec.Cmd
	base      string // http://127.0.0.1:PORT
	dashboard string // the dashboard's path
}

// startServe runs the binary on store and reads the dashboard's link it
// prints.
func startServe(t *testing.T, bin, store string) *served {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--store", store, "--listen", "127.0.0.1:0", "--calibrate-games", "0", "--quiet")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	re := regexp.MustCompile(`Designer's dashboard: (http://[0-9.:]+)(/d/[A-Za-z0-9_-]+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, out)
			return &served{cmd: cmd, base: m[1], dashboard: m[2]}
		}
	}
	t.Fatalf("serve printed no dashboard link")
	return nil
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (s *served) get(t *testing.T, path string, accept string) []byte {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base+path, nil)
	req.Header.Set("Accept", accept)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.StatusCode, b)
	}
	return b
}

func (s *served) postForm(t *testing.T, path string, form url.Values) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(s.base+path, form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

type crashAnswer struct {
	N        int      `json:"n"`
	Over     bool     `json:"over"`
	Replayed bool     `json:"replayed"`
	Options  []string `json:"options"`
}

func (s *served) decide(t *testing.T, game, csrf string, n int, option string) crashAnswer {
	t.Helper()
	// Within the server's 20 requests a second a link.
	time.Sleep(55 * time.Millisecond)
	body, _ := json.Marshal(map[string]any{"n": n, "option": option, "csrf": csrf})
	req, _ := http.NewRequest("POST", s.base+game+"/decide", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("decision %d: %d %s", n, res.StatusCode, data)
	}
	var a crashAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestServeSurvivesKill runs `tallywood serve`, plays part of a game,
// kills the process with SIGKILL (no chance to flush anything), starts it
// again on the same store and finishes the game: the links still work,
// the game resumes at the decision it had reached, the last decision sent
// again is not applied twice, and the store holds every decision once.
func TestServeSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tallywood")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	store := filepath.Join(dir, "playtests.db")
	s := startServe(t, bin, store)
	dash := s.get(t, s.dashboard, "text/html")
	csrf := csrfField.FindSubmatch(dash)[1]
	if res := s.postForm(t, s.dashboard+"/testers", url.Values{"csrf": {string(csrf)}, "plan": {"1"}, "name": {"ana"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("invite: %d", res.StatusCode)
	}
	link := regexp.MustCompile(`/t/[A-Za-z0-9_-]{43}`).Find(s.get(t, s.dashboard, "text/html"))
	tcsrf := string(csrfField.FindSubmatch(s.get(t, string(link), "text/html"))[1])
	res := s.postForm(t, string(link)+"/deals/0", url.Values{"csrf": {tcsrf}})
	game := res.Header.Get("Location")
	var a crashAnswer
	if err := json.Unmarshal(s.get(t, game, "application/json"), &a); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(40, 41))
	var made []string
	for len(made) < 60 {
		id := a.Options[rng.IntN(len(a.Options))]
		a = s.decide(t, game, tcsrf, a.N, id)
		made = append(made, id)
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	s.cmd.Wait()

	again := startServe(t, bin, store)
	if again.dashboard != s.dashboard {
		t.Fatalf("the dashboard's link changed across the restart")
	}
	var resumed crashAnswer
	if err := json.Unmarshal(again.get(t, game, "application/json"), &resumed); err != nil {
		t.Fatal(err)
	}
	if resumed.N != len(made) {
		t.Fatalf("after the restart the game is at decision %d, %d were made", resumed.N, len(made))
	}
	// The answer to the last decision was lost in the crash, as far as
	// the page knows: it sends it again.
	if r := again.decide(t, game, tcsrf, len(made)-1, made[len(made)-1]); !r.Replayed || r.N != len(made) {
		t.Fatalf("the last decision sent again: %+v, want replayed at %d", r, len(made))
	}
	a = resumed
	for !a.Over {
		id := a.Options[rng.IntN(len(a.Options))]
		a = again.decide(t, game, tcsrf, a.N, id)
		made = append(made, id)
	}
	again.cmd.Process.Signal(syscall.SIGTERM)
	waitExit(t, again.cmd)

	st, err := serve.OpenReadOnly(store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.Games(0)
	if err != nil || len(games) != 1 || !games[0].Finished {
		t.Fatalf("games %+v, %v: want one, finished", games, err)
	}
	ds, err := st.Decisions(games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, d := range ds {
		stored = append(stored, d.Option)
	}
	if strings.Join(stored, " ") != strings.Join(made, " ") {
		t.Fatalf("the store holds %d decisions, %d were made:\nstored %v\nmade   %v", len(stored), len(made), stored, made)
	}
	t.Logf("%d decisions, killed after 60; the game finished with margin %d", len(made), games[0].Margin)
}

// waitExit waits for a process told to stop, killing it after 10 s.
func waitExit(t *testing.T, cmd *exec.Cmd) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve stopped with %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Error("serve did not stop within 10 s of SIGTERM")
	}
}
