package sim

import (
	"os"
	"testing"
)

// TestShippedFormatsRead: the formats main shipped before the tolerance
// (tallywood-compare/5, with changes and skipped; tallywood-cards/2,
// with items and Holm's p-values) still read, into the current formats:
// a compare with the default tolerance, a cards study with its items.
func TestShippedFormatsRead(t *testing.T) {
	data, err := os.ReadFile("testdata/compare-v5.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := DecodeAs[*CompareResult](data)
	if err != nil {
		t.Fatal(err)
	}
	if c.Format != FormatCompare || c.Tolerance != DefaultTolerance || c.Changes == nil {
		t.Errorf("compare/5: format %s, tolerance %g, changes %v", c.Format, c.Tolerance, c.Changes)
	}
	data, err = os.ReadFile("testdata/cards-v2.json")
	if err != nil {
		t.Fatal(err)
	}
	k, err := DecodeAs[*CardsResult](data)
	if err != nil {
		t.Fatal(err)
	}
	if k.Format != FormatCards || k.Items == nil || len(k.Cells) == 0 || len(k.Cells[0].Effects) == 0 {
		t.Errorf("cards/2: format %s, items %v, %d cells", k.Format, k.Items != nil, len(k.Cells))
	}
}
