package report

import (
	"bytes"
	"encoding/json"
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
}

// envelope is what every result's JSON starts with: the format names the
// kind of result.
type envelope struct {
	Format string `json:"format"`
}

// Decode reads the JSON result of `sim`, `merge` or `compare` from data;
// name (the file name) labels it in the report and in errors. Anything
// else is an error that names the file and what it holds.
func Decode(name string, data []byte) (Source, error) {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return Source{}, fmt.Errorf("report: %s: not a tallywood result: %v", name, err)
	}
	src := Source{Name: name}
	switch env.Format {
	case sim.FormatSim:
		r, err := sim.DecodeResult(data)
		if err != nil {
			return Source{}, fmt.Errorf("report: %s: %v", name, err)
		}
		if err := checkSim(r); err != nil {
			return Source{}, fmt.Errorf("report: %s: %v", name, err)
		}
		src.Sim = r
	case sim.FormatCompare:
		r, err := decodeCompare(data)
		if err != nil {
			return Source{}, fmt.Errorf("report: %s: %v", name, err)
		}
		src.Compare = r
	case "":
		return Source{}, fmt.Errorf("report: %s: not a tallywood result: no \"format\" field", name)
	default:
		return Source{}, fmt.Errorf("report: %s: unknown kind of result %q: want the JSON of sim, merge, compare or sweep (%s, %s)",
			name, env.Format, sim.FormatSim, sim.FormatCompare)
	}
	return src, nil
}

// decodeCompare reads a compare result strictly: an unknown field means a
// result this report does not know how to read.
func decodeCompare(data []byte) (*sim.CompareResult, error) {
	var r sim.CompareResult
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a tallywood compare result: %v", err)
	}
	if err := checkCell("arm a", &r.A.Cell); err != nil {
		return nil, err
	}
	if err := checkCell("arm b", &r.B.Cell); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkSim verifies that each cell's counts add up, so that the shares
// the report draws are shares of the games played.
func checkSim(r *sim.Result) error {
	for i := range r.Cells {
		if err := checkCell(fmt.Sprintf("cell %d", i+1), &r.Cells[i]); err != nil {
			return err
		}
	}
	return nil
}

func checkCell(where string, c *sim.Cell) error {
	n := c.Counts.Games
	var hist int64
	for _, k := range c.Counts.Hist {
		if k < 0 {
			return fmt.Errorf("%s: negative margin histogram count %d", where, k)
		}
		hist += k
	}
	switch {
	case n < 0 || c.Games != n:
		return fmt.Errorf("%s: games %d and counts.games %d differ", where, c.Games, n)
	case c.Wins < 0 || c.Draws < 0 || c.Losses < 0 || c.Wins+c.Draws+c.Losses != n:
		return fmt.Errorf("%s: wins %d, draws %d and losses %d do not add up to %d games", where, c.Wins, c.Draws, c.Losses, n)
	case hist != n:
		return fmt.Errorf("%s: the margin histogram holds %d games, not %d", where, hist, n)
	}
	return nil
}
