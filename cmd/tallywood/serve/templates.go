package serve

import (
	"embed"
	"html/template"
	"io"
	"io/fs"
	"net/http"
)

// The pages are html/template (escaping throughout) and the script and
// style sheet plain files, all embedded in the binary: no build step, no
// file read at run time.

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b },
}).ParseFS(templateFiles, "templates/*.html"))

// render writes template name; a failure is the program's own (the
// templates are fixed), so it is written where the page was.
func render(w io.Writer, name string, data any) {
	if err := templates.ExecuteTemplate(w, name, data); err != nil {
		io.WriteString(w, "\n<p>The page could not be drawn: "+template.HTMLEscapeString(err.Error())+"</p>")
	}
}

// staticHandler serves the script and the style sheet.
func staticHandler() http.Handler {
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	return http.FileServerFS(sub)
}

// errorPage is a refused request's page.
type errorPage struct {
	Status         int
	Title, Message string
}
