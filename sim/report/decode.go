package report

import (
	"encoding/json"
	"fmt"
	"strings"

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
	// Version is the tallywood version that wrote the result, when the
	// result records it.
	Version string
}

// Interrupted reports whether the result is partial: Ctrl-C stopped the
// run that made it.
func (s Source) Interrupted() bool {
	switch {
	case s.Sim != nil:
		return s.Sim.Interrupted
	case s.Compare != nil:
		return s.Compare.Interrupted
	case s.Sweep != nil:
		return s.Sweep.Interrupted
	case s.Seats != nil:
		return s.Seats.Interrupted
	case s.SeatsCompare != nil:
		return s.SeatsCompare.Interrupted
	}
	return false
}

// Played says how much the result holds, "12 games" ("paired games" of a
// comparison, "deals" of a comparison at a table): what a partial result's
// CSV and the command's message say it holds.
func (s Source) Played() string {
	var n int64
	unit := "games"
	switch {
	case s.Sim != nil:
		for _, c := range s.Sim.Cells {
			n += c.Games
		}
	case s.Compare != nil:
		for _, c := range s.Compare.Cells {
			n += c.Games
		}
		unit = "paired games"
	case s.Sweep != nil:
		for _, c := range s.Sweep.Cells {
			n += c.Base.Games * int64(1+len(c.Points))
		}
	case s.Seats != nil:
		n = s.Seats.Counts.Games
	case s.SeatsCompare != nil:
		n, unit = s.SeatsCompare.Deals, "deals"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// oldCompareFormat is the format of compare results before results had
// a kind: the report no longer reads them.
const oldCompareFormat = "tallywood-compare/1"

// envelope is what every result's JSON starts with: its kind, the format
// of that kind, and the version of tallywood that wrote it.
type envelope struct {
	Kind    string `json:"kind"`
	Format  string `json:"format"`
	Version string `json:"tallywood_version"`
}

// readKinds lists the kinds of result the report reads, for errors.
var readKinds = strings.Join([]string{sim.KindSim, sim.KindCompare, sim.KindSweep, sim.KindSeats}, ", ") + " and " + sim.KindSeatsCompare + " results"

// Decode reads the JSON result of `sim`, `merge`, `compare` or `sweep`
// from data; name (the file name) labels it in the report and in errors.
// Anything else is an error that names the file and what it holds.
func Decode(name string, data []byte) (Source, error) {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return Source{}, fmt.Errorf("report: %s: not a tallywood result: %v", name, err)
	}
	kind := env.Kind
	if kind == "" && env.Format == sim.FormatSim {
		kind = sim.KindSim // sim results written before the kind field
	}
	src := Source{Name: name, Version: env.Version}
	var err error
	switch kind {
	case sim.KindSim:
		if src.Sim, err = sim.DecodeResult(data); err == nil {
			err = checkSim(src.Sim)
		}
	case sim.KindCompare:
		if src.Compare, err = sim.DecodeCompare(data); err == nil {
			err = checkCompare(src.Compare)
		}
	case sim.KindSweep:
		if src.Sweep, err = sim.DecodeSweep(data); err == nil {
			err = checkSweep(src.Sweep)
		}
	case sim.KindSeats:
		src.Seats, err = sim.DecodeSeatsResult(data)
	case sim.KindSeatsCompare:
		src.SeatsCompare, err = sim.DecodeSeatsCompare(data)
	case "":
		switch env.Format {
		case "":
			return Source{}, fmt.Errorf("report: %s: not a tallywood result: no \"kind\" field", name)
		case oldCompareFormat:
			return Source{}, fmt.Errorf("report: %s: result of format %q: written by an older tallywood, run it again", name, env.Format)
		}
		return Source{}, fmt.Errorf("report: %s: unknown kind of result (format %q): the report reads %s", name, env.Format, readKinds)
	default:
		return Source{}, fmt.Errorf("report: %s: unknown kind of result %q: the report reads %s", name, kind, readKinds)
	}
	if err != nil {
		return Source{}, fmt.Errorf("report: %s: %v", name, err)
	}
	return src, nil
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

func checkCompare(r *sim.CompareResult) error {
	for i := range r.Cells {
		c := &r.Cells[i]
		if err := checkCell(fmt.Sprintf("cell %d, arm A", i+1), &c.A); err != nil {
			return err
		}
		if err := checkCell(fmt.Sprintf("cell %d, arm B", i+1), &c.B); err != nil {
			return err
		}
	}
	return nil
}

func checkSweep(r *sim.SweepResult) error {
	for i := range r.Cells {
		c := &r.Cells[i]
		if err := checkCell(fmt.Sprintf("cell %d, base", i+1), &c.Base); err != nil {
			return err
		}
		for j := range c.Points {
			if len(c.Points[j].Values) != len(r.Params) {
				return fmt.Errorf("cell %d, point %d: %d values for %d parameters", i+1, j+1, len(c.Points[j].Values), len(r.Params))
			}
			if err := checkCell(fmt.Sprintf("cell %d, point %d", i+1, j+1), &c.Points[j].Result); err != nil {
				return err
			}
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
