package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
)

// drawArrow paints an arrow from (x0, y0) to (x1, y1) as one polygon, so
// that the translucent colour does not darken where shaft and head meet.
// sq is the square size that sets its proportions.
func drawArrow(dc *gg.Context, x0, y0, x1, y1, sq float64, col color.NRGBA) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	nx, ny := -uy, ux
	// Start a little off the centre of the square the arrow leaves, and
	// stop the tip short of the target square's centre, like lichess.
	sx, sy := x0+ux*sq*0.22, y0+uy*sq*0.22
	tx, ty := x1-ux*sq*0.08, y1-uy*sq*0.08
	hl, hw, sw := sq*0.42, sq*0.33, sq*0.1
	bx, by := tx-ux*hl, ty-uy*hl
	dc.SetColor(col)
	dc.MoveTo(sx+nx*sw, sy+ny*sw)
	dc.LineTo(bx+nx*sw, by+ny*sw)
	dc.LineTo(bx+nx*hw, by+ny*hw)
	dc.LineTo(tx, ty)
	dc.LineTo(bx-nx*hw, by-ny*hw)
	dc.LineTo(bx-nx*sw, by-ny*sw)
	dc.LineTo(sx-nx*sw, sy-ny*sw)
	dc.ClosePath()
	dc.Fill()
}

// overlayArrows draws arrows onto the board part of dst, whose top-left
// corner is at origin: it turns the rectangle the arrows cover into RGBA,
// draws on it with gg and maps it back to the palette. centre returns a
// square's centre relative to the board's corner.
func (k *kit) overlayArrows(dst *image.Paletted, origin image.Point, arrows []Arrow, centre func(s uint8) (float64, float64)) {
	c := k.theme.colors()
	sq := float64(k.sq)
	area := image.Rectangle{}
	for _, a := range arrows {
		if !a.From.Valid() || !a.To.Valid() || a.From == a.To {
			continue
		}
		x0, y0 := centre(uint8(a.From))
		x1, y1 := centre(uint8(a.To))
		r := image.Rect(int(min(x0, x1)-sq/2), int(min(y0, y1)-sq/2), int(max(x0, x1)+sq/2), int(max(y0, y1)+sq/2))
		area = area.Union(r)
	}
	area = area.Add(origin).Intersect(dst.Bounds())
	if area.Empty() {
		return
	}
	im := image.NewRGBA(image.Rect(0, 0, area.Dx(), area.Dy()))
	pal := k.quant.pal
	for y := 0; y < area.Dy(); y++ {
		off := dst.PixOffset(area.Min.X, area.Min.Y+y)
		row := im.Pix[y*im.Stride:]
		for x, i := range dst.Pix[off : off+area.Dx()] {
			p := pal[i]
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = p.R, p.G, p.B, 0xff
		}
	}
	dc := gg.NewContextForRGBA(im)
	dx, dy := float64(origin.X-area.Min.X), float64(origin.Y-area.Min.Y)
	for _, a := range arrows {
		if !a.From.Valid() || !a.To.Valid() || a.From == a.To {
			continue
		}
		x0, y0 := centre(uint8(a.From))
		x1, y1 := centre(uint8(a.To))
		drawArrow(dc, x0+dx, y0+dy, x1+dx, y1+dy, sq, c.mark[a.Mark%numMarks])
	}
	// Map back only the pixels the arrows touched; the rest keep their
	// index, which also spares most colour lookups.
	q := k.quant
	q.mu.Lock()
	defer q.mu.Unlock()
	for y := 0; y < area.Dy(); y++ {
		off := dst.PixOffset(area.Min.X, area.Min.Y+y)
		row := im.Pix[y*im.Stride:]
		for x, i := range dst.Pix[off : off+area.Dx()] {
			p := pal[i]
			r, g, b := row[4*x], row[4*x+1], row[4*x+2]
			if r == p.R && g == p.G && b == p.B {
				continue
			}
			dst.Pix[off+x] = q.lookupLocked(r, g, b)
		}
	}
}
