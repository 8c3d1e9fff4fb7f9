package play

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/policy"
)

// RecordFormat names the save-file format; a file in another format is
// refused. Format 2 added the check and made the seed the master seed of
// `sim` and `trace` (format 1 held the engine's game seed).
const RecordFormat = "tallywood-play 2"

// MaxDecisions bounds a save file's decisions: a whole game takes a few
// hundred.
const MaxDecisions = 100000

// MaxTester bounds a tester's name.
const MaxTester = 256

// Record is a save file: enough to replay the game exactly, since a game
// is a pure function of the rules, the seed, the mode, the politician and
// the player's decisions (the Opposition decides by rule).
type Record struct {
	Format       string `json:"format"`
	RulesHash    string `json:"rules_hash"`
	RulesVersion string `json:"rules_version,omitempty"`
	Seed         uint64 `json:"seed"` // the master seed: the game is game Game of it, as in sim and trace
	Game         uint64 `json:"game,omitempty"`
	Mode         string `json:"mode,omitempty"`
	Politician   string `json:"politician"` // a table game: the person's, dealt
	// A game without the Opposition (play --seats): the players, the
	// person's seat (1-based) and the policies of the other seats in
	// seat order. Absent in the solo game.
	Seats  int      `json:"seats,omitempty"`
	Seat   int      `json:"seat,omitempty"`
	Lineup []string `json:"lineup,omitempty"`
	// Tester names who played, for calibration to tell testers apart
	// (play --tester); absent in saves before it.
	Tester string `json:"tester,omitempty"`
	// Hinted lists, in order, the decisions (their indexes) taken after
	// a hint: calibration leaves them out, since they are not the
	// tester's alone. Absent in saves before it.
	Hinted    []int      `json:"hinted,omitempty"`
	Check     Check      `json:"check"`
	Decisions []Decision `json:"decisions"`
}

// Check holds a digest of each field of a save file. Most edits would
// still replay (another mode or politician leaves the player's decisions
// legal) and so resume a different game without a word; with a digest per
// field, loading refuses the edit and names the field. It guards against
// mistakes, not forgery.
type Check struct {
	RulesHash    string `json:"rules_hash"`
	RulesVersion string `json:"rules_version"`
	Seed         string `json:"seed"`
	Game         string `json:"game,omitempty"` // absent for game 0, as saves before --game
	Mode         string `json:"mode"`
	Politician   string `json:"politician"`
	Table        string `json:"table,omitempty"`  // seats, seat and lineup; absent in the solo game
	Tester       string `json:"tester,omitempty"` // absent without a tester, as saves before it
	Hinted       string `json:"hinted,omitempty"` // absent without a hint, as saves before it
	Decisions    string `json:"decisions"`
}

// digest is the check of one field's value: 16 hex digits of sha256.
func digest(field, value string) string {
	h := sha256.Sum256([]byte("tallywood-play/" + field + "=" + value))
	return hex.EncodeToString(h[:8])
}

// check computes the record's Check from its fields.
func (r *Record) check() Check {
	var ds bytes.Buffer
	for _, d := range r.Decisions {
		line, _ := json.Marshal(d)
		ds.Write(line)
		ds.WriteByte('\n')
	}
	c := Check{
		RulesHash:    digest("rules_hash", r.RulesHash),
		RulesVersion: digest("rules_version", r.RulesVersion),
		Seed:         digest("seed", fmt.Sprint(r.Seed)),
		Mode:         digest("mode", r.Mode),
		Politician:   digest("politician", r.Politician),
		Decisions:    digest("decisions", ds.String()),
	}
	if r.Seats != 0 {
		c.Table = digest("table", r.tableText())
	}
	if r.Game != 0 {
		c.Game = digest("game", fmt.Sprint(r.Game))
	}
	if r.Tester != "" {
		c.Tester = digest("tester", r.Tester)
	}
	if len(r.Hinted) > 0 {
		c.Hinted = digest("hinted", fmt.Sprint(r.Hinted))
	}
	return c
}

// tableText words the table fields for their check and its message.
func (r *Record) tableText() string {
	return fmt.Sprintf("seats %d, seat %d, lineup %q", r.Seats, r.Seat, strings.Join(r.Lineup, ","))
}

// verify names the first field whose value does not match its check.
func (r *Record) verify() error {
	if r.Check == (Check{}) {
		return errors.New("play: save file: check missing: the file was not written by tallywood play")
	}
	want := r.check()
	for _, f := range []struct {
		name, value, got, want string
	}{
		{"rules_hash", fmt.Sprintf("%q", r.RulesHash), r.Check.RulesHash, want.RulesHash},
		{"rules_version", fmt.Sprintf("%q", r.RulesVersion), r.Check.RulesVersion, want.RulesVersion},
		{"seed", fmt.Sprint(r.Seed), r.Check.Seed, want.Seed},
		{"game", fmt.Sprint(r.Game), r.Check.Game, want.Game},
		{"mode", fmt.Sprintf("%q", r.Mode), r.Check.Mode, want.Mode},
		{"politician", fmt.Sprintf("%q", r.Politician), r.Check.Politician, want.Politician},
		{"seats, seat or lineup", "(" + r.tableText() + ")", r.Check.Table, want.Table},
		{"tester", fmt.Sprintf("%q", r.Tester), r.Check.Tester, want.Tester},
		{"hinted", fmt.Sprint(r.Hinted), r.Check.Hinted, want.Hinted},
		{"decisions", fmt.Sprintf("(%d)", len(r.Decisions)), r.Check.Decisions, want.Decisions},
	} {
		if f.got != f.want {
			return fmt.Errorf("play: save file: %s %s does not match the check saved with it: "+
				"the file was edited or damaged, and a saved game cannot be changed by hand", f.name, f.value)
		}
	}
	return nil
}

// Decision is one of the player's decisions: an engine option by value.
type Decision struct {
	Opt string `json:"opt"`
	A   int8   `json:"a,omitempty"`
	B   int8   `json:"b,omitempty"`
	C   int8   `json:"c,omitempty"`
}

func decisionOf(o engine.Option) Decision {
	return Decision{Opt: engine.OptionKindName(o.Kind), A: o.A, B: o.B, C: o.C}
}

// Option returns the engine option; the kind must be valid (ParseRecord
// checks it).
func (d Decision) Option() engine.Option {
	k, _ := engine.ParseOptionKind(d.Opt)
	return engine.Option{Kind: k, A: d.A, B: d.B, C: d.C}
}

// Marshal writes the record as indented JSON, one decision a line, with
// the check of its fields as they are now.
func (r Record) Marshal() []byte {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"format\": %s,\n  \"rules_hash\": %s,\n", q(r.Format), q(r.RulesHash))
	if r.RulesVersion != "" {
		fmt.Fprintf(&b, "  \"rules_version\": %s,\n", q(r.RulesVersion))
	}
	c := r.check()
	game, gameCheck := "", ""
	if r.Game != 0 {
		game, gameCheck = fmt.Sprintf("  \"game\": %d,\n", r.Game), fmt.Sprintf(", \"game\": %s", q(c.Game))
	}
	// A tester and hints, when there are any, come after the game and
	// before the check, which holds their digests last.
	if r.Tester != "" {
		game += fmt.Sprintf("  \"tester\": %s,\n", q(r.Tester))
	}
	if len(r.Hinted) > 0 {
		hinted, _ := json.Marshal(r.Hinted)
		game += fmt.Sprintf("  \"hinted\": %s,\n", hinted)
	}
	extraCheck := ""
	if c.Tester != "" {
		extraCheck += fmt.Sprintf(", \"tester\": %s", q(c.Tester))
	}
	if c.Hinted != "" {
		extraCheck += fmt.Sprintf(", \"hinted\": %s", q(c.Hinted))
	}
	if r.Seats == 0 {
		fmt.Fprintf(&b, "  \"seed\": %d,\n%s  \"mode\": %s,\n  \"politician\": %s,\n", r.Seed, game, q(r.Mode), q(r.Politician))
		fmt.Fprintf(&b, "  \"check\": {\"rules_hash\": %s, \"rules_version\": %s, \"seed\": %s%s, \"mode\": %s, \"politician\": %s%s, \"decisions\": %s},\n",
			q(c.RulesHash), q(c.RulesVersion), q(c.Seed), gameCheck, q(c.Mode), q(c.Politician), extraCheck, q(c.Decisions))
	} else {
		lineup, _ := json.Marshal(r.Lineup)
		fmt.Fprintf(&b, "  \"seed\": %d,\n%s  \"politician\": %s,\n  \"seats\": %d,\n  \"seat\": %d,\n  \"lineup\": %s,\n",
			r.Seed, game, q(r.Politician), r.Seats, r.Seat, lineup)
		fmt.Fprintf(&b, "  \"check\": {\"rules_hash\": %s, \"rules_version\": %s, \"seed\": %s%s, \"mode\": %s, \"politician\": %s, \"table\": %s%s, \"decisions\": %s},\n",
			q(c.RulesHash), q(c.RulesVersion), q(c.Seed), gameCheck, q(c.Mode), q(c.Politician), q(c.Table), extraCheck, q(c.Decisions))
	}
	b.WriteString("  \"decisions\": [")
	for i, d := range r.Decisions {
		if i > 0 {
			b.WriteByte(',')
		}
		line, _ := json.Marshal(d)
		b.WriteString("\n    ")
		b.Write(line)
	}
	if len(r.Decisions) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

// ParseRecord reads and checks a save file: known fields only, the right
// format, a mode and a rules hash of the right shape, known option kinds,
// and every field matching its check. It does not check the decisions
// against a game, nor parse the lineup (which may name files, and is
// trusted or refused first); Resume does both.
func ParseRecord(data []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		if err == io.EOF {
			return nil, errors.New("play: save file: empty")
		}
		return nil, fmt.Errorf("play: save file: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("play: save file: trailing data after the JSON object")
	}
	switch {
	case r.Format == "tallywood-play 1":
		return nil, fmt.Errorf("play: save file: format %q is from an earlier version of tallywood, whose seeds dealt other games; it cannot be resumed", r.Format)
	case r.Format != RecordFormat:
		return nil, fmt.Errorf("play: save file: format %q, want %q", r.Format, RecordFormat)
	case !engine.IsRulesHash(r.RulesHash):
		return nil, fmt.Errorf("play: save file: rules_hash %q is not a sha256 in hex", r.RulesHash)
	case r.Politician == "":
		return nil, errors.New("play: save file: politician missing")
	case len(r.Decisions) > MaxDecisions:
		return nil, fmt.Errorf("play: save file: %d decisions, more than %d", len(r.Decisions), MaxDecisions)
	}
	if len(r.Tester) > MaxTester {
		return nil, fmt.Errorf("play: save file: tester: %d bytes, more than %d", len(r.Tester), MaxTester)
	}
	for i, h := range r.Hinted {
		if h < 0 || h >= len(r.Decisions) || i > 0 && h <= r.Hinted[i-1] {
			return nil, fmt.Errorf("play: save file: hinted[%d] %d is not a decision after the one before it (0 to %d)", i, h, len(r.Decisions)-1)
		}
	}
	// Printed in the banner and trace's header: one line, shown as written.
	texts := []struct{ field, text string }{{"rules_version", r.RulesVersion}, {"politician", r.Politician}, {"tester", r.Tester}}
	for i, spec := range r.Lineup {
		texts = append(texts, struct{ field, text string }{fmt.Sprintf("lineup[%d]", i), spec})
	}
	for _, t := range texts {
		if c, ok := engine.Hidden(t.text); ok {
			return nil, fmt.Errorf("play: save file: %s: %q holds %U, a control or hidden character", t.field, t.text, c)
		}
	}
	switch {
	case r.Seats == 0 && (r.Seat != 0 || r.Lineup != nil):
		return nil, errors.New("play: save file: seat or lineup without seats")
	case r.Seats == 0:
		if _, err := engine.ParseMode(r.Mode); err != nil {
			return nil, fmt.Errorf("play: save file: mode %q is not normal or hard", r.Mode)
		}
	case r.Seats < 2 || r.Seats > engine.MaxSeats:
		return nil, fmt.Errorf("play: save file: seats %d is not 2 to %d", r.Seats, engine.MaxSeats)
	case r.Seat < 1 || r.Seat > r.Seats:
		return nil, fmt.Errorf("play: save file: seat %d is not one of the %d seats", r.Seat, r.Seats)
	case len(r.Lineup) != r.Seats-1:
		return nil, fmt.Errorf("play: save file: lineup has %d policies for the %d other seats", len(r.Lineup), r.Seats-1)
	case r.Mode != "":
		return nil, fmt.Errorf("play: save file: mode %q in a game without the Opposition", r.Mode)
	}
	for i, d := range r.Decisions {
		if _, ok := engine.ParseOptionKind(d.Opt); !ok {
			return nil, fmt.Errorf("play: save file: decisions[%d]: %q is not an option kind", i, d.Opt)
		}
	}
	if err := r.verify(); err != nil {
		return nil, err
	}
	return &r, nil
}

// ErrOtherRules is wrapped by Resume's error for a save file made under
// other rules.
var ErrOtherRules = errors.New("play: the save file was made under other rules")

// Resume rebuilds a saved game by replaying its decisions under cfg.Rules
// (the rules must be the ones it was saved under: same hash). The seed,
// mode and politician come from the record; those of cfg are ignored.
func Resume(cfg Config, rec *Record) (_ *Session, err error) {
	defer engine.CatchOpposition(&err) // replaying the decisions plays the Opposition's turns
	if cfg.Rules == nil {
		cfg.Rules = engine.Reference()
	}
	if rec.RulesHash != cfg.Rules.Hash {
		return nil, fmt.Errorf("%w: it was saved under rules %s (version %q), and these rules are %s (version %q); "+
			"load it with --rules naming the rules file it was played with",
			ErrOtherRules, engine.ShortHash(rec.RulesHash), rec.RulesVersion, engine.ShortHash(cfg.Rules.Hash), cfg.Rules.Version)
	}
	pol := cfg.Rules.PoliticianIndex(rec.Politician)
	if pol < 0 {
		return nil, fmt.Errorf("play: save file: politician %q is not in the rules", rec.Politician)
	}
	cfg.Seed, cfg.Game, cfg.Politician = rec.Seed, rec.Game, pol
	cfg.Seats, cfg.Seat, cfg.Lineup = 0, 0, nil
	if rec.Seats == 0 {
		mode, err := engine.ParseMode(rec.Mode)
		if err != nil {
			return nil, fmt.Errorf("play: save file: %v", err)
		}
		cfg.Mode = mode
	} else {
		cfg.Seats, cfg.Seat = rec.Seats, int8(rec.Seat-1)
		for i, spec := range rec.Lineup {
			// Trusted or refused before it is parsed: parsing a spec
			// opens the files it names (weights=).
			if why := untrusted(spec); why != "" && !cfg.TrustLineup {
				return nil, fmt.Errorf("play: save file: lineup[%d] %q %s; a save file runs that only when the command line says so: "+
					"if you trust the file, add --trust-lineup", i, spec, why)
			}
			p, err := policy.Parse(spec)
			if err != nil {
				return nil, fmt.Errorf("play: save file: lineup[%d]: %v", i, err)
			}
			cfg.Lineup = append(cfg.Lineup, p)
		}
	}
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if rec.Seats != 0 && rec.Politician != s.rec.Politician {
		s.Close()
		return nil, fmt.Errorf("play: save file: politician %q is not the one dealt to seat %d (%s)", rec.Politician, rec.Seat, s.rec.Politician)
	}
	s.quiet = true
	for i, d := range rec.Decisions {
		if s.g.Over() {
			s.Close()
			return nil, fmt.Errorf("play: save file: decisions[%d]: the game was already over", i)
		}
		if _, ok := engine.ParseOptionKind(d.Opt); !ok {
			return nil, fmt.Errorf("play: save file: decisions[%d]: %q is not an option kind", i, d.Opt)
		}
		o := d.Option()
		if err := s.apply(o); err != nil {
			s.Close()
			if s.fatal != nil {
				return nil, s.fatal
			}
			return nil, fmt.Errorf("play: save file: decisions[%d] (%s %d %d %d) is not legal at that point of the game: "+
				"the file is damaged or from another version of the engine", i, d.Opt, d.A, d.B, d.C)
		}
		s.narrated = len(s.log.Events)
	}
	s.quiet = false
	s.savedAt = len(rec.Decisions)
	s.rec.RulesVersion = rec.RulesVersion
	s.rec.Tester, s.rec.Hinted = rec.Tester, slices.Clone(rec.Hinted)
	what := rec.Mode
	if rec.Seats != 0 {
		what = fmt.Sprintf("%d players, you in seat %d", rec.Seats, rec.Seat)
	}
	s.banner = fmt.Sprintf("Resumed the saved game: %s, %s, %s; %s replayed, now at %s.",
		GameName(rec.Seed, rec.Game), what, rec.Politician, kit.Count(len(rec.Decisions), "decision"), s.where())
	return s, nil
}

// untrusted says why a policy spec of a save file's lineup may not run
// unless the command line trusts the file, or "". Anyone can write a save
// file (its check is a digest, not a signature), so loading one must not
// start a program nor a search of any size (exec:sh -c, or
// mcts:iters=100000 for minutes), nor open a file its parameters name
// (weights=/etc/passwd, whose contents an error would tell of). So the
// spec is judged as written, before it is parsed: a name alone (a policy at its defaults, or a skill
// level) or a skill level's spec, the policies the ladder measures, whose
// cost is known and which name no file; tallywood play writes the lineup
// so.
func untrusted(spec string) string {
	spec = strings.TrimSpace(spec)
	name, _, params := strings.Cut(spec, ":")
	switch {
	case name == "exec":
		return "starts a program"
	case !params:
		return ""
	}
	for _, l := range policy.Levels {
		if l.Spec == spec {
			return ""
		}
	}
	return "sets parameters beyond the defaults and the skill levels (a search of any size, or a file it reads)"
}

// MaxSaveBytes bounds a save file: a whole game is a few hundred
// decisions, a few KiB.
const MaxSaveBytes = 1 << 20

// ReadRecord reads and checks the save file at path (ParseRecord).
func ReadRecord(path string) (*Record, error) {
	data, err := kit.ReadFileMax(path, MaxSaveBytes)
	if err != nil {
		return nil, fmt.Errorf("play: %v", err)
	}
	rec, err := ParseRecord(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, nil
}

// LoadFile reads a save file and resumes its game.
func LoadFile(cfg Config, path string) (*Session, error) {
	rec, err := ReadRecord(path)
	if err != nil {
		return nil, err
	}
	s, err := Resume(cfg, rec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.own = path
	return s, nil
}

// Replay rebuilds the game of a save file as Resume does and returns it
// with every event it recorded from the setup on, for `tallywood trace
// --load`.
func Replay(cfg Config, rec *Record) (*engine.Game, []engine.Event, error) {
	s, err := Resume(cfg, rec)
	if err != nil {
		return nil, nil, err
	}
	s.Close()
	return s.g, s.log.Events, nil
}

// save writes the record to path, or to Config.SavePath, with
// Config.Write.
func (s *Session) save(path string) {
	if path == "" {
		path = s.cfg.SavePath
	}
	if path == "" {
		s.printf("Save where? Type s FILE.\n")
		return
	}
	if s.cfg.Write == nil {
		s.printf("Could not save: this session has no file writer.\n")
		return
	}
	data := s.rec.Marshal()
	if s.rec.Tester != "" && path != s.own && s.cfg.Create != nil {
		// A playtest is never lost: the first save of a tester's game
		// makes a file of its own.
		written, err := s.cfg.Create(path, data)
		if err != nil {
			s.printf("Could not save: %v\n", err)
			return
		}
		if path == s.cfg.SavePath {
			s.cfg.SavePath = written // s saves there again
		}
		path = written
	} else if err := s.cfg.Write(path, data); err != nil {
		s.printf("Could not save: %v\n", err)
		return
	}
	s.own = path
	s.savedAt = len(s.rec.Decisions)
	if s.g.Over() {
		s.printf("Saved the finished game to %s: tallywood calibrate %s reads it.\n", path, path)
		return
	}
	s.printf("Saved %s to %s. Resume with: tallywood play --load %s\n", kit.Count(len(s.rec.Decisions), "decision"), path, path)
}

// SaveName is the save file of game game of master seed seed when none is
// named: tallywood-seed-N.json, tallywood-seed-N-game-I.json for another
// game than 0, and a tester's game names the tester
// (tallywood-seed-N-ana.json), so that two testers dealt one game save
// apart.
func SaveName(seed, game uint64, tester string) string {
	name := fmt.Sprintf("tallywood-seed-%d", seed)
	if game != 0 {
		name += fmt.Sprintf("-game-%d", game)
	}
	if w := fileWord(tester); w != "" {
		name += "-" + w
	}
	return name + ".json"
}

// maxFileWord bounds the part of a file name a tester's name gives.
const maxFileWord = 40

// fileWord is a tester's name as part of a file name: its letters and
// digits (of any script) and every run of anything else one '-', so that
// no name leads elsewhere (no /, no ..) nor needs quoting in a shell, cut
// to maxFileWord bytes at a letter; "" when no letter nor digit is left.
func fileWord(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			dash = b.Len() > 0
			continue
		}
		if b.Len()+1+utf8.RuneLen(r) > maxFileWord {
			break
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// GameName names game game of master seed seed as play shows it: "seed 7"
// for game 0 (as before --game), "seed 7, game 2" for another.
func GameName(seed, game uint64) string {
	if game == 0 {
		return fmt.Sprintf("seed %d", seed)
	}
	return fmt.Sprintf("seed %d, game %d", seed, game)
}
