package serve

import (
	"database/sql"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tallywood/engine"
)

var update = flag.Bool("update", false, "write testdata/store-v1.db anew")

// fixtureV1 is a store as tallywood wrote it at schema version 1: the
// default plan, a tester, a game of three decisions.
const fixtureV1 = "testdata/store-v1.db"

// writeFixtureV1 writes the version-1 store with version 1's own SQL.
func writeFixtureV1(t *testing.T, path string) {
	st, err := open(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := engine.Reference()
	if _, err := st.AddPlan(Plan{Name: defaultPlanName, RulesName: engine.ReferenceName, Rules: r.Canonical(), RulesHash: r.Hash,
		Mode: "normal", Seed: 1, Deals: 3, Politician: "moderate", Hint: true}); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{settingDesigner: strings.Repeat("d", tokenLen), settingSecret: strings.Repeat("s", tokenLen)} {
		if _, err := st.db.Exec("INSERT INTO settings (key, value) VALUES (?, ?)", k, v); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.AddTester(1, "old", strings.Repeat("t", tokenLen)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.Exec("INSERT INTO games (tester_id, deal, politician, started) VALUES (1, 0, 'moderate', ?)", time.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	for n, opt := range []string{"card/0/0/0", "column/0/0/0", "row/0/0/0"} {
		if _, err := st.db.Exec("INSERT INTO decisions (game_id, n, option, hinted, at) VALUES (1, ?, ?, 0, ?)", n, opt, time.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.db.Exec("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE; VACUUM"); err != nil {
		t.Fatal(err)
	}
}

// TestOpenOlderStore opens a store written at schema version 1 (the
// committed fixture): it is migrated to this version, keeps its plan,
// tester and game (decisions without a time to decide), and the game
// plays on to its end.
func TestOpenOlderStore(t *testing.T) {
	if *update {
		os.Remove(fixtureV1)
		writeFixtureV1(t, fixtureV1)
	}
	data, err := os.ReadFile(fixtureV1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := st.version(); v != SchemaVersion {
		t.Fatalf("version %d after opening, want %d", v, SchemaVersion)
	}
	ds, err := st.Decisions(1)
	if err != nil || len(ds) != 3 || ds[0].ThinkMS != -1 || ds[2].Option != "row/0/0/0" {
		t.Fatalf("decisions %+v, %v: want the fixture's three, times unknown", ds, err)
	}
	srv, err := New(Config{Store: st, Rate: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := &testServer{t: t, srv: srv, store: st}
	ts.http = newHTTPTest(srv)
	defer ts.http.Close()
	ts.hc = noRedirects()
	token := strings.Repeat("t", tokenLen)
	a := ts.state(token, 1)
	if a.N != 3 {
		t.Fatalf("the resumed game is at decision %d, want 3", a.N)
	}
	ts.playOut(token, 1, a, rand.New(rand.NewPCG(3, 4)))
	if g, _, _ := st.Game(1); !g.Finished || g.ThinkN == 0 {
		t.Fatalf("game %+v: want finished, with times of the new decisions", g)
	}
	st.Close()
}

// TestStoreRefuses: a store of a newer version and another program's
// SQLite file are refused, naming why; nothing is changed in them.
func TestStoreRefuses(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	db, err := sql.Open("sqlite", newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE x (a); PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	db2, _ := sql.Open("sqlite", other)
	if _, err := db2.Exec("CREATE TABLE notes (a)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db2.Close()
	text := filepath.Join(dir, "text.db")
	os.WriteFile(text, []byte("hello, this is not a database at all, just some text\n"), 0o644)
	for _, tc := range []struct{ path, want string }{
		{newer, "schema version 99 is newer"},
		{other, "another program"},
		{text, "not a SQLite database"},
		{dir, "not a regular file"},
	} {
		_, err := Open(tc.path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s): %v, want %q", filepath.Base(tc.path), err, tc.want)
		}
	}
	if _, err := OpenReadOnly(filepath.Join(dir, "missing.db")); err == nil {
		t.Error("OpenReadOnly of a missing file: no error")
	}
}
