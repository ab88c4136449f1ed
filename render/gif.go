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

// DefaultMaxFrames is the frame cap of a GIF when Options.MaxFrames is
// not positive. The GIF encoder needs every frame at once, and a frame
// costs a few milliseconds and up to 0.4 MB at the default size: a
// 300-ply game drawn whole took over a second and 80 to 120 MB, and in
// 100 frames it takes about 30 MB and a third of the time, in a file far
// below Discord's upload limit.
const DefaultMaxFrames = 100

// GIFInfo says what an animated GIF shows, so that a reply can say when
// plies were left out.
type GIFInfo struct {
	Plies  int // the moves of the game
	Shown  int // the plies drawn in a frame of their own; the others are skipped
	Frames int // the frames of the GIF, the start position's included
}

// Sampled reports whether some plies have no frame of their own.
func (i GIFInfo) Sampled() bool { return i.Shown < i.Plies }

// GIF draws a game as an animated GIF: WriteGIF without the report.
func GIF(w io.Writer, start game.Position, moves []game.Move, opt Options) error {
	_, err := WriteGIF(w, start, moves, opt)
	return err
}

// WriteGIF draws a game as an animated GIF and says what it shows: the
// start position, then one frame per ply with the move highlighted; a
// move that brings an Ice Age gets two frames, the bare move with the
// coming Ice Age marked and then the iced position. The orientation
// SideToMove means White at the bottom here, as a board that turned every
// ply would be hard to follow. Each frame holds only the rectangle that
// changed, unchanged pixels in it transparent, so a 60-ply game stays far
// below Discord's upload limit. With a Title and a header, a last frame
// shows the final position again under the Title: the game's result.
//
// A game that needs more than Options.MaxFrames frames (DefaultMaxFrames
// if not positive) is sampled: the start, the final position and both
// frames of every Ice Age are always drawn, and the plies between are
// spread evenly over the frames left; a skipped ply shows in the next
// frame drawn. As Ice Ages are always drawn, a game of more than about
// 2,000 plies can exceed the cap, by two frames per 40 plies.
//
// WriteGIF fails, writing nothing, if a move is not legal where it is
// played; otherwise it returns w's error, if any. It is safe for
// concurrent use.
func WriteGIF(w io.Writer, start game.Position, moves []game.Move, opt Options) (GIFInfo, error) {
	// Legality first, and which plies bring an Ice Age, so that the
	// sample is chosen before anything is drawn.
	iceAge := make([]bool, len(moves))
	p := start
	for i, m := range moves {
		if !p.IsLegal(m) {
			return GIFInfo{}, fmt.Errorf("render: cannot draw the game: move %d (%s) is not legal in %s", i+1, m.UCI(), p.FEN())
		}
		iceAge[i] = p.IceAgeNow()
		p = p.Apply(m)
	}
	show := samplePlies(iceAge, opt.maxFrames())

	if opt.Orientation == SideToMove {
		opt.Orientation = WhiteBottom
	}
	k := kitFor(opt.Theme, opt.size())
	l := layout{blackBottom: opt.Orientation == BlackBottom, sq: k.sq}
	top := 0
	if opt.header() {
		top = k.head
	}
	a := animation{k: k, top: top, bounds: image.Rect(0, 0, k.size, top+k.size)}
	a.cur = image.NewPaletted(a.bounds, k.gifPal)
	a.prev = image.NewPaletted(a.bounds, k.gifPal)

	info := GIFInfo{Plies: len(moves)}
	p = start
	frameOpt := opt
	frameOpt.LastMove, frameOpt.Title = game.NullMove, "" // the Title is the last frame's
	a.add(l.boardKeys(&p, &frameOpt), frameHeader(&p, &opt), delayMove)
	for i, m := range moves {
		if !show[i] {
			p = p.Apply(m)
			continue
		}
		info.Shown++
		next, ev := p.ApplyWithEvent(m)
		frameOpt.LastMove = m
		if ev != nil {
			keys, h := iceAgeBefore(ev, l, &frameOpt)
			a.add(keys, h, delayIceStart)
			keys, h = iceAgeAfter(ev, &next, l, &frameOpt)
			a.add(keys, h, delayIceAge)
		} else {
			a.add(l.boardKeys(&next, &frameOpt), frameHeader(&next, &opt), delayMove)
		}
		p = next
	}
	if opt.Title != "" && opt.header() {
		// The result, when the moves do not say it (a resignation, an
		// agreement, a flag), on a last frame of its own.
		if n := len(moves); n > 0 {
			frameOpt.LastMove = moves[n-1]
		}
		frameOpt.Title = opt.Title
		a.add(l.boardKeys(&p, &frameOpt), boardHeader(&p, opt.Title, opt.Words), delayEnd)
	}
	info.Frames = len(a.g.Image)
	a.g.Delay[len(a.g.Delay)-1] = delayEnd
	a.g.Config = image.Config{ColorModel: k.gifPal, Width: a.bounds.Dx(), Height: a.bounds.Dy()}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, &a.g); err != nil {
		return info, fmt.Errorf("render: encoding the GIF: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return info, fmt.Errorf("render: writing the GIF: %w", err)
	}
	return info, nil
}

// frameHeader is a frame's header, or none.
func frameHeader(p *game.Position, opt *Options) headerKey {
	if !opt.header() {
		return headerKey{}
	}
	return boardHeader(p, "", opt.Words)
}

func (o *Options) maxFrames() int {
	if o.MaxFrames <= 0 {
		return DefaultMaxFrames
	}
	return o.MaxFrames
}

// samplePlies chooses the plies that get frames of their own, given which
// bring an Ice Age, so that the GIF has at most maxFrames frames where it
// can: the start position takes one frame, every Ice Age two and the last
// ply one, whatever the cap; the other plies share what is left, evenly,
// each drawn ply standing for those skipped before it.
func samplePlies(iceAge []bool, maxFrames int) []bool {
	show := make([]bool, len(iceAge))
	frames := 1
	var ordinary []int
	for i, ice := range iceAge {
		switch {
		case ice:
			show[i] = true
			frames += 2
		case i == len(iceAge)-1:
			show[i] = true
			frames++
		default:
			ordinary = append(ordinary, i)
		}
	}
	budget, n := max(maxFrames-frames, 0), len(ordinary)
	for j, i := range ordinary {
		// Cut the n plies, and the last ply after them, into budget+1
		// equal shares: ply j is drawn when it closes one, and the last
		// share ends with the last ply, drawn anyway. Exactly budget
		// plies are drawn (when budget < n), evenly spaced.
		if budget >= n || (j+1)*(budget+1)/(n+1) > j*(budget+1)/(n+1) {
			show[i] = true
		}
	}
	return show
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
