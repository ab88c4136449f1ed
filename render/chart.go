package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/fogleman/gg"
	"github.com/iceagechess/iceage/rating"
	"golang.org/x/image/font"
)

// RatingPoint is a player's rating at one moment, usually right after a
// rated game: the rating and its deviation, as package rating keeps them.
type RatingPoint struct {
	Time      time.Time
	Rating    float64
	Deviation float64
}

// ChartOptions say how to draw a rating chart. The zero ChartOptions draw
// a 640×320 chart in the Classic theme without a title.
type ChartOptions struct {
	// Width and Height are the image's size in pixels, clamped to
	// [MinChartWidth, MaxChartWidth] and [MinChartHeight, MaxChartHeight];
	// 0 means ChartWidth and ChartHeight.
	Width, Height int
	Theme         Theme
	// Title, when set, is written at the top left, e.g. a player's name.
	Title string
	// Dates write the dates below the chart in the reader's language
	// (i18n.ChartDates); without them, dates are numbers: "2026-12-04".
	Dates DateWords
}

// DateWords write a chart's dates in one language.
type DateWords interface {
	// Day is a day of the month, with its year or not: "4 Dec 2026",
	// "4 Dec".
	Day(t time.Time, year bool) string
	// Month is a month, with its year or not: "Dec 2026", "Dec".
	Month(t time.Time, year bool) string
}

// numericDates are the dates of a chart without DateWords.
type numericDates struct{}

func (numericDates) Day(t time.Time, year bool) string {
	if year {
		return t.Format("2006-01-02")
	}
	return t.Format("01-02")
}

func (numericDates) Month(t time.Time, year bool) string {
	if year {
		return t.Format("2006-01")
	}
	return t.Format("01")
}

// Chart sizes.
const (
	ChartWidth     = 640
	ChartHeight    = 320
	MinChartWidth  = 320
	MaxChartWidth  = 1280
	MinChartHeight = 160
	MaxChartHeight = 640
)

func (o *ChartOptions) size() (w, h int) {
	w, h = o.Width, o.Height
	if w == 0 {
		w = ChartWidth
	}
	if h == 0 {
		h = ChartHeight
	}
	return min(max(w, MinChartWidth), MaxChartWidth), min(max(h, MinChartHeight), MaxChartHeight)
}

// RatingChart draws a player's rating over time as a PNG, in the manner of
// a chess site's rating graph on a dark background: the rating as a line,
// the band of one deviation either side shaded, ratings on the left, dates
// below, and the current rating (with "?" while provisional, see package
// rating) in a tag at the right end of the line. Points may come in any
// order; they are drawn by time. One point draws a flat line; no points
// draw the empty grid, without any text. A rating or deviation that is
// NaN, infinite, beyond a million or (a deviation) negative is an error.
// RatingChart is safe for concurrent use.
func RatingChart(points []RatingPoint, opts ChartOptions) ([]byte, error) {
	for i, p := range points {
		if !(math.Abs(p.Rating) <= maxChartValue) || !(p.Deviation >= 0 && p.Deviation <= maxChartValue) {
			return nil, fmt.Errorf("render: rating point %d (%v) has rating %v and deviation %v; a chart takes ratings within ±%v and deviations within [0, %v]",
				i, p.Time.Format(time.DateOnly), p.Rating, p.Deviation, maxChartValue, maxChartValue)
		}
	}
	im := chartImage(points, &opts)
	var buf bytes.Buffer
	if err := writePaletted(&buf, im); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// maxChartValue bounds the ratings and deviations a chart takes, far
// beyond any Glicko rating, so that no arithmetic on them overflows.
const maxChartValue = 1e6

// chartImage draws the chart and maps it to the theme's chart palette.
func chartImage(points []RatingPoint, opts *ChartOptions) *image.Paletted {
	t := opts.Theme
	if t >= numThemes {
		t = Classic
	}
	rgba := drawChart(points, t, opts)
	q := chartQuantizer(t)
	im := image.NewPaletted(rgba.Bounds(), q.palette())
	q.quantize(im.Pix, rgba)
	return im
}

// chartColors are a theme's colours for charts, taken from its palette:
// the line is the theme's ice blue.
type chartColors struct {
	bg, grid, label, text color.NRGBA
	line, band            color.NRGBA
}

func chartColorsOf(t Theme) chartColors {
	c := t.colors()
	line := c.iceBottom
	line.A = 0xff
	band := line
	band.A = 0x50
	return chartColors{
		bg:    c.frame,
		grid:  mix(c.frame, c.text, 0.11),
		label: c.dimText,
		text:  c.text,
		line:  line,
		band:  band,
	}
}

// chart is the geometry of one chart.
type chart struct {
	w, h                     float64
	s                        float64 // scale: 1 at 640×320
	left, top, right, bottom float64 // the plot area
	lo, hi                   float64 // the ratings at the plot's bottom and top
	t0, t1                   time.Time
	byIndex                  bool // the points share one time: spread them evenly
	n                        int
}

func (c *chart) y(r float64) float64 {
	return c.bottom - (r-c.lo)/(c.hi-c.lo)*(c.bottom-c.top)
}

func (c *chart) x(i int, t time.Time) float64 {
	switch {
	case c.n == 1:
		return c.right
	case c.byIndex:
		return c.left + float64(i)/float64(c.n-1)*(c.right-c.left)
	}
	return c.left + (seconds(t)-seconds(c.t0))/(seconds(c.t1)-seconds(c.t0))*(c.right-c.left)
}

// seconds is t as seconds since 1970, without time.Duration's limit of
// 290 years.
func seconds(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// chartFaces are the fonts of a chart at scale s. Faces are not safe for
// concurrent use, so every chart makes its own.
type chartFaces struct{ label, tag, small, title font.Face }

func newChartFaces(s float64) chartFaces {
	loadFonts()
	return chartFaces{
		label: face(fonts.regular, 14*s),
		tag:   face(fonts.bold, 16*s),
		small: face(fonts.regular, 13*s),
		title: face(fonts.medium, 17*s),
	}
}

func drawChart(points []RatingPoint, t Theme, opts *ChartOptions) *image.RGBA {
	wi, ht := opts.size()
	title := opts.Title
	dates := opts.Dates
	if dates == nil {
		dates = numericDates{}
	}
	col := chartColorsOf(t)
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b RatingPoint) int { return a.Time.Compare(b.Time) })

	c := &chart{w: float64(wi), h: float64(ht), n: len(pts)}
	c.s = math.Max(0.5, math.Min(c.w/ChartWidth, c.h/ChartHeight))
	s := c.s
	// Text shrinks less than the rest: Discord shows a chart smaller than
	// its pixels on a phone.
	fs := math.Max(s, 0.8)
	fc := newChartFaces(fs)
	dc := gg.NewContext(wi, ht)
	dc.SetColor(col.bg)
	dc.Clear()

	measure := func(f font.Face, text string) float64 {
		dc.SetFontFace(f)
		w, _ := dc.MeasureString(text)
		return w
	}
	pad := 12 * s
	labelH := 14 * fs

	// The vertical layout: title, plot, dates.
	c.top = pad + labelH/2
	if title != "" {
		c.top = pad + 30*fs
	}
	c.bottom = c.h - pad - 22*fs

	// The rating axis.
	lo, hi := ratingRange(pts)
	// A little room above and below, so that the line does not run along
	// the plot's edge.
	room := (hi - lo) * 0.06
	c.lo, c.hi = lo-room, hi+room
	ticks := ratingTicks(c.lo, c.hi, max(2, int((c.bottom-c.top)/(36*fs))))

	// The horizontal layout: rating labels, plot, the current rating's tag.
	labelW := measure(fc.label, "0000")
	for _, r := range ticks {
		labelW = math.Max(labelW, measure(fc.label, strconv.Itoa(int(r))))
	}
	c.left = math.Round(pad + labelW + 8*fs)
	var tag, sub string
	if len(pts) > 0 {
		last := pts[len(pts)-1]
		tag = rating.Rating{Rating: last.Rating, Deviation: last.Deviation}.Display()
		sub = "±" + strconv.Itoa(int(math.Round(last.Deviation)))
	}
	tagW := math.Max(measure(fc.tag, "0000?"), measure(fc.tag, tag)) + 14*fs
	notch := 6 * fs
	c.right = math.Round(c.w - pad - tagW - notch - 4*s)

	if len(pts) > 0 {
		c.t0, c.t1 = pts[0].Time, pts[len(pts)-1].Time
		c.byIndex = len(pts) > 1 && !c.t1.After(c.t0)
	}

	// Grid and rating labels, in crisp lines of whole pixels.
	gridW := math.Max(1, math.Round(s))
	dc.SetLineWidth(gridW)
	dc.SetLineCapButt()
	crisp := func(v float64) float64 { return math.Round(v) + math.Mod(gridW, 2)/2 }
	dc.SetColor(col.grid)
	dc.DrawLine(c.left, crisp(c.bottom), c.right, crisp(c.bottom))
	dc.Stroke()
	for _, r := range ticks {
		y := crisp(c.y(r))
		dc.SetColor(col.grid)
		dc.DrawLine(c.left, y, c.right, y)
		dc.Stroke()
		if len(pts) > 0 {
			dc.SetFontFace(fc.label)
			dc.SetColor(col.label)
			dc.DrawStringAnchored(strconv.Itoa(int(r)), c.left-8*fs, y, 1, 0.35)
		}
	}
	if len(pts) == 0 {
		return imageRGBA(dc)
	}
	if title != "" {
		dc.SetFontFace(fc.title)
		dc.SetColor(col.text)
		dc.DrawStringAnchored(title, pad, pad+10*fs, 0, 0.35)
	}

	// Dates, with a short tick on the bottom line.
	dateY := c.bottom + 14*fs
	if len(pts) == 1 || c.byIndex {
		dc.SetFontFace(fc.label)
		dc.SetColor(col.label)
		dc.DrawStringAnchored(dates.Day(pts[0].Time.UTC(), true), c.left, dateY, 0, 0.35)
	} else {
		maxDates := max(2, int((c.right-c.left)/(90*fs)))
		for _, tk := range timeTicks(c.t0, c.t1, maxDates, dates) {
			x := crisp(c.x(0, tk.t))
			dc.SetColor(col.grid)
			dc.DrawLine(x, c.bottom, x, c.bottom+4*s)
			dc.Stroke()
			w := measure(fc.label, tk.label)
			x = math.Max(pad+w/2, math.Min(c.w-pad-w/2, x))
			dc.SetColor(col.label)
			dc.DrawStringAnchored(tk.label, x, dateY, 0.5, 0.35)
		}
	}

	// The band, the line and the points, inside the plot area.
	dc.Push()
	dc.DrawRectangle(c.left, c.top-1, c.right-c.left, c.bottom-c.top+2)
	dc.Clip()
	xs := make([]float64, len(pts))
	for i, p := range pts {
		xs[i] = c.x(i, p.Time)
	}
	if len(pts) == 1 {
		xs = []float64{c.left, c.right}
		pts = []RatingPoint{pts[0], pts[0]}
	}
	// The band: one deviation either side of the line, capped as
	// ratingRange allows so that it fits the plot whole (cut by the
	// plot's edges, it showed as dark notches and triangles), and around
	// the line's moving average, so that it does not zigzag with every
	// game; the line stays inside it.
	upper, lower := band(pts)
	dc.SetColor(col.band)
	dc.MoveTo(xs[0], c.y(upper[0]))
	for i := range pts {
		dc.LineTo(xs[i], c.y(upper[i]))
	}
	for i := len(pts) - 1; i >= 0; i-- {
		dc.LineTo(xs[i], c.y(lower[i]))
	}
	dc.ClosePath()
	dc.Fill()
	dc.SetColor(col.line)
	dc.SetLineWidth(2.25 * s)
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	for i := range pts {
		dc.LineTo(xs[i], c.y(pts[i].Rating))
	}
	dc.Stroke()
	if c.n > 1 && c.n <= 40 {
		for i := range pts[:len(pts)-1] {
			dc.DrawCircle(xs[i], c.y(pts[i].Rating), 2.75*s)
			dc.Fill()
		}
	}
	dc.ResetClip()
	dc.Pop()

	// The current rating: a ringed dot at the end of the line and a tag.
	last := pts[len(pts)-1]
	ly := c.y(last.Rating)
	dc.SetColor(col.bg)
	dc.DrawCircle(c.right, ly, 6*s)
	dc.Fill()
	dc.SetColor(col.line)
	dc.DrawCircle(c.right, ly, 4.25*s)
	dc.Fill()

	th := 24 * fs
	ty := math.Max(c.top, math.Min(c.bottom, ly))
	tx := c.right + 4*s
	dc.DrawRoundedRectangle(tx+notch, ty-th/2, tagW, th, 4*fs)
	dc.Fill()
	dc.MoveTo(tx, ty)
	dc.LineTo(tx+notch+1, ty-th/2+2*fs)
	dc.LineTo(tx+notch+1, ty+th/2-2*fs)
	dc.ClosePath()
	dc.Fill()
	dc.SetFontFace(fc.tag)
	dc.SetColor(col.bg)
	dc.DrawStringAnchored(tag, tx+notch+tagW/2, ty, 0.5, 0.35)
	// The deviation under the tag, or above it at the bottom.
	sy := ty + th/2 + 10*fs
	if sy+7*fs > c.h-pad {
		sy = ty - th/2 - 10*fs
	}
	dc.SetFontFace(fc.small)
	dc.SetColor(col.label)
	dc.DrawStringAnchored(sub, tx+notch+tagW/2, sy, 0.5, 0.35)
	return imageRGBA(dc)
}

// imageRGBA returns the context's image; gg draws into an *image.RGBA.
func imageRGBA(dc *gg.Context) *image.RGBA {
	return dc.Image().(*image.RGBA)
}

// ratingRange is the range of ratings the chart shows: every rating and
// the whole band, whose deviation is capped at bandAllowance (half the
// ratings' spread, at least 100 points), or a new player's ±350 would
// flatten the line.
func ratingRange(pts []RatingPoint) (lo, hi float64) {
	if len(pts) == 0 {
		return 1400, 1600
	}
	lo, hi = ratingSpan(pts)
	upper, lower := band(pts)
	for i := range pts {
		lo, hi = math.Min(lo, lower[i]), math.Max(hi, upper[i])
	}
	if hi-lo < 40 {
		m := (lo + hi) / 2
		lo, hi = m-20, m+20
	}
	return lo, hi
}

// band returns the edges of the deviation band at each point: the
// deviation, at most bandAllowance, either side of the ratings' moving
// average over five points, and at least a third of it either side of
// the rating itself.
func band(pts []RatingPoint) (upper, lower []float64) {
	allow := bandAllowance(pts)
	upper, lower = make([]float64, len(pts)), make([]float64, len(pts))
	const k = 2
	for i, p := range pts {
		sum, n := 0.0, 0
		for j := max(0, i-k); j <= min(len(pts)-1, i+k); j++ {
			sum += pts[j].Rating
			n++
		}
		mean := sum / float64(n)
		half := math.Min(p.Deviation, allow)
		upper[i] = math.Max(mean+half, p.Rating+half/3)
		lower[i] = math.Min(mean-half, p.Rating-half/3)
	}
	return upper, lower
}

// ratingSpan returns the lowest and highest ratings of pts.
func ratingSpan(pts []RatingPoint) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Rating), math.Max(hi, p.Rating)
	}
	return lo, hi
}

// bandAllowance is how far the band reaches from the line at most: half
// the ratings' spread, and at least 100 points.
func bandAllowance(pts []RatingPoint) float64 {
	lo, hi := ratingSpan(pts)
	return math.Max(100, (hi-lo)/2)
}

// ratingTicks returns the ratings to label within [lo, hi]: the
// multiples of the smallest round step (1, 2, 2.5 or 5 times a power of
// ten, from 10) that gives at most maxTicks.
func ratingTicks(lo, hi float64, maxTicks int) []float64 {
	for p := 10.0; ; p *= 10 {
		for _, m := range []float64{1, 2, 2.5, 5} {
			step := m * p
			first, last := math.Ceil(lo/step), math.Floor(hi/step)
			if last-first+1 > float64(maxTicks) {
				continue
			}
			var ticks []float64
			for k := first; k <= last; k++ {
				ticks = append(ticks, k*step)
			}
			return ticks
		}
	}
}

// A timeTick is a date on the time axis.
type timeTick struct {
	t     time.Time
	label string
}

type timeUnit uint8

const (
	hours timeUnit = iota
	days
	months
	years
)

// timeTicks returns at most maxTicks round dates within [t0, t1], in UTC,
// with the smallest step that allows: hours, days, weeks (from Monday),
// months or years. The first label and any in a new year carry the year.
func timeTicks(t0, t1 time.Time, maxTicks int, dates DateWords) []timeTick {
	t0, t1 = t0.UTC(), t1.UTC()
	steps := []struct {
		n    int
		unit timeUnit
	}{
		{1, hours}, {2, hours}, {3, hours}, {6, hours}, {12, hours},
		{1, days}, {2, days}, {7, days}, {14, days},
		{1, months}, {2, months}, {3, months}, {6, months},
		{1, years}, {2, years}, {5, years}, {10, years}, {20, years}, {50, years}, {100, years},
	}
	for _, st := range steps {
		var ts []time.Time
		for t := alignTime(t0, st.n, st.unit); !t.After(t1); t = stepTime(t, st.n, st.unit) {
			if !t.Before(t0) {
				ts = append(ts, t)
			}
			if len(ts) > maxTicks {
				break
			}
		}
		if len(ts) == 0 || len(ts) > maxTicks {
			continue
		}
		out := make([]timeTick, len(ts))
		for i, t := range ts {
			newYear := i == 0 || t.Year() != ts[i-1].Year()
			newDay := i == 0 || t.YearDay() != ts[i-1].YearDay() || newYear
			var label string
			switch st.unit {
			case hours:
				label = t.Format("15:04")
				if newDay {
					label = dates.Day(t, false) + " " + label
				}
			case days:
				label = dates.Day(t, newYear)
			case months:
				label = dates.Month(t, newYear)
			case years:
				label = t.Format("2006")
			}
			out[i] = timeTick{t, label}
		}
		return out
	}
	return []timeTick{{t0, dates.Day(t0, true)}}
}

// alignTime returns the last round time of the step at or before t.
func alignTime(t time.Time, n int, u timeUnit) time.Time {
	y, m, d := t.Date()
	switch u {
	case hours:
		return time.Date(y, m, d, t.Hour()/n*n, 0, 0, 0, time.UTC)
	case days:
		day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
		if n == 1 {
			return day
		}
		// Days since the Monday 5 January 1970, so weeks start on Monday.
		since := int(day.Sub(time.Date(1970, 1, 5, 0, 0, 0, 0, time.UTC)).Hours() / 24)
		return day.AddDate(0, 0, -((since%n + n) % n))
	case months:
		return time.Date(y, time.Month((int(m)-1)/n*n+1), 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(y/n*n, 1, 1, 0, 0, 0, 0, time.UTC)
}

func stepTime(t time.Time, n int, u timeUnit) time.Time {
	switch u {
	case hours:
		return t.Add(time.Duration(n) * time.Hour)
	case days:
		return t.AddDate(0, 0, n)
	case months:
		return t.AddDate(0, n, 0)
	}
	return t.AddDate(n, 0, 0)
}

var (
	chartQuants [numThemes]*quantizer
	chartOnce   [numThemes]sync.Once
)

// chartQuantizer returns a theme's chart palette, chosen once from a
// sample chart with everything a chart draws: text of every kind, the
// band over the grid, the line, the points and the tag.
func chartQuantizer(t Theme) *quantizer {
	chartOnce[t].Do(func() {
		start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		var pts []RatingPoint
		r, d := 1500.0, 350.0
		for i := range 30 {
			pts = append(pts, RatingPoint{start.AddDate(0, 0, 3*i), r, d})
			r += float64((i*37)%90 - 40)
			d = math.Max(60, d*0.85)
		}
		h := make(histogram)
		for _, title := range []string{"", "Sample 0123456789?±"} {
			h.add(drawChart(pts, t, &ChartOptions{Title: title}))
		}
		h.add(drawChart(pts[:1], t, &ChartOptions{}))
		chartQuants[t] = newQuantizer(medianCut(h, maxColors, ChartWidth*ChartHeight/200))
	})
	return chartQuants[t]
}
