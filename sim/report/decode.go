package report

import (
	"fmt"

	"tallywood/sim"
)

// Source is one result to report on, of any kind.
type Source struct {
	// Name says where the result came from (its file name), for
	// headings and errors.
	Name  string
	Study sim.Study
}

// Decode reads the JSON result of any kind of study from data (through
// sim.Decode, which recomputes every derived field from the counts, as
// merge does); name (the file name) labels it in the report and in
// errors.
func Decode(name string, data []byte) (Source, error) {
	s, err := sim.Decode(data)
	if err != nil {
		return Source{}, fmt.Errorf("report: %s: %v", name, err)
	}
	return Source{Name: name, Study: s}, nil
}

// Interrupted reports whether the result is partial: Ctrl-C stopped the
// run that made it.
func (s Source) Interrupted() bool { return s.Study.Head().Interrupted }

// Played says how much the result holds, "12 games" ("paired games" of a
// comparison, "deals" of a study at a table): what a partial result's CSV
// and the command's message say it holds.
func (s Source) Played() string {
	n, _, unit := s.Study.Played()
	return fmt.Sprintf("%d %s", n, unit)
}
