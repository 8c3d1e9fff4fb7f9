package report

import (
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"strconv"
	"time"
)

// Meta is what the report says about its own making.
type Meta struct {
	// Tool is the version of tallywood that made the report.
	Tool string
	// Made is when the report was made (shown in UTC).
	Made time.Time
}

// page is the whole report.
type page struct {
	Title    string
	Tool     string
	Made     string
	Sections []section
}

// section is the report of one result file.
type section struct {
	ID      string
	Src     int // index of the source, for data-src
	Heading string
	// What a reader needs first, above the facts: what changed
	// (ChangedTitle and Changed), the answers in words, how to read them.
	ChangedTitle string
	Changed      []string
	Answers      []string
	// Lead are the figures that show the answers, drawn right under them
	// and before everything else (issue 42: a designer reads the answer
	// and its plot first); the rest follows under statisticsHeading.
	Lead   []figure
	Read   string
	Facts  []fact
	Notes  []string
	List   []string // one line per cell, in words
	Groups []group
}

// group is a run of figures under an optional sub-heading.
type group struct {
	Heading string
	Figures []figure
}

// fact is one line of a section's header.
type fact struct {
	Name, Value string
	Code        bool // shown as a command line
}

// figure is one plot and the table of its numbers.
type figure struct {
	ID    string
	Title string
	SVG   template.HTML
	Note  string
	Table table
	// Wide spans the page's width, not one of its plot columns: a plot
	// whose labels are long (a tornado's fields).
	Wide bool
}

// table is the numbers behind a figure.
type table struct {
	Header []string
	Rows   [][]cell
}

// cell is one table cell. A number carries its exact value (Value, shown
// rounded as Text) and, when it is read straight from the result, the
// path of that value in the result's JSON (JSON), so that tests can hold
// the table to the file.
type cell struct {
	Text  string
	Value string
	JSON  string
}

func text(s string) cell { return cell{Text: s} }

// num is a number shown with format f.
func num(x float64, f string, path string) cell {
	return cell{Text: fmt.Sprintf(f, x), Value: strconv.FormatFloat(x, 'g', -1, 64), JSON: path}
}

// count is an integer.
func count(n int64, path string) cell {
	s := strconv.FormatInt(n, 10)
	return cell{Text: s, Value: s, JSON: path}
}

// percent is a rate in [0, 1] shown in percent: one decimal, or two
// below 1 % so that a rare event's bound does not show as 0.0 %.
func percent(x float64, path string) cell {
	f := "%.1f%%"
	if x > 0 && x < 0.01 {
		f = "%.2f%%"
	}
	c := num(100*x, f, path)
	c.Value = strconv.FormatFloat(x, 'g', -1, 64)
	return c
}

// points is a difference of rates in percentage points, signed.
func points(x float64, path string) cell {
	c := num(100*x, "%+.2f pt", path)
	c.Value = strconv.FormatFloat(x, 'g', -1, 64)
	return c
}

func signed(x float64, path string) cell { return num(x, "%+.2f", path) }
func plain2(x float64, path string) cell { return num(x, "%.2f", path) }

// versionFact says which tallywood wrote the result.
func versionFact(src Source) fact {
	version := src.Study.Head().TallywoodVersion
	v := "tallywood " + version
	if version == "" {
		v = "not recorded in the result"
	}
	return fact{Name: "Tool version", Value: v}
}

// newSection starts the section of the idx-th result, headed by the command
// verb that wrote it.
func newSection(idx int, verb string, src Source) section {
	return section{ID: fmt.Sprintf("s%d", idx+1), Src: idx, Heading: verb + ": " + filepath.Base(src.Name)}
}

// closingFacts are the last facts of every section: which tallywood wrote
// the result and the command that reproduces it.
func closingFacts(src Source, command string) []fact {
	return []fact{versionFact(src), {Name: "Command", Value: command, Code: true}}
}

// gamesOfShard is the games-per-cell fact: n, naming the shard when the
// result is one shard of a run.
func gamesOfShard(n int64, shard string) string {
	games := fmt.Sprint(n)
	if shard != "" {
		games += " (shard " + shard + " of the run)"
	}
	return games
}

// write renders the page as one self-contained HTML document.
func (p *page) write(w io.Writer) error {
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("report: writing HTML: %v", err)
	}
	return nil
}

func utc(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<link rel="icon" href="data:,"/>
<title>{{.Title}}</title>
<style>
` + css + `
</style>
</head>
<body>
<header class="page">
<h1>{{.Title}}</h1>
<p>Made by tallywood {{.Tool}} on {{.Made}}. Every plot has the table of its numbers under it.</p>
{{- if gt (len .Sections) 1}}
<nav><ul>{{range .Sections}}<li><a href="#{{.ID}}">{{.Heading}}</a></li>{{end}}</ul></nav>
{{- end}}
</header>
<main>
{{- range .Sections}}
<section id="{{.ID}}" data-src="{{.Src}}">
<h2>{{.Heading}}</h2>
{{- if .Changed}}
<p class="lead">{{.ChangedTitle}}</p>
<ul class="changed">
{{- range .Changed}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Answers}}
<ul class="answers">
{{- range .Answers}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Lead}}
<div class="figures">
{{- range .Lead}}
{{template "figure" .}}
{{- end}}
</div>
<h3 class="statistics">` + statisticsHeading + `</h3>
{{- end}}
{{- if .Read}}
<p class="note read">{{.Read}}</p>
{{- end}}
<dl class="facts">
{{- range .Facts}}
<dt>{{.Name}}</dt><dd>{{if .Code}}<code>{{.Value}}</code>{{else}}{{.Value}}{{end}}</dd>
{{- end}}
</dl>
{{- range .Notes}}
<p class="note">{{.}}</p>
{{- end}}
{{- if .List}}
<ul class="cells">
{{- range .List}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- range .Groups}}
{{- if .Heading}}
<h3>{{.Heading}}</h3>
{{- end}}
<div class="figures">
{{- range .Figures}}
{{template "figure" .}}
{{- end}}
</div>
{{- end}}
</section>
{{- end}}
</main>
</body>
</html>
{{- define "figure"}}
<figure id="{{.ID}}"{{if .Wide}} class="wide"{{end}}>
{{.SVG}}
<figcaption>
{{- if .Note}}
<p>{{.Note}}</p>
{{- end}}
<details>
<summary>Numbers: {{.Title}}</summary>
<div class="scroll">
<table>
<thead><tr>{{range .Table.Header}}<th scope="col">{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Table.Rows}}
<tr>{{range .}}<td{{if .Value}} class="n" data-v="{{.Value}}"{{end}}{{if .JSON}} data-json="{{.JSON}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
</div>
</details>
</figcaption>
</figure>
{{- end}}
`))

// statisticsHeading heads what follows a section's lead figures: the
// run's facts and how its statistics are read.
const statisticsHeading = "The run and its statistics"

// css lays the report out in one column on a phone and in two plot
// columns from about 1100 px; plots scale to their column.
const css = `:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 "Liberation Sans", Arial, Helvetica, sans-serif; color: #1a1a1a; background: #fff; }
header.page, main { max-width: 1240px; margin: 0 auto; padding: 0 16px; }
h1 { font-size: 1.6rem; margin: 20px 0 4px; }
h2 { font-size: 1.3rem; margin: 32px 0 8px; padding-top: 12px; border-top: 2px solid #0072b2; }
h3 { font-size: 1.1rem; margin: 24px 0 8px; }
nav ul { padding-left: 20px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0 16px; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
code { font: 14px/1.4 "Liberation Mono", Menlo, Consolas, monospace; background: #f2f2f2; padding: 1px 4px; }
p.note, ul.cells, ul.answers, ul.changed { max-width: 80ch; }
ul.cells, ul.answers, ul.changed { padding-left: 20px; }
p.lead { font-weight: bold; margin: 8px 0 0; }
ul.answers li { font-weight: bold; margin: 4px 0; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 560px), 1fr)); gap: 16px 24px; }
figure { margin: 0; min-width: 0; }
svg.plot { display: block; width: 100%; max-width: 640px; height: auto; }
figure.wide { grid-column: 1 / -1; }
figure.wide svg.plot { max-width: none; }
svg.plot text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
figcaption p { font-size: 0.9rem; color: #444; margin: 4px 0; }
details { margin: 4px 0 8px; }
summary { cursor: pointer; color: #0072b2; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.85rem; margin: 6px 0; }
th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
@media print { details { display: block; } }
`
