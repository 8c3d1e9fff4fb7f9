package main

import (
	"bytes"
	"io"
	"time"

	"tallywood/engine/kit"
	"tallywood/sim"
	"tallywood/sim/deal"
	"tallywood/sim/report"
)

func init() {
	register(command{name: "report", summary: "write an HTML report with plots of results (JSON) of any kind", run: runReport})
}

const reportUsage = `usage: tallywood report [flags] RESULT.json...

Reads the JSON results of any tallywood command that writes one ('sim',
'merge', 'compare', 'sweep', 'sensitivity', 'tune', 'curve', 'calibrate',
'cards', 'arc', and '--seats' tables) and writes one self-contained HTML
page: for each result, a header that says how to reproduce it, plots with
95% intervals, and the table of each plot's numbers. A compare or a sweep
leads with its answers and their plot, the band its verdict reads shaded.
The page needs no network and no script (docs/report.md).

'--format html' (or an --out FILE.html) on sim, merge, compare and sweep (--seats too)
writes the same report directly.

flags:
`

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("report")
	outPath := fs.String("out", "", outUsage)
	if code, done := parseFlags(fs, args, reportUsage, stdout, stderr); done {
		return code
	}
	names := fs.Args()
	if len(names) == 0 {
		return fail(stderr, "report: no result files given")
	}
	var fl files
	for _, name := range names {
		fl.read("", name)
	}
	out, err := fl.open("--out", *outPath, stdout, stderr)
	if err != nil {
		return fail(stderr, "report: %v", err)
	}
	srcs := make([]report.Source, len(names))
	for i, name := range names {
		data, err := kit.ReadFileMax(name, sim.MaxResultBytes)
		if err != nil {
			return failInput(stderr, "report: %v", err)
		}
		if srcs[i], err = report.Decode(name, data); err != nil {
			return failInput(stderr, "%v", err) // "report: FILE: ..."
		}
	}
	data, err := renderReport(srcs...)
	if err != nil {
		return failRun(stderr, "%v", err)
	}
	if err := out.write(data); err != nil {
		return out.writeFailed("report", err, stderr)
	}
	return exitOK
}

// reportName is what the report of cmd's result calls it: "merged shards"
// for merge, else run ("this run", "this study").
func reportName(cmd, run string) string {
	if cmd == "merge" {
		return "merged shards"
	}
	return run
}

// renderReport renders the HTML report of srcs, made by this tallywood
// now; the header of each result gives the command line that reproduces
// it, rebuilt from the result.
func renderReport(srcs ...report.Source) ([]byte, error) {
	var b bytes.Buffer
	if err := report.Write(&b, srcs, report.Meta{Tool: deal.Version(), Made: time.Now()}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
