// Command ladder measures the policies' strength against the Opposition
// with the Monte Carlo runner (sim.Run), and prints the ladder table of
// docs/policies.md: win rates with Wilson 95% intervals and games per
// second. With -update FILE it replaces the table between the markers
// <!-- ladder:begin --> and <!-- ladder:end --> in FILE, so that one
// command (make ladder) regenerates the published table. An argument is a
// spec or a skill level, optionally with its own number of games
// (NxSPEC); -levels adds every skill level. A policy named twice (a level
// and its spec) is played once and its row names both. -w overrides the
// hand weights, for tuning.
//
//	go run ./cmd/ladder -games 2000 random greedy 400xmcts:iters=400
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"tallywood/engine"
	"tallywood/engine/kit"
	"tallywood/sim"
	"tallywood/sim/policy"
)

func main() {
	games := flag.Int64("games", 1000, "games per policy and difficulty (NxSPEC overrides it for one spec)")
	workers := flag.Int("workers", 2, "parallel games")
	seed := flag.Uint64("seed", 1, "master seed, as sim's --seed")
	modes := flag.String("modes", "normal,hard", "difficulties")
	levels := flag.Bool("levels", false, "add every skill level after the given specs")
	update := flag.String("update", "", "replace the ladder table between the markers in this file")
	weights := flag.String("w", "", "override DefaultWeights, e.g. Resource=0.5,Progress=1 (tuning)")
	flag.Parse()
	args := flag.Args()
	if *levels {
		for _, lv := range policy.Levels {
			args = append(args, lv.Name)
		}
	}
	var out bytes.Buffer
	if err := run(&out, *games, *workers, *seed, *modes, *weights, args); err != nil {
		fmt.Fprintln(os.Stderr, "ladder:", err)
		os.Exit(2)
	}
	if *update == "" {
		os.Stdout.Write(out.Bytes())
		return
	}
	if err := replaceTable(*update, out.Bytes()); err != nil {
		fmt.Fprintln(os.Stderr, "ladder:", err)
		os.Exit(1)
	}
}

const beginMarker, endMarker = "<!-- ladder:begin -->\n", "<!-- ladder:end -->\n"

// maxDocBytes bounds the document -update reads: docs/policies.md is a
// few KiB, and a FIFO or /dev/zero named by mistake must not hang the
// command or fill the memory (kit.ReadFileMax, as every tool reads).
const maxDocBytes = 4 << 20

// replaceTable puts table between the markers of the file at path.
func replaceTable(path string, table []byte) error {
	doc, err := kit.ReadFileMax(path, maxDocBytes)
	if err != nil {
		return err
	}
	i := bytes.Index(doc, []byte(beginMarker))
	j := bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %q … %q markers", path, strings.TrimSpace(beginMarker), strings.TrimSpace(endMarker))
	}
	var b bytes.Buffer
	b.Write(doc[:i+len(beginMarker)])
	b.Write(table)
	b.Write(doc[j:])
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// entry is one row group of the ladder: a policy, the names it was given
// (a spec, skill levels), and its games.
type entry struct {
	spec    policy.Spec
	levels  []string
	games   int64
	counted bool // games was given with a name (NxSPEC), not by -games
}

// label names the entry in the table: the canonical spec and the skill
// levels that play it.
func (e entry) label() string {
	l := "`" + e.spec.String() + "`"
	for _, lv := range e.levels {
		l += " = **" + lv + "**"
	}
	return l
}

// parseEntries reads the arguments. Names of one policy (a level and its
// spec, two spellings of a spec: equal String()) share one entry, played
// once with the most games asked for by NxSPEC, or the default games when
// no name of it gave a number: the levels -levels adds, with no number,
// do not raise the 2000 games of 2000xmcts:iters=400 to the default.
func parseEntries(args []string, games int64) ([]entry, error) {
	var es []entry
	index := map[string]int{}
	for _, a := range args {
		n, counted := games, false
		if c, s, ok := strings.Cut(a, "x"); ok {
			if v, err := strconv.ParseInt(c, 10, 64); err == nil {
				if v < 1 {
					return nil, fmt.Errorf("%q: want at least 1 game", a)
				}
				n, a, counted = v, s, true
			}
		}
		sp, err := policy.Parse(a)
		if err != nil {
			return nil, err
		}
		i, ok := index[sp.String()]
		if !ok {
			i = len(es)
			index[sp.String()] = i
			es = append(es, entry{spec: sp})
		}
		if sp.Level != "" && !slices.Contains(es[i].levels, sp.Level) {
			es[i].levels = append(es[i].levels, sp.Level)
		}
		switch {
		case counted && !es[i].counted:
			es[i].games, es[i].counted = n, true
		case counted == es[i].counted:
			es[i].games = max(es[i].games, n)
		}
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("no policies: give specs or -levels")
	}
	return es, nil
}

func run(w io.Writer, games int64, workers int, seed uint64, modes, weights string, args []string) error {
	if err := setWeights(weights); err != nil {
		return err
	}
	es, err := parseEntries(args, games)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "| policy | difficulty | games | wins | draws | win rate | Wilson 95%% | mean margin | games/s |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|\n")
	for _, e := range es {
		cfg := sim.Config{RunConfig: sim.RunConfig{Seed: seed, Workers: workers}, Rules: engine.Reference(), Games: e.games}
		for _, m := range strings.Split(modes, ",") {
			mode, err := engine.ParseMode(m)
			if err != nil {
				return err
			}
			cfg.Cells = append(cfg.Cells, sim.CellSpec{Mode: mode, Policy: e.spec, Politician: sim.RandomPoliticianIndex})
		}
		res, err := sim.Run(context.Background(), cfg)
		if err != nil {
			return err
		}
		name := e.label()
		for _, c := range res.Cells {
			fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.1f%% | %.2f–%.2f%% | %s | %s |\n",
				name, c.Mode, c.Games, c.Wins, c.Draws, 100*c.WinRate, 100*c.WinCI95[0], 100*c.WinCI95[1],
				signed(c.MeanMargin), thousands(c.GamesPerSecond))
		}
	}
	return nil
}

// signed writes a margin with a true minus sign.
func signed(x float64) string {
	return strings.Replace(fmt.Sprintf("%+.1f", x), "-", "−", 1)
}

// thousands writes a rate with thousands separators.
func thousands(x float64) string {
	if x < 100 {
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(x)), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// setWeights overrides DefaultWeights from "Name=value,Name=value", for
// tuning.
func setWeights(s string) error {
	if s == "" {
		return nil
	}
	v := reflect.ValueOf(&policy.DefaultWeights).Elem()
	for _, kv := range strings.Split(s, ",") {
		k, val, _ := strings.Cut(kv, "=")
		f := v.FieldByName(k)
		x, err := strconv.ParseFloat(val, 64)
		if !f.IsValid() || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("weight %q: want Name=finite number", kv)
		}
		f.SetFloat(x)
	}
	return nil
}
