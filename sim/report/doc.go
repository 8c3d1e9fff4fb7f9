// Package report turns the JSON results of tallywood's sim, merge and
// compare commands into one self-contained HTML page a designer opens in
// a browser: a header that says how to reproduce each result, plots drawn
// with gonum.org/v1/plot as inline SVG, and under each plot the table of
// its numbers.
//
//	src, err := report.Decode("results.json", data)
//	...
//	err = report.Write(f, []report.Source{src}, report.Meta{Tool: "v1.2.0", Made: time.Now()})
//
// The page needs no script and fetches nothing: it reads offline and can
// be attached to an email. Colours are the Okabe–Ito palette, with marker
// shapes repeating the series, so no reading depends on colour alone.
package report
