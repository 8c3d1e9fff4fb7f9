package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"tallywood/engine"
)

// testServer is a server on a fresh store, listening on loopback.
type testServer struct {
	t     testing.TB
	srv   *Server
	store *Store
	http  *httptest.Server
	hc    *http.Client
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	store, err := Open(filepath.Join(t.TempDir(), "playtests.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Store: store, Rate: 1000, Burst: 1000, Log: log.New(testLog{t}, "", 0)})
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{t: t, srv: srv, store: store, http: newHTTPTest(srv), hc: noRedirects()}
	t.Cleanup(func() {
		ts.http.Close()
		srv.Close()
		store.Close()
	})
	return ts
}

// invite adds a tester to the first plan and returns their token.
func (ts *testServer) invite(name string) string {
	ts.t.Helper()
	plans, err := ts.store.Plans()
	if err != nil {
		ts.t.Fatal(err)
	}
	tr, err := ts.store.AddTester(plans[0].ID, name, newToken())
	if err != nil {
		ts.t.Fatal(err)
	}
	return tr.Token
}

// do sends a request and returns the status and body.
func (ts *testServer) do(method, path, contentType string, body []byte) (int, []byte) {
	ts.t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, bytes.NewReader(body))
	if err != nil {
		ts.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if contentType == "application/json" || method == "GET" && strings.Contains(path, "/games/") {
		req.Header.Set("Accept", "application/json")
	}
	res, err := ts.hc.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		ts.t.Fatal(err)
	}
	return res.StatusCode, data
}

// start starts deal of the tester's plan and returns the game's id.
func (ts *testServer) start(token string, deal int) int64 {
	ts.t.Helper()
	form := url.Values{"csrf": {ts.srv.csrfFor(token)}}
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/t/%s/deals/%d", ts.http.URL, token, deal), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := ts.hc.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	res.Body.Close()
	var id int64
	if _, err := fmt.Sscanf(res.Header.Get("Location"), "/t/"+token+"/games/%d", &id); err != nil || res.StatusCode != http.StatusSeeOther {
		ts.t.Fatalf("start: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	return id
}

// state reads a game as the page's script does.
func (ts *testServer) state(token string, game int64) gameAnswer {
	ts.t.Helper()
	code, body := ts.do("GET", fmt.Sprintf("/t/%s/games/%d", token, game), "", nil)
	if code != http.StatusOK {
		ts.t.Fatalf("state: %d %s", code, body)
	}
	var a gameAnswer
	if err := json.Unmarshal(body, &a); err != nil {
		ts.t.Fatal(err)
	}
	return a
}

// decide sends a decision as the page's script does.
func (ts *testServer) decide(token string, game int64, n int, option string) (int, gameAnswer, []byte) {
	ts.t.Helper()
	body, _ := json.Marshal(decideRequest{N: n, Option: option, CSRF: ts.srv.csrfFor(token)})
	code, data := ts.do("POST", fmt.Sprintf("/t/%s/games/%d/decide", token, game), "application/json", body)
	var a gameAnswer
	if code == http.StatusOK {
		if err := json.Unmarshal(data, &a); err != nil {
			ts.t.Fatal(err)
		}
	}
	return code, a, data
}

// playOut plays a game to its end from a, choosing options from rng,
// and returns the ids chosen.
func (ts *testServer) playOut(token string, game int64, a gameAnswer, rng *rand.Rand) []string {
	ts.t.Helper()
	var chosen []string
	for !a.Over {
		if len(a.Options) == 0 {
			ts.t.Fatalf("decision %d: no option", a.N)
		}
		id := a.Options[rng.IntN(len(a.Options))]
		code, next, body := ts.decide(token, game, a.N, id)
		if code != http.StatusOK {
			ts.t.Fatalf("decision %d %s: %d %s", a.N, id, code, body)
		}
		chosen = append(chosen, id)
		a = next
	}
	return chosen
}

func optionIDs(opts []engine.Option) []string {
	ids := make([]string, len(opts))
	for i, o := range opts {
		ids[i] = engine.OptionID(o)
	}
	return ids
}

// testLog writes the server's log to the test's.
type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func newHTTPTest(srv *Server) *httptest.Server { return httptest.NewServer(srv.Handler()) }

// noRedirects is a client that reads a redirect as the answer.
func noRedirects() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// page reads a page as a browser does (HTML), failing on another status
// than 200.
func (ts *testServer) page(path string) []byte {
	ts.t.Helper()
	req, _ := http.NewRequest("GET", ts.http.URL+path, nil)
	req.Header.Set("Accept", "text/html")
	res, err := ts.hc.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		ts.t.Fatalf("GET %s: %d %s", path, res.StatusCode, data)
	}
	return data
}
