package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"tallywood/sim/report"
)

func init() {
	register(command{name: "report", summary: "write an HTML report with plots of sim, merge, compare and sweep results (JSON)", run: runReport})
}

const reportUsage = `usage: tallywood report [flags] RESULT.json...

Reads the JSON results of 'tallywood sim', 'merge', 'compare' and 'sweep'
and writes one self-contained HTML page: for each result, a header that
says how to reproduce it, plots with 95% intervals, and the table of each
plot's numbers. The page needs no network and no script.

'--format html' (or an --out FILE.html) on sim, merge, compare and sweep
writes the same report directly.

flags:
`

// maxResultSize bounds a result file read by report: the largest real
// result (sim --politician all, both modes, several policies) is well
// under a megabyte.
const maxResultSize = 64 << 20

func runReport(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("report", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "write the report to FILE instead of stdout")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			fmt.Fprint(stdout, reportUsage+fs.FlagUsages())
			return exitOK
		}
		return fail(stderr, "report: %v", err)
	}
	files := fs.Args()
	if len(files) == 0 {
		return fail(stderr, "report: no result files given")
	}
	if err := checkOut(*out); err != nil {
		return fail(stderr, "report: --out: %v", err)
	}
	srcs := make([]report.Source, len(files))
	for i, name := range files {
		data, err := readResult(name)
		if err != nil {
			return fail(stderr, "report: %v", err)
		}
		src, err := report.Decode(name, data)
		if err != nil {
			return fail(stderr, "%v", err)
		}
		srcs[i] = src
	}
	data, err := renderReport(srcs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "tallywood: report: %v\n", err)
		return exitFailed
	}
	if err := writeOut(*out, stdout, data); err != nil {
		fmt.Fprintf(stderr, "tallywood: report: --out: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// readResult reads a result file, refusing one too large to be a result.
func readResult(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxResultSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(data) > maxResultSize {
		return nil, fmt.Errorf("%s: larger than %d MiB: not a tallywood result", name, maxResultSize>>20)
	}
	return data, nil
}

// renderReport renders the HTML report of srcs. commands are the command
// lines that made the results, when known; the report reconstructs the
// others from the results.
func renderReport(srcs []report.Source, commands []string) ([]byte, error) {
	var b bytes.Buffer
	meta := report.Meta{Tool: toolVersion(), Made: time.Now(), Commands: commands}
	if err := report.Write(&b, srcs, meta); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// htmlOut reports whether a command's output is the HTML report: --format
// html, or an --out file ending in .html while --format was not given.
func htmlOut(format string, formatSet bool, out string) bool {
	if formatSet {
		return format == "html"
	}
	ext := strings.ToLower(filepath.Ext(out))
	return ext == ".html" || ext == ".htm"
}

// toolVersion is the module version and VCS revision of this binary.
func toolVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version)"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}
