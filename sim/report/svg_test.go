package report

import (
	"fmt"
	"image/color"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tests read a plot's SVG as gonum writes it: paths of moves and
// lines, and texts, in the plot's coordinates (points, y up). From the
// labelled (major) ticks of an axis they recover where a value lies on
// it, so that a shaded band can be held to the values it stands for.

// svgPath is a path of a plot: its points and its style.
type svgPath struct {
	pts   [][2]float64
	style string
}

// svgText is a text of a plot: its words and the y it is written at.
type svgText struct {
	s string
	y string
}

// svgPlot is what the tests read of one plot.
type svgPlot struct {
	paths []svgPath
	texts []svgText
}

var (
	svgPathRE  = regexp.MustCompile(`<path d="([^"]*)" style="([^"]*)"`)
	svgPointRE = regexp.MustCompile(`[ML](-?[0-9.e+-]+),(-?[0-9.e+-]+)`)
	svgTextRE  = regexp.MustCompile(`(?s)<text x="[^"]*" y="([^"]*)"[^>]*>([^<]*)</text>`)
)

// parseSVG reads a plot's paths (those of straight lines only: a circle's
// arcs are left out) and texts.
func parseSVG(t *testing.T, svg string) svgPlot {
	t.Helper()
	var p svgPlot
	for _, m := range svgPathRE.FindAllStringSubmatch(svg, -1) {
		if strings.ContainsAny(m[1], "AQC") {
			continue
		}
		var path svgPath
		for _, pt := range svgPointRE.FindAllStringSubmatch(m[1], -1) {
			x, err1 := strconv.ParseFloat(pt[1], 64)
			y, err2 := strconv.ParseFloat(pt[2], 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("a path's point %q", pt[0])
			}
			path.pts = append(path.pts, [2]float64{x, y})
		}
		path.style = m[2]
		p.paths = append(p.paths, path)
	}
	for _, m := range svgTextRE.FindAllStringSubmatch(svg, -1) {
		p.texts = append(p.texts, svgText{s: htmlUnescape(m[2]), y: m[1]})
	}
	if len(p.paths) == 0 || len(p.texts) == 0 {
		t.Fatalf("no path or no text in the plot")
	}
	return p
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`).Replace(s)
}

// majorTick is gonum's tick mark of a labelled value: 8 points long.
const majorTick = 8

// axis returns where a value lies on the plot's X axis (y false) or Y
// axis (y true), in the plot's coordinates: a line through its labelled
// ticks, the marks in order of position paired with their labels in
// order of value. It fails the test unless every labelled tick lies on
// that line.
func (p svgPlot) axis(t *testing.T, y bool) func(float64) float64 {
	t.Helper()
	var marks []float64
	for _, path := range p.paths {
		if len(path.pts) != 2 {
			continue
		}
		a, b := path.pts[0], path.pts[1]
		along, across, at := b[1]-a[1], b[0]-a[0], a[0] // a vertical mark of the X axis
		if y {
			along, across, at = b[0]-a[0], b[1]-a[1], a[1]
		}
		if across == 0 && math.Abs(math.Abs(along)-majorTick) < 1e-6 {
			marks = append(marks, at)
		}
	}
	// The X axis' labels share one y; the Y axis' labels are the other
	// numbers.
	byY := map[string][]float64{}
	var all []svgText
	for _, tx := range p.texts {
		if _, err := strconv.ParseFloat(tx.s, 64); err == nil {
			all = append(all, tx)
		}
	}
	xRow := ""
	for _, tx := range all {
		v, _ := strconv.ParseFloat(tx.s, 64)
		byY[tx.y] = append(byY[tx.y], v)
		if len(byY[tx.y]) > len(byY[xRow]) {
			xRow = tx.y
		}
	}
	var labels []float64
	for _, tx := range all {
		if (tx.y == xRow) != y {
			v, _ := strconv.ParseFloat(tx.s, 64)
			labels = append(labels, v)
		}
	}
	slices.Sort(marks)
	slices.Sort(labels)
	if len(marks) < 2 || len(marks) != len(labels) {
		t.Fatalf("axis (y %t): %d labelled tick marks %v, %d labels %v", y, len(marks), marks, len(labels), labels)
	}
	n := len(marks) - 1
	scale := (marks[n] - marks[0]) / (labels[n] - labels[0])
	at := func(v float64) float64 { return marks[0] + (v-labels[0])*scale }
	for i := range marks {
		if math.Abs(at(labels[i])-marks[i]) > 0.01 {
			t.Fatalf("axis (y %t): the tick of %g is at %g, not on the line through the others (%g)", y, labels[i], marks[i], at(labels[i]))
		}
	}
	return at
}

// svgColour is c as gonum's SVG writes a fill: its colour without its
// alpha, in upper-case hex.
func svgColour(c color.Color) string {
	r, g, b, a := c.RGBA()
	k := 255.0 / float64(a)
	return fmt.Sprintf("#%02X%02X%02X", int(float64(r)*k), int(float64(g)*k), int(float64(b)*k))
}

// fills are the boxes (min and max corners) of the paths filled with c.
func (p svgPlot) fills(c color.Color) [][2][2]float64 {
	var out [][2][2]float64
	for _, path := range p.paths {
		fill := "fill:" + svgColour(c)
		if !strings.Contains(path.style, fill+";") && !strings.HasSuffix(path.style, fill) || len(path.pts) < 3 {
			continue
		}
		lo, hi := path.pts[0], path.pts[0]
		for _, pt := range path.pts {
			lo = [2]float64{min(lo[0], pt[0]), min(lo[1], pt[1])}
			hi = [2]float64{max(hi[0], pt[0]), max(hi[1], pt[1])}
		}
		out = append(out, [2][2]float64{lo, hi})
	}
	return out
}

// shadeBox is the box of the plot's shade (shadeGrey): the largest of
// its fills, the legend's swatch being the other.
func (p svgPlot) shadeBox(t *testing.T) [2][2]float64 {
	t.Helper()
	boxes := p.fills(shadeGrey)
	if len(boxes) < 2 {
		t.Fatalf("%d grey fills, want the shade and its legend's swatch", len(boxes))
	}
	area := func(b [2][2]float64) float64 { return (b[1][0] - b[0][0]) * (b[1][1] - b[0][1]) }
	return slices.MaxFunc(boxes, func(a, b [2][2]float64) int { return cmpFloat(area(a), area(b)) })
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// near reports whether a and b are the same position on a plot, to
// gonum's five significant digits.
func near(a, b float64) bool { return math.Abs(a-b) <= 0.01+1e-4*math.Abs(b) }

// figureSVG is the SVG of the page's figure id.
func figureSVG(t *testing.T, page []byte, id string) string {
	t.Helper()
	s := string(page)
	i := strings.Index(s, `<figure id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no figure %s", id)
	}
	j := strings.Index(s[i:], "</svg>")
	if j < 0 {
		t.Fatalf("figure %s has no SVG", id)
	}
	return s[i : i+j]
}

// hasText reports whether one of the plot's texts is s.
func (p svgPlot) hasText(s string) bool {
	return slices.ContainsFunc(p.texts, func(tx svgText) bool { return tx.s == s })
}
