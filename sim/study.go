package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"tallywood/engine"
	"tallywood/sim/deal"
	"tallywood/sim/policy"
)

// The study layer: every kind of result (a sim run, a comparison, a
// sweep, a study of several seats and its comparison) is a Study. It
// starts with the same Envelope, is read by one decoder (Decode), merged
// by one entry (Merge) and written by one encoder (Encode), so that every
// kind gets the same checks and every reader (merge, report) sees the same
// numbers: derived fields are recomputed from the counts on read.
//
// Adding a kind of study means a file holding its result type, which
// embeds Envelope, implements Study and registers itself (registerKind in
// the file's init), and its runner; no other file of the package lists the
// kinds. docs/architecture.md has the checklist.

// Kind names a kind of study, in every result's "kind" field.
type Kind string

// studies holds every kind of study, registered by the file of its
// result type: the empty result Decode fills.
var studies = map[Kind]func() Study{}

// registerKind registers kind k, whose empty result empty returns. Each
// kind registers once, in the init of the file that holds its result
// type.
func registerKind(k Kind, empty func() Study) {
	if _, dup := studies[k]; dup {
		panic("sim: kind " + string(k) + " registered twice")
	}
	studies[k] = empty
}

// kindless holds the formats of results written before their kind had a
// field of its own, each registered by its kind's file (registerKindless):
// the kind Decode reads it as, or "" for a format no reader reads now.
var kindless = map[string]Kind{}

// registerKindless registers format, whose results have no kind field, as
// kind k's; k "" refuses them as written by an older tallywood. Each
// format registers once, in the init of its kind's file.
func registerKindless(format string, k Kind) {
	if _, dup := kindless[format]; dup {
		panic("sim: format " + format + " registered twice")
	}
	kindless[format] = k
}

// retired holds the formats a kind once wrote and reads no more, each
// registered by its kind's file (registerRetired) with why and what to do:
// Decode says so before it reads a field, since such a file's fields are
// not today's.
var retired = map[string]string{}

// registerRetired registers format as refused, for the reason why (what
// it lacks and what to run instead), once, in the init of its kind's file.
func registerRetired(format, why string) {
	if _, dup := retired[format]; dup {
		panic("sim: format " + format + " registered twice")
	}
	retired[format] = why
}

// Kinds lists every registered kind of study, in alphabetical order.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(studies))
	for k := range studies {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Envelope is what every result holds, whatever its kind: what it is, who
// wrote it, its seed, which shards it holds, whether it is the whole study
// and how long it took. Everything but the timing is a function of the
// flags alone.
type Envelope struct {
	Format           string `json:"format"`
	Kind             Kind   `json:"kind"`
	TallywoodVersion string `json:"tallywood_version"` // the build that played it (Version)
	Seed             uint64 `json:"seed"`
	Shard            string `json:"shard,omitempty"` // the shards held, K+K/N; absent: every one
	Interrupted      bool   `json:"interrupted"`
	// Complete is every shard, not interrupted: the whole study.
	Complete       bool    `json:"complete"`
	GamesPerSecond float64 `json:"games_per_second"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
}

// RulesID names the rules a study played: the hash of what affects play,
// the version the file states, and the --set overrides applied.
type RulesID struct {
	RulesHash    string   `json:"rules_hash"`
	RulesVersion string   `json:"rules_version"`
	Overrides    []string `json:"overrides,omitempty"`
	// RulesFile is the rules file's path as given (--rules), so that the
	// command that reproduces the result names it; absent for the
	// reference set. Shards of one run may name it differently.
	RulesFile string `json:"rules_file,omitempty"`
	// Automaton names the scripted Opposition the rules name, absent for
	// the built-in one; its content is part of RulesHash.
	Automaton *AutomatonID `json:"automaton,omitempty"`
}

// AutomatonID is a scripted Opposition as a result records it: its file's
// name and the sha256 of its content.
type AutomatonID struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
}

func rulesID(r *engine.Rules) RulesID {
	id := RulesID{RulesHash: r.Hash, RulesVersion: r.Version, Overrides: slices.Clone(r.Overrides), RulesFile: r.File}
	if a := r.Automaton; a != nil {
		id.Automaton = &AutomatonID{Name: a.Name, Hash: a.Hash}
	}
	return id
}

// Played is the rules as a note about a trained model speaks of them
// (policy.WeightsNote).
func (r RulesID) Played() policy.RulesPlayed {
	p := policy.RulesPlayed{Hash: r.RulesHash, File: r.RulesFile}
	if r.Automaton != nil {
		p.Automaton = r.Automaton.Name
	}
	return p
}

// AutomatonText names the rules' Opposition for a header: "" for the
// built-in one, else its script's name and short hash.
func (r RulesID) AutomatonText() string {
	if r.Automaton == nil {
		return ""
	}
	return fmt.Sprintf("automaton: the script %s (%s), not the built-in Opposition", r.Automaton.Name, ShortHash(r.Automaton.Hash))
}

// text shows rules in an error: the short hash and the overrides.
func (r RulesID) text() string {
	s := ShortHash(r.RulesHash)
	if len(r.Overrides) > 0 {
		s += " with " + strings.Join(r.Overrides, ", ")
	}
	return s
}

func (r RulesID) equal(o RulesID) bool {
	return r.RulesHash == o.RulesHash && r.RulesVersion == o.RulesVersion && slices.Equal(r.Overrides, o.Overrides)
}

// ShortHash is the first 12 digits of a rules hash, as every output shows
// it.
func ShortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// newEnvelope starts the envelope of a study of kind with its seed and
// shard.
func newEnvelope(kind Kind, format string, seed uint64, shard Shard) Envelope {
	e := Envelope{Format: format, Kind: kind, TallywoodVersion: deal.Version(), Seed: seed}
	if !shard.Whole() {
		e.Shard = shard.String()
	}
	return e
}

// Head is the envelope itself: every result type embeds it, so every one
// is reached through Study.Head.
func (e *Envelope) Head() *Envelope { return e }

// setTiming sets the run's timing from the games played in secs seconds,
// and whether it is complete.
func (e *Envelope) setTiming(games int64, secs float64) {
	set, err := parseShardSet(e.Shard)
	e.Complete = err == nil && set.complete() && !e.Interrupted
	e.ElapsedSeconds = secs
	e.GamesPerSecond = 0
	if secs > 0 {
		e.GamesPerSecond = float64(games) / secs
	}
}

// A Study is a result of any kind.
type Study interface {
	Head() *Envelope
	// formats are the formats its decoder reads, the one it writes first.
	formats() []string
	// sameRun lists what a shard must hold alike with first, a result of
	// the same kind, to be a shard of the same run (beyond the version,
	// the seed and the shard count, which Merge checks for every kind).
	sameRun(first Study) []field
	// check verifies the counts of a decoded result, share games (or
	// deals) per cell in its shards: that they add up and fit the rules.
	check(share func(games int64) int64) error
	// derive recomputes every derived field from the counts: the
	// summaries, the tests, the verdicts and the timing.
	derive()
	// clone is a copy whose counts add does not share with the original.
	clone() Study
	// add adds the counts of o, a shard of the same run.
	add(o Study)
	// Played is the games (or deals) the result holds and the study's
	// total, and what they are ("games", "deals", "paired games").
	Played() (n, total int64, unit string)
	// FailedItems lists, cell by cell, the items a failure dropped from
	// the counts (a cell with none is listed too).
	FailedItems() []FailedItems
}

// FailedItems are the failed items of one cell of a study, or of the
// whole study: played, counted in Errors, never scored.
type FailedItems struct {
	// Unit is what one item is: "game", "paired game", "deal".
	Unit string
	// A is the cell, and B the other arm's cell of a comparison's; both
	// nil: the whole study (one at a table).
	A, B *Cell
	// Errors is how many failed; Failures the first of them.
	Errors   int64
	Failures []Failure
}

// newStudy is the empty result of a kind, for Decode to fill; nil for a
// kind no file registered.
func newStudy(k Kind) Study {
	if empty := studies[k]; empty != nil {
		return empty()
	}
	return nil
}

// MaxResultBytes bounds a result file `merge` reads: a cell takes at most
// ~60 KiB (a full margin histogram), so this holds hundreds of cells.
const MaxResultBytes = 32 << 20

// maxText bounds every string of a result (versions, labels, District
// names): they are copied into every merged output.
const maxText = 1024

// maxItems bounds the components of one family a result may hold (a
// cards study's Solo cards, Strategy cards or tiles, an arc's Solo cards):
// more than any rules file has (48 Solo cards, 4 decks of 32, 2·3·12
// tiles).
const maxItems = 256

// maxSeconds bounds the timing a result's is summed from: a thousand
// years; merge adds shards' timing up to it. Every sum of them stays finite: shards whose
// elapsed_seconds added up to +Inf would make the JSON encoder panic.
const maxSeconds = 3.2e10

// head is the kind and format a result's JSON starts with; a result of
// the first sim versions has no kind.
type head struct {
	Kind   Kind   `json:"kind"`
	Format string `json:"format"`
}

// kindOf reads which kind of study data holds, and its format.
func kindOf(data []byte) (Kind, string, error) {
	var h head
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&h); err != nil {
		if errors.Is(err, io.EOF) {
			return "", "", errors.New("not a tallywood result: the file is empty")
		}
		return "", "", fmt.Errorf("not a tallywood result: %v", err)
	}
	old, isOld := kindless[h.Format]
	if h.Kind == "" && old != "" {
		return old, h.Format, nil
	}
	if newStudy(h.Kind) != nil {
		return h.Kind, h.Format, nil
	}
	kinds := Kinds()
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k)
	}
	reads := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " results"
	switch {
	case h.Kind != "":
		return "", "", fmt.Errorf("unknown kind of result %q: tallywood reads %s", h.Kind, reads)
	case isOld:
		return "", "", fmt.Errorf("result of format %q: written by an older tallywood, run it again", h.Format)
	case h.Format != "":
		return "", "", fmt.Errorf("unknown kind of result (format %q): tallywood reads %s", h.Format, reads)
	}
	return "", "", errors.New(`not a tallywood result: no "kind" field`)
}

// Decode reads a result of any kind written by Encode (one JSON object,
// nothing after it), checks that it is internally consistent (counts that
// add up, arrays of the rules' sizes, sums a game could reach, no more
// games than its shards hold) and recomputes every derived field from the
// counts. The error names the first inconsistency.
func Decode(data []byte) (Study, error) {
	kind, format, err := kindOf(data)
	if err != nil {
		return nil, err
	}
	if why, ok := retired[format]; ok {
		return nil, fmt.Errorf("a tallywood %s result of format %q, which this tallywood no longer reads: %s", kind, format, why)
	}
	s := newStudy(kind)
	if err := decodeStrict(data, s, string(kind)); err != nil {
		return nil, err
	}
	e := s.Head()
	if e.Kind == "" {
		e.Kind = kind // a format that names its kind (registerKindless)
	}
	if fs := s.formats(); !slices.Contains(fs, e.Format) {
		if e.Format == "" {
			return nil, fmt.Errorf("not a tallywood %s result (no format): written by an older tallywood, run it again", kind)
		}
		return nil, fmt.Errorf("not a tallywood %s result (format %q, want %q)", kind, e.Format, fs[0])
	}
	share, err := e.check()
	if err != nil {
		return nil, err
	}
	if err := s.check(share); err != nil {
		return nil, err
	}
	s.derive()
	return s, nil
}

// DecodeAs decodes data like Decode and requires a result of type T
// (a kind's result type, such as *CompareResult).
func DecodeAs[T Study](data []byte) (T, error) {
	var zero T
	s, err := Decode(data)
	if err != nil {
		return zero, err
	}
	t, ok := s.(T)
	if !ok {
		return zero, fmt.Errorf("a result of kind %s, not the kind wanted here", s.Head().Kind)
	}
	return t, nil
}

// check verifies the envelope of a decoded result and returns how many
// of a study's games its shards hold.
func (e *Envelope) check() (func(int64) int64, error) {
	if len(e.TallywoodVersion) > maxText {
		return nil, fmt.Errorf("tallywood_version: %d bytes, more than %d", len(e.TallywoodVersion), maxText)
	}
	set, err := parseShardSet(e.Shard)
	if err != nil {
		return nil, err
	}
	return set.len, nil
}

// addSeconds adds the timing of two shards, at most maxSeconds, so that
// what merge writes decodes again.
func addSeconds(a, b float64) float64 { return min(a+b, maxSeconds) }

// checkSeconds refuses a timing field that a result's timing is summed
// from (a cell's, or a study's without cells) when it is negative or
// beyond maxSeconds. The other timing fields are recomputed from these.
func checkSeconds(name string, v float64) error {
	if !(v >= 0 && v <= maxSeconds) {
		return fmt.Errorf("%s %g is not within 0..%g", name, v, maxSeconds)
	}
	return nil
}

// check checks the rules names of a decoded result.
func (r *RulesID) check(where string) error {
	if len(r.RulesVersion) > maxText {
		return fmt.Errorf("%srules_version: %d bytes, more than %d", where, len(r.RulesVersion), maxText)
	}
	// The file is shown in a command line: one line, as written.
	if c, ok := engine.Hidden(r.RulesFile); ok || len(r.RulesFile) > maxPath {
		return fmt.Errorf("%srules_file: %d bytes or %U, a control or hidden character", where, len(r.RulesFile), c)
	}
	if a := r.Automaton; a != nil {
		if c, ok := engine.Hidden(a.Name); ok || a.Name == "" || len(a.Name) > maxPath {
			return fmt.Errorf("%sautomaton.name: %d bytes or %U, a control or hidden character", where, len(a.Name), c)
		}
		if err := checkHash(where+"automaton.hash", a.Hash); err != nil {
			return err
		}
	}
	return checkHash(where+"rules_hash", r.RulesHash)
}

// checkHash refuses a rules hash (the field name) that is not one: the
// 64 lower-case hex digits of engine.Rules.Hash. Results are merged by it
// and name the rules by it.
func checkHash(name, h string) error {
	if len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		if len(h) > 64 {
			return fmt.Errorf("%s: %d bytes, not a rules hash (64 hex digits)", name, len(h))
		}
		return fmt.Errorf("%s %q is not a rules hash (64 hex digits)", name, h)
	}
	return nil
}

// maxPath bounds a file's path recorded in a result.
const maxPath = 4096

// checkSolo checks what every study of the solo game holds alike: its
// rules' names, the games of a cell (named field in errors) and at least
// one cell.
func checkSolo(rules *RulesID, field string, games int64, cells int) error {
	if err := rules.check(""); err != nil {
		return err
	}
	if games < 1 || games > MaxGames {
		return fmt.Errorf("%s %d is outside 1..%d", field, games, int64(MaxGames))
	}
	if cells == 0 {
		return errors.New("cells: none")
	}
	return nil
}

// Encode returns a result as indented JSON with a final newline. A result
// of a runner, Merge or Decode holds only finite numbers (Decode refuses
// what could give another), so encoding cannot fail.
func Encode(s Study) []byte {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		panic("sim: " + err.Error())
	}
	return append(b, '\n')
}

// MergeOptions relax Merge's checks.
type MergeOptions struct {
	// AllowMixedVersions merges shards recorded by different tallywood
	// versions (whose games may differ).
	AllowMixedVersions bool
}

// Merge adds up results of disjoint shards of one run, of any one kind:
// the same version (unless opt allows mixed ones), seed and shard count,
// no shard twice, and what the kind says a run holds alike (rules, games,
// cells). Merging every shard 1/N … N/N gives exactly the unsharded
// result, timing aside; merging some of them gives a result with Complete
// false. names label the results in errors (file names).
func Merge(results []Study, names []string, opt MergeOptions) (Study, error) {
	if len(results) == 0 {
		return nil, errors.New("nothing to merge")
	}
	first := results[0]
	fh := first.Head()
	shards, err := newShardUnion(fh.Shard, names[0])
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		// Results built in memory rather than decoded are checked too.
		share, err := r.Head().check()
		if err == nil {
			err = r.check(share)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", names[i], err)
		}
	}
	out := first.clone()
	oh := out.Head()
	for i := 1; i < len(results); i++ {
		r, name := results[i], names[i]
		h := r.Head()
		if h.Kind != fh.Kind {
			return nil, fmt.Errorf("%s: a %s result, %s a %s result: merge shards of one run", name, h.Kind, names[0], fh.Kind)
		}
		if err := opt.sameVersion(name, names[0], h.TallywoodVersion, fh.TallywoodVersion); err != nil {
			return nil, err
		}
		fields := append([]field{sameField("seed", h.Seed, fh.Seed)}, r.sameRun(first)...)
		if err := shards.add(name, h.Shard, fields...); err != nil {
			return nil, err
		}
		out.add(r)
		oh.Interrupted = oh.Interrupted || h.Interrupted
		oh.ElapsedSeconds = addSeconds(oh.ElapsedSeconds, h.ElapsedSeconds)
		if h.TallywoodVersion != fh.TallywoodVersion {
			oh.TallywoodVersion = "mixed"
		}
		// The sums merged so far must still be some games' sums: shards
		// each within its bounds may overflow together (two sums of
		// squares of 2⁶²+5 made a negative one), which one check at the
		// end could miss after a wrap and a wrap back.
		oh.Shard = shards.set.String()
		out.derive()
		share, err := oh.check()
		if err == nil {
			err = out.check(share)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: merged with the shards before it, the sums are not those of any games (%v): a shard is forged or damaged", name, err)
		}
	}
	oh.Shard = shards.set.String()
	out.derive()
	return out, nil
}

// Coverage is how many of a run's shards a result holds.
func (e *Envelope) Coverage() (shards, of int) { return coverage(e.Shard) }
