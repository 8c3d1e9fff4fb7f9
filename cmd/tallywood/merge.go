package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"tallywood/sim"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "merge", summary: "merge shard results (JSON) of one sim run", run: runMerge})
}

const mergeUsage = `usage: tallywood merge [flags] FILE...

Merges the JSON results of 'tallywood sim --shard K/N --format json' into one
result, identical to running the same games unsharded (timing aside).

flags:
`

func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("merge", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "json", "output: table, json, csv or html (the report; the default for an --out FILE.html)")
	out := fs.String("out", "", "write the output to FILE instead of stdout")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, mergeUsage+fs.FlagUsages())
			return exitOK
		}
		return fail(stderr, "merge: %v", err)
	}
	if htmlOut(*format, fs.Changed("format"), *out) {
		*format = "html"
	}
	switch *format {
	case "table", "json", "csv", "html":
	default:
		return fail(stderr, "merge: --format %q is not table, json, csv or html", *format)
	}
	files := fs.Args()
	if len(files) == 0 {
		return fail(stderr, "merge: no result files given")
	}
	if err := checkOut(*out); err != nil {
		return fail(stderr, "merge: --out: %v", err)
	}
	switch resultKind(files[0]) {
	case sim.KindCompare:
		return mergeCompares(files, *format, *out, stdout, stderr)
	case sim.KindSweep:
		return mergeSweeps(files, *format, *out, stdout, stderr)
	}
	results := make([]*sim.Result, len(files))
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return fail(stderr, "merge: %v", err)
		}
		r, err := sim.DecodeResult(data)
		if err != nil {
			return fail(stderr, "merge: %s: %v", name, err)
		}
		results[i] = r
	}
	merged, err := sim.Merge(results, files)
	if err != nil {
		return fail(stderr, "merge: %v", err)
	}
	var data []byte
	switch *format {
	case "json":
		data = merged.JSON()
	case "csv":
		data = simCSV(merged)
	case "html":
		if data, err = renderReport([]report.Source{{Name: "merged shards", Sim: merged}}, nil); err != nil {
			fmt.Fprintf(stderr, "tallywood: merge: %v\n", err)
			return exitFailed
		}
	default:
		data = simTable(merged)
	}
	if err := writeOut(*out, stdout, data); err != nil {
		fmt.Fprintf(stderr, "tallywood: merge: --out: %v\n", err)
		return exitFailed
	}
	return exitOK
}
