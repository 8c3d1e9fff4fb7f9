package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"tallywood/engine"
	"tallywood/sim"
	"tallywood/sim/policy"
)

// TestPartialCSV: the CSV of an interrupted sim, sim --seats or sweep
// ends with a row saying it is partial and how much it holds, which a
// reader wanting the header's fields on every row refuses; a complete one
// has no such row (partial CSV files carried no mark).
func TestPartialCSV(t *testing.T) {
	decode := func(data []byte) Source {
		t.Helper()
		src, err := Decode("r.json", data)
		if err != nil {
			t.Fatal(err)
		}
		return src
	}
	study, err := sim.RunSeats(context.Background(), sim.SeatsConfig{RunConfig: sim.RunConfig{Seed: 1}, Rules: engine.Reference(), Deals: 2,
		Lineup: []policy.Spec{mustSpec(t, "random"), mustSpec(t, "random")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		src    Source
		played string
	}{
		{"sim", decode(simJSON(t, 4, 1)), "16 games"},         // 4 cells of 4 games
		{"sim --seats", decode(sim.Encode(study)), "2 deals"}, // each in 2 seatings
		{"sweep", decode(sweepJSON(t, 4, 1, 0)), "8 seeds"},   // 2 cells × 4 seeds, each played at the base and 3 points
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write := func(interrupted bool) []byte {
				t.Helper()
				tt.src.Study.Head().Interrupted = interrupted
				var b bytes.Buffer
				if err := CSV(&b, tt.src); err != nil {
					t.Fatal(err)
				}
				return b.Bytes()
			}
			if _, err := csv.NewReader(bytes.NewReader(write(false))).ReadAll(); err != nil {
				t.Errorf("the complete CSV does not read: %v", err)
			}
			partial := write(true)
			lines := strings.Split(strings.TrimSpace(string(partial)), "\n")
			if last, want := lines[len(lines)-1], "# partial result: the run was interrupted after "+tt.played; last != want {
				t.Errorf("last line %q, want %q", last, want)
			}
			if _, err := csv.NewReader(bytes.NewReader(partial)).ReadAll(); !errors.Is(err, csv.ErrFieldCount) {
				t.Errorf("a strict reader reads the partial CSV: %v", err)
			}
		})
	}
}

// TestCSVOfComparisons: a comparison's CSV has a row per cell of the
// grid, in order, a cell not played with the fields its game cannot read.
func TestCSVOfComparisons(t *testing.T) {
	src, err := Decode("c.json", hardOnlyCompareJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := CSV(&b, src); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[1][0] != "normal" || rows[1][len(rows[1])-1] != "difficulties.hard.bonus_divisor" ||
		rows[2][0] != "hard" || rows[2][6] != "200" || rows[2][len(rows[2])-1] != "" {
		t.Errorf("rows %q: want the header, Normal not played, Hard's 200 pairs", rows)
	}
}
