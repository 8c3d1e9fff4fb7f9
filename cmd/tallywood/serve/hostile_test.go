package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestHostileInput: every request a client should not make is refused
// with a clear status and changes nothing in the store: a wrong or missing
// token, a forged option id, another tester's game, an oversized body, a
// replayed request with another option, a missing CSRF token, a request
// from another site.
func TestHostileInput(t *testing.T) {
	ts := newTestServer(t)
	ana, bo := ts.invite("ana"), ts.invite("bo")
	anaGame, boGame := ts.start(ana, 0), ts.start(bo, 0)
	a := ts.state(ana, anaGame)
	code, a1, body := ts.decide(ana, anaGame, a.N, a.Options[0])
	if code != http.StatusOK {
		t.Fatalf("first decision: %d %s", code, body)
	}
	decisions := func() []Decision {
		ds, err := ts.store.Decisions(anaGame)
		if err != nil {
			t.Fatal(err)
		}
		bs, _ := ts.store.Decisions(boGame)
		return append(ds, bs...)
	}
	before := decisions()
	decideBody := func(n int, option, csrf string) []byte {
		b, _ := json.Marshal(decideRequest{N: n, Option: option, CSRF: csrf})
		return b
	}
	path := func(token string, game int64) string { return fmt.Sprintf("/t/%s/games/%d/decide", token, game) }
	wrong := strings.Repeat("A", tokenLen)
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        []byte
		header      map[string]string
		want        int
		says        string
	}{
		{"wrong token", "POST", path(wrong, anaGame), "application/json", decideBody(1, a1.Options[0], ts.srv.csrfFor(wrong)), nil, http.StatusForbidden, "not valid"},
		{"malformed token", "POST", path("abc", anaGame), "application/json", decideBody(1, a1.Options[0], ""), nil, http.StatusForbidden, "not valid"},
		{"missing token", "POST", fmt.Sprintf("/t/games/%d/decide", anaGame), "application/json", decideBody(1, a1.Options[0], ""), nil, http.StatusNotFound, "no such page"},
		{"designer's page with a tester's token", "GET", "/d/" + ana, "", nil, nil, http.StatusForbidden, "not valid"},
		{"forged option id", "POST", path(ana, anaGame), "application/json", decideBody(1, "public_works/0/3/0", ts.srv.csrfFor(ana)), nil, http.StatusUnprocessableEntity, "not one of the options"},
		{"option id of no kind", "POST", path(ana, anaGame), "application/json", decideBody(1, "teleport/0/0/0", ts.srv.csrfFor(ana)), nil, http.StatusBadRequest, "not an option kind"},
		{"another tester's game", "POST", path(ana, boGame), "application/json", decideBody(0, a.Options[0], ts.srv.csrfFor(ana)), nil, http.StatusNotFound, "no such game among yours"},
		{"another tester's game, read", "GET", fmt.Sprintf("/t/%s/games/%d", ana, boGame), "", nil, nil, http.StatusNotFound, "no such game among yours"},
		{"oversized body", "POST", path(ana, anaGame), "application/json", bytes.Repeat([]byte(" "), maxBody+1), nil, http.StatusRequestEntityTooLarge, "larger than"},
		{"replayed with another option", "POST", path(ana, anaGame), "application/json", decideBody(0, a.Options[len(a.Options)-1], ts.srv.csrfFor(ana)), nil, http.StatusConflict, "already made"},
		{"a decision ahead", "POST", path(ana, anaGame), "application/json", decideBody(5, a1.Options[0], ts.srv.csrfFor(ana)), nil, http.StatusConflict, "reload"},
		{"missing CSRF token", "POST", path(ana, anaGame), "application/json", decideBody(1, a1.Options[0], ""), nil, http.StatusForbidden, "form token"},
		{"another page's CSRF token", "POST", path(ana, anaGame), "application/json", decideBody(1, a1.Options[0], ts.srv.csrfFor(bo)), nil, http.StatusForbidden, "form token"},
		{"from another site", "POST", path(ana, anaGame), "application/json", decideBody(1, a1.Options[0], ts.srv.csrfFor(ana)), map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden, "another site"},
		{"another origin", "POST", path(ana, anaGame), "application/json", decideBody(1, a1.Options[0], ts.srv.csrfFor(ana)), map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, "another site"},
		{"unknown field", "POST", path(ana, anaGame), "application/json", []byte(`{"n":1,"option":"end/0/0/0","csrf":"x","game":2}`), nil, http.StatusBadRequest, "unknown field"},
		{"not JSON nor a form", "POST", path(ana, anaGame), "text/plain", []byte("1"), nil, http.StatusBadRequest, "JSON or a form"},
		{"hint with another's token", "POST", fmt.Sprintf("/t/%s/games/%d/hint", ana, boGame), "application/json", []byte(`{"csrf":"` + ts.srv.csrfFor(ana) + `"}`), nil, http.StatusNotFound, "no such game"},
		{"a deal past the plan's", "POST", fmt.Sprintf("/t/%s/deals/99", ana), "application/x-www-form-urlencoded", []byte("csrf=" + ts.srv.csrfFor(ana)), nil, http.StatusNotFound, "games 1 to 3"},
		{"invite without CSRF", "POST", "/d/" + ts.srv.designer + "/testers", "application/x-www-form-urlencoded", []byte("plan=1&name=eve"), nil, http.StatusForbidden, "form token"},
		{"export with a tester's token", "GET", "/d/" + ana + "/export/saves.zip", "", nil, nil, http.StatusForbidden, "not valid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, ts.http.URL+tc.path, bytes.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			res, err := ts.hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			out.ReadFrom(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want || !strings.Contains(out.String(), tc.says) {
				t.Errorf("%d %s; want %d saying %q", res.StatusCode, out.String(), tc.want, tc.says)
			}
		})
	}
	if after := decisions(); len(after) != len(before) {
		t.Fatalf("the store changed: %d decisions before, %d after", len(before), len(after))
	}
	testers, _ := ts.store.Testers()
	if len(testers) != 2 {
		t.Fatalf("%d testers: an invitation was accepted without its form token", len(testers))
	}
}

// TestReplayedDecision: the same decision sent twice (a double click, a
// retry after a lost answer) is applied once, and the second answer is
// the game as it stands.
func TestReplayedDecision(t *testing.T) {
	ts := newTestServer(t)
	ana := ts.invite("ana")
	id := ts.start(ana, 0)
	a := ts.state(ana, id)
	code1, first, _ := ts.decide(ana, id, a.N, a.Options[0])
	code2, second, _ := ts.decide(ana, id, a.N, a.Options[0])
	if code1 != http.StatusOK || code2 != http.StatusOK || !second.Replayed || first.Replayed {
		t.Fatalf("codes %d %d, replayed %v %v: want 200 twice, the second replayed", code1, code2, first.Replayed, second.Replayed)
	}
	if first.N != second.N || first.N != a.N+1 {
		t.Fatalf("after the first: decision %d, after the replay: %d; want %d both", first.N, second.N, a.N+1)
	}
	if ds, _ := ts.store.Decisions(id); len(ds) != 1 {
		t.Fatalf("%d decisions stored, want 1", len(ds))
	}
}

// TestRateLimit: a token past its burst is refused with 429 until its
// bucket refills.
func TestRateLimit(t *testing.T) {
	l := newLimiter(1, 3)
	for i := range 3 {
		if !l.allow("k") {
			t.Fatalf("request %d of a burst of 3 refused", i+1)
		}
	}
	if l.allow("k") {
		t.Fatal("a fourth request within the second allowed")
	}
	if !l.allow("other") {
		t.Fatal("another key refused")
	}
}
