package render

import (
	"image"
	"image/color"
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
}

func drawHeader(key headerKey, w, h int, t Theme, strong, dim font.Face) *image.RGBA {
	c := t.colors()
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(im, im.Bounds(), image.NewUniform(c.frame), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(im)
	fh := float64(h)
	pad := fh * 0.35
	mid := fh / 2
	x := pad
	if key.disc != discNone {
		r := fh * 0.24
		fill, ring := color.Color(color.White), color.Color(color.Black)
		if key.disc == discBlack {
			fill, ring = color.Black, color.NRGBA{0xcc, 0xcc, 0xcc, 0xff}
		}
		dc.SetColor(fill)
		dc.DrawCircle(x+r, mid, r)
		dc.Fill()
		dc.SetColor(ring)
		dc.SetLineWidth(math.Max(1, fh*0.04))
		dc.DrawCircle(x+r, mid, r)
		dc.Stroke()
		x += 2*r + fh*0.25
	}
	// Fit the texts: drop the dim part, then use the short right text,
	// then drop the icon, until left and right no longer meet.
	right, leftDim, icon := key.right, key.leftDim, key.icon
	rightFace := dim
	if key.warn {
		rightFace = strong
	}
	width := func(f font.Face, s string) float64 {
		dc.SetFontFace(f)
		w, _ := dc.MeasureString(s)
		return w
	}
	iconW := fh * 0.75
	fits := func() bool {
		need := x + width(strong, key.left) + width(dim, leftDim) + fh*0.6 + width(rightFace, right) + pad
		if icon {
			need += iconW
		}
		return need <= float64(w)
	}
	for _, step := range []func(){
		func() { leftDim = "" },
		func() {
			if key.rightShort != "" {
				right = key.rightShort
			}
		},
		func() { icon = false },
	} {
		if fits() {
			break
		}
		step()
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
