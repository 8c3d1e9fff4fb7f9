package report

import (
	"fmt"

	"tallywood/sim"
)

// Source is one result to report on: exactly one of its results is set.
type Source struct {
	// Name says where the result came from (its file name), for
	// headings and errors.
	Name    string
	Sim     *sim.Result
	Compare *sim.CompareResult
	Sweep   *sim.SweepResult
	// Seats and SeatsCompare are studies of several players (sim
	// --seats) and their comparisons (compare --seats).
	Seats        *sim.SeatsResult
	SeatsCompare *sim.SeatsCompareResult
	Cards        *sim.CardsResult
	Tune         *sim.TuneResult
	Sensitivity  *sim.SensitivityResult
	// Version is the tallywood version that wrote the result, when the
	// result records it.
	Version string
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
	return SourceOf(name, s), nil
}

// SourceOf is the source of a result of any kind, named name.
func SourceOf(name string, s sim.Study) Source {
	src := Source{Name: name, Version: s.Head().TallywoodVersion}
	switch r := s.(type) {
	case *sim.Result:
		src.Sim = r
	case *sim.CompareResult:
		src.Compare = r
	case *sim.SweepResult:
		src.Sweep = r
	case *sim.SeatsResult:
		src.Seats = r
	case *sim.SeatsCompareResult:
		src.SeatsCompare = r
	case *sim.CardsResult:
		src.Cards = r
	case *sim.TuneResult:
		src.Tune = r
	case *sim.SensitivityResult:
		src.Sensitivity = r
	}
	return src
}

// study is the result the source holds.
func (s Source) study() sim.Study {
	switch {
	case s.Sim != nil:
		return s.Sim
	case s.Compare != nil:
		return s.Compare
	case s.Sweep != nil:
		return s.Sweep
	case s.Seats != nil:
		return s.Seats
	case s.Cards != nil:
		return s.Cards
	case s.Tune != nil:
		return s.Tune
	case s.Sensitivity != nil:
		return s.Sensitivity
	}
	return s.SeatsCompare
}

// Interrupted reports whether the result is partial: Ctrl-C stopped the
// run that made it.
func (s Source) Interrupted() bool { return s.study().Head().Interrupted }

// Played says how much the result holds, "12 games" ("paired games" of a
// comparison, "deals" of a comparison at a table): what a partial result's
// CSV and the command's message say it holds.
func (s Source) Played() string {
	var n int64
	unit := "games"
	switch {
	case s.Sim != nil:
		n, _, _ = s.Sim.Played()
	case s.Compare != nil:
		n, _, unit = s.Compare.Played()
	case s.Sweep != nil:
		for _, c := range s.Sweep.Cells {
			n += c.Base.Games * int64(1+len(c.Points))
		}
	case s.Seats != nil:
		n = s.Seats.Counts.Games
	case s.SeatsCompare != nil:
		n, _, unit = s.SeatsCompare.Played()
	case s.Cards != nil:
		n, _, unit = s.Cards.Played()
	case s.Tune != nil:
		n, _, unit = s.Tune.Played()
	case s.Sensitivity != nil:
		n, _, unit = s.Sensitivity.Played()
	}
	return fmt.Sprintf("%d %s", n, unit)
}
