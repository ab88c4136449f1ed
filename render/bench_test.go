package render

import (
	"bytes"
	stdzlib "compress/zlib"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"testing"

	"github.com/fogleman/gg"
	"github.com/iceagechess/iceage/game"
)

// benchPosition is a middle game with men, ice, the last move, a
// highlight and an arrow: the Ice Age position after Black's 20th move of
// the test game, and the options a bot would pass.
func benchPosition(b testing.TB) (game.Position, Options) {
	moves := testGame(b)
	p := play(b, moves[:40])
	return p, Options{Words: en,
		LastMove:   moves[39],
		Highlights: []Highlight{{Square: game.E1, Mark: Danger}},
		Arrows:     []Arrow{{From: game.A1, To: game.A8, Mark: Hint}},
	}
}

// BenchmarkPNG is the bot's path: draw a 512 px board with pieces, ice and
// highlights and encode it as PNG, with a hint arrow and (the common move
// reply) without. renderer=naive is the baseline in the same run: gg draws
// the whole picture for every board and the default PNG encoder writes it
// as RGBA (only the loading of the sprites is left out of the loop).
// Compare with: benchstat -col /renderer.
func BenchmarkPNG(b *testing.B) {
	for _, arrows := range []bool{true, false} {
		for _, renderer := range []string{"iceage", "naive"} {
			b.Run(fmt.Sprintf("arrows=%v/renderer=%s", arrows, renderer), func(b *testing.B) {
				p, opt := benchPosition(b)
				if !arrows {
					opt.Arrows = nil
				}
				encode := func(buf *bytes.Buffer) error { return PNG(buf, &p, opt) }
				if renderer == "naive" {
					loadFonts()
					sprites := loadSprites(64)
					encode = func(buf *bytes.Buffer) error { return png.Encode(buf, naiveBoard(&p, &opt, &sprites)) }
				}
				var buf bytes.Buffer
				encode(&buf) // warm the caches
				b.ReportAllocs()
				for b.Loop() {
					buf.Reset()
					if err := encode(&buf); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(buf.Len()), "bytes/png")
			})
		}
	}
}

// BenchmarkPNGLevel compares zlib levels on the same board, to choose
// pngLevel and fastPNGLevel, with klauspost/compress's zlib (the one
// writePaletted uses) and the standard library's, side by side.
// Compare with: benchstat -col /zlib.
func BenchmarkPNGLevel(b *testing.B) {
	p, opt := benchPosition(b)
	im := Board(&p, opt)
	for _, level := range []int{1, 2, 5, 6, 9} {
		for _, lib := range []string{"klauspost", "std"} {
			b.Run(fmt.Sprintf("level=%d/zlib=%s", level, lib), func(b *testing.B) {
				s := newPNGState(level)
				if lib == "std" {
					s.zw, _ = stdzlib.NewWriterLevel(&s.z, level)
				}
				var buf bytes.Buffer
				for b.Loop() {
					buf.Reset()
					if err := s.encode(&buf, im); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(buf.Len()), "bytes/png")
			})
		}
	}
}

func BenchmarkBoard(b *testing.B) {
	p, opt := benchPosition(b)
	Board(&p, opt)
	for b.Loop() {
		Board(&p, opt)
	}
}

func BenchmarkGIF60(b *testing.B) {
	moves := testGame(b)
	var buf bytes.Buffer
	GIF(&buf, game.StartPosition(), moves, Options{Words: en})
	b.ResetTimer()
	for b.Loop() {
		buf.Reset()
		if err := GIF(&buf, game.StartPosition(), moves, Options{Words: en}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
}

func BenchmarkIceAgePNG(b *testing.B) {
	ev, after, m := iceAgeEvent(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := IceAge(&buf, ev, &after, Options{Words: en, LastMove: m}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "bytes/png")
}

// naiveBoard draws the whole board with gg, the way a first renderer
// would: the baseline of BenchmarkPNG.
func naiveBoard(p *game.Position, opt *Options, sprites *[16]*image.RGBA) image.Image {
	const sq = 64
	head := headerHeight(sq)
	c := Classic.colors()
	dc := gg.NewContext(8*sq, head+8*sq)
	hf, df := face(fonts.medium, float64(head)*0.42), face(fonts.regular, float64(head)*0.42)
	h := boardHeader(p, "", en)
	dc.DrawImage(drawHeader(h, 8*sq, head, Classic, hf, df), 0, 0)
	cf := face(fonts.bold, sq*0.19)
	l := layout{sq: sq}
	for s := game.Square(0); s < 64; s++ {
		d := l.display(s)
		x, y := float64(d&7*sq), float64(head+d>>3*sq)
		col := c.light
		if (s.File()+s.Rank())%2 == 0 {
			col = c.dark
		}
		dc.SetColor(col)
		dc.DrawRectangle(x, y, sq, sq)
		dc.Fill()
		if s == opt.LastMove.From() || s == opt.LastMove.To() {
			dc.SetColor(c.lastMove)
			dc.DrawRectangle(x, y, sq, sq)
			dc.Fill()
		}
		dc.Push()
		dc.Translate(x, y)
		if p.IsIce(s) {
			drawIce(dc, sq, c, false)
		}
		dc.Pop()
		if x := p.PieceAt(s); x != game.NoPiece {
			dc.DrawImage(sprites[x], d&7*sq, head+d>>3*sq)
		}
		if d&7 == 0 {
			dc.SetFontFace(cf)
			dc.SetColor(c.dark)
			dc.DrawStringAnchored(string(rune('1'+s.Rank())), x+3, y+3, 0, 0.85)
		}
	}
	for _, a := range opt.Arrows {
		x0, y0 := l.centre(uint8(a.From))
		x1, y1 := l.centre(uint8(a.To))
		drawArrow(dc, x0, y0+float64(head), x1, y1+float64(head), sq, c.mark[a.Mark])
	}
	im := dc.Image()
	out := image.NewRGBA(im.Bounds())
	draw.Draw(out, out.Bounds(), im, image.Point{}, draw.Src)
	return out
}
