package sim

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim/stats"
)

type labels struct {
	Mode       string `json:"mode"`
	Policy     string `json:"policy"`
	Politician string `json:"politician"`
}

// Quantiles are margin quantiles (player votes − Opposition votes).
type Quantiles struct {
	P5  int `json:"p5"`
	P25 int `json:"p25"`
	P50 int `json:"p50"`
	P75 int `json:"p75"`
	P95 int `json:"p95"`
}

// DistrictSummary is where one District's votes went, per game on average.
type DistrictSummary struct {
	District             string  `json:"district"`
	MeanPlayerShares     float64 `json:"mean_player_shares"`
	MeanOppositionShares float64 `json:"mean_opposition_shares"`
	MeanPlayerVotes      float64 `json:"mean_player_votes"`
	MeanOppositionVotes  float64 `json:"mean_opposition_votes"`
	PlayerAheadRate      float64 `json:"player_ahead_rate"`
	OppositionAheadRate  float64 `json:"opposition_ahead_rate"`
}

// Fallbacks are the Opposition's I-10 fallbacks.
type Fallbacks struct {
	OtherDistrict         int64   `json:"other_district"`
	BothDistricts         int64   `json:"both_districts"`
	OtherPerGame          float64 `json:"other_per_game"`
	BothPerGame           float64 `json:"both_per_game"`
	GamesWithFallback     int64   `json:"games_with_fallback"`
	GamesWithFallbackRate float64 `json:"games_with_fallback_rate"`
}

// Cell is the summary of one cell, with the raw counts it was computed
// from (which `merge` adds up).
type Cell struct {
	labels
	Games               int64             `json:"games"`
	Wins                int64             `json:"wins"`
	Draws               int64             `json:"draws"`
	Losses              int64             `json:"losses"`
	WinRate             float64           `json:"win_rate"`
	WinCI95             [2]float64        `json:"win_ci95"`
	MeanMargin          float64           `json:"mean_margin"`
	MarginCI95          [2]float64        `json:"margin_ci95"`
	MeanPlayerVotes     float64           `json:"mean_player_votes"`
	MeanOppositionVotes float64           `json:"mean_opposition_votes"`
	MarginQuantiles     Quantiles         `json:"margin_quantiles"`
	Districts           []DistrictSummary `json:"districts"`
	Fallbacks           Fallbacks         `json:"fallbacks"`
	GamesPerSecond      float64           `json:"games_per_second"`
	ElapsedSeconds      float64           `json:"elapsed_seconds"`
	Errors              int64             `json:"errors"`             // failed games, not in Games
	Failures            []Failure         `json:"failures,omitempty"` // the first of them
	Counts              Counts            `json:"counts"`
}

// Failure is one failed game: its index in the run, its seed and the
// policy's error (which names the decision and the answer).
type Failure struct {
	Game  int64  `json:"game"`
	Seed  uint64 `json:"seed"`
	Error string `json:"error"`
}

// Failed is what a study of several players counts of its failed deals:
// how many, and the first of them.
type Failed struct {
	Errors   int64     `json:"errors"`
	Failures []Failure `json:"failures,omitempty"`
}

// items are the failed deals of a study at a table.
func (f *Failed) items() []FailedItems {
	return []FailedItems{{Unit: "deal", Errors: f.Errors, Failures: f.Failures}}
}

// maxFailures is how many failures a cell keeps: enough to see what went
// wrong, few enough that a broken program does not flood the result.
const maxFailures = 10

// firstFailures sorts failures by game and keeps the first maxFailures,
// so a cell lists the same failures whatever the workers and shards.
func firstFailures(f []Failure) []Failure {
	slices.SortFunc(f, func(a, b Failure) int { return cmp.Compare(a.Game, b.Game) })
	return f[:min(len(f), maxFailures)]
}

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func newCell(l labels, c *Counts, districts []string, secs float64) Cell {
	n := c.Games
	margins := stats.Moments{N: n, Sum: c.MarginSum, SumSq: c.MarginSumSq}
	mean, ci := margins.Mean(), margins.MeanInterval(0.05)
	w := stats.Wilson(c.Wins, n, 0.05)
	cell := Cell{
		labels: l,
		Games:  n, Wins: c.Wins, Draws: c.Draws, Losses: c.Losses,
		WinRate:             ratio(c.Wins, n),
		WinCI95:             [2]float64{w.Lo, w.Hi},
		MeanMargin:          mean,
		MarginCI95:          [2]float64{ci.Lo, ci.Hi},
		MeanPlayerVotes:     ratio(c.PlayerVotes, n),
		MeanOppositionVotes: ratio(c.OppVotes, n),
		MarginQuantiles: Quantiles{
			P5: c.Quantile(0.05), P25: c.Quantile(0.25), P50: c.Quantile(0.5),
			P75: c.Quantile(0.75), P95: c.Quantile(0.95),
		},
		Fallbacks: Fallbacks{
			OtherDistrict: c.FallbackOther, BothDistricts: c.FallbackBoth,
			OtherPerGame: ratio(c.FallbackOther, n), BothPerGame: ratio(c.FallbackBoth, n),
			GamesWithFallback: c.GamesWithFallback, GamesWithFallbackRate: ratio(c.GamesWithFallback, n),
		},
		ElapsedSeconds: secs,
		Errors:         c.Errors,
		Counts:         *c,
	}
	if secs > 0 {
		cell.GamesPerSecond = float64(n) / secs
	}
	for d, dc := range c.Districts {
		cell.Districts = append(cell.Districts, DistrictSummary{
			District:             districts[d],
			MeanPlayerShares:     ratio(dc.PlayerShares, n),
			MeanOppositionShares: ratio(dc.OppositionShares, n),
			MeanPlayerVotes:      ratio(dc.PlayerVotes, n),
			MeanOppositionVotes:  ratio(dc.OppositionVotes, n),
			PlayerAheadRate:      ratio(dc.PlayerAhead, n),
			OppositionAheadRate:  ratio(dc.OppositionAhead, n),
		})
	}
	return cell
}

// checkCells checks every cell of a solo study with check, and that no
// two play the same mode, policy and politician; base is the sim cell that
// names a cell. The error names the cell by number and labels.
func checkCells[C any](cells []C, base func(*C) *Cell, check func(*C) error) error {
	seen := map[labels]int{}
	for i := range cells {
		b := base(&cells[i])
		where := fmt.Sprintf("cell %d (%s)", i+1, b.name())
		if err := check(&cells[i]); err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		if j, dup := seen[b.labels]; dup {
			return fmt.Errorf("%s: the same cell as cell %d", where, j+1)
		}
		seen[b.labels] = i
	}
	return nil
}

// droppedText is a sentence an older result stored (a result stores no
// sentence: sim/report makes the words from its typed fields): read, as
// long as it is a string, and never written (omitzero).
type droppedText struct{}

// UnmarshalJSON checks that the field is a string and drops it.
func (*droppedText) UnmarshalJSON(b []byte) error {
	var s string
	return json.Unmarshal(b, &s)
}

// decodeStrict decodes data, one result of the given kind ("sim",
// "compare", ...), into v: at most MaxResultBytes, no unknown field, and
// nothing after it but white space. Every decoder of results reads its
// JSON here, so their errors are worded alike: "not a tallywood KIND
// result: ...".
func decodeStrict(data []byte, v any, kind string) error {
	if len(data) > MaxResultBytes {
		return fmt.Errorf("not a tallywood %s result: larger than %s", kind, kit.FormatBytes(MaxResultBytes))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("not a tallywood %s result: %v", kind, err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return fmt.Errorf("not a tallywood %s result: data after the result at byte %d (concatenated results?)", kind, len(data)-len(rest))
	}
	if err := checkStrings(reflect.ValueOf(v).Elem(), ""); err != nil {
		return fmt.Errorf("not a tallywood %s result: %v", kind, err)
	}
	return nil
}

// checkStrings checks every string of a decoded result, at any depth,
// against what it may be: no control or hidden character anywhere (every
// one is printed in a table, a CSV row or a page), a mode normal or hard,
// a policy or lineup entry a policy's spec (a cell mode of
// "normal\n\x1b[31mFAKE LINE\x1b[0m" would print an extra coloured
// row). path is the field's JSON path, for the error.
func checkStrings(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return checkStrings(v.Elem(), path)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			p := path
			switch {
			case !f.IsExported() && !f.Anonymous || name == "-":
				continue
			case !f.Anonymous && path == "":
				p = name
			case !f.Anonymous:
				p = path + "." + name
			}
			if err := checkStrings(v.Field(i), p); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := checkStrings(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if err := checkStrings(iter.Key(), path+" key"); err != nil {
				return err
			}
			if err := checkStrings(iter.Value(), fmt.Sprintf("%s.%v", path, iter.Key())); err != nil {
				return err
			}
		}
	case reflect.String:
		return checkString(path, v.String())
	}
	return nil
}

// checkString checks one string of a result at path.
func checkString(path, s string) error {
	if r, ok := engine.Hidden(s); ok {
		return fmt.Errorf("%s: %q holds %U, a control or hidden character", path, s, r)
	}
	field := path[strings.LastIndexByte(path, '.')+1:]
	field, _, _ = strings.Cut(field, "[")
	switch field {
	case "mode":
		if m, err := engine.ParseMode(s); err != nil || m.String() != s {
			return fmt.Errorf("%s: %q is not normal or hard", path, s)
		}
	case "policy", "lineup":
		// The shape of a spec, NAME[:PARAMS], not this binary's list of
		// policies: a result of a newer version, or of an outside program
		// not installed here, still merges.
		name, _, _ := strings.Cut(s, ":")
		if name == "" || strings.TrimLeft(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
			return fmt.Errorf("%s: %q is not a policy spec (NAME or NAME:PARAMETERS, the name in lower case)", path, s)
		}
	}
	return nil
}

// name is mode/policy/politician.
func (c *Cell) name() string { return c.labels.name() }

func (l labels) name() string { return l.Mode + "/" + l.Policy + "/" + l.Politician }

// check checks a cell's labels: each given and not too long.
func (l labels) check() error {
	for _, f := range []struct{ name, v string }{{"mode", l.Mode}, {"policy", l.Policy}, {"politician", l.Politician}} {
		if f.v == "" || len(f.v) > maxText {
			return fmt.Errorf("%s: %d bytes, want 1..%d", f.name, len(f.v), maxText)
		}
	}
	return nil
}

// validate checks one cell of a shard that holds share games per cell.
func (c *Cell) validate(share int64, interrupted bool) error {
	if err := c.checkShape(); err != nil {
		return err
	}
	n := &c.Counts
	if err := n.check(); err != nil {
		return fmt.Errorf("counts: %v", err)
	}
	return c.checkShare(share, interrupted)
}

// checkShape checks what a cell holds besides its counts: its labels,
// its Districts' names and its timing.
func (c *Cell) checkShape() error {
	if err := c.labels.check(); err != nil {
		return err
	}
	if len(c.Districts) != engine.NumDistricts {
		return fmt.Errorf("districts: %d entries, want %d", len(c.Districts), engine.NumDistricts)
	}
	names := map[string]bool{}
	for d, s := range c.Districts {
		if s.District == "" || len(s.District) > maxText || names[s.District] {
			return fmt.Errorf("districts[%d]: name %q is empty, too long or repeated", d, s.District)
		}
		names[s.District] = true
	}
	return checkSeconds("elapsed_seconds", c.ElapsedSeconds)
}

// checkShare checks a cell's games and errors against the share games
// its shards play.
func (c *Cell) checkShare(share int64, interrupted bool) error {
	n := &c.Counts
	// Failed games (errors) were played but not scored.
	played := fmt.Sprintf("games %d", n.Games)
	if n.Errors != 0 {
		played += fmt.Sprintf(" and errors %d", n.Errors)
	}
	switch {
	case n.Errors < 0 || n.Errors > share:
		return fmt.Errorf("counts: errors %d is outside 0..%d", n.Errors, share)
	case n.Games+n.Errors > share:
		return fmt.Errorf("counts: %s, more than the %d the shard plays", played, share)
	case n.Games+n.Errors < share && !interrupted:
		return fmt.Errorf("counts: %s, fewer than the %d the shard plays, and the run was not interrupted", played, share)
	case int64(len(c.Failures)) > min(n.Errors, maxFailures):
		return fmt.Errorf("failures: %d listed, more than the errors (%d) or %d", len(c.Failures), n.Errors, maxFailures)
	}
	for _, f := range []struct {
		name      string
		got, want int64
	}{{"games", c.Games, n.Games}, {"errors", c.Errors, n.Errors}, {"wins", c.Wins, n.Wins}, {"draws", c.Draws, n.Draws}, {"losses", c.Losses, n.Losses},
		{"fallbacks.other_district", c.Fallbacks.OtherDistrict, n.FallbackOther},
		{"fallbacks.both_districts", c.Fallbacks.BothDistricts, n.FallbackBoth},
		{"fallbacks.games_with_fallback", c.Fallbacks.GamesWithFallback, n.GamesWithFallback}} {
		if f.got != f.want {
			return fmt.Errorf("%s %d differs from counts (%d)", f.name, f.got, f.want)
		}
	}
	return nil
}

// checkErrors checks a cell's (or a study's) failed items, errors of
// them, against the share of items its shards play: with the played
// ones, what of them, they make up the share when the cell was played to
// its end (whole), never more; and it lists no more failures than errors
// or maxFailures.
func checkErrors(what string, played, errors, share int64, whole bool, failures int) error {
	switch {
	case errors < 0 || errors > share:
		return fmt.Errorf("errors %d is outside 0..%d", errors, share)
	case played+errors > share:
		return fmt.Errorf("%s %d and errors %d, more than the %d the shard plays", what, played, errors, share)
	case played+errors < share && whole:
		return fmt.Errorf("%s %d and errors %d, fewer than the %d the shard plays, and the run was not interrupted", what, played, errors, share)
	case int64(failures) > min(errors, maxFailures):
		return fmt.Errorf("failures: %d listed, more than the errors (%d) or %d", failures, errors, maxFailures)
	}
	return nil
}

// shardSet is the set of shards a result holds: ks of n.
type shardSet struct {
	ks []int
	n  int
}

// complete reports whether the set holds every shard.
func (s shardSet) complete() bool { return len(s.ks) == s.n }

// len is how many games of each cell the shards play, of games.
func (s shardSet) len(games int64) int64 {
	var n int64
	for _, k := range s.ks {
		n += Shard{K: k, N: s.n}.Len(games)
	}
	return n
}

// parseShardSet reads "", "K/N" or "K+K+.../N".
func parseShardSet(s string) (shardSet, error) {
	if s == "" {
		return shardSet{ks: []int{1}, n: 1}, nil
	}
	ksPart, nPart, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(nPart)
	if !ok || err != nil || n < 1 {
		return shardSet{}, fmt.Errorf("shard %q is not K/N", s)
	}
	var set shardSet
	set.n = n
	for _, f := range strings.Split(ksPart, "+") {
		k, err := strconv.Atoi(f)
		if err != nil || k < 1 || k > n || slices.Contains(set.ks, k) {
			return shardSet{}, fmt.Errorf("shard %q is not K/N", s)
		}
		set.ks = append(set.ks, k)
	}
	return set, nil
}

func (s shardSet) String() string {
	if len(s.ks) == s.n {
		return ""
	}
	ks := slices.Clone(s.ks)
	sort.Ints(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, "+") + "/" + strconv.Itoa(s.n)
}

// field is one value that every shard of a run holds alike: whether a
// shard's equals the first shard's, and both as an error shows them.
type field struct {
	name      string
	same      bool
	got, want string
}

// sameField is a field compared and shown as it is.
func sameField[T comparable](name string, got, want T) field {
	return field{name, got == want, fmt.Sprint(got), fmt.Sprint(want)}
}

// hashField is a rules hash, compared whole and shown short.
func hashField(name, got, want string) field {
	return field{name, got == want, ShortHash(got), ShortHash(want)}
}

// sameVersion refuses shard name, recorded by tallywood version got, when
// the first shard was recorded by want, unless opt allows mixed versions.
func (opt MergeOptions) sameVersion(name, first, got, want string) error {
	if got == want || opt.AllowMixedVersions {
		return nil
	}
	return fmt.Errorf("%s: tallywood_version %q differs from %q in %s: rerun the shard with one build, or merge anyway with --allow-mixed-versions",
		name, got, want, first)
}

// shardUnion collects the shards of the results being merged, naming the
// result each came from, and refuses a shard twice or another shard count.
type shardUnion struct {
	set   shardSet
	first string // the first result's name
	owner map[int]string
}

func newShardUnion(shard, name string) (*shardUnion, error) {
	set, err := parseShardSet(shard)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	u := &shardUnion{set: set, first: name, owner: map[int]string{}}
	for _, k := range set.ks {
		u.owner[k] = name
	}
	return u, nil
}

// ShardsHeld reads a result's shard field: the shards K it holds, in
// order, of N; every game is 1 of 1.
func ShardsHeld(s string) (ks []int, n int, err error) {
	set, err := parseShardSet(s)
	if err != nil {
		return nil, 0, err
	}
	ks = slices.Clone(set.ks)
	slices.Sort(ks)
	return ks, set.n, nil
}

// coverage is how many of a run's shards the shard field s holds; 0 of 0
// when s is not a shard field.
func coverage(s string) (shards, of int) {
	set, err := parseShardSet(s)
	if err != nil {
		return 0, 0
	}
	return len(set.ks), set.n
}

func sameCells(a, b []Cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].labels != b[i].labels {
			return false
		}
	}
	return true
}

func cellNames(cs []Cell) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Mode + "/" + c.Policy + "/" + c.Politician
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// derive recomputes a cell's summary from its counts, keeping its labels,
// District names, timing and failures.
func (c *Cell) derive() {
	names := make([]string, len(c.Counts.Districts))
	for d := range names {
		if d < len(c.Districts) {
			names[d] = c.Districts[d].District
		}
	}
	failures := c.Failures
	*c = newCell(c.labels, &c.Counts, names, c.ElapsedSeconds)
	c.Failures = failures
}

// add adds the failed items of another shard.
func (f *Failed) add(o *Failed) {
	f.Errors += o.Errors
	f.Failures = firstFailures(append(f.Failures, o.Failures...))
}

// add adds the games of o, the same cell in another shard.
func (c *Cell) add(o *Cell) {
	c.Counts.Merge(&o.Counts)
	c.ElapsedSeconds = addSeconds(c.ElapsedSeconds, o.ElapsedSeconds)
	c.Failures = firstFailures(append(c.Failures, o.Failures...))
}

// add adds the shards of result name. It refuses them as shards of
// another run than the first result's when one of fields, or the shard
// count, differs from the first result's, naming the first that does with
// both values. Merge adds every kind's shards here, so they word a
// mismatch alike.
func (u *shardUnion) add(name, shard string, fields ...field) error {
	s, err := parseShardSet(shard)
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	for _, f := range append(fields, sameField("shard count", s.n, u.set.n)) {
		if !f.same {
			return fmt.Errorf("%s: %s %s differs from %s in %s: shards of different runs", name, f.name, f.got, f.want, u.first)
		}
	}
	for _, k := range s.ks {
		if prev, dup := u.owner[k]; dup {
			return fmt.Errorf("%s: shard %d/%d is already in %s", name, k, s.n, prev)
		}
		u.owner[k] = name
		u.set.ks = append(u.set.ks, k)
	}
	return nil
}
