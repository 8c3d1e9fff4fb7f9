package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "sweep", summary: "vary rules parameters over values on the same seeds; find a target win rate", run: runSweep})
}

const sweepUsage = `usage: tallywood sweep --set PATH=VALUES [flags]

Plays the same seeded games at every value of one rules parameter (or every
combination of several: one --set each), for each cell of --mode × --policy
× --politician, and pairs each point against the base rules game by game.
VALUES is a comma-separated list (1,2,3,4) or an integer range (2..6), or
both (1,3..5). With --target the value at which the win rate crosses the
target is interpolated, with an interval (see docs/balance.md).

flags:
`

// maxSweepPoints bounds the grid: each point plays every game again.
const maxSweepPoints = 1000

func runSweep(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("sweep")
	sets := fs.StringArray("set", nil, "PATH=VALUES: a rules parameter and its values (repeatable: a grid)")
	games := fs.Int64("games", 5000, "games per cell and point")
	modeFlag := fs.String("mode", "normal,hard", "difficulties, comma-separated: normal, hard")
	policyFlag := fs.String("policy", defaultPolicy, "player policies, comma-separated (see 'tallywood policies')")
	politicianFlag := fs.String("politician", "random", "politicians, comma-separated: IDs, random (per game) or all")
	seed := fs.Uint64("seed", 1, "master seed")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers")
	rulesFile := fs.String("rules", "", "base rules FILE, or default (the reference set)")
	target := fs.Float64("target", 0, "find where the win rate crosses this rate (e.g. 0.40); one --set only")
	format := fs.String("format", "table", "output: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", "write the output to FILE instead of stdout")
	shardFlag := fs.String("shard", "1/1", "play only shard K of N: the games i with i mod N = K-1")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if code, done := parseFlags(fs, args, sweepUsage, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(stderr, "sweep: unexpected argument %q", fs.Arg(0))
	}
	if len(*sets) == 0 {
		return fail(stderr, "sweep: no --set PATH=VALUES given")
	}
	if err := checkGames(fs, *games); err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	if *workers < 1 {
		return fail(stderr, "sweep: --workers %d: must be at least 1", *workers)
	}
	if fs.Changed("target") && !(*target > 0 && *target < 1) {
		return fail(stderr, "sweep: --target %g: a win rate above 0 and below 1", *target)
	}
	if fs.Changed("target") && len(*sets) != 1 {
		return fail(stderr, "sweep: --target needs exactly one --set")
	}
	fmtName, err := outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html")
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	shard, err := sim.ParseShard(*shardFlag)
	if err != nil {
		return fail(stderr, "sweep: --shard %v", err)
	}
	base, err := loadRules(*rulesFile)
	if err != nil {
		return failInput(stderr, "sweep: --rules: %v", err)
	}
	modes, err := parseModes("mode", *modeFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	specs, err := parsePolicies("policy", *policyFlag)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	politicians, err := parsePoliticians(base, "politician", *politicianFlag, true)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	params, points, err := sweepPoints(base, *sets)
	if err != nil {
		return fail(stderr, "sweep: --set: %v", err)
	}
	if fs.Changed("target") {
		for _, p := range points {
			if _, err := strconv.ParseFloat(p.Set[0].Value, 64); err != nil {
				return fail(stderr, "sweep: --target: value %q of %s is not a number", p.Set[0].Value, params[0])
			}
		}
	}
	output, err := openOutput(*out, stdout, stderr)
	if err != nil {
		return fail(stderr, "sweep: %v", err)
	}
	cfg := sim.SweepConfig{Base: base, Params: params, Points: points, Seed: *seed, Games: *games, Shard: shard,
		Workers: capWorkers("sweep", *workers, stderr), Target: *target}
	for _, m := range modes {
		for _, p := range specs {
			for _, pol := range politicians {
				cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: m, Policy: p, Politician: pol})
			}
		}
	}
	ctx, release := interruptible("sweep", stderr)
	defer release()
	bar := startProgress(stderr, int64(len(cfg.Cells))*int64(1+len(points))*shard.Len(*games), *quiet)
	cfg.Progress = &bar.done
	res, err := sim.Sweep(ctx, cfg)
	bar.stop()
	if err != nil {
		return failRun(stderr, "sweep: %v", err)
	}
	return writeSweep("sweep", res, fmtName, output, stderr)
}

// writeSweep writes a sweep result in format to out; a partial one says
// where it now is and exits 1.
func writeSweep(cmd string, res *sim.SweepResult, format string, out *output, stderr io.Writer) int {
	var games int64
	for _, c := range res.Cells {
		games += c.Base.Games * int64(1+len(c.Points))
	}
	what := fmt.Sprintf("%d games", games)
	var data []byte
	switch format {
	case "json":
		data = res.JSON()
	case "csv":
		data = sweepCSV(res, what)
	case "html":
		var err error
		if data, err = renderReport(report.Source{Name: reportName(cmd, "this run"), Sweep: res, Version: res.Version}); err != nil {
			return failRun(stderr, "%v", err)
		}
	default:
		data = sweepTable(res)
	}
	return out.result(cmd, data, res.Interrupted, what, stderr)
}

// sweepPoints reads the --set flags: each PATH=VALUES gives a parameter
// and its values; the points are every combination, the first parameter
// varying slowest, each validated by the engine.
func sweepPoints(base *engine.Rules, sets []string) ([]string, []sim.SweepPoint, error) {
	var params []string
	var values [][]string
	for _, s := range sets {
		a, err := engine.ParseAssignment(s)
		if err != nil {
			return nil, nil, err
		}
		for _, p := range params {
			if p == a.Path {
				return nil, nil, fmt.Errorf("%q: %s is swept twice", s, a.Path)
			}
		}
		vs, err := expandValues(a.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %v", s, err)
		}
		params = append(params, a.Path)
		values = append(values, vs)
	}
	total := 1
	for _, vs := range values {
		total *= len(vs)
		if total > maxSweepPoints {
			return nil, nil, fmt.Errorf("%d or more points: at most %d", total, maxSweepPoints)
		}
	}
	points := make([]sim.SweepPoint, 0, total)
	for i := range total {
		set := make([]engine.Assignment, len(params))
		rest := i
		for k := len(params) - 1; k >= 0; k-- {
			set[k] = engine.Assignment{Path: params[k], Value: values[k][rest%len(values[k])]}
			rest /= len(values[k])
		}
		r, err := base.With(set...)
		if err != nil {
			return nil, nil, err
		}
		points = append(points, sim.SweepPoint{Set: set, Rules: r})
	}
	return params, points, nil
}

// expandValues reads VALUES: comma-separated values, each a value or an
// integer range A..B (A ≤ B), with no value twice.
func expandValues(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(v string) error {
		if seen[v] {
			return fmt.Errorf("value %s given twice", v)
		}
		seen[v] = true
		out = append(out, v)
		if len(out) > maxSweepPoints {
			return fmt.Errorf("more than %d values", maxSweepPoints)
		}
		return nil
	}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, errors.New("an empty value")
		}
		if lo, hi, ok := strings.Cut(p, ".."); ok {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || a > b {
				return nil, fmt.Errorf("range %q is not A..B with integers A ≤ B", p)
			}
			if b-a >= maxSweepPoints {
				return nil, fmt.Errorf("range %q has more than %d values", p, maxSweepPoints)
			}
			for v := a; v <= b; v++ {
				if err := add(strconv.Itoa(v)); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(p); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// crossingWords says where a cell's win rate crosses the target.
func crossingWords(c *sim.Crossing, target float64, param string) string {
	end := func(x *float64, beyond string) string {
		if x == nil {
			return beyond
		}
		return strconv.FormatFloat(*x, 'f', 2, 64)
	}
	if c.Value == nil {
		return fmt.Sprintf("the win rate does not cross %s within the swept values of %s (interval %s to %s)",
			pct(target), param, end(c.Lo, "below them"), end(c.Hi, "above them"))
	}
	s := fmt.Sprintf("the win rate crosses %s at %s = %.2f [%s, %s]", pct(target), param, *c.Value,
		end(c.Lo, "below the swept values"), end(c.Hi, "above the swept values"))
	if c.Multiple {
		s += " (first of several crossings)"
	}
	return s
}

func sweepTable(r *sim.SweepResult) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "base rules %s (%s)", r.RulesVersion, engine.ShortHash(r.RulesHash))
	if len(r.Overrides) > 0 {
		fmt.Fprintf(&b, " with %s", strings.Join(r.Overrides, ", "))
	}
	fmt.Fprintf(&b, ", seed %d, %d games per cell and point (the same seeds at every point)", r.Seed, r.GamesPerCell)
	if r.Shard != "" {
		fmt.Fprintf(&b, ", shard %s", r.Shard)
	}
	if r.Interrupted {
		b.WriteString(", INTERRUPTED")
	}
	b.WriteString("\n")
	header := append(append([]string{}, r.Params...), "W / D / L", "WIN RATE [95% CI]", "MEAN MARGIN [95% CI]",
		"SCORE vs BASE [95% CI]", "MARGIN vs BASE [95% CI]")
	for i := range r.Cells {
		c := &r.Cells[i]
		fmt.Fprintf(&b, "\n%s, %s, politician %s:\n", modeTitle(c.Mode), c.Policy, c.Politician)
		t := newTable(&b, header, len(r.Params))
		row := func(values []string, cell *sim.Cell, rest ...string) {
			t.Append(append(append(append([]string{}, values...),
				fmt.Sprintf("%d / %d / %d", cell.Wins, cell.Draws, cell.Losses),
				fmt.Sprintf("%s [%s, %s]", pct(cell.WinRate), pct(cell.WinCI95[0]), pct(cell.WinCI95[1])),
				fmt.Sprintf("%s [%s, %s]", signed(cell.MeanMargin), signed(cell.MarginCI95[0]), signed(cell.MarginCI95[1]))),
				rest...))
		}
		baseValues := make([]string, len(r.Params))
		for k := range baseValues {
			baseValues[k] = "base"
		}
		row(baseValues, &c.Base, "", "")
		for j := range c.Points {
			p := &c.Points[j]
			row(p.Values, &p.Result,
				fmt.Sprintf("%s [%s, %s] pts", points(p.ScoreDiff), points(p.ScoreDiffCI95[0]), points(p.ScoreDiffCI95[1])),
				fmt.Sprintf("%s [%s, %s]", signed(p.MarginDiff), signed(p.MarginDiffCI95[0]), signed(p.MarginDiffCI95[1])))
		}
		t.Render()
		if c.Crossing != nil {
			fmt.Fprintf(&b, "  %s\n", crossingWords(c.Crossing, r.Target, r.Params[0]))
		}
	}
	b.WriteString("\nSCORE vs BASE: the paired score difference (win 1, draw ½) against the base rules on the same seeds, in points;\n" +
		"MARGIN vs BASE: the paired margin difference in votes.\n")
	if r.Target != 0 {
		b.WriteString("Crossing: " + sim.CrossingMethod + ".\n")
	}
	return b.Bytes()
}

func sweepCSV(r *sim.SweepResult, what string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	header := append([]string{"mode", "policy", "politician"}, r.Params...)
	header = append(header, "games", "wins", "draws", "losses", "win_rate", "win_ci95_lo", "win_ci95_hi",
		"mean_margin", "margin_ci95_lo", "margin_ci95_hi",
		"score_diff_vs_base", "score_diff_ci95_lo", "score_diff_ci95_hi",
		"margin_diff_vs_base", "margin_diff_ci95_lo", "margin_diff_ci95_hi")
	w.Write(header)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	row := func(c *sim.SweepCell, values []string, cell *sim.Cell, diffs []string) {
		rec := append([]string{c.Mode, c.Policy, c.Politician}, values...)
		rec = append(rec, strconv.FormatInt(cell.Games, 10), strconv.FormatInt(cell.Wins, 10),
			strconv.FormatInt(cell.Draws, 10), strconv.FormatInt(cell.Losses, 10),
			f(cell.WinRate), f(cell.WinCI95[0]), f(cell.WinCI95[1]),
			f(cell.MeanMargin), f(cell.MarginCI95[0]), f(cell.MarginCI95[1]))
		w.Write(append(rec, diffs...))
	}
	for i := range r.Cells {
		c := &r.Cells[i]
		base := make([]string, len(r.Params))
		for k := range base {
			base[k] = "base"
		}
		row(c, base, &c.Base, []string{"0", "0", "0", "0", "0", "0"})
		for j := range c.Points {
			p := &c.Points[j]
			row(c, p.Values, &p.Result, []string{f(p.ScoreDiff), f(p.ScoreDiffCI95[0]), f(p.ScoreDiffCI95[1]),
				f(p.MarginDiff), f(p.MarginDiffCI95[0]), f(p.MarginDiffCI95[1])})
		}
	}
	csvPartial(w, r.Interrupted, what)
	w.Flush()
	return b.Bytes()
}

// mergeSweeps is merge for sweep shards; first is the first file's
// contents.
func mergeSweeps(o *mergeOptions, first []byte, out *output, stderr io.Writer) int {
	results, code := readShards(o, first, sim.DecodeSweep, func(r *sim.SweepResult) bool { return r.Interrupted }, stderr)
	if code != exitOK {
		return code
	}
	merged, err := sim.MergeSweep(results, o.files)
	if err != nil {
		return failInput(stderr, "merge: %v", err)
	}
	return writeSweep("merge", merged, o.format, out, stderr)
}
