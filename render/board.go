package render

import (
	"image"
	"io"
	"sync"

	"github.com/iceagechess/iceage/game"
)

// Orientation says from whose side the board is seen.
type Orientation uint8

const (
	// SideToMove shows the board from the side of the player to move:
	// correspondence players look at their own side. It is the default.
	SideToMove Orientation = iota
	// WhiteBottom shows a1 at the bottom left.
	WhiteBottom
	// BlackBottom shows h8 at the bottom left.
	BlackBottom
)

// Mark is the meaning, and so the colour, of a highlighted square or an
// arrow.
type Mark uint8

const (
	Hint   Mark = iota // a suggested move or a good square (green; blue in ColorBlind)
	Danger             // a threat, or why a move is not legal (red; vermilion)
	Info               // anything else worth pointing at (blue; purple)
	numMarks
)

// Highlight colours one square.
type Highlight struct {
	Square game.Square
	Mark   Mark
}

// Arrow points from one square to another.
type Arrow struct {
	From, To game.Square
	Mark     Mark
}

// Options say how to draw a board. The zero Options draw a 512 px board
// from the side to move in the Classic theme, without a header: a header
// needs its Words.
type Options struct {
	// Size is the board's side in pixels, rounded down to a multiple of 8
	// and clamped to [MinSize, MaxSize]; 0 means DefaultSize. The image is
	// Size wide and Size plus the header's height tall.
	Size        int
	Orientation Orientation
	// LastMove, when not game.NullMove, has both its squares highlighted.
	LastMove   game.Move
	Highlights []Highlight
	Arrows     []Arrow
	Theme      Theme
	// Words are the header's texts in the reader's language
	// (i18n.BoardWords); without them there is no header.
	Words Words
	// Title, when set, is the header's only text, a result such as
	// "Black wins: White's king froze". A GIF ends on a frame of its own
	// with the Title: a game that ended by resignation, agreement or time
	// ends on its result, not on "Black to move".
	Title string
	// NoHeader leaves out the header strip, even with Words.
	NoHeader bool
	// Clocks, when set, make a board's header strip a live game's
	// clocks instead of its words, with or without Words, even with
	// NoHeader.
	Clocks *Clocks
	// Captions, when set, label the two boards of an Ice Age picture
	// (IceAgeImage) above them, header or not: "Before the Ice Age" and
	// "After the Ice Age" in the reader's language (i18n.IceAgeCaptions).
	// Boards and GIFs have none.
	Captions [2]string
	// FastPNG compresses a PNG at zlib's fastest level: about half the
	// time of the default for about 30 % more bytes (BenchmarkPNGLevel),
	// for a reply that must go out at once.
	FastPNG bool
	// MaxFrames caps the frames of a GIF (WriteGIF says how); zero or
	// less means DefaultMaxFrames. Boards and PNGs ignore it.
	MaxFrames int
}

// Board sizes.
const (
	DefaultSize = 512
	MinSize     = 128
	MaxSize     = 1024
)

// Words are the texts of a picture's header, in one language: render has
// no words of its own.
type Words interface {
	ToMove(c game.Color) string // "White to move"
	MoveNumber(n int) string    // "move 12"
	Outcome(o game.Outcome) string
	// Countdown says when the Ice Age comes, in full ("Ice Age in 7
	// Black moves") and short ("Ice Age in 7").
	Countdown(p *game.Position) (long, short string)
	Moved(c game.Color) string       // "Black moved"
	IceAge() string                  // "Ice Age"
	IceAgeNow() string               // "Ice Age!"
	Iced(squares, frozen int) string // "27 squares iced, 2 men frozen"
}

// header reports whether the picture has a header strip.
func (o *Options) header() bool { return !o.NoHeader && o.Words != nil }

func (o *Options) size() int {
	s := o.Size
	if s == 0 {
		s = DefaultSize
	}
	return min(max(s, MinSize), MaxSize) &^ 7
}

// blackBottom resolves the orientation for a position.
func (o *Options) blackBottom(p *game.Position) bool {
	switch o.Orientation {
	case WhiteBottom:
		return false
	case BlackBottom:
		return true
	}
	return p.Turn() == game.Black
}

// cells is what stands on each square, by game.Square: a man, ice, or ice
// with a frozen man in it.
type cells [64]struct {
	piece game.Piece
	ice   bool
}

func cellsOf(p *game.Position) *cells {
	var c cells
	for s := game.Square(0); s < 64; s++ {
		c[s].piece = p.PieceAt(s)
		c[s].ice = p.IsIce(s)
	}
	return &c
}

// layout places squares for one orientation.
type layout struct {
	blackBottom bool
	sq          int
}

// display returns the display index (row*8 + column, row 0 at the top).
func (l layout) display(s game.Square) int {
	f, r := s.File(), s.Rank()
	if l.blackBottom {
		return r<<3 | (7 - f)
	}
	return (7-r)<<3 | f
}

// centre returns the pixel centre of square s relative to the board.
func (l layout) centre(s uint8) (float64, float64) {
	d := l.display(game.Square(s))
	return (float64(d&7) + 0.5) * float64(l.sq), (float64(d>>3) + 0.5) * float64(l.sq)
}

// squareKeys builds the tile keys of every square in display order: square
// colour, coordinates and contents. Callers then add the highlights.
func (l layout) squareKeys(c *cells) *[64]tileKey {
	var keys [64]tileKey
	for s := game.Square(0); s < 64; s++ {
		d := l.display(s)
		k := &keys[d]
		k.dark = (s.File()+s.Rank())%2 == 0
		k.piece = c[s].piece
		k.ice = c[s].ice
		if d&7 == 0 {
			k.rank = byte('1' + s.Rank())
		}
		if d>>3 == 7 {
			k.file = byte('a' + s.File())
		}
	}
	return &keys
}

// boardKeys adds the last move, check, warnings and highlights of opt.
func (l layout) boardKeys(p *game.Position, opt *Options) *[64]tileKey {
	keys := l.squareKeys(cellsOf(p))
	lastMove(keys, l, opt.LastMove)
	checkMark(keys, l, p)
	if p.BlackMovesToIceAge() == 1 && !p.Outcome().Over() && opt.Title == "" { // no Ice Age comes after a result
		for _, s := range p.WouldFreeze().Squares() {
			keys[l.display(s)].badge = badgeWarn
		}
	}
	for _, h := range opt.Highlights {
		if h.Square.Valid() {
			k := &keys[l.display(h.Square)]
			k.under, k.mark = underMark, h.Mark%numMarks
		}
	}
	return keys
}

// boardHeader returns the header of a position: whose turn, the move
// number and the Ice Age countdown, in w's words.
func boardHeader(p *game.Position, title string, w Words) headerKey {
	h := headerKey{disc: discWhite, left: w.ToMove(p.Turn()), icon: true}
	if p.Turn() == game.Black {
		h.disc = discBlack
	}
	h.leftDim = "  •  " + w.MoveNumber(p.FullMoveNumber())
	over := p.Outcome().Over()
	if over {
		h.disc, h.left, h.leftDim, h.icon = discNone, w.Outcome(p.Outcome()), "", false
	}
	if title != "" {
		// A title is a result: nothing else is said.
		return headerKey{left: title}
	}
	if !over { // no countdown once the game has ended
		h.right, h.rightShort = w.Countdown(p)
		h.warn = p.BlackMovesToIceAge() <= 1
	}
	return h
}

// Board draws a position. The image is fresh: the caller may keep or
// change it. Board is safe for concurrent use.
func Board(p *game.Position, opt Options) *image.Paletted {
	return board(p, &opt, nil)
}

// board draws into reuse when it has the right size, else into a new
// image.
func board(p *game.Position, opt *Options, reuse *image.Paletted) *image.Paletted {
	k := kitFor(opt.Theme, opt.size())
	l := layout{blackBottom: opt.blackBottom(p), sq: k.sq}
	var hk *headerKey
	top := 0
	if opt.Clocks != nil {
		h := clockHeader(opt.Clocks)
		hk, top = &h, k.head
	} else if opt.header() {
		h := boardHeader(p, opt.Title, opt.Words)
		hk, top = &h, k.head
	}
	r := image.Rect(0, 0, k.size, top+k.size)
	im := reuse
	if im == nil || im.Rect != r {
		im = image.NewPaletted(r, k.pngPal)
	}
	im.Palette = k.pngPal
	k.compose(im, image.Point{}, hk, l.boardKeys(p, opt))
	if len(opt.Arrows) > 0 {
		k.overlayArrows(im, image.Pt(0, top), opt.Arrows, l.centre)
	}
	return im
}

// PNG draws a position as Board does and writes it to w as a PNG. It
// returns w's error, if any. PNG is safe for concurrent use.
func PNG(w io.Writer, p *game.Position, opt Options) error {
	im, _ := scratch.Get().(*image.Paletted)
	im = board(p, &opt, im)
	err := writePalettedAt(w, im, opt.FastPNG)
	scratch.Put(im)
	return err
}

// scratch holds images that PNG draws into and forgets once encoded.
var scratch sync.Pool
