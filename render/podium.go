package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// Podium is the end of a tournament in a picture: its name, its dates
// and its first three on the steps, every word given by the caller in
// the reader's language.
type Podium struct {
	Title string
	Dates string
	// Places are the first three in order; players tied share a Rank
	// (1 to 3), which picks the medal.
	Places []PodiumPlace
}

// PodiumPlace is one step: the rank, the player's name and the score
// as the reader writes it.
type PodiumPlace struct {
	Rank  int
	Name  string
	Score string
}

// PodiumWidth and PodiumHeight are the picture's size: wide enough for
// three names side by side, and read on a phone at 400 px.
const (
	PodiumWidth  = 640
	PodiumHeight = 420
)

var medalColors = []color.NRGBA{{0xd4, 0xaf, 0x37, 0xff}, {0xb4, 0xb8, 0xbd, 0xff}, {0xcd, 0x7f, 0x32, 0xff}}

// PodiumPNG draws the podium in the theme's colours as a PNG. Errors: no
// place, more than three, or a rank outside 1 to 3.
func PodiumPNG(p Podium, t Theme) ([]byte, error) {
	if len(p.Places) == 0 || len(p.Places) > 3 {
		return nil, fmt.Errorf("render: a podium of %d places; it has 1 to 3", len(p.Places))
	}
	for i, pl := range p.Places {
		if pl.Rank < 1 || pl.Rank > 3 {
			return nil, fmt.Errorf("render: podium place %d has rank %d, not 1 to 3", i+1, pl.Rank)
		}
	}
	if t >= numThemes {
		t = Classic
	}
	col := chartColorsOf(t)
	loadFonts()
	titleF, datesF := face(fonts.bold, 28), face(fonts.regular, 19)
	nameF, smallF, scoreF, rankF := face(fonts.bold, 22), face(fonts.bold, 16), face(fonts.medium, 22), face(fonts.bold, 40)
	const w, h = PodiumWidth, PodiumHeight
	dc := gg.NewContext(w, h)
	dc.SetColor(col.bg)
	dc.Clear()
	fit := func(f font.Face, s string, width float64) string {
		dc.SetFontFace(f)
		r := []rune(cut(s, maxCellRunes))
		for len(r) > 1 {
			if sw, _ := dc.MeasureString(string(r)); sw <= width {
				break
			}
			r = append(r[:len(r)-2], '…')
		}
		return string(r)
	}
	dc.SetColor(col.text)
	dc.SetFontFace(titleF)
	dc.DrawStringAnchored(fit(titleF, p.Title, w-40), w/2, 36, 0.5, 0.5)
	if p.Dates != "" {
		dc.SetColor(col.label)
		dc.SetFontFace(datesF)
		dc.DrawStringAnchored(fit(datesF, p.Dates, w-40), w/2, 70, 0.5, 0.5)
	}
	// The steps: second on the left, first in the middle, third on the
	// right, as podiums stand.
	const stepW, base = 190.0, h - 24.0
	heights := []float64{150, 110, 80}
	xs := []float64{w/2 - stepW/2, w/2 - stepW*3/2 - 6, w/2 + stepW/2 + 6}
	for i, pl := range p.Places {
		x, sh := xs[i], heights[pl.Rank-1] // players tied stand as high
		top := base - sh
		m := medalColors[pl.Rank-1]
		step := mix(col.bg, m, 0.35)
		dc.SetColor(step)
		dc.DrawRoundedRectangle(x, top, stepW, sh, 6)
		dc.Fill()
		dc.SetColor(m)
		dc.DrawRectangle(x, top, stepW, 6)
		dc.Fill()
		// The medal above the name.
		cy := top - 92
		dc.SetColor(m)
		dc.DrawCircle(x+stepW/2, cy, 26)
		dc.Fill()
		dc.SetColor(color.NRGBA{0x20, 0x20, 0x20, 0xff})
		dc.SetFontFace(rankF)
		dc.DrawStringAnchored(strconv.Itoa(pl.Rank), x+stepW/2, cy-2, 0.5, 0.5)
		dc.SetColor(col.text)
		// A long name in a smaller font before it loses letters.
		nf := nameF
		if dc.SetFontFace(nameF); measureW(dc, pl.Name) > stepW-8 {
			nf = smallF
		}
		dc.SetFontFace(nf)
		dc.DrawStringAnchored(fit(nf, pl.Name, stepW-8), x+stepW/2, top-40, 0.5, 0.5)
		dc.SetFontFace(scoreF)
		dc.DrawStringAnchored(pl.Score, x+stepW/2, top+sh/2+3, 0.5, 0.5)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image().(*image.RGBA)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// cut shortens s to n runes with an ellipsis.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func measureW(dc *gg.Context, s string) float64 {
	w, _ := dc.MeasureString(s)
	return w
}
