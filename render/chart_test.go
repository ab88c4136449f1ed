package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/rating"
)

var chartStart = time.Date(2025, 3, 2, 19, 0, 0, 0, time.UTC)

// ratedHistory plays n rated games for a new player with package rating,
// against opponents around 1500, a game every day or two and now and then
// a longer pause, and returns the player's rating after each game.
func ratedHistory(n int) []RatingPoint {
	r := rating.New()
	t := chartStart
	var pts []RatingPoint
	for i := range n {
		gap := time.Duration(20+(i*37)%50) * time.Hour
		if i%23 == 22 {
			gap = 12 * 24 * time.Hour
		}
		if i > 0 {
			r = rating.Decay(r, rating.Periods(gap))
			t = t.Add(gap)
		}
		// A player whose strength grows from 1500 towards 1900 meets
		// opponents of about their rating and scores as the strengths
		// say, the luck of each game drawn from a low-discrepancy sequence.
		strength := 1500 + 400*(1-math.Exp(-float64(i)/150))
		opp := rating.Rating{Rating: r.Rating + 150*math.Sin(float64(i)*0.9), Deviation: 70, Volatility: 0.06}
		p := 1 / (1 + math.Pow(10, (opp.Rating-strength)/400))
		luck := math.Mod(float64(i)*0.6180339887, 1)
		score := 0.0
		switch {
		case math.Abs(luck-p) < 0.04:
			score = 0.5
		case luck < p:
			score = 1
		}
		r, _ = rating.Game(r, opp, score)
		pts = append(pts, RatingPoint{t, r.Rating, r.Deviation})
	}
	return pts
}

// anEvening is a new player's first six games, in one evening.
func anEvening() []RatingPoint {
	r := rating.New()
	var pts []RatingPoint
	for i, s := range []float64{1, 0, 1, 1, 0.5, 0} {
		r, _ = rating.Game(r, rating.Rating{Rating: 1450 + float64(i)*40, Deviation: 90, Volatility: 0.06}, s)
		pts = append(pts, RatingPoint{chartStart.Add(time.Duration(i) * 25 * time.Minute), r.Rating, r.Deviation})
	}
	return pts
}

// chartGoldenCases are the rating charts kept in testdata/, by file name.
func chartGoldenCases() map[string]func() ([]byte, error) {
	history := ratedHistory(60)
	cases := map[string]func() ([]byte, error){
		"chart": func() ([]byte, error) { return RatingChart(history, ChartOptions{}) },
		"chart-title": func() ([]byte, error) {
			return RatingChart(history[:25], ChartOptions{Title: "frostbite · Ice Age rating"})
		},
		"chart-first-games": func() ([]byte, error) { return RatingChart(anEvening(), ChartOptions{}) },
		"chart-one-point":   func() ([]byte, error) { return RatingChart(anEvening()[:1], ChartOptions{}) },
		"chart-empty":       func() ([]byte, error) { return RatingChart(nil, ChartOptions{}) },
		"chart-colorblind-years": func() ([]byte, error) {
			return RatingChart(ratedHistory(500), ChartOptions{Theme: ColorBlind})
		},
		"chart-small": func() ([]byte, error) { return RatingChart(history, ChartOptions{Width: 320, Height: 160}) },
	}
	// As /stats shows them on a phone, in English and in Russian.
	for _, w := range phoneSizes {
		for _, lang := range []i18n.Lang{i18n.English, i18n.Russian} {
			cases[fmt.Sprintf("phone-chart-%s-%d", lang, w)] = func() ([]byte, error) {
				return RatingChart(history, ChartOptions{Width: w, Height: w / 2, Title: "Chloe", Dates: i18n.ChartDates{Lang: lang}})
			}
		}
	}
	return cases
}

func TestTheBandFitsThePlotAndHoldsTheLine(t *testing.T) {
	for name, pts := range map[string][]RatingPoint{"history": ratedHistory(60), "evening": anEvening(), "years": ratedHistory(500),
		"new player": {{chartStart, 1500, 350}, {chartStart.Add(time.Hour), 1662, 290}, {chartStart.Add(2 * time.Hour), 1540, 250}}} {
		lo, hi := ratingRange(pts)
		upper, lower := band(pts)
		for i, p := range pts {
			if !(lower[i] <= p.Rating && p.Rating <= upper[i]) {
				t.Errorf("%s: point %d (%.0f) lies outside its band [%.0f, %.0f]", name, i, p.Rating, lower[i], upper[i])
			}
			if lower[i] < lo || upper[i] > hi {
				t.Errorf("%s: point %d's band [%.0f, %.0f] leaves the plot [%.0f, %.0f]: the plot's edge would cut it", name, i, lower[i], upper[i], lo, hi)
			}
		}
	}
}

func TestChartGoldenImages(t *testing.T) {
	for name, draw := range chartGoldenCases() {
		t.Run("the "+name+" image matches its golden file", func(t *testing.T) {
			got := decodeChart(t, draw)
			path := filepath.Join("testdata", name+".png")
			if *update {
				writePNG(t, path, got)
				return
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render -run Golden -update to create it)", err)
			}
			want, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("golden %s: %v", path, err)
			}
			if msg := imageDiff(want, got); msg != "" {
				actual := filepath.Join("testdata", name+".actual.png")
				writePNG(t, actual, got)
				t.Errorf("%s differs from %s: %s (actual image written to %s; run with -update if the change is wanted)", name, path, msg, actual)
			}
		})
	}
}

func decodeChart(t testing.TB, draw func() ([]byte, error)) image.Image {
	t.Helper()
	b, err := draw()
	if err != nil {
		t.Fatal(err)
	}
	im, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the chart does not decode: %v", err)
	}
	return im
}

// lineRows returns, for each column x, the mean row of the pixels in the
// line's colour, or -1 where there are none.
func lineRows(im image.Image, line color.Color) []float64 {
	b := im.Bounds()
	rows := make([]float64, b.Dx())
	for x := b.Min.X; x < b.Max.X; x++ {
		sum, n := 0, 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			if near(im.At(x, y), line, 20) {
				sum += y
				n++
			}
		}
		rows[x] = -1
		if n > 0 {
			rows[x] = float64(sum) / float64(n)
		}
	}
	return rows
}

func TestRatingChartPixels(t *testing.T) {
	col := chartColorsOf(Classic)
	t.Run("one point draws a flat line across the plot", func(t *testing.T) {
		im := decodeChart(t, func() ([]byte, error) {
			return RatingChart([]RatingPoint{{chartStart, 1623, 80}}, ChartOptions{})
		})
		rows := lineRows(im, col.line)
		var ys []float64
		for x := 100; x < 500; x++ {
			if rows[x] < 0 {
				t.Fatalf("no line at x = %d", x)
			}
			ys = append(ys, rows[x])
		}
		if slices.Max(ys)-slices.Min(ys) > 1 {
			t.Errorf("the line runs from row %.1f to %.1f, not flat", slices.Min(ys), slices.Max(ys))
		}
	})
	t.Run("a rising rating draws a line that rises to the right", func(t *testing.T) {
		pts := []RatingPoint{{chartStart, 1400, 60}, {chartStart.AddDate(0, 1, 0), 1700, 60}}
		im := decodeChart(t, func() ([]byte, error) { return RatingChart(pts, ChartOptions{}) })
		rows := lineRows(im, col.line)
		if !(rows[100] > 0 && rows[450] > 0 && rows[100] > rows[450]+100) {
			t.Errorf("the line is at row %.0f at x = 100 and %.0f at x = 450", rows[100], rows[450])
		}
	})
	t.Run("the deviation band is shaded above and below the line", func(t *testing.T) {
		im := decodeChart(t, func() ([]byte, error) {
			return RatingChart([]RatingPoint{{chartStart, 1500, 100}, {chartStart.AddDate(0, 0, 10), 1500, 100}}, ChartOptions{})
		})
		y := int(lineRows(im, col.line)[300])
		band := blend(col.bg, col.band)
		for _, dy := range []int{-30, 30} {
			if c := im.At(300, y+dy); !near(c, band, 12) {
				t.Errorf("%d rows from the line the colour is %v, want the band's %v", dy, c, band)
			}
		}
	})
	t.Run("no points draw the grid and nothing else", func(t *testing.T) {
		im := decodeChart(t, func() ([]byte, error) { return RatingChart(nil, ChartOptions{}) })
		b := im.Bounds()
		grid := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				switch c := im.At(x, y); {
				case near(c, col.bg, 4):
				case near(c, col.grid, 4):
					grid++
				default:
					t.Fatalf("pixel (%d, %d) is %v: neither background nor grid", x, y, c)
				}
			}
		}
		if grid < 1000 {
			t.Errorf("only %d grid pixels", grid)
		}
	})
	t.Run("the order of the points does not matter", func(t *testing.T) {
		pts := ratedHistory(30)
		want, _ := RatingChart(pts, ChartOptions{})
		slices.Reverse(pts)
		if got, _ := RatingChart(pts, ChartOptions{}); !bytes.Equal(got, want) {
			t.Error("reversed points draw a different chart")
		}
	})
	t.Run("the size follows the options within bounds", func(t *testing.T) {
		for _, c := range []struct {
			opts ChartOptions
			w, h int
		}{
			{ChartOptions{}, 640, 320},
			{ChartOptions{Width: 800, Height: 400}, 800, 400},
			{ChartOptions{Width: 10, Height: 5000}, MinChartWidth, MaxChartHeight},
		} {
			im := decodeChart(t, func() ([]byte, error) { return RatingChart(ratedHistory(5), c.opts) })
			if b := im.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
				t.Errorf("options %+v: %v, want %d×%d", c.opts, b, c.w, c.h)
			}
		}
	})
}

// blend is the colour of top drawn over an opaque bottom.
func blend(bottom, top color.NRGBA) color.NRGBA {
	a := float64(top.A) / 255
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-a) + float64(y)*a)) }
	return color.NRGBA{m(bottom.R, top.R), m(bottom.G, top.G), m(bottom.B, top.B), 0xff}
}

func TestRatingChartRejectsImpossibleValues(t *testing.T) {
	for _, p := range []RatingPoint{{chartStart, math.NaN(), 50}, {chartStart, 1500, math.Inf(1)}, {chartStart, 2e6, 50}, {chartStart, 1500, -1}} {
		if _, err := RatingChart([]RatingPoint{{chartStart, 1500, 50}, p}, ChartOptions{}); err == nil || !strings.Contains(err.Error(), "point 1") {
			t.Errorf("%+v: error %v, want one naming point 1", p, err)
		}
	}
}

func TestRatingChartsDrawnConcurrentlyAreTheSame(t *testing.T) {
	cases := chartGoldenCases()
	want := map[string][]byte{}
	for name, draw := range cases {
		want[name], _ = draw()
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(cases)*4)
	for range 4 {
		for name, draw := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got, _ := draw(); !bytes.Equal(got, want[name]) {
					errs <- name + " drawn concurrently differs"
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestTimeTicks(t *testing.T) {
	at := func(s string) time.Time {
		t, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			panic(err)
		}
		return t
	}
	cases := []struct {
		name     string
		from, to string
		max      int
		want     []string
		lang     i18n.Lang
	}{
		{"an evening is labelled by the hour, the first with its date", "2025-03-02 19:00", "2025-03-02 21:10", 5, []string{"2 Mar 19:00", "20:00", "21:00"}, ""},
		{"a fortnight by the day, the first with its year", "2025-03-02 19:00", "2025-03-06 08:00", 5, []string{"3 Mar 2025", "4 Mar", "5 Mar", "6 Mar"}, ""},
		{"weeks start on Monday", "2025-03-02 19:00", "2025-03-30 08:00", 5, []string{"3 Mar 2025", "10 Mar", "17 Mar", "24 Mar"}, ""},
		{"months, with the year at the first and at January", "2025-10-20 00:00", "2026-02-10 00:00", 5, []string{"Nov 2025", "Dec", "Jan 2026", "Feb"}, ""},
		{"years", "2019-06-01 00:00", "2025-06-01 00:00", 4, []string{"2020", "2022", "2024"}, ""},
		{"minutes apart: the first date alone", "2025-03-02 19:10", "2025-03-02 19:40", 5, []string{"2 Mar 2025"}, ""},
		{"in Russian, days", "2025-03-02 19:00", "2025-03-06 08:00", 5, []string{"3 мар. 2025 г.", "4 мар.", "5 мар.", "6 мар."}, i18n.Russian},
		{"in Russian, months", "2025-10-20 00:00", "2026-02-10 00:00", 5, []string{"нояб. 2025 г.", "дек.", "янв. 2026 г.", "февр."}, i18n.Russian},
		{"without words, numbers", "2025-10-20 00:00", "2026-02-10 00:00", 5, []string{"2025-11", "12", "2026-01", "02"}, "none"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			var dates DateWords = i18n.ChartDates{Lang: c.lang}
			if c.lang == "none" {
				dates = numericDates{}
			}
			for _, tk := range timeTicks(at(c.from), at(c.to), c.max, dates) {
				got = append(got, tk.label)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestRatingTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		max    int
		want   []float64
	}{
		{1478, 1522, 6, []float64{1480, 1490, 1500, 1510, 1520}},
		{1150, 1850, 6, []float64{1200, 1400, 1600, 1800}},
		{1380, 1980, 6, []float64{1400, 1500, 1600, 1700, 1800, 1900}},
		{1380, 1980, 5, []float64{1400, 1600, 1800}},
		{400, 4000, 6, []float64{1000, 2000, 3000, 4000}},
	}
	for _, c := range cases {
		if got := ratingTicks(c.lo, c.hi, c.max); !slices.Equal(got, c.want) {
			t.Errorf("ratingTicks(%v, %v, %d) = %v, want %v", c.lo, c.hi, c.max, got, c.want)
		}
	}
}

// BenchmarkRatingChart draws the chart of a player with 500 rated games,
// as /stats would.
func BenchmarkRatingChart(b *testing.B) {
	for _, n := range []int{60, 500} {
		b.Run("points="+strconv.Itoa(n), func(b *testing.B) {
			pts := ratedHistory(n)
			out, _ := RatingChart(pts, ChartOptions{})
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if out, err = RatingChart(pts, ChartOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(out)), "bytes/png")
		})
	}
}

// FuzzRatingChart: any points draw a chart or give an error, never a
// panic or a hang; points within the bounds always draw.
func FuzzRatingChart(f *testing.F) {
	f.Add(int64(1740942000), 1500.0, 350.0, int64(1741042000), 1620.0, 200.0, int64(1741942000), 1580.0, 90.0, uint8(3))
	f.Add(int64(0), 0.0, 0.0, int64(0), 0.0, 0.0, int64(0), 0.0, 0.0, uint8(2))
	f.Add(int64(-62135596800), -1e6, 1e6, int64(253402300799), 1e6, 0.0, int64(1), 5.0, 1e-9, uint8(3))
	f.Fuzz(func(t *testing.T, t1 int64, r1, d1 float64, t2 int64, r2, d2 float64, t3 int64, r3, d3 float64, n uint8) {
		pts := []RatingPoint{{time.Unix(t1, 0), r1, d1}, {time.Unix(t2, 0), r2, d2}, {time.Unix(t3, 0), r3, d3}}[:n%4]
		valid := true
		for _, p := range pts {
			valid = valid && math.Abs(p.Rating) <= maxChartValue && p.Deviation >= 0 && p.Deviation <= maxChartValue
		}
		b, err := RatingChart(pts, ChartOptions{Width: 320, Height: 160})
		if valid != (err == nil) {
			t.Fatalf("points %+v: error %v", pts, err)
		}
		if err != nil {
			return
		}
		if im, err := png.Decode(bytes.NewReader(b)); err != nil || im.Bounds().Dx() != 320 || im.Bounds().Dy() != 160 {
			t.Fatalf("points %+v: a chart that does not decode as 320×160 (%v)", pts, err)
		}
	})
}
