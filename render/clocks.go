package render

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"github.com/iceagechess/iceage/game"
)

// Clocks are a live game's clocks, drawn in the header strip in place of
// its words: White's time at the left behind a white disc, Black's at
// the right before a black one, the running clock bright and the other
// dim.
type Clocks struct {
	White, Black time.Duration
	// Running is the side whose clock runs; Stopped when none does (the
	// first move not yet made, or the game over).
	Running game.Color
	Stopped bool
}

// FormatClock writes a clock as players read it: "4:32", "1:02:03" from
// an hour up, and tenths under ten seconds ("0:07.4"). Never negative.
func FormatClock(d time.Duration) string {
	d = max(d, 0)
	if d < 10*time.Second {
		tenths := d / (100 * time.Millisecond)
		return fmt.Sprintf("0:%02d.%d", tenths/10, tenths%10)
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// clockHeader is the header key of a clock strip.
func clockHeader(c *Clocks) headerKey {
	h := headerKey{clocks: true, left: FormatClock(c.White), right: FormatClock(c.Black), runs: discNone}
	if !c.Stopped {
		h.runs = discWhite
		if c.Running == game.Black {
			h.runs = discBlack
		}
	}
	return h
}

// drawClocks draws a clock strip into dc, w wide and fh high.
func drawClocks(dc *gg.Context, key headerKey, w, fh float64, c *palette, strong, dim font.Face) {
	pad, mid, r := fh*0.35, fh/2, fh*0.24
	faceOf := func(d disc) font.Face {
		if key.runs == d {
			return strong
		}
		return dim
	}
	colourOf := func(d disc) color.Color {
		if key.runs == d {
			return c.text
		}
		return c.dimText
	}
	drawDisc(dc, discWhite, pad+r, mid, r, fh)
	dc.SetFontFace(faceOf(discWhite))
	dc.SetColor(colourOf(discWhite))
	dc.DrawStringAnchored(key.left, pad+2*r+fh*0.25, mid, 0, 0.35)
	drawDisc(dc, discBlack, w-pad-r, mid, r, fh)
	dc.SetFontFace(faceOf(discBlack))
	dc.SetColor(colourOf(discBlack))
	dc.DrawStringAnchored(key.right, w-pad-2*r-fh*0.25, mid, 1, 0.35)
}

// drawDisc draws a side's round token centred at x, y.
func drawDisc(dc *gg.Context, d disc, x, y, r, fh float64) {
	fill, ring := color.Color(color.White), color.Color(color.Black)
	if d == discBlack {
		fill, ring = color.Black, color.NRGBA{0xcc, 0xcc, 0xcc, 0xff}
	}
	dc.SetColor(fill)
	dc.DrawCircle(x, y, r)
	dc.Fill()
	dc.SetColor(ring)
	dc.SetLineWidth(math.Max(1, fh*0.04))
	dc.DrawCircle(x, y, r)
	dc.Stroke()
}
