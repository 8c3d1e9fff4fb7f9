package report

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"tallywood/sim"
)

// A curve's and a calibration's tables fit 100 columns without --wide
// (a calibration matched against every level too: five levels' matches
// with their intervals would not).
func TestCurveCalibrateNarrow(t *testing.T) {
	for _, k := range []sim.Kind{sim.KindCurve, sim.KindCalibrate} {
		src := kindFile(t, k, 1)
		if c, ok := src.Study.(*sim.CalibrateResult); ok {
			c.Levels = append(c.Levels, "mcts:iters=400,prior=16")
			testers := []*sim.Tester{c.Pooled}
			for i := range c.Testers {
				testers = append(testers, &c.Testers[i])
			}
			for _, tr := range testers {
				if tr != nil && len(tr.Matches) > 0 {
					tr.Matches = append(tr.Matches, tr.Matches[0])
				}
			}
		}
		for _, wide := range []bool{false, true} {
			var b bytes.Buffer
			if err := Text(&b, src, TextOptions{Wide: wide}); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
			widest := 0
			for _, line := range strings.Split(b.String(), "\n") {
				widest = max(widest, utf8.RuneCountInString(line))
			}
			if narrow := !wide; narrow == (widest > 100) {
				t.Errorf("%s, wide %t: the widest line has %d columns", k, wide, widest)
			}
		}
	}
}
