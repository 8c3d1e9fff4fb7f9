package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/sim"
)

// TestArcTextWidth: the arc study's text keeps to 100 columns, with
// --all too, and says the parts, the fan and the costliest Solo cards of
// every cell; its CSV has a row for each part of each cell.
func TestArcTextWidth(t *testing.T) {
	src := kindFile(t, sim.KindArc, 1)
	r := src.Study.(*sim.ArcResult)
	for _, opt := range []TextOptions{{}, {All: true}, {Wide: true}} {
		var b bytes.Buffer
		if err := Text(&b, src, opt); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("%+v: a line of %d columns: %s", opt, n, l)
			}
		}
		out := b.String()
		if strings.Count(out, "CHANGE IN CHANCE PER GAME") != len(r.Cells) || strings.Count(out, "CHANCE % P10–P90") != len(r.Cells) {
			t.Errorf("%+v: not every cell's split and fan:\n%s", opt, out)
		}
	}
	var c bytes.Buffer
	if err := CSV(&c, src); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(c.String(), ",part,"); n != sim.NumParts*len(r.Cells) {
		t.Errorf("%d part rows, want %d", n, sim.NumParts*len(r.Cells))
	}
}
