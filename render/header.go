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
	warn    bool   // right in the warning colour
	icon    bool   // a snowflake before right
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
	// ay = 0.35 puts the capitals' middle on the strip's middle line.
	if key.left != "" {
		dc.SetFontFace(strong)
		dc.SetColor(c.text)
		dc.DrawStringAnchored(key.left, x, mid, 0, 0.35)
		tw, _ := dc.MeasureString(key.left)
		x += tw
	}
	if key.leftDim != "" {
		dc.SetFontFace(dim)
		dc.SetColor(c.dimText)
		dc.DrawStringAnchored(key.leftDim, x, mid, 0, 0.35)
	}
	if key.right != "" {
		col := c.dimText
		dc.SetFontFace(dim)
		if key.warn {
			col = c.warnText
			dc.SetFontFace(strong)
		}
		dc.SetColor(col)
		rx := float64(w) - pad
		dc.DrawStringAnchored(key.right, rx, mid, 1, 0.35)
		if key.icon {
			tw, _ := dc.MeasureString(key.right)
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
