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
		var s section
		var err error
		switch {
		case src.Sim != nil:
			s, err = simSection(i, src, simCommand(src.Sim))
		case src.Compare != nil:
			s, err = compareSection(i, src, compareCommand(src.Compare))
		case src.Sweep != nil:
			s, err = sweepSection(i, src, sweepCommand(src.Sweep))
		case src.Seats != nil:
			s, err = seatsSection(i, src, seatsCommand(src.Seats))
		case src.SeatsCompare != nil:
			s, err = seatsCompareSection(i, src, seatsCompareCommand(src.SeatsCompare))
		case src.Cards != nil:
			s, err = cardsSection(i, src, cardsCommand(src.Cards))
		case src.Tune != nil:
			s, err = tuneSection(i, src, tuneCommand(src.Tune))
		case src.Sensitivity != nil:
			s, err = sensitivitySection(i, src, sensitivityCommand(src.Sensitivity))
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
