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
		var cmd string
		if i < len(meta.Commands) {
			cmd = meta.Commands[i]
		}
		var s section
		var err error
		switch {
		case src.Sim != nil:
			if cmd == "" {
				cmd = simCommand(src.Sim)
			}
			s, err = simSection(i, src, cmd)
		case src.Compare != nil:
			if cmd == "" {
				cmd = compareCommand(src.Compare)
			}
			s, err = compareSection(i, src, cmd)
		case src.Sweep != nil:
			if cmd == "" {
				cmd = sweepCommand(src.Sweep)
			}
			s, err = sweepSection(i, src, cmd)
		default:
			err = fmt.Errorf("report: %s: no result in the source", src.Name)
		}
		if err != nil {
			return err
		}
		p.Sections = append(p.Sections, s)
	}
	return p.write(w)
}
