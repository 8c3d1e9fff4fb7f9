package serve

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// The store is one SQLite file: the playtest plans, the testers and their
// tokens, every game and every decision, each decision committed before
// the server answers it. Its schema is versioned by SQLite's user_version:
// migrations[i] takes a store from version i to i+1, so a store written by
// an older tallywood opens and is brought up to date, and one written by a
// newer one is refused.

// migrations are the schema's steps, in order; never edit one that has
// shipped, add the next.
var migrations = []string{
	// 1: plans, testers, games, decisions.
	`CREATE TABLE settings (
		key   TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);
	CREATE TABLE plans (
		id         INTEGER PRIMARY KEY,
		name       TEXT NOT NULL UNIQUE,
		rules_name TEXT NOT NULL,
		rules      BLOB NOT NULL,
		rules_hash TEXT NOT NULL,
		mode       TEXT NOT NULL,
		seed       INTEGER NOT NULL,
		deals      INTEGER NOT NULL,
		politician TEXT NOT NULL,
		hint       INTEGER NOT NULL,
		chance     INTEGER NOT NULL,
		created    INTEGER NOT NULL
	);
	CREATE TABLE testers (
		id      INTEGER PRIMARY KEY,
		plan_id INTEGER NOT NULL REFERENCES plans(id),
		name    TEXT NOT NULL,
		token   TEXT NOT NULL UNIQUE,
		created INTEGER NOT NULL,
		UNIQUE (plan_id, name)
	);
	CREATE TABLE games (
		id           INTEGER PRIMARY KEY,
		tester_id    INTEGER NOT NULL REFERENCES testers(id),
		deal         INTEGER NOT NULL,
		politician   TEXT NOT NULL,
		started      INTEGER NOT NULL,
		finished     INTEGER,
		margin       INTEGER,
		hint_pending INTEGER NOT NULL DEFAULT 0,
		UNIQUE (tester_id, deal)
	);
	CREATE TABLE decisions (
		game_id INTEGER NOT NULL REFERENCES games(id),
		n       INTEGER NOT NULL,
		option  TEXT NOT NULL,
		hinted  INTEGER NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (game_id, n)
	);`,
	// 2: how long the tester looked at each decision before making it, as
	// the server saw it (from the answer that showed it to the request
	// that made it); NULL in games stored before it.
	`ALTER TABLE decisions ADD COLUMN think_ms INTEGER;`,
}

// SchemaVersion is the version this tallywood writes.
var SchemaVersion = len(migrations)

// Store is an open store file: one connection writes (SQLite has one
// writer at a time), a few read beside it (the write-ahead log lets
// readers see the last commit while a write goes on).
type Store struct {
	db   *sql.DB // writes, and reads inside a write
	rdb  *sql.DB // reads
	Path string

	// The group commit's writer, started at the first decision.
	writerOnce sync.Once
	commits    chan *commit
	writerDone chan struct{}
}

// readers bounds the connections that read.
const readers = 4

// dsn opens path with what a store that loses nothing needs: the write-ahead
// log, a full sync at every commit (a decision survives a power cut once
// answered), foreign keys, and a writer that waits for another's lock
// instead of failing.
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Set("_txlock", "immediate")
	mode := ""
	if readOnly {
		mode = "mode=ro&"
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + mode + q.Encode()
}

// Open opens the store at path, creating it when it does not exist, and
// brings its schema up to SchemaVersion.
func Open(path string) (*Store, error) {
	return open(path, SchemaVersion)
}

// open opens the store and migrates it to version upTo (tests write
// stores of older versions with it).
func open(path string, upTo int) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("store %s: not a regular file", path)
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, rdb: db, Path: path}
	if err := s.migrate(upTo); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	if s.rdb, err = sql.Open("sqlite", dsn(path, true)); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	s.rdb.SetMaxOpenConns(readers)
	return s, nil
}

// OpenReadOnly opens an existing store to read it (tallywood calibrate
// --store): it must be of this version, which reading does not change.
func OpenReadOnly(path string) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("store %s: not a regular file", path)
	}
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	db.SetMaxOpenConns(readers)
	s := &Store{db: db, rdb: db, Path: path}
	v, err := s.version()
	switch {
	case err != nil:
		db.Close()
		return nil, fmt.Errorf("store %s: not a tallywood store: %v", path, err)
	case v == 0:
		db.Close()
		return nil, fmt.Errorf("store %s: not a tallywood store (schema version 0)", path)
	case v > SchemaVersion:
		db.Close()
		return nil, fmt.Errorf("store %s: schema version %d is newer than this tallywood's %d: use a newer tallywood", path, v, SchemaVersion)
	case v < SchemaVersion:
		db.Close()
		return nil, fmt.Errorf("store %s: schema version %d: open it once with this tallywood's serve to bring it to %d", path, v, SchemaVersion)
	}
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error {
	started := true
	s.writerOnce.Do(func() { started = false })
	if started {
		close(s.commits)
		<-s.writerDone
	}
	if s.rdb != s.db {
		s.rdb.Close()
	}
	return s.db.Close()
}

func (s *Store) version() (int, error) {
	var v int
	err := s.db.QueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}

// migrate applies the migrations the store lacks, each in a transaction
// with its new version, so that a crash leaves a store at one version or
// the next.
func (s *Store) migrate(upTo int) error {
	v, err := s.version()
	if err != nil {
		return fmt.Errorf("not a SQLite database: %v", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this tallywood's %d: use a newer tallywood", v, len(migrations))
	}
	if v == 0 {
		// A file that holds tables but no version is another program's.
		var n int
		if err := s.db.QueryRow("SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return errors.New("a SQLite database of another program (tables and no tallywood schema version)")
		}
	}
	for ; v < upTo; v++ {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrating the schema to version %d: %v", v+1, err)
		}
		if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrating the schema to version %d: %v", v+1, err)
		}
	}
	return nil
}

// Setting reads a setting; ok is false when it is not set.
func (s *Store) Setting(key string) (value string, ok bool, err error) {
	err = s.rdb.QueryRow("SELECT value FROM settings WHERE key = ?", key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return value, err == nil, err
}

// EnsureSetting returns the setting key, setting it to make() first when
// it is not set.
func (s *Store) EnsureSetting(key string, make func() string) (string, error) {
	if _, err := s.db.Exec("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", key, make()); err != nil {
		return "", err
	}
	v, _, err := s.Setting(key)
	return v, err
}

// Plan is a playtest plan: the rules, the difficulty and the deals its
// testers play (games 0 to Deals-1 of Seed, as sim, trace and play deal
// them), the politician, and whether the hint and the win chance are on.
type Plan struct {
	ID         int64
	Name       string
	RulesName  string // as the designer knows the rules: "reference", a file's name
	Rules      []byte // the rules file in canonical form
	RulesHash  string
	Mode       string
	Seed       uint64
	Deals      int
	Politician string // an id of the rules, or "random"
	Hint       bool
	Chance     bool
	Created    time.Time
}

// ErrExists is returned for a plan or tester whose name is taken.
var ErrExists = errors.New("the name is taken")

// AddPlan stores a new plan and returns its id.
func (s *Store) AddPlan(p Plan) (int64, error) {
	res, err := s.db.Exec(`INSERT INTO plans (name, rules_name, rules, rules_hash, mode, seed, deals, politician, hint, chance, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Name, p.RulesName, p.Rules, p.RulesHash, p.Mode, int64(p.Seed), p.Deals, p.Politician, p.Hint, p.Chance, time.Now().UnixMilli())
	if err != nil {
		if isUnique(err) {
			return 0, ErrExists
		}
		return 0, err
	}
	return res.LastInsertId()
}

const planColumns = "id, name, rules_name, rules, rules_hash, mode, seed, deals, politician, hint, chance, created"

func scanPlan(row interface{ Scan(...any) error }) (Plan, error) {
	var p Plan
	var seed, created int64
	err := row.Scan(&p.ID, &p.Name, &p.RulesName, &p.Rules, &p.RulesHash, &p.Mode, &seed, &p.Deals, &p.Politician, &p.Hint, &p.Chance, &created)
	p.Seed, p.Created = uint64(seed), time.UnixMilli(created)
	return p, err
}

// Plans lists every plan, oldest first.
func (s *Store) Plans() ([]Plan, error) {
	rows, err := s.rdb.Query("SELECT " + planColumns + " FROM plans ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Plan
	for rows.Next() {
		p, err := scanPlan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Plan reads one plan.
func (s *Store) Plan(id int64) (Plan, error) {
	return scanPlan(s.rdb.QueryRow("SELECT "+planColumns+" FROM plans WHERE id = ?", id))
}

// Tester is one invited tester of a plan, with the token of their link.
type Tester struct {
	ID      int64
	PlanID  int64
	Name    string
	Token   string
	Created time.Time
}

// AddTester invites a tester to a plan under token.
func (s *Store) AddTester(planID int64, name, token string) (Tester, error) {
	now := time.Now()
	res, err := s.db.Exec("INSERT INTO testers (plan_id, name, token, created) VALUES (?, ?, ?, ?)", planID, name, token, now.UnixMilli())
	if err != nil {
		if isUnique(err) {
			return Tester{}, ErrExists
		}
		return Tester{}, err
	}
	id, err := res.LastInsertId()
	return Tester{ID: id, PlanID: planID, Name: name, Token: token, Created: now}, err
}

const testerColumns = "id, plan_id, name, token, created"

func scanTester(row interface{ Scan(...any) error }) (Tester, error) {
	var t Tester
	var created int64
	err := row.Scan(&t.ID, &t.PlanID, &t.Name, &t.Token, &created)
	t.Created = time.UnixMilli(created)
	return t, err
}

// TesterByToken finds the tester whose token is token; ok is false when
// none is. The caller compares the token again in constant time.
func (s *Store) TesterByToken(token string) (t Tester, ok bool, err error) {
	t, err = scanTester(s.rdb.QueryRow("SELECT "+testerColumns+" FROM testers WHERE token = ?", token))
	if errors.Is(err, sql.ErrNoRows) {
		return Tester{}, false, nil
	}
	return t, err == nil, err
}

// Testers lists every tester, by plan then invitation.
func (s *Store) Testers() ([]Tester, error) {
	rows, err := s.rdb.Query("SELECT " + testerColumns + " FROM testers ORDER BY plan_id, id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Tester
	for rows.Next() {
		t, err := scanTester(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// Game is one tester's game of one deal of their plan.
type Game struct {
	ID         int64
	TesterID   int64
	Deal       int // the game of the plan's seed
	Politician string
	Started    time.Time
	Finished   bool
	Margin     int // the tester's votes minus the Opposition's, when Finished
	HintShown  bool
	Decisions  int
	// ThinkMS sums the time the tester looked at their decisions, over
	// ThinkN decisions whose time is known.
	ThinkMS, ThinkN int64
}

const gameColumns = `g.id, g.tester_id, g.deal, g.politician, g.started, g.finished, g.margin, g.hint_pending,
	(SELECT count(*) FROM decisions d WHERE d.game_id = g.id),
	(SELECT coalesce(sum(d.think_ms), 0) FROM decisions d WHERE d.game_id = g.id AND d.think_ms IS NOT NULL),
	(SELECT count(d.think_ms) FROM decisions d WHERE d.game_id = g.id)`

func scanGame(row interface{ Scan(...any) error }) (Game, error) {
	var g Game
	var started int64
	var finished, margin sql.NullInt64
	err := row.Scan(&g.ID, &g.TesterID, &g.Deal, &g.Politician, &started, &finished, &margin, &g.HintShown, &g.Decisions, &g.ThinkMS, &g.ThinkN)
	g.Started, g.Finished, g.Margin = time.UnixMilli(started), finished.Valid, int(margin.Int64)
	return g, err
}

// StartGame stores a new game of deal for a tester; a game of that deal
// already stored is returned as it is.
func (s *Store) StartGame(testerID int64, deal int, politician string) (Game, error) {
	_, err := s.db.Exec("INSERT OR IGNORE INTO games (tester_id, deal, politician, started) VALUES (?, ?, ?, ?)",
		testerID, deal, politician, time.Now().UnixMilli())
	if err != nil {
		return Game{}, err
	}
	return scanGame(s.db.QueryRow("SELECT "+gameColumns+" FROM games g WHERE g.tester_id = ? AND g.deal = ?", testerID, deal))
}

// Game reads one game; ok is false when there is none of that id.
func (s *Store) Game(id int64) (g Game, ok bool, err error) {
	g, err = scanGame(s.rdb.QueryRow("SELECT "+gameColumns+" FROM games g WHERE g.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, false, nil
	}
	return g, err == nil, err
}

// Games lists the games of a tester (testerID > 0) or of every tester
// (0), by tester then deal.
func (s *Store) Games(testerID int64) ([]Game, error) {
	q := "SELECT " + gameColumns + " FROM games g"
	var args []any
	if testerID > 0 {
		q += " WHERE g.tester_id = ?"
		args = append(args, testerID)
	}
	rows, err := s.rdb.Query(q+" ORDER BY g.tester_id, g.deal", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, rows.Err()
}

// Decision is one stored decision of a game.
type Decision struct {
	N       int    // 0 for the game's first
	Option  string // engine.OptionID
	Hinted  bool
	At      time.Time
	ThinkMS int64 // -1: not known (stored before schema 2)
}

// Decisions reads a game's decisions in order.
func (s *Store) Decisions(gameID int64) ([]Decision, error) {
	rows, err := s.rdb.Query("SELECT n, option, hinted, at, coalesce(think_ms, -1) FROM decisions WHERE game_id = ? ORDER BY n", gameID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Decision
	for rows.Next() {
		var d Decision
		var at int64
		if err := rows.Scan(&d.N, &d.Option, &d.Hinted, &at, &d.ThinkMS); err != nil {
			return nil, err
		}
		d.At = time.UnixMilli(at)
		if d.N != len(out) {
			return nil, fmt.Errorf("game %d: decision %d stored where %d belongs", gameID, d.N, len(out))
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ErrStale is returned for a decision whose number is not the game's next.
var ErrStale = errors.New("not the game's next decision")

// AddDecision commits decision d of a game, and, when the decision ended
// the game, its result: the decision's number must be the game's next.
// The hint shown before it is cleared. It returns once the commit is on
// disk.
//
// Decisions of several games made at once are committed together, one
// transaction and one sync for all (a group commit): each in a savepoint
// of its own, so that one refused leaves the others. A sync is most of a
// commit's time, and one writer syncs one transaction at a time.
func (s *Store) AddDecision(gameID int64, d Decision, finished bool, margin int) error {
	s.writerOnce.Do(func() {
		s.commits = make(chan *commit)
		s.writerDone = make(chan struct{})
		go s.writer()
	})
	c := &commit{gameID: gameID, d: d, finished: finished, margin: margin, done: make(chan error, 1)}
	s.commits <- c
	return <-c.done
}

// commit is one decision waiting for the writer.
type commit struct {
	gameID   int64
	d        Decision
	finished bool
	margin   int
	done     chan error
}

// maxGroup bounds the decisions of one group commit.
const maxGroup = 64

// writer commits the decisions sent to it, as many at once as are
// waiting.
func (s *Store) writer() {
	defer close(s.writerDone)
	for first := range s.commits {
		group := []*commit{first}
	more:
		for len(group) < maxGroup {
			select {
			case c, ok := <-s.commits:
				if !ok {
					break more
				}
				group = append(group, c)
			default:
				break more
			}
		}
		s.commitGroup(group)
	}
}

// commitGroup commits a group in one transaction.
func (s *Store) commitGroup(group []*commit) {
	errs := make([]error, len(group))
	fail := func(err error) {
		for _, c := range group {
			c.done <- err
		}
	}
	tx, err := s.db.Begin()
	if err != nil {
		fail(err)
		return
	}
	for i, c := range group {
		if _, err := tx.Exec("SAVEPOINT decision"); err != nil {
			tx.Rollback()
			fail(err)
			return
		}
		if errs[i] = addDecision(tx, c); errs[i] != nil {
			if _, err := tx.Exec("ROLLBACK TO decision"); err != nil {
				tx.Rollback()
				fail(err)
				return
			}
		}
		if _, err := tx.Exec("RELEASE decision"); err != nil {
			tx.Rollback()
			fail(err)
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(err)
		return
	}
	for i, c := range group {
		c.done <- errs[i]
	}
}

// addDecision writes one decision within a transaction.
func addDecision(tx *sql.Tx, c *commit) error {
	d := c.d
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM decisions WHERE game_id = ?", c.gameID).Scan(&n); err != nil {
		return err
	}
	if n != d.N {
		return ErrStale
	}
	var think any
	if d.ThinkMS >= 0 {
		think = d.ThinkMS
	}
	if _, err := tx.Exec("INSERT INTO decisions (game_id, n, option, hinted, at, think_ms) VALUES (?, ?, ?, ?, ?, ?)",
		c.gameID, d.N, d.Option, d.Hinted, d.At.UnixMilli(), think); err != nil {
		return err
	}
	if c.finished {
		_, err := tx.Exec("UPDATE games SET finished = ?, margin = ?, hint_pending = 0 WHERE id = ?", d.At.UnixMilli(), c.margin, c.gameID)
		return err
	}
	_, err := tx.Exec("UPDATE games SET hint_pending = 0 WHERE id = ?", c.gameID)
	return err
}

// ShowHint notes that the tester was shown a hint for the game's next
// decision, so that it is stored as hinted even across a restart.
func (s *Store) ShowHint(gameID int64) error {
	_, err := s.db.Exec("UPDATE games SET hint_pending = 1 WHERE id = ?", gameID)
	return err
}

// isUnique reports a violated UNIQUE constraint.
func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}
