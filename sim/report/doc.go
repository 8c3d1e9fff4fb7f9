// Package report writes tallywood's results, of every kind of study
// (sim.Kinds: each kind's file registers its view), for people: as text,
// the ASCII tables of --format table (Text); as CSV (CSV); and as one
// self-contained HTML page a designer opens in a browser (Write): a
// header that says how to reproduce each result, plots drawn with
// gonum.org/v1/plot as inline SVG, and under each plot the table of its
// numbers. What the text and the page both say, a cell's title or its
// answer in words, is written once (words.go), so they say it alike.
//
//	src, err := report.Decode("results.json", data) // or a Source of a result just played
//	...
//	err = report.Text(os.Stdout, src, report.TextOptions{})
//	err = report.CSV(f, src)
//	err = report.Write(f, []report.Source{src}, report.Meta{Tool: sim.Version(), Made: time.Now()})
//
// The page needs no script and fetches nothing: it reads offline and can
// be attached to an email. Colours are the Okabe–Ito palette, with marker
// shapes repeating the series, so no reading depends on colour alone.
package report
