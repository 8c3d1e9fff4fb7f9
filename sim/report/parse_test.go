package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// The tests read the report back as a reader would see its structure:
// sections, figures with their SVG and title, and the cells of each
// figure's table. encoding/xml in its lenient HTML mode is enough for the
// page the report writes.

type parsedCell struct {
	Text, V, JSON string
}

type parsedFigure struct {
	ID, SVGTitle, Summary, Note string
	Width, Height               float64
	Rows                        [][]parsedCell
}

type parsedSection struct {
	ID, Src  string
	Facts    map[string]string
	Notes    []string // the notes under the header
	List     []string // the list of cells in words
	Changed  []string // what B changes from A (a comparison)
	Answers  []string // each cell's answer in words (a comparison)
	Headings []string // the groups' headings
	Figures  []*parsedFigure
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// parsePage reads the sections and figures of a report.
func parsePage(t *testing.T, html []byte) []*parsedSection {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(html))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var (
		secs             []*parsedSection
		sec              *parsedSection
		fig              *parsedFigure
		text             strings.Builder
		inText           bool
		dt               string
		td               *parsedCell
		inSVG, sawTitle  bool
		inSummary, inRow bool
		list             string // the class of the list open
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the report is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			switch tok.Name.Local {
			case "section":
				sec = &parsedSection{ID: attr(tok, "id"), Src: attr(tok, "data-src"), Facts: map[string]string{}}
				secs = append(secs, sec)
			case "figure":
				fig = &parsedFigure{ID: attr(tok, "id")}
				sec.Figures = append(sec.Figures, fig)
			case "svg":
				if fig != nil {
					inSVG, sawTitle = true, false
					fig.Width, _ = strconv.ParseFloat(attr(tok, "width"), 64)
					fig.Height, _ = strconv.ParseFloat(attr(tok, "height"), 64)
				}
			case "title", "dt", "dd", "summary", "td", "p", "li", "h3":
				text.Reset()
				inText = true
				switch tok.Name.Local {
				case "summary":
					inSummary = true
				case "td":
					td = &parsedCell{V: attr(tok, "data-v"), JSON: attr(tok, "data-json")}
				}
			case "tr":
				if fig != nil {
					fig.Rows = append(fig.Rows, nil)
					inRow = true
				}
			case "ul":
				list = attr(tok, "class")
			}
		case xml.CharData:
			if inText {
				text.Write(tok)
			}
		case xml.EndElement:
			s := strings.TrimSpace(text.String())
			switch tok.Name.Local {
			case "title":
				if inSVG && !sawTitle {
					fig.SVGTitle, sawTitle = s, true
				}
			case "svg":
				inSVG = false
			case "dt":
				dt = s
			case "dd":
				if sec != nil {
					sec.Facts[dt] = s
				}
			case "summary":
				if inSummary {
					fig.Summary = s
					inSummary = false
				}
			case "td":
				if td != nil && inRow {
					td.Text = s
					last := len(fig.Rows) - 1
					fig.Rows[last] = append(fig.Rows[last], *td)
				}
				td = nil
			case "tr":
				inRow = false
				if fig != nil && len(fig.Rows) > 0 && fig.Rows[len(fig.Rows)-1] == nil {
					fig.Rows = fig.Rows[:len(fig.Rows)-1] // the header row
				}
			case "figure":
				fig = nil
			case "p":
				switch {
				case fig != nil:
					fig.Note = s
				case sec != nil:
					sec.Notes = append(sec.Notes, s)
				}
			case "li":
				switch {
				case sec == nil:
				case list == "answers":
					sec.Answers = append(sec.Answers, s)
				case list == "changed":
					sec.Changed = append(sec.Changed, s)
				default:
					sec.List = append(sec.List, s)
				}
			case "h3":
				if sec != nil {
					sec.Headings = append(sec.Headings, s)
				}
			}
			switch tok.Name.Local {
			case "title", "dt", "dd", "summary", "td", "p", "li", "h3":
				inText = false
			}
		}
	}
	return secs
}

// jsonAt returns the value at a dotted path ("cells.0.win_ci95.1") of a
// JSON document decoded with UseNumber.
func jsonAt(doc any, path string) (any, error) {
	v := doc
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[k]
			if !ok {
				return nil, fmt.Errorf("no field %q", k)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("no element %q", k)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("%q of a scalar", k)
		}
	}
	return v, nil
}

func decodeGeneric(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkCellJSON holds a table cell to the result: the exact value it
// carries must be the JSON's, and the text shown must be that value
// rounded as shown.
func checkCellJSON(doc any, c parsedCell) error {
	if c.JSON != "" {
		v, err := jsonAt(doc, c.JSON)
		if err != nil {
			return fmt.Errorf("%s: %v", c.JSON, err)
		}
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%s is %v, not a number", c.JSON, v)
		}
		want, err1 := strconv.ParseFloat(string(n), 64)
		got, err2 := strconv.ParseFloat(c.V, 64)
		if err1 != nil || err2 != nil || got != want {
			return fmt.Errorf("%s: table has %q, the JSON %s", c.JSON, c.V, n)
		}
	}
	if c.V != "" {
		return checkShown(c.Text, c.V)
	}
	return nil
}

// checkShown verifies that text (e.g. "41.2%", "+1.25", "0.0123") is v
// rounded to the digits shown; a percentage or percentage points ("+2.1
// pt") show 100·v.
func checkShown(text, v string) error {
	want, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return fmt.Errorf("data-v %q is not a number", v)
	}
	s := text
	for _, unit := range []string{"%", " pt"} {
		if strings.HasSuffix(s, unit) {
			s = strings.TrimSuffix(s, unit)
			want *= 100
		}
	}
	got, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("shown %q is not a number", text)
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		exp, _ = strconv.Atoi(s[i+1:])
	}
	decimals := 0
	if i := strings.Index(mant, "."); i >= 0 {
		decimals = len(mant) - i - 1
	}
	tol := 0.5*math.Pow(10, float64(exp-decimals)) + 1e-9*math.Abs(want)
	if math.Abs(got-want) > tol {
		return fmt.Errorf("shown %q is not %s rounded", text, v)
	}
	return nil
}
