package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"tallywood/engine"
	"tallywood/sim"
)

func init() {
	register(command{name: "merge", summary: "merge shard results (JSON) of one sim run", run: runMerge})
}

const mergeUsage = `usage: tallywood merge [flags] FILE...

Merges the JSON results of 'tallywood sim --shard K/N --format json' into one
result, identical to running the same games unsharded (timing aside), and
prints it as sim does. Every shard is checked first: counts that add up,
the rules' sizes, no data after the result, shards of one run recorded by
one tallywood version. Merging some of the shards says how much of the
study they cover and marks the result "complete": false; an interrupted
shard makes the result interrupted (exit 1).

flags:
`

// mergeOptions are merge's flags, parsed and checked.
type mergeOptions struct {
	files  []string
	format string
	out    string
	wide   bool
	opt    sim.MergeOptions
}

// parseMerge parses merge's flags; it touches no file.
func parseMerge(args []string) (*mergeOptions, *pflag.FlagSet, error) {
	fs := newFlags("merge")
	format := fs.String("format", "table", "output `FORMAT`: table, json, csv or html (the report; without --format: by --out's extension)")
	out := fs.String("out", "", "write the output to `FILE` instead of stdout")
	wide := fs.Bool("wide", false, "table: every column (wider than 100 characters)")
	mixed := fs.Bool("allow-mixed-versions", false, "merge shards recorded by different tallywood versions")
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	o := &mergeOptions{files: fs.Args(), out: *out, wide: *wide, opt: sim.MergeOptions{AllowMixedVersions: *mixed}}
	if len(o.files) == 0 {
		return nil, fs, fmt.Errorf("no result files given")
	}
	var err error
	if o.format, err = outputFormat(fs, *format, *out, "table", "table", "json", "csv", "html"); err != nil {
		return nil, fs, err
	}
	if err := onlyWith(fs, "wide", "--format table", o.format == "table"); err != nil {
		return nil, fs, err
	}
	return o, fs, nil
}

func runMerge(args []string, stdout, stderr io.Writer) int {
	o, fs, err := parseMerge(args)
	if err != nil {
		return reportParseError(err, fs, mergeUsage, stdout, stderr)
	}
	out, err := openOutput(o.out, stdout, stderr)
	if err != nil {
		return fail(stderr, "merge: %v", err)
	}
	first, err := engine.ReadFileMax(o.files[0], sim.MaxResultBytes)
	if err != nil {
		return failInput(stderr, "merge: %v", err)
	}
	switch resultKind(first) {
	case sim.KindSeats:
		return mergeSeats(o, first, out, stderr)
	case sim.KindCompare:
		return mergeCompares(o, first, out, stderr)
	case sim.KindSweep:
		return mergeSweeps(o, first, out, stderr)
	}
	results, code := readShards(o, first, sim.DecodeResult, func(r *sim.Result) bool { return r.Interrupted }, stderr)
	if code != exitOK {
		return code
	}
	merged, err := sim.Merge(results, o.files, o.opt)
	if err != nil {
		return failInput(stderr, "merge: %v", err)
	}
	shards, of := merged.Coverage()
	noteCoverage(stderr, shards, of, played(merged), int64(len(merged.Cells))*merged.GamesPerCell, "games")
	return writeResult("merge", merged, o.format, o.wide, out, stderr)
}

// mergeSeats merges the shards of a study without the Opposition (sim
// --seats N); first is the first file's contents.
func mergeSeats(o *mergeOptions, first []byte, out *output, stderr io.Writer) int {
	if o.wide {
		return failf(stderr, "merge", "merge: --wide only matters with the solo game's results")
	}
	results, code := readShards(o, first, sim.DecodeSeatsResult, func(r *sim.SeatsResult) bool { return r.Interrupted }, stderr)
	if code != exitOK {
		return code
	}
	merged, err := sim.MergeSeats(results, o.files, o.opt)
	if err != nil {
		return failInput(stderr, "merge: %v", err)
	}
	shards, of := merged.Coverage()
	noteCoverage(stderr, shards, of, merged.Counts.Deals, merged.Deals, "deals")
	return writeSeatsResult("merge", merged, o.format, out, stderr)
}

func played(r *sim.Result) int64 {
	var n int64
	for _, c := range r.Cells {
		n += c.Games
	}
	return n
}

// noteCoverage says on stderr how much of the study a merge of some of its
// shards (shards of of) holds: n of its total games or deals (unit).
func noteCoverage(stderr io.Writer, shards, of int, n, total int64, unit string) {
	if shards < of {
		fmt.Fprintf(stderr, "tallywood: merge: %d of %d shards: %d of the study's %d %s (%.1f%%); the result is marked \"complete\": false\n",
			shards, of, n, total, unit, 100*float64(n)/float64(total))
	}
}

// readShards reads and decodes merge's files in order, first being the
// first file's contents (already read to learn the kind), and says on
// stderr which of them hold an interrupted run (by interrupted). On a bad
// file it reports the error and returns its exit code.
func readShards[T any](o *mergeOptions, first []byte, decode func([]byte) (T, error), interrupted func(T) bool, stderr io.Writer) ([]T, int) {
	results := make([]T, len(o.files))
	for i, name := range o.files {
		data := first
		if i > 0 {
			var err error
			if data, err = engine.ReadFileMax(name, sim.MaxResultBytes); err != nil {
				return nil, failInput(stderr, "merge: %v", err)
			}
		}
		r, err := decode(data)
		if err != nil {
			return nil, failInput(stderr, "merge: %s: %v", name, err)
		}
		if interrupted(r) {
			fmt.Fprintf(stderr, "tallywood: merge: %s holds an interrupted run: the merged result is partial (marked interrupted)\n", name)
		}
		results[i] = r
	}
	return results, exitOK
}
