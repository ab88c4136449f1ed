package render

import (
	"image"
	"image/draw"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// disc is the round token at the left of a header that shows whose turn
// it is.
type disc int8

const (
	discNone disc = iota
	discWhite
	discBlack
)

// headerKey says everything that decides a header strip's pixels.
type headerKey struct {
	disc    disc
	left    string // in the strong text colour
	leftDim string // continues left, dimmer
	right   string // right-aligned
	// rightShort replaces right when the header is too narrow for both.
	rightShort string
	warn       bool // right in the warning colour
	icon       bool // a snowflake before right
	caption    bool // left alone, centred: a caption over a board
	// clocks: a clock strip (Clocks): left is White's clock, right
	// Black's, and runs the side whose clock runs.
	clocks bool
	runs   disc
}

// headerFit is how a header's texts fit its width: which of them are
// shown, and in which faces.
type headerFit struct {
	right, leftDim string
	icon           bool
	strong, dim    font.Face
	need           float64 // the width the texts take, padding included
	scale          float64 // the faces' size against the usual one
}

// minHeaderScale is how far a header's text may shrink to fit: below
// it, a phone could no longer read it.
const minHeaderScale = 0.7

// fitHeader fits a header's texts into width w, starting at x: it drops
// the dim part, then takes the short right text, then drops the icon,
// and then shrinks the faces, down to minHeaderScale, until they fit
// (need says whether they did).
func fitHeader(key headerKey, w int, x, fh float64, strong, dim font.Face) headerFit {
	f := headerFit{right: key.right, leftDim: key.leftDim, icon: key.icon, strong: strong, dim: dim, scale: 1}
	pad := fh * 0.35
	width := func(fc font.Face, s string) float64 { return float64(font.MeasureString(fc, s)) / 64 }
	iconW := fh * 0.75
	measure := func() float64 {
		if key.caption {
			return 2*pad + width(f.strong, key.left)
		}
		rightFace := f.dim
		if key.warn {
			rightFace = f.strong
		}
		need := x + width(f.strong, key.left) + width(f.dim, f.leftDim) + pad
		if f.right != "" {
			need += fh*0.6 + width(rightFace, f.right)
		}
		if f.icon {
			need += iconW
		}
		return need
	}
	steps := []func(){
		func() { f.leftDim = "" },
		func() {
			if key.rightShort != "" {
				f.right = key.rightShort
			}
		},
		func() { f.icon = false },
	}
	for f.need = measure(); f.need > float64(w); f.need = measure() {
		if len(steps) > 0 {
			steps[0]()
			steps = steps[1:]
			continue
		}
		if f.scale -= 0.05; f.scale < minHeaderScale-1e-9 {
			f.scale += 0.05
			break
		}
		loadFonts()
		f.strong, f.dim = face(fonts.medium, fh*headerFontScale*f.scale), face(fonts.regular, fh*headerFontScale*f.scale)
	}
	return f
}

// headerFontScale is a header's font size against its height.
const headerFontScale = 0.42

func drawHeader(key headerKey, w, h int, t Theme, strong, dim font.Face) *image.RGBA {
	c := t.colors()
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(im, im.Bounds(), image.NewUniform(c.frame), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(im)
	fh := float64(h)
	pad := fh * 0.35
	mid := fh / 2
	x := pad
	if key.clocks {
		drawClocks(dc, key, float64(w), fh, c, strong, dim)
		return im
	}
	if key.disc != discNone {
		r := fh * 0.24
		drawDisc(dc, key.disc, x+r, mid, r, fh)
		x += 2*r + fh*0.25
	}
	fit := fitHeader(key, w, x, fh, strong, dim)
	right, leftDim, icon, strong, dim := fit.right, fit.leftDim, fit.icon, fit.strong, fit.dim
	rightFace := dim
	if key.warn {
		rightFace = strong
	}
	width := func(f font.Face, s string) float64 {
		dc.SetFontFace(f)
		w, _ := dc.MeasureString(s)
		return w
	}
	if key.caption {
		dc.SetFontFace(strong)
		dc.SetColor(c.text)
		dc.DrawStringAnchored(key.left, float64(w)/2, mid, 0.5, 0.35)
		return im
	}
	// ay = 0.35 puts the capitals' middle on the strip's middle line.
	if key.left != "" {
		dc.SetFontFace(strong)
		dc.SetColor(c.text)
		dc.DrawStringAnchored(key.left, x, mid, 0, 0.35)
		x += width(strong, key.left)
	}
	if leftDim != "" {
		dc.SetFontFace(dim)
		dc.SetColor(c.dimText)
		dc.DrawStringAnchored(leftDim, x, mid, 0, 0.35)
	}
	if right != "" {
		col := c.dimText
		if key.warn {
			col = c.warnText
		}
		dc.SetFontFace(rightFace)
		dc.SetColor(col)
		rx := float64(w) - pad
		dc.DrawStringAnchored(right, rx, mid, 1, 0.35)
		if icon {
			tw := width(rightFace, right)
			r := fh * 0.26
			sx := rx - tw - fh*0.2 - r
			if key.warn {
				drawSnowBadge(dc, sx, mid, r, c.warn)
			} else {
				drawSnowflake(dc, sx, mid, r*0.95, math.Max(1, fh*0.045), c.iceBottom)
			}
		}
	}
	return im
}
