package render

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"math"
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
)

// phoneSizes are the widths the pictures are judged at: the bot's board
// and a phone's width.
var phoneSizes = []int{512, 400}

// phoneCases are the golden pictures as a player sees them, at 512 and
// 400 px, in English and in Russian: a board, the board whose next Black
// move brings the Ice Age, the Ice Age's picture with its captions as
// the bot posts it, and a move's preview (no words: none at either size).
func phoneCases(t testing.TB) map[string]func() image.Image {
	out := map[string]func() image.Image{}
	mid := mustFEN(t, "r1bqk2r/pp*p1ppp/2n1pn2/8/1bPP4/2N2N2/PP2BPPP/R1BQK2R b KQkq - 4 8")
	warn := mustFEN(t, warningFEN)
	ev, after, m := iceAgeEvent(t)
	knight := game.G1
	var arrows []Arrow
	start := game.StartPosition()
	for _, mv := range start.LegalMoves(nil) {
		if mv.From() == knight {
			arrows = append(arrows, Arrow{From: knight, To: mv.To(), Mark: Hint})
		}
	}
	for _, size := range phoneSizes {
		out[fmt.Sprintf("phone-preview-%d", size)] = func() image.Image {
			return Board(&start, Options{Size: size, NoHeader: true, Highlights: []Highlight{{Square: knight, Mark: Info}}, Arrows: arrows})
		}
		for _, lang := range []i18n.Lang{i18n.English, i18n.Russian} {
			w := i18n.BoardWords{Lang: lang}
			out[fmt.Sprintf("phone-board-%s-%d", lang, size)] = func() image.Image {
				return Board(&mid, Options{Size: size, Words: w, LastMove: uci(t, "f1e2"), Orientation: BlackBottom})
			}
			out[fmt.Sprintf("phone-countdown-%s-%d", lang, size)] = func() image.Image {
				return Board(&warn, Options{Size: size, Words: w})
			}
			out[fmt.Sprintf("phone-iceage-%s-%d", lang, size)] = func() image.Image {
				return IceAgeImage(ev, &after, Options{Size: size, NoHeader: true, LastMove: m, Captions: i18n.IceAgeCaptions(lang)})
			}
		}
	}
	return out
}

// luminance is a colour's relative luminance as WCAG defines it.
func luminance(r, g, b uint8) float64 {
	lin := func(c uint8) float64 {
		v := float64(c) / 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two colours, from 1 to 21.
func contrast(a, b [3]uint8) float64 {
	la, lb := luminance(a[0], a[1], a[2]), luminance(b[0], b[1], b[2])
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func TestCoordinatesContrast(t *testing.T) {
	for th := Theme(0); th < numThemes; th++ {
		c := th.colors()
		coord := [3]uint8{c.coord.R, c.coord.G, c.coord.B}
		for name, sq := range map[string][3]uint8{"light": {c.light.R, c.light.G, c.light.B}, "dark": {c.dark.R, c.dark.G, c.dark.B}} {
			if r := contrast(coord, sq); r < 4.5 {
				t.Errorf("%v: the coordinates have a contrast of %.2f:1 on the %s squares, under WCAG AA's 4.5:1", th, r, name)
			}
		}
		// What the quantised palette draws is what a player sees: the
		// colour nearest the coordinates' must keep the contrast too.
		k := kitFor(th, DefaultSize)
		i := k.quant.index(c.coord.R, c.coord.G, c.coord.B)
		r, g, b, _ := k.pngPal[i].RGBA()
		drawn := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
		for _, sq := range [][3]uint8{{c.light.R, c.light.G, c.light.B}, {c.dark.R, c.dark.G, c.dark.B}} {
			if r := contrast(drawn, sq); r < 4.5 {
				t.Errorf("%v: the palette draws the coordinates as %v, %.2f:1 on %v", th, drawn, r, sq)
			}
		}
	}
}

func TestCoordinatesAreLargeOnAPhone(t *testing.T) {

	// A 512 px board, which a phone shows at about 400 px: at least 14
	// px letters, and ink as tall as a capital of that size.
	if px := coordPx(DefaultSize / 8); px < 14 {
		t.Errorf("coordinates of %.1f px on a 512 px board, want at least 14", px)
	}
	bare := mustFEN(t, "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	for th := Theme(0); th < numThemes; th++ {
		im := Board(&bare, Options{Theme: th, Orientation: WhiteBottom, NoHeader: true})
		c := th.colors()
		// The rank "4" in the top-left corner of a4 (an empty light
		// square): count the rows holding coordinate ink.
		sq := DefaultSize / 8
		rows := 0
		for y := 4 * sq; y < 4*sq+sq/2; y++ {
			for x := 0; x < sq/3; x++ {
				r, g, b, _ := im.At(x, y).RGBA()
				if contrast([3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}, [3]uint8{c.coord.R, c.coord.G, c.coord.B}) < 1.3 {
					rows++
					break
				}
			}
		}
		if rows < 10 {
			t.Errorf("%v: the rank label is %d px tall, want at least 10 (a 14 px digit)", th, rows)
		}
	}
}

func TestAReplayEndsOnItsResult(t *testing.T) {
	moves := testGame(t)[:21]
	final := play(t, moves)
	for _, lang := range []i18n.Lang{i18n.English, i18n.French, i18n.Russian} {
		w := i18n.BoardWords{Lang: lang}
		for _, o := range []game.Outcome{game.WinFor(game.White, game.Resignation), {Result: game.Draw, Reason: game.DrawAgreed}} {
			title := i18n.Outcome(lang, o)
			var buf bytes.Buffer
			opt := Options{Words: w, Size: 384, Title: title}
			info, err := WriteGIF(&buf, game.StartPosition(), moves, opt)
			if err != nil {
				t.Fatal(err)
			}
			g, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Image) != info.Frames {
				t.Fatalf("%d frames decoded, %d reported", len(g.Image), info.Frames)
			}
			canvas := image.NewPaletted(image.Rect(0, 0, g.Config.Width, g.Config.Height), g.Image[0].Palette)
			for i, f := range g.Image {
				paint(canvas, f, i == 0)
			}
			// The last frame is the final position under the result …
			want := Board(&final, Options{Words: w, Size: 384, Title: title, LastMove: moves[len(moves)-1], Orientation: WhiteBottom})
			if !bytes.Equal(canvas.Pix, want.Pix) {
				t.Errorf("%s, %v: the GIF's last frame is not the final board under %q", lang, o.Reason, title)
			}
			// … and not under whose move it was.
			plain := Board(&final, Options{Words: w, Size: 384, LastMove: moves[len(moves)-1], Orientation: WhiteBottom})
			head := want.Bounds().Dx() * kitFor(Classic, 384).head
			if bytes.Equal(canvas.Pix[:head], plain.Pix[:head]) {
				t.Errorf("%s, %v: the last frame's header still says whose move it is", lang, o.Reason)
			}
			if g.Delay[len(g.Delay)-1] != delayEnd {
				t.Errorf("the result shows for %d cs, want %d", g.Delay[len(g.Delay)-1], delayEnd)
			}
		}
	}
}

// TestHeadersFitInEveryLanguage: every header a board, an Ice Age or a
// replay can show fits its width in every language, at the sizes the
// bot draws and at a phone's, without shrinking past minHeaderScale.
func TestHeadersFitInEveryLanguage(t *testing.T) {
	var positions []game.Position
	for _, fen := range []string{game.StartFEN, warningFEN, checkFEN, mateFEN, iceAgeFEN,
		"4k3/8/8/8/8/8/8/4K3 b - - 0 119", "4k3/8/8/8/8/8/8/4K3 w - - 0 139"} {
		positions = append(positions, mustFEN(t, fen))
	}
	mate := mustFEN(t, mateFEN)
	mated, _ := mate.ApplyWithEvent(uci(t, "g4f2"))
	positions = append(positions, mated)
	ev, after, _ := iceAgeEvent(t)
	var outcomes []game.Outcome
	for r := game.Checkmate; r <= game.Aborted; r++ {
		for _, res := range []game.Result{game.WhiteWins, game.BlackWins, game.Draw} {
			outcomes = append(outcomes, game.Outcome{Result: res, Reason: r})
		}
	}
	for _, lang := range i18n.Languages() {
		w := i18n.BoardWords{Lang: lang}
		var keys []headerKey
		for i := range positions {
			keys = append(keys, boardHeader(&positions[i], "", w))
		}
		for _, o := range outcomes {
			keys = append(keys, boardHeader(&positions[0], i18n.Outcome(lang, o), w))
		}
		l := layout{sq: 48}
		_, bh := iceAgeBefore(ev, l, &Options{Words: w})
		_, ah := iceAgeAfter(ev, &after, l, &Options{Words: w})
		keys = append(keys, bh, ah)
		for _, size := range []int{256, 320, 384, 400, 512} {
			k := kitFor(Classic, size)
			for _, c := range i18n.IceAgeCaptions(lang) {
				loadFonts()
				f := face(fonts.medium, float64(k.sq)*headerFontScale)
				if fit := fitHeader(headerKey{left: c, caption: true}, k.size, 0, float64(k.sq), f, f); fit.need > float64(k.size) || fit.scale < 1 {
					t.Errorf("%s at %d px: the caption %q needs %.0f px of %d at %.0f %%", lang, size, c, fit.need, k.size, 100*fit.scale)
				}
			}
			for _, key := range keys {
				x := float64(k.head) * 0.35
				if key.disc != discNone {
					x += float64(k.head) * (0.48 + 0.25)
				}
				f := fitHeader(key, k.size, x, float64(k.head), k.headFace, k.dimFace)
				if f.need > float64(k.size)+0.5 {
					t.Errorf("%s at %d px: %q … %q needs %.0f px of %d", lang, size, key.left, f.right, f.need, k.size)
				}
				if size >= 384 && f.scale < 0.9 {
					t.Logf("%s at %d px: %q … %q shrinks to %.0f %%", lang, size, key.left, f.right, 100*f.scale)
				}
			}
		}
	}
}

func TestAResultWarnsOfNoIceAge(t *testing.T) {
	// The move before an Ice Age: its men are marked, unless the game
	// has ended there.
	p := mustFEN(t, warningFEN)
	marked := Board(&p, Options{NoHeader: true})
	result := Board(&p, Options{NoHeader: true, Title: "White resigned"})
	if bytes.Equal(marked.Pix, result.Pix) {
		t.Error("the board under a result marks the men that would freeze")
	}
	plain := Board(&p, Options{NoHeader: true, LastMove: game.NullMove})
	if !bytes.Equal(marked.Pix, plain.Pix) {
		t.Error("the board is not drawn the same twice")
	}
}
