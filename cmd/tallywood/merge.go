package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"tallywood/engine/kit"
	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "merge", summary: "merge shard results (JSON) of one run of any kind", run: runMerge})
}

const mergeUsage = `usage: tallywood merge [flags] FILE...

Merges shard results (JSON) of one run of any kind ('tallywood sim, compare
or sweep --shard K/N --format json') into one result, identical to running
the same games unsharded (timing aside), and prints it as that command does:
a table by default. Every shard is checked first: counts that add up,
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
	out := fs.String("out", "", outUsage)
	wide := fs.Bool("wide", false, wideUsage)
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
	var fl files
	for _, name := range o.files {
		fl.read("", name)
	}
	out, err := fl.open("--out", o.out, stdout, stderr)
	if err != nil {
		return fail(stderr, "merge: %v", err)
	}
	results := make([]sim.Study, len(o.files))
	for i, name := range o.files {
		data, err := kit.ReadFileMax(name, sim.MaxResultBytes)
		if err != nil {
			return failInput(stderr, "merge: %v", err)
		}
		if results[i], err = sim.Decode(data); err != nil {
			return failInput(stderr, "merge: %s: %v", name, err)
		}
		if results[i].Head().Interrupted {
			fmt.Fprintf(stderr, "tallywood: merge: %s holds an interrupted run: the merged result is partial (marked interrupted)\n", name)
		}
	}
	if err := mergeFormat(o, results[0]); err != nil {
		return failf(stderr, "merge", "merge: %v", err)
	}
	merged, err := sim.Merge(results, o.files, o.opt)
	if err != nil {
		return failInput(stderr, "merge: %v", err)
	}
	shards, of := merged.Head().Coverage()
	n, total, unit := merged.Played()
	noteCoverage(stderr, shards, of, n, total, unit)
	return writeStudy("merge", merged, "", o.format, report.TextOptions{Wide: o.wide}, out, stderr)
}

// mergeFormat refuses an output format the kind of result r has none
// of.
func mergeFormat(o *mergeOptions, r sim.Study) error {
	kind := r.Head().Kind
	switch {
	case o.wide && !report.HasWide(kind):
		return fmt.Errorf("--wide: %s results have one width", kind)
	case o.format == "csv" && !report.HasCSV(kind):
		return fmt.Errorf("--format csv: %s results are written as table, json or html", kind)
	}
	return nil
}

// noteCoverage says on stderr how much of the study a merge of some of its
// shards (shards of of) holds: n of its total games or deals (unit).
func noteCoverage(stderr io.Writer, shards, of int, n, total int64, unit string) {
	if shards < of {
		fmt.Fprintf(stderr, "tallywood: merge: %d of %d shards: %d of the study's %d %s (%.1f%%); the result is marked \"complete\": false\n",
			shards, of, n, total, unit, 100*float64(n)/float64(total))
	}
}
