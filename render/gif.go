package render

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"io"

	"github.com/iceagechess/iceage/game"
)

// Frame delays, in hundredths of a second.
const (
	delayMove     = 100
	delayIceStart = 140 // Black's bare move, with the coming Ice Age marked
	delayIceAge   = 260 // the Ice Age itself: give the eye time
	delayEnd      = 400
)

// GIF draws a game as an animated GIF: the start position, then one frame
// per ply with the move highlighted; a move that brings an Ice Age gets two
// frames, the bare move with the coming Ice Age marked and then the iced
// position. The orientation SideToMove means White at the bottom here, as
// a board that turned every ply would be hard to follow. Each frame holds
// only the rectangle that changed, unchanged pixels in it transparent, so
// a 60-ply game stays far below Discord's upload limit.
//
// GIF fails, writing nothing, if a move is not legal where it is played;
// otherwise it returns w's error, if any. It is safe for concurrent use.
func GIF(w io.Writer, start game.Position, moves []game.Move, opt Options) error {
	if opt.Orientation == SideToMove {
		opt.Orientation = WhiteBottom
	}
	k := kitFor(opt.Theme, opt.size())
	l := layout{blackBottom: opt.Orientation == BlackBottom, sq: k.sq}
	top := 0
	if !opt.NoHeader {
		top = k.head
	}
	a := animation{k: k, top: top, bounds: image.Rect(0, 0, k.size, top+k.size)}
	a.cur = image.NewPaletted(a.bounds, k.gifPal)
	a.prev = image.NewPaletted(a.bounds, k.gifPal)

	p := start
	frameOpt := opt
	frameOpt.LastMove = game.NullMove
	a.add(l.boardKeys(&p, &frameOpt), boardHeader(&p, ""), delayMove)
	for i, m := range moves {
		if !p.IsLegal(m) {
			return fmt.Errorf("render: cannot draw the game: move %d (%s) is not legal in %s", i+1, m.UCI(), p.FEN())
		}
		next, ev := p.ApplyWithEvent(m)
		frameOpt.LastMove = m
		if ev != nil {
			keys, h := iceAgeBefore(ev, l, &frameOpt)
			a.add(keys, h, delayIceStart)
			keys, h = iceAgeAfter(ev, &next, l, &frameOpt)
			a.add(keys, h, delayIceAge)
		} else {
			a.add(l.boardKeys(&next, &frameOpt), boardHeader(&next, ""), delayMove)
		}
		p = next
	}
	a.g.Delay[len(a.g.Delay)-1] = delayEnd
	a.g.Config = image.Config{ColorModel: k.gifPal, Width: a.bounds.Dx(), Height: a.bounds.Dy()}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &a.g); err != nil {
		return fmt.Errorf("render: encoding the GIF: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("render: writing the GIF: %w", err)
	}
	return nil
}

// animation collects frames, each reduced to what changed since the last.
type animation struct {
	k         *kit
	top       int
	bounds    image.Rectangle
	prev, cur *image.Paletted // the whole picture before and after this frame
	g         gif.GIF
}

// add draws a frame from its squares and header; arrows and highlights of
// the options are not drawn in a GIF.
func (a *animation) add(keys *[64]tileKey, h headerKey, delay int) {
	var hk *headerKey
	if a.top > 0 {
		hk = &h
	}
	a.k.compose(a.cur, image.Point{}, hk, keys)
	if len(a.g.Image) == 0 {
		first := image.NewPaletted(a.bounds, a.k.gifPal)
		copy(first.Pix, a.cur.Pix)
		a.g.Image = append(a.g.Image, first)
		a.g.Delay = append(a.g.Delay, delay)
		a.g.Disposal = append(a.g.Disposal, gif.DisposalNone)
		a.prev, a.cur = a.cur, a.prev
		return
	}
	r := changed(a.prev, a.cur)
	if r.Empty() {
		// Nothing changed (cannot happen with a header, which shows the
		// move number): lengthen the previous frame instead.
		a.g.Delay[len(a.g.Delay)-1] += delay
		return
	}
	f := image.NewPaletted(r, a.k.gifPal)
	w := r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		po := a.prev.PixOffset(r.Min.X, y)
		old, now := a.prev.Pix[po:po+w], a.cur.Pix[po:po+w]
		dst := f.Pix[f.PixOffset(r.Min.X, y):][:w]
		for x := range now {
			if now[x] == old[x] {
				dst[x] = a.k.clear
			} else {
				dst[x] = now[x]
			}
		}
	}
	a.g.Image = append(a.g.Image, f)
	a.g.Delay = append(a.g.Delay, delay)
	a.g.Disposal = append(a.g.Disposal, gif.DisposalNone)
	// The next frame is drawn over this one: both must hold the same
	// picture. Copy only the rectangle that changed.
	for y := r.Min.Y; y < r.Max.Y; y++ {
		po := a.prev.PixOffset(r.Min.X, y)
		copy(a.prev.Pix[po:po+w], a.cur.Pix[po:po+w])
	}
}

// changed returns the smallest rectangle outside which a and b are equal.
func changed(a, b *image.Paletted) image.Rectangle {
	r := image.Rectangle{}
	w := a.Bounds().Dx()
	for y := 0; y < a.Bounds().Dy(); y++ {
		ra, rb := a.Pix[y*a.Stride:][:w], b.Pix[y*b.Stride:][:w]
		if bytes.Equal(ra, rb) {
			continue
		}
		x0 := 0
		for ra[x0] == rb[x0] {
			x0++
		}
		x1 := w
		for ra[x1-1] == rb[x1-1] {
			x1--
		}
		r = r.Union(image.Rect(x0, y, x1, y+1))
	}
	return r
}
