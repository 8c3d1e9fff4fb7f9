package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"

	"tallywood/sim"
)

// TestPartialCSV: the CSV of an interrupted sim, sim --seats or sweep
// ends with a row saying it is partial, which a reader wanting the
// header's fields on every row refuses; a complete one has no such row
// (issue 22: partial CSV files carried no mark).
func TestPartialCSV(t *testing.T) {
	result := func(args ...string) []byte {
		t.Helper()
		code, out, errs := runCLI(t, append(args, "--format", "json")...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return []byte(out)
	}
	simRes, err := sim.DecodeAs[*sim.Result](result("sim", "--games", "4", "--policy", "random"))
	if err != nil {
		t.Fatal(err)
	}
	tableRes, err := sim.DecodeAs[*sim.TableResult](result("sim", "--seats", "2", "--policy", "random", "--games", "2"))
	if err != nil {
		t.Fatal(err)
	}
	sweepRes, err := sim.DecodeAs[*sim.SweepResult](result("sweep", "--set", "difficulties.hard.bonus_divisor=2..3", "--games", "4", "--policy", "random"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		csv  func(interrupted bool) []byte
	}{
		{"sim", func(i bool) []byte { simRes.Interrupted = i; return simCSV(simRes, "4 games") }},
		{"sim --seats", func(i bool) []byte { tableRes.Interrupted = i; return tableCSV(tableRes, "4 games") }},
		{"sweep", func(i bool) []byte { sweepRes.Interrupted = i; return sweepCSV(sweepRes, "4 games") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := csv.NewReader(bytes.NewReader(tt.csv(false))).ReadAll(); err != nil {
				t.Errorf("the complete CSV does not read: %v", err)
			}
			partial := tt.csv(true)
			lines := strings.Split(strings.TrimSpace(string(partial)), "\n")
			if last := lines[len(lines)-1]; last != "# partial result: the run was interrupted after 4 games" {
				t.Errorf("last line %q", last)
			}
			if _, err := csv.NewReader(bytes.NewReader(partial)).ReadAll(); !errors.Is(err, csv.ErrFieldCount) {
				t.Errorf("a strict reader reads the partial CSV: %v", err)
			}
		})
	}
}
