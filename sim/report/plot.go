package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"):
// eight colours that stay distinct under the common colour-vision
// deficiencies. Series colours are taken from it in order; outcomes keep
// fixed colours so a win reads the same in every plot.
var (
	okBlack     = color.RGBA{0x00, 0x00, 0x00, 0xff}
	okOrange    = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	okSkyBlue   = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	okGreen     = color.RGBA{0x00, 0x9e, 0x73, 0xff}
	okBlue      = color.RGBA{0x00, 0x72, 0xb2, 0xff}
	okVermilion = color.RGBA{0xd5, 0x5e, 0x00, 0xff}
	okPurple    = color.RGBA{0xcc, 0x79, 0xa7, 0xff}
	grey        = color.RGBA{0x99, 0x99, 0x99, 0xff}
	// regionTint is a light tint of the target's orange: where a sweep
	// may meet its target, told from the grey of a verdict's band.
	regionTint = color.RGBA{0xfa, 0xe8, 0xc8, 0xff}

	wonColour  = okBlue
	drawColour = grey
	lostColour = okVermilion
)

// seriesColours are the colours of plotted series, in order.
var seriesColours = []color.Color{okBlue, okOrange, okGreen, okPurple, okSkyBlue, okVermilion, okBlack}

// seriesShapes repeat the series' identity in the marker's shape, so that
// nothing depends on colour alone.
var seriesShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}

func seriesColour(i int) color.Color     { return seriesColours[i%len(seriesColours)] }
func seriesShape(i int) draw.GlyphDrawer { return seriesShapes[i%len(seriesShapes)] }

// sans is the plots' typeface: Liberation Sans, which gonum measures
// text with; the page's CSS names Arial and Helvetica after it, which
// have the same metrics, for readers without the Liberation fonts.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

func dashed() []vg.Length { return []vg.Length{vg.Points(4), vg.Points(3)} }
func solid(c color.Color, w float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(w)}
}

// Plot sizes, in points. The page scales a plot to its column: up to
// about 1.5× in the two columns at 1280 px, down to about 0.75× at a
// 390 px phone width, where 12-point tick labels are still about 12 px.
const (
	plotWidth = 380
	rowHeight = 22 // per category of a plot with categories on the Y axis
)

// newPlot returns a plot with the report's fonts, title and axis labels.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 15)
	p.Title.Padding = vg.Points(8)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 13)
		ax.Tick.Label.Font = font.From(sans, 12)
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = font.From(sans, 12)
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks{}, ticks{}
	p.Add(plotter.NewGrid())
	return p
}

// categoriesY puts names on the Y axis, the first at the top.
func categoriesY(p *plot.Plot, names []string) {
	rev := make([]string, len(names))
	for i, n := range names {
		rev[len(names)-1-i] = n
	}
	p.NominalY(rev...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(names))-0.4
}

// padX widens the X axis by a share of its range on the right, so that
// the last bar or whisker does not end on the plot's edge.
func padX(p *plot.Plot) { p.X.Max += 0.04 * (p.X.Max - p.X.Min) }

// rowY is the Y position of category i of n placed by categoriesY.
func rowY(i, n int) float64 { return float64(n - 1 - i) }

// categoryHeight is the height of a plot with n categories on its Y
// axis: a row each, and room for the title and the X axis.
func categoryHeight(n int) vg.Length {
	return vg.Points(90 + float64(n)*rowHeight)
}

// legendItem is one entry of a plot's legend: a name and the plotter
// whose thumbnail shows it.
type legendItem struct {
	name  string
	thumb plot.Thumbnailer
}

// Legend layout, in points: gonum's own legend sits inside the data area,
// where it can hide data, so the report draws its legends in a row (or
// rows) under the plot instead, with the same thumbnails.
const (
	legendLine  = 18
	legendThumb = 16
	legendGap   = 5
	legendSep   = 16
	legendPad   = 6
)

// renderSVG draws p, with its legend under it, as an SVG element to
// inline in the page, with title as its accessible name. The XML prolog
// and the fixed point size are dropped: the page's CSS scales the plot to
// its column. h is the height of the plot; the legend adds to it.
func renderSVG(p *plot.Plot, legend []legendItem, w, h vg.Length, title string) (template.HTML, error) {
	return renderSVGSide(p, legend, nil, w, h, title)
}

// sideLabel is a line of words in the column right of a plot's data, at
// the height of y on the plot's Y axis: a row's verdict.
type sideLabel struct {
	y    float64
	text string
}

// sideGap is the space between a plot's data and its side column.
const sideGap = 12

// renderSVGSide is renderSVG with side, if any, in a column right of the
// data, as wide as its widest line: words on the row they belong to,
// where no bar or whisker runs into them.
func renderSVGSide(p *plot.Plot, legend []legendItem, side []sideLabel, w, h vg.Length, title string) (template.HTML, error) {
	sty := p.Legend.TextStyle
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	sideSty := p.Y.Tick.Label
	sideSty.XAlign, sideSty.YAlign = draw.XLeft, draw.YCenter
	var sideW vg.Length
	for _, l := range side {
		sideW = max(sideW, sideSty.Width(l.text))
	}
	if sideW > 0 {
		sideW += sideGap
	}
	wrapTitle(p, w-sideW)
	// Wrap the entries into rows that fit the width.
	var rows [][]int
	var x vg.Length
	for i, it := range legend {
		iw := legendThumb + legendGap + sty.Width(it.name)
		if len(rows) == 0 || x > 0 && x+iw > w-2*legendPad {
			rows = append(rows, nil)
			x = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], i)
		x += iw + legendSep
	}
	var legendH vg.Length
	if len(rows) > 0 {
		legendH = vg.Length(len(rows))*legendLine + legendPad
	}
	c := vgsvg.New(w, h+legendH)
	dc := draw.New(c)
	pc := draw.Crop(dc, 0, -sideW, legendH, 0)
	p.Draw(pc)
	if len(side) > 0 {
		data := p.DataCanvas(pc)
		_, ty := p.Transforms(&data)
		// Level with the row's name: gonum raises a Y tick label by its
		// font's descent.
		descent := sideSty.FontExtents().Descent
		for _, l := range side {
			dc.FillText(sideSty, vg.Point{X: data.Max.X + sideGap, Y: ty(l.y) + descent}, l.text)
		}
	}
	for r, row := range rows {
		var total vg.Length
		for _, i := range row {
			total += legendThumb + legendGap + sty.Width(legend[i].name) + legendSep
		}
		x := (w - total + legendSep) / 2
		yc := legendH - legendLine*(vg.Length(r)+0.5)
		for _, i := range row {
			icon := &draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: yc - 5}, Max: vg.Point{X: x + legendThumb, Y: yc + 5},
			}}
			legend[i].thumb.Thumbnail(icon)
			x += legendThumb + legendGap
			dc.FillText(sty, vg.Point{X: x, Y: yc}, legend[i].name)
			x += sty.Width(legend[i].name) + legendSep
		}
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("report: drawing %q: %v", title, err)
	}
	s := buf.String()
	start := strings.Index(s, "<svg")
	end := strings.Index(s[max(start, 0):], ">")
	if start < 0 || end < 0 {
		return "", fmt.Errorf("report: drawing %q: no <svg> element in the plot", title)
	}
	h += legendH
	open := fmt.Sprintf(`<svg class="plot" width="%.0f" height="%.0f" viewBox="0 0 %.5g %.5g" role="img" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><title>%s</title>`,
		w.Dots(96), h.Dots(96), w.Points(), h.Points(), template.HTMLEscapeString(title))
	return template.HTML(open + s[start+end+1:]), nil
}

// wrapTitle breaks a title too wide for a plot w wide into lines at its
// separators (": ", " · "), as late as fits: gonum draws a title on one
// line, cut off at the plot's edges.
func wrapTitle(p *plot.Plot, w vg.Length) {
	sty := p.Title.TextStyle
	fits := func(s string) bool { return sty.Width(s) <= w-vg.Points(16) }
	var lines []string
	rest := p.Title.Text
	for !fits(rest) {
		cut := -1
		for _, sep := range []string{": ", " · ", " "} {
			for i := len(rest) - 1; i > 0; i-- {
				if strings.HasPrefix(rest[i:], sep) && fits(rest[:i+len(sep)-1]) {
					cut = i + len(sep)
					break
				}
			}
			if cut > 0 {
				break
			}
		}
		if cut < 0 {
			break // one word wider than the plot: leave it
		}
		lines = append(lines, strings.TrimRight(rest[:cut], " "))
		rest = rest[cut:]
	}
	p.Title.Text = strings.Join(append(lines, rest), "\n")
}

// ticks are gonum's default tick positions, labelled with the shortest
// form of each value ("2.5", not "2.50").
type ticks struct{}

// Ticks implements plot.Ticker.
func (ticks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}

// whisker is a point estimate with its interval.
type whisker struct {
	x, lo, hi float64
	y         float64
}

// whiskers adapts a slice of whisker to the interfaces of gonum's
// scatter and error bar plotters.
type whiskers []whisker

func (w whiskers) Len() int                    { return len(w) }
func (w whiskers) XY(i int) (float64, float64) { return w[i].x, w[i].y }
func (w whiskers) XError(i int) (float64, float64) {
	return w[i].x - w[i].lo, w[i].hi - w[i].x
}

// addWhiskers draws points with horizontal interval bars in series
// colour i and returns the points' plotter for a legend.
func addWhiskers(p *plot.Plot, pts whiskers, i int) (*plotter.Scatter, error) {
	bars, err := plotter.NewXErrorBars(pts)
	if err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	bars.LineStyle = solid(seriesColour(i), 1.5)
	bars.CapWidth = vg.Points(6)
	dots, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	dots.GlyphStyle = draw.GlyphStyle{Color: seriesColour(i), Radius: vg.Points(4), Shape: seriesShape(i)}
	p.Add(bars, dots)
	return dots, nil
}

// vLine draws a vertical line at x across [y0, y1].
func vLine(p *plot.Plot, x, y0, y1 float64, style draw.LineStyle) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	l.LineStyle = style
	p.Add(l)
	return l, nil
}

// hLine draws a horizontal line at y across [x0, x1].
func hLine(p *plot.Plot, y, x0, x1 float64, style draw.LineStyle) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	l.LineStyle = style
	p.Add(l)
	return l, nil
}

// rect fills the rectangle [x0, x1] × [y0, y1].
func rect(p *plot.Plot, x0, x1, y0, y1 float64, c color.Color) (*plotter.Polygon, error) {
	poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	if err != nil {
		return nil, fmt.Errorf("report: %v", err)
	}
	poly.Color = c
	poly.LineStyle.Width = 0
	p.Add(poly)
	return poly, nil
}

// bandColour is the fill of an interval band: the series' blue, light
// enough that lines and points drawn over it stay clear.
var bandColour = color.RGBA{0xb3, 0xd4, 0xe8, 0xff}

// forestRow is one row of a forest plot: its label, and its estimate
// with the interval around it.
type forestRow struct {
	label       string
	est, lo, hi float64
}

// shade is a band a verdict reads, shaded behind a plot's data from lo
// to hi on the axis of the differences (or of the rates): the designer's
// tolerance, or a sequential test's zone. legend names it under the plot
// ("shaded: the tolerance ±2 points"); note says it in the caption.
type shade struct {
	lo, hi       float64
	legend, note string
}

// shadeGrey is a shade's fill: a light grey that prints, translucent so
// that an interval band under it shows through (a sweep's), and that
// reads the same light grey over white.
var shadeGrey = color.NRGBA{0x80, 0x80, 0x80, 0x38}

// addShade shades sh across the plot's height, from p.Y.Min to p.Y.Max.
func addShade(p *plot.Plot, sh *shade) (legendItem, error) {
	z, err := rect(p, sh.lo, sh.hi, p.Y.Min, p.Y.Max, shadeGrey)
	if err != nil {
		return legendItem{}, err
	}
	return legendItem{sh.legend, z}, nil
}

// toleranceShade is the band of a verdict "within the tolerance" on a
// plot of differences in points: ±tol (a fraction of score) around 0.
func toleranceShade(tol float64) *shade {
	return &shade{lo: -100 * tol, hi: 100 * tol, legend: "shaded: the tolerance " + toleranceText(tol),
		note: "The shaded band is the tolerance, " + toleranceText(tol) + ": a difference whose interval lies inside it is within it."}
}

// forestSVG draws a forest plot titled title: each row's estimate and
// interval, top to bottom, against a dashed line at 0, with sh (if any)
// shaded behind them. The legend names the shade, the rows' dots (dots)
// and the line (zero); the x axis takes in every interval, the shade
// and 0.
func forestSVG(title, xLabel, yLabel string, rows []forestRow, sh *shade, dots, zero string) (template.HTML, error) {
	p := newPlot(title, xLabel, yLabel)
	names := make([]string, len(rows))
	pts := make(whiskers, len(rows))
	lo, hi := 0.0, 0.0
	for i, r := range rows {
		names[i] = r.label
		pts[i] = whisker{x: r.est, lo: r.lo, hi: r.hi, y: rowY(i, len(rows))}
		lo, hi = min(lo, r.lo), max(hi, r.hi)
	}
	categoriesY(p, names)
	var legend []legendItem
	if sh != nil {
		z, err := addShade(p, sh)
		if err != nil {
			return "", err
		}
		legend = append(legend, z)
		lo, hi = min(lo, sh.lo), max(hi, sh.hi)
	}
	line, err := vLine(p, 0, p.Y.Min, p.Y.Max, draw.LineStyle{Color: okBlack, Width: vg.Points(1), Dashes: dashed()})
	if err != nil {
		return "", err
	}
	d, err := addWhiskers(p, pts, 0)
	if err != nil {
		return "", err
	}
	legend = append(legend, legendItem{dots, d}, legendItem{zero, line})
	pad := 0.08 * max(hi-lo, 1e-9)
	p.X.Min, p.X.Max = lo-pad, hi+pad
	return renderSVG(p, legend, plotWidth, categoryHeight(len(rows)), title)
}

// forestFigure is the forest plot of a comparison: each cell's (or row's)
// difference B − A and its interval (which the legend calls interval)
// against the line of no difference, with the band its verdict reads
// (if any) shaded.
func forestFigure(id, title, xLabel, interval string, sh *shade, rows []forestRow, t table) (figure, error) {
	svg, err := forestSVG(title, xLabel, "cell", rows, sh, "B − A, "+interval, "no difference")
	if err != nil {
		return figure{}, err
	}
	note := "The dashed line is no difference."
	if sh != nil {
		note += " " + sh.note
	}
	return figure{ID: id, Title: title, SVG: svg, Note: note, Table: t}, nil
}
