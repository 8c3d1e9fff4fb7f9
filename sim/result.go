package sim

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"tallywood/engine"
)

// FormatSim names the JSON document of `tallywood sim` and `merge`.
const FormatSim = "tallywood-sim/1"

// Result is the output of a run (docs/output.md describes every field).
// Everything but the timing fields (games_per_second, elapsed_seconds) is
// a function of the flags alone.
type Result struct {
	Format         string  `json:"format"`
	RulesHash      string  `json:"rules_hash"`
	RulesVersion   string  `json:"rules_version"`
	Seed           uint64  `json:"seed"`
	GamesPerCell   int64   `json:"games_per_cell"`
	Shard          string  `json:"shard,omitempty"`
	Cells          []Cell  `json:"cells"`
	Interrupted    bool    `json:"interrupted"`
	GamesPerSecond float64 `json:"games_per_second"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
}

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

func newCell(l labels, c *Counts, districts []string, elapsed time.Duration) Cell {
	n := c.Games
	mean, ci := MeanInterval(n, c.MarginSum, c.MarginSumSq)
	w := Wilson(c.Wins, n)
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
		ElapsedSeconds: elapsed.Seconds(),
		Errors:         c.Errors,
		Counts:         *c,
	}
	if s := elapsed.Seconds(); s > 0 {
		cell.GamesPerSecond = float64(n) / s
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

func newResult(cfg *Config) *Result {
	r := &Result{
		Format:       FormatSim,
		RulesHash:    cfg.Rules.Hash,
		RulesVersion: cfg.Rules.Version,
		Seed:         cfg.Seed,
		GamesPerCell: cfg.Games,
		Cells:        make([]Cell, len(cfg.Cells)),
	}
	if !cfg.Shard.Whole() {
		r.Shard = cfg.Shard.String()
	}
	return r
}

// finish sets the run's timing from its cells'.
func (r *Result) finish() {
	var games int64
	var secs float64
	for _, c := range r.Cells {
		games += c.Games
		secs += c.ElapsedSeconds
	}
	r.ElapsedSeconds = secs
	r.GamesPerSecond = 0
	if secs > 0 {
		r.GamesPerSecond = float64(games) / secs
	}
}

// JSON returns the result as indented JSON with a final newline.
func (r *Result) JSON() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		panic("sim: " + err.Error()) // only finite floats and plain types
	}
	return append(b, '\n')
}

// DecodeResult reads a result written by JSON.
func DecodeResult(data []byte) (*Result, error) {
	var r Result
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a tallywood sim result: %v", err)
	}
	if r.Format != FormatSim {
		return nil, fmt.Errorf("not a tallywood sim result (format %q, want %q)", r.Format, FormatSim)
	}
	return &r, nil
}

// shardSet is the set of shards a result holds: ks of n.
type shardSet struct {
	ks []int
	n  int
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

// Merge adds up results of disjoint shards of one run (same rules, seed,
// games per cell, cells and shard count). Merging every shard 1/N … N/N
// gives exactly the unsharded result, timing aside. names label the
// results in errors (file names).
func Merge(results []*Result, names []string) (*Result, error) {
	if len(results) == 0 {
		return nil, errors.New("nothing to merge")
	}
	first := results[0]
	set, err := parseShardSet(first.Shard)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", names[0], err)
	}
	owner := map[int]string{}
	for _, k := range set.ks {
		owner[k] = names[0]
	}
	out := *first
	out.Cells = make([]Cell, len(first.Cells))
	totals := make([]*Counts, len(first.Cells))
	for i := range first.Cells {
		c := first.Cells[i].Counts // a copy: the merge adds into it
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: cell %d: %v", names[0], i+1, err)
		}
		totals[i] = &c
	}
	elapsed := make([]float64, len(first.Cells))
	failures := make([][]Failure, len(first.Cells))
	for i, c := range first.Cells {
		elapsed[i] = c.ElapsedSeconds
		failures[i] = slices.Clone(c.Failures)
	}
	for ri := 1; ri < len(results); ri++ {
		r, name := results[ri], names[ri]
		differ := func(what, got, want string) error {
			return fmt.Errorf("%s: %s %s differs from %s in %s: shards of different runs", name, what, got, want, names[0])
		}
		switch {
		case r.RulesHash != first.RulesHash:
			return nil, differ("rules_hash", short(r.RulesHash), short(first.RulesHash))
		case r.Seed != first.Seed:
			return nil, differ("seed", fmt.Sprint(r.Seed), fmt.Sprint(first.Seed))
		case r.GamesPerCell != first.GamesPerCell:
			return nil, differ("games_per_cell", fmt.Sprint(r.GamesPerCell), fmt.Sprint(first.GamesPerCell))
		case !sameCells(r.Cells, first.Cells):
			return nil, differ("cells", cellNames(r.Cells), cellNames(first.Cells))
		}
		s, err := parseShardSet(r.Shard)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if s.n != set.n {
			return nil, differ("shard count", strconv.Itoa(s.n), strconv.Itoa(set.n))
		}
		for _, k := range s.ks {
			if prev, dup := owner[k]; dup {
				return nil, fmt.Errorf("%s: shard %d/%d is already in %s", name, k, s.n, prev)
			}
			owner[k] = name
			set.ks = append(set.ks, k)
		}
		for i := range r.Cells {
			c := &r.Cells[i].Counts
			if err := c.check(); err != nil {
				return nil, fmt.Errorf("%s: cell %d: %v", name, i+1, err)
			}
			totals[i].Merge(c)
			elapsed[i] += r.Cells[i].ElapsedSeconds
			failures[i] = append(failures[i], r.Cells[i].Failures...)
		}
		out.Interrupted = out.Interrupted || r.Interrupted
	}
	out.Shard = set.String()
	for i, c := range first.Cells {
		districts := make([]string, engine.NumDistricts)
		for d := range districts {
			if d < len(c.Districts) {
				districts[d] = c.Districts[d].District
			}
		}
		out.Cells[i] = newCell(c.labels, totals[i], districts, time.Duration(elapsed[i]*float64(time.Second)))
		out.Cells[i].ElapsedSeconds = elapsed[i]
		out.Cells[i].Failures = firstFailures(failures[i])
		if elapsed[i] > 0 {
			out.Cells[i].GamesPerSecond = float64(totals[i].Games) / elapsed[i]
		}
	}
	out.finish()
	return &out, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
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
