package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fogleman/gg"
	"github.com/iceagechess/iceage/game"
	"golang.org/x/image/font"
)

// under is what colours a square beneath its content.
type under uint8

const (
	underNone  under = iota
	underLast        // a square of the last move
	underCheck       // the king in check
	underMark        // a Highlight; the Mark is in tileKey.mark
)

// badge is a sign drawn over a square's content.
type badge uint8

const (
	badgeNone     badge = iota
	badgeWarn           // this man freezes if the Ice Age comes now
	badgeWillFill       // this empty square fills with ice at the coming Ice Age
)

// tileKey says everything that decides the pixels of one square, so that a
// square is drawn once per theme and size and then only copied.
type tileKey struct {
	dark       bool
	under      under
	mark       Mark
	rank, file byte // coordinate labels drawn in the square, or 0
	piece      game.Piece
	ice        bool // with a piece: the man is frozen in the ice
	badge      badge
}

// drawTile paints one q×q square with gg.
func drawTile(key tileKey, q int, t Theme, sprites *[16]*image.RGBA, face font.Face) *image.RGBA {
	c := t.colors()
	fq := float64(q)
	im := image.NewRGBA(image.Rect(0, 0, q, q))
	base := c.light
	if key.dark {
		base = c.dark
	}
	draw.Draw(im, im.Bounds(), image.NewUniform(base), image.Point{}, draw.Src)
	dc := gg.NewContextForRGBA(im)

	switch key.under {
	case underLast:
		dc.SetColor(c.lastMove)
		dc.DrawRectangle(0, 0, fq, fq)
		dc.Fill()
	case underCheck:
		// A red disc and ring under the king. lichess draws a soft radial
		// glow, but a gradient needs more colours than the palette has
		// and would show rings; flat layers quantise cleanly.
		ck := c.check
		dc.SetColor(color.NRGBA{ck.R, ck.G, ck.B, 0x50})
		dc.DrawCircle(fq/2, fq/2, fq*0.5)
		dc.Fill()
		dc.SetColor(color.NRGBA{ck.R, ck.G, ck.B, 0x98})
		dc.DrawCircle(fq/2, fq/2, fq*0.44)
		dc.Fill()
		dc.SetColor(color.NRGBA{ck.R, ck.G, ck.B, 0xff})
		dc.SetLineWidth(fq * 0.045)
		dc.DrawCircle(fq/2, fq/2, fq*0.46)
		dc.Stroke()
	case underMark:
		m := c.mark[key.mark%numMarks]
		dc.SetColor(color.NRGBA{m.R, m.G, m.B, m.A / 2})
		dc.DrawRectangle(0, 0, fq, fq)
		dc.Fill()
		dc.SetColor(color.NRGBA{m.R, m.G, m.B, 0xff})
		w := fq * 0.07
		dc.SetLineWidth(w)
		dc.DrawRectangle(w/2, w/2, fq-w, fq-w)
		dc.Stroke()
	}

	if key.badge == badgeWarn {
		// A frosty tint of the warning colour under the man at risk …
		w := c.warn
		dc.SetColor(color.NRGBA{w.R, w.G, w.B, 0x48})
		dc.DrawRectangle(0, 0, fq, fq)
		dc.Fill()
	}

	if key.badge == badgeWillFill {
		// A ghost of the ice block to come: light, dashed, not solid.
		m := fq * 0.12
		dc.SetColor(c.willFill)
		dc.DrawRoundedRectangle(m, m, fq-2*m, fq-2*m, fq*0.1)
		dc.Fill()
		dc.SetColor(c.iceEdge)
		dc.SetLineWidth(fq * 0.03)
		dc.SetDash(fq*0.08, fq*0.06)
		dc.DrawRoundedRectangle(m, m, fq-2*m, fq-2*m, fq*0.1)
		dc.Stroke()
		dc.SetDash()
	}

	if key.piece != game.NoPiece && !key.ice {
		draw.Draw(im, im.Bounds(), sprites[key.piece&15], image.Point{}, draw.Over)
	}
	if key.ice {
		frozen := key.piece != game.NoPiece
		if frozen {
			// The frozen man stays visible inside the block, faded.
			draw.DrawMask(im, im.Bounds(), sprites[key.piece&15], image.Point{},
				image.NewUniform(color.Alpha{0xb0}), image.Point{}, draw.Over)
		}
		drawIce(dc, fq, c, frozen)
	}

	if key.badge == badgeWarn {
		// … and over it a target's corner brackets and a snowflake badge,
		// which a phone shows clearly where a badge alone was a dot.
		drawBrackets(dc, fq, c.warn)
		drawSnowBadge(dc, fq*0.76, fq*0.24, fq*0.2, c.warn)
	}

	if key.rank != 0 || key.file != 0 {
		// Coordinates in the corners, as on lichess, but in one dark
		// colour that reads on both squares, even on a phone; on ice, in
		// the ice's edge.
		col := c.coord
		dc.SetFontFace(face)
		pad := fq * 0.045
		label := func(s string, x, y, ax, ay float64) {
			if key.ice {
				// Over the ice's corner: dark blue with a white halo.
				col = c.iceEdge
				dc.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xe0})
				d := math.Max(1, fq*0.02)
				for _, o := range [][2]float64{{-d, 0}, {d, 0}, {0, -d}, {0, d}, {-d, -d}, {d, d}, {-d, d}, {d, -d}} {
					dc.DrawStringAnchored(s, x+o[0], y+o[1], ax, ay)
				}
			}
			dc.SetColor(col)
			dc.DrawStringAnchored(s, x, y, ax, ay)
		}
		if key.rank != 0 {
			label(string(key.rank), pad, pad, 0, 0.85)
		}
		if key.file != 0 {
			label(string(key.file), fq-pad, fq-pad, 1, 0)
		}
	}
	return im
}

// drawIce paints an ice block: a rounded, translucent light-blue cube with
// a lit top-left bevel, a dark edge, a drop shadow and two glints, so that
// it reads as ice on light and dark squares and looks like no man.
func drawIce(dc *gg.Context, fq float64, c *palette, frozen bool) {
	m := fq * 0.07
	w := fq - 2*m
	r := fq * 0.13
	alpha := func(col color.NRGBA, scale float64) color.NRGBA {
		col.A = uint8(float64(col.A) * scale)
		return col
	}
	body := 1.0
	if frozen {
		body = 0.7 // let the frozen man show through
	}
	dc.SetColor(color.NRGBA{0, 0, 0, 0x38})
	dc.DrawRoundedRectangle(m+fq*0.025, m+fq*0.035, w, w, r)
	dc.Fill()

	g := gg.NewLinearGradient(0, m, 0, m+w)
	g.AddColorStop(0, alpha(c.iceTop, body))
	g.AddColorStop(0.55, alpha(mix(c.iceTop, c.iceBottom, 0.55), body))
	g.AddColorStop(1, alpha(c.iceBottom, body))
	dc.SetFillStyle(g)
	dc.DrawRoundedRectangle(m, m, w, w, r)
	dc.Fill()

	// Bevel: light along the top and left inside the edge.
	in := fq * 0.06
	dc.SetLineCapRound()
	dc.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0})
	dc.SetLineWidth(fq * 0.035)
	dc.MoveTo(m+in, m+w-r)
	dc.LineTo(m+in, m+r)
	dc.QuadraticTo(m+in, m+in, m+r, m+in)
	dc.LineTo(m+w-r, m+in)
	dc.Stroke()
	// … and a darker bottom-right inner bevel.
	dc.SetColor(alpha(c.iceEdge, 0.35))
	dc.MoveTo(m+w-in, m+r)
	dc.LineTo(m+w-in, m+w-r)
	dc.QuadraticTo(m+w-in, m+w-in, m+w-r, m+w-in)
	dc.LineTo(m+r, m+w-in)
	dc.Stroke()

	dc.SetColor(c.iceEdge)
	dc.SetLineWidth(fq * 0.03)
	dc.DrawRoundedRectangle(m, m, w, w, r)
	dc.Stroke()

	// Glints: two parallel diagonal strokes near the top-left corner.
	dc.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xf0})
	dc.SetLineWidth(fq * 0.05)
	dc.DrawLine(m+w*0.2, m+w*0.44, m+w*0.44, m+w*0.2)
	dc.Stroke()
	dc.SetLineWidth(fq * 0.035)
	dc.DrawLine(m+w*0.22, m+w*0.62, m+w*0.3, m+w*0.54)
	dc.Stroke()
	// A fine crack across the lower right, the kind real ice has.
	dc.SetColor(alpha(c.iceEdge, 0.55))
	dc.SetLineWidth(fq * 0.015)
	dc.MoveTo(m+w*0.92, m+w*0.5)
	dc.LineTo(m+w*0.72, m+w*0.66)
	dc.LineTo(m+w*0.76, m+w*0.78)
	dc.LineTo(m+w*0.58, m+w*0.94)
	dc.Stroke()
}

// drawBrackets paints four thick corner brackets in col, each with a white
// edge, so that they read on both square colours and on any man.
func drawBrackets(dc *gg.Context, fq float64, col color.NRGBA) {
	lw := fq * 0.085
	m := lw / 2
	arm := fq * 0.3
	corners := [4][3][2]float64{
		{{m, m + arm}, {m, m}, {m + arm, m}},
		{{fq - m - arm, m}, {fq - m, m}, {fq - m, m + arm}},
		{{fq - m, fq - m - arm}, {fq - m, fq - m}, {fq - m - arm, fq - m}},
		{{m + arm, fq - m}, {m, fq - m}, {m, fq - m - arm}},
	}
	dc.SetLineCapSquare()
	dc.SetLineJoinRound()
	for pass, c := range []color.Color{color.White, col} {
		dc.SetColor(c)
		dc.SetLineWidth(lw + float64(1-pass)*fq*0.035)
		for _, k := range corners {
			dc.MoveTo(k[0][0], k[0][1])
			dc.LineTo(k[1][0], k[1][1])
			dc.LineTo(k[2][0], k[2][1])
			dc.Stroke()
		}
	}
}

// drawSnowBadge paints a round badge with a white snowflake: "freezes".
func drawSnowBadge(dc *gg.Context, x, y, r float64, fill color.NRGBA) {
	dc.SetColor(color.NRGBA{0, 0, 0, 0x50})
	dc.DrawCircle(x+r*0.08, y+r*0.12, r*1.05)
	dc.Fill()
	dc.SetColor(fill)
	dc.DrawCircle(x, y, r)
	dc.Fill()
	dc.SetColor(color.White)
	dc.SetLineWidth(r * 0.16)
	dc.DrawCircle(x, y, r)
	dc.Stroke()
	drawSnowflake(dc, x, y, r*0.62, r*0.14, color.White)
}

// drawSnowflake paints a six-armed snowflake of radius r.
func drawSnowflake(dc *gg.Context, x, y, r, lw float64, col color.Color) {
	dc.SetColor(col)
	dc.SetLineWidth(lw)
	dc.SetLineCapRound()
	for i := range 6 {
		a := float64(i) * math.Pi / 3
		ex, ey := x+r*math.Cos(a), y+r*math.Sin(a)
		dc.DrawLine(x, y, ex, ey)
		dc.Stroke()
		// Two small branches on each arm.
		bx, by := x+r*0.6*math.Cos(a), y+r*0.6*math.Sin(a)
		for _, d := range []float64{-0.7, 0.7} {
			dc.DrawLine(bx, by, bx+r*0.35*math.Cos(a+d), by+r*0.35*math.Sin(a+d))
			dc.Stroke()
		}
	}
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	l := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}
