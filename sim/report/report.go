package report

import (
	"fmt"
	"io"
)

// Write writes the report of srcs to w as one self-contained HTML page:
// inline SVG plots and CSS, no script, nothing fetched from the network.
func Write(w io.Writer, srcs []Source, meta Meta) error {
	if len(srcs) == 0 {
		return fmt.Errorf("report: no results to report on")
	}
	p := page{Title: "Tallywood Rally: simulation report", Tool: meta.Tool, Made: utc(meta.Made)}
	for i, src := range srcs {
		v, err := viewOf(src.Name, src.Study)
		if err != nil {
			return err
		}
		s, err := v.section(i, src)
		if err != nil {
			return err
		}
		p.Sections = append(p.Sections, s)
	}
	return p.write(w)
}
