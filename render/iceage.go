package render

import (
	"errors"
	"image"
	"io"

	"github.com/iceagechess/iceage/game"
)

// IceAgeImage draws an Ice Age as two boards side by side, under
// opt.Captions if any: on the left the
// position right after Black's move (ev.Before), with a snowflake badge on
// every man that is about to freeze, a dashed ghost of ice on every
// square about to fill, and White's king marked if Black's move gave
// check; on the right the position after the Ice Age, where
// the frozen men show faded inside their ice. opt.LastMove (Black's move)
// is highlighted on both; the orientation is resolved on after (so by
// default White, who moves next, is at the bottom).
func IceAgeImage(ev *game.IceAge, after *game.Position, opt Options) *image.Paletted {
	k := kitFor(opt.Theme, opt.size())
	l := layout{blackBottom: opt.blackBottom(after), sq: k.sq}
	gap := k.sq / 2
	// Captions are taller than a header: the pair is twice as wide as a
	// board, so a phone shows it at half the size.
	caption := 0
	if opt.Captions != [2]string{} {
		caption = k.sq
	}
	top := caption
	if opt.header() {
		top += k.head
	}
	im := image.NewPaletted(image.Rect(0, 0, 2*k.size+gap, top+k.size), k.pngPal)
	frame := k.quant.index(k.theme.colors().frame.R, k.theme.colors().frame.G, k.theme.colors().frame.B)
	for i := range im.Pix {
		im.Pix[i] = frame
	}

	before, beforeHead := iceAgeBefore(ev, l, &opt)
	afterKeys, afterHead := iceAgeAfter(ev, after, l, &opt)
	var bh, ah *headerKey
	if opt.header() {
		bh, ah = &beforeHead, &afterHead
	}
	for i, text := range opt.Captions {
		if caption > 0 {
			k.drawCaption(im, image.Pt(i*(k.size+gap), 0), caption, text)
		}
	}
	k.compose(im, image.Pt(0, caption), bh, before)
	k.compose(im, image.Pt(k.size+gap, caption), ah, afterKeys)
	if len(opt.Arrows) > 0 {
		k.overlayArrows(im, image.Pt(0, top), opt.Arrows, l.centre)
		k.overlayArrows(im, image.Pt(k.size+gap, top), opt.Arrows, l.centre)
	}
	return im
}

// iceAgeBefore returns the squares and header of the position right after
// Black's move, with what the Ice Age is about to do marked.
func iceAgeBefore(ev *game.IceAge, l layout, opt *Options) (*[64]tileKey, headerKey) {
	keys := l.squareKeys(cellsOf(&ev.Before))
	lastMove(keys, l, opt.LastMove)
	// Black's move may give check, which the Ice Age may then lift (by
	// freezing the checking man or icing the line): show it as it was.
	checkMark(keys, l, &ev.Before)
	for _, f := range ev.Frozen {
		keys[l.display(f.Square)].badge = badgeWarn
	}
	for _, s := range ev.Filled.Squares() {
		keys[l.display(s)].badge = badgeWillFill
	}
	if opt.Words == nil {
		return keys, headerKey{}
	}
	w := opt.Words
	h := headerKey{disc: discBlack, left: w.Moved(game.Black), leftDim: "  •  " + w.MoveNumber(ev.Before.FullMoveNumber()-1), right: w.IceAgeNow(), warn: true, icon: true}
	return keys, h
}

// iceAgeAfter returns the squares and header of the position after the
// Ice Age, the frozen men faded inside their ice.
func iceAgeAfter(ev *game.IceAge, after *game.Position, l layout, opt *Options) (*[64]tileKey, headerKey) {
	c := cellsOf(after)
	for _, f := range ev.Frozen {
		c[f.Square].piece = f.Piece
	}
	keys := l.squareKeys(c)
	lastMove(keys, l, opt.LastMove)
	checkMark(keys, l, after)
	if opt.Words == nil {
		return keys, headerKey{}
	}
	w := opt.Words
	h := headerKey{disc: discNone, left: w.IceAge(), leftDim: ": " + w.Iced(ev.Iced().Count(), len(ev.Frozen))}
	if o := after.Outcome(); o.Over() {
		h.right = w.Outcome(o)
	} else {
		h.right = w.ToMove(after.Turn())
	}
	return keys, h
}

func lastMove(keys *[64]tileKey, l layout, m game.Move) {
	if m != game.NullMove {
		keys[l.display(m.From())].under = underLast
		keys[l.display(m.To())].under = underLast
	}
}

func checkMark(keys *[64]tileKey, l layout, p *game.Position) {
	if p.InCheck() {
		if s, ok := p.KingSquare(p.Turn()); ok {
			keys[l.display(s)].under = underCheck
		}
	}
}

// IceAge draws an Ice Age as IceAgeImage does and writes it to w as a PNG.
// It fails if ev is nil, or with w's error.
func IceAge(w io.Writer, ev *game.IceAge, after *game.Position, opt Options) error {
	if ev == nil {
		return errors.New("render: no Ice Age to draw (the event is nil)")
	}
	return writePalettedAt(w, IceAgeImage(ev, after, opt), opt.FastPNG)
}
