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
	// Table and TableCompare are studies of several players (sim
	// --seats) and their comparisons (compare --seats).
	Table        *sim.TableResult
	TableCompare *sim.TableCompareResult
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
	case *sim.TableResult:
		src.Table = r
	case *sim.TableCompareResult:
		src.TableCompare = r
	}
	return src
}
