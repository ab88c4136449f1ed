package render

import (
	"bytes"
	"image"
	"image/gif"
	"strings"
	"sync"
	"testing"

	"github.com/iceagechess/iceage/game"
)

// squareStats counts kinds of pixel in the square at display column col
// and row row of a board image with a header of the default size.
type squareStats struct{ icy, white, black, total int }

func statsAt(im *image.Paletted, top, sq, col, row int) squareStats {
	var s squareStats
	for y := top + row*sq; y < top+(row+1)*sq; y++ {
		for x := col * sq; x < (col+1)*sq; x++ {
			c := im.Palette[im.ColorIndexAt(x, y)]
			r, g, b, _ := c.RGBA()
			r, g, b = r>>8, g>>8, b>>8
			switch {
			case b > r+25 && b+10 >= g:
				s.icy++
			case r > 235 && g > 235 && b > 235:
				s.white++
			case r < 45 && g < 45 && b < 45:
				s.black++
			}
			s.total++
		}
	}
	return s
}

// contentOf tells from pixels alone what stands on a square.
func contentOf(s squareStats) string {
	switch {
	case s.icy*2 > s.total:
		return "ice"
	case s.white*16 > s.total: // white men are white inside a black outline
		return "white man"
	case s.black*10 > s.total: // black men are black with thin white lines
		return "black man"
	case s.icy+s.white+s.black < s.total/20:
		return "empty"
	}
	return "unclear"
}

func TestPixelsShowWhatTheFENSays(t *testing.T) {
	fens := []string{
		game.StartFEN,
		checkFEN,
		promotionFEN,
		"r1b1k2r/pp*p1ppp/2n1pn2/q7/1b1PP3/2N2N2/PP1B1PPP/R2QKB1R w KQkq - 4 8",
	}
	for _, fen := range fens {
		p := mustFEN(t, fen)
		for _, o := range []Orientation{WhiteBottom, BlackBottom} {
			name := "white"
			if o == BlackBottom {
				name = "black"
			}
			t.Run("every square of "+fen+" seen from "+name+"'s side shows its content", func(t *testing.T) {
				im := Board(&p, Options{Words: en, Orientation: o})
				k := kitFor(Classic, DefaultSize)
				for s := game.Square(0); s < 64; s++ {
					col, row := s.File(), 7-s.Rank()
					if o == BlackBottom {
						col, row = 7-s.File(), s.Rank()
					}
					want := "empty"
					switch {
					case p.IsIce(s):
						want = "ice"
					case p.PieceAt(s) != game.NoPiece:
						want = p.PieceAt(s).Color().String() + " man"
					}
					st := statsAt(im, k.head, k.sq, col, row)
					if got := contentOf(st); got != want {
						t.Errorf("%v: pixels show %s (%+v), want %s", s, got, st, want)
					}
				}
			})
		}
	}
}

func TestOrientation(t *testing.T) {
	p := game.StartPosition()
	k := kitFor(Classic, DefaultSize)
	dark := k.theme.colors().dark
	cases := []struct {
		name      string
		opt       Options
		wantColor string // the man in the bottom-left corner
	}{
		{"White's view puts a1 (a white rook on a dark square) at the bottom left", Options{Words: en, Orientation: WhiteBottom}, "white man"},
		{"Black's view puts h8 (a black rook on a dark square) at the bottom left", Options{Words: en, Orientation: BlackBottom}, "black man"},
		{"the default view is from the side to move, White at the start", Options{Words: en}, "white man"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			im := Board(&p, c.opt)
			if got := contentOf(statsAt(im, k.head, k.sq, 0, 7)); got != c.wantColor {
				t.Errorf("bottom-left square shows %s, want %s", got, c.wantColor)
			}
			// The corner pixel of a1/h8 is the dark square colour.
			r, g, b, _ := im.At(1, k.head+k.size-k.sq+k.sq/2).RGBA()
			if uint8(r>>8) != dark.R || uint8(g>>8) != dark.G || uint8(b>>8) != dark.B {
				t.Errorf("bottom-left square's edge is %d,%d,%d, want the dark square colour %v", r>>8, g>>8, b>>8, dark)
			}
		})
	}
	black := p.Apply(uci(t, "h2g3"))
	im := Board(&black, Options{Words: en})
	if got := contentOf(statsAt(im, k.head, k.sq, 0, 7)); got != "black man" {
		t.Errorf("with Black to move the default view shows %s at the bottom left, want a black man", got)
	}
}

func TestIceReadsAsIceOnBothSquareColours(t *testing.T) {
	for _, th := range []Theme{Classic, ColorBlind} {
		t.Run("in the "+th.String()+" theme", func(t *testing.T) {
			p := game.StartPosition()
			im := Board(&p, Options{Words: en, Theme: th, Orientation: WhiteBottom})
			k := kitFor(th, DefaultSize)
			light, dark := statsAt(im, k.head, k.sq, 0, 2), statsAt(im, k.head, k.sq, 1, 2) // a6, b6
			for _, st := range []squareStats{light, dark} {
				if st.icy*20 < st.total*11 {
					t.Errorf("an iced square is only %d/%d icy pixels", st.icy, st.total)
				}
			}
			for col := range 8 {
				for _, row := range []int{0, 1, 6, 7} {
					if st := statsAt(im, k.head, k.sq, col, row); st.icy*20 > st.total {
						t.Errorf("a man's square (column %d, row %d) looks icy: %+v", col, row, st)
					}
				}
			}
		})
	}
}

func TestWarningsMarkExactlyTheMenThatWouldFreeze(t *testing.T) {
	p := mustFEN(t, warningFEN)
	k := kitFor(Classic, DefaultSize)
	l := layout{sq: k.sq}
	keys := l.boardKeys(&p, &Options{Words: en})
	want := p.WouldFreeze()
	if want.Count() != 5 {
		t.Fatalf("test position: %d men would freeze, want 5", want.Count())
	}
	for s := game.Square(0); s < 64; s++ {
		if got := keys[l.display(s)].badge == badgeWarn; got != want.Has(s) {
			t.Errorf("%v: warning badge %v, would freeze %v", s, got, want.Has(s))
		}
	}
	// Not on other moves: the badge is for the move before an Ice Age.
	early := mustFEN(t, strings.Replace(warningFEN, " 20", " 19", 1))
	for _, k := range l.boardKeys(&early, &Options{Words: en}) {
		if k.badge != badgeNone {
			t.Fatal("a warning badge shows two Black moves before the Ice Age")
		}
	}
}

func TestConcurrentRenderingGivesTheSameImages(t *testing.T) {
	moves := testGame(t)
	var positions []game.Position
	p := game.StartPosition()
	step, workers := 1, 16
	if testing.Short() {
		step, workers = 6, 6 // the race detector makes drawing slow
	}
	for i, m := range moves {
		p = p.Apply(m)
		if i%step == 0 {
			positions = append(positions, p)
		}
	}
	opts := []Options{{Words: en}, {Words: en, Theme: ColorBlind}, {Words: en, Size: 256}, {Words: en, Orientation: BlackBottom, Arrows: []Arrow{{From: game.A1, To: game.H8}}}}
	want := make([][]byte, len(positions)*len(opts))
	for i := range want {
		want[i] = Board(&positions[i/len(opts)], opts[i%len(opts)]).Pix
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range want {
				i := (j + g*7) % len(want)
				if got := Board(&positions[i/len(opts)], opts[i%len(opts)]).Pix; !bytes.Equal(got, want[i]) {
					errs <- "a board drawn concurrently differs from the same board drawn alone"
					return
				}
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			if err := GIF(&buf, game.StartPosition(), moves[:20], Options{Words: en}); err != nil {
				errs <- err.Error()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestGIFReplaysTheGame(t *testing.T) {
	moves := testGame(t)
	var buf bytes.Buffer
	if err := GIF(&buf, game.StartPosition(), moves, Options{Words: en}); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 1<<20 {
		t.Errorf("a 60-ply GIF takes %d bytes, want well under 1 MB", buf.Len())
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatalf("the GIF does not decode: %v", err)
	}
	// The start, one frame per ply, and one more for the Ice Age after
	// Black's 20th move.
	if want := 1 + len(moves) + 1; len(g.Image) != want {
		t.Errorf("%d frames, want %d", len(g.Image), want)
	}
	// What each frame should show: the board of its ply, except the two
	// frames of the Ice Age (nil here), drawn by their own code.
	p := game.StartPosition()
	wants := []*image.Paletted{Board(&p, Options{Words: en, Orientation: WhiteBottom})}
	for _, m := range moves {
		next, ev := p.ApplyWithEvent(m)
		if ev != nil {
			wants = append(wants, nil, nil)
		} else {
			wants = append(wants, Board(&next, Options{Words: en, LastMove: m, Orientation: WhiteBottom}))
		}
		p = next
	}
	full := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	canvas := image.NewPaletted(full, g.Image[0].Palette)
	for i, f := range g.Image {
		if i > 0 && i-1 < len(wants) && wants[i-1] != nil && !bytes.Equal(canvas.Pix, wants[i-1].Pix) {
			t.Errorf("the GIF's picture after frame %d differs from the board of its ply", i-1)
		}
		if i > 0 && f.Bounds().Dx()*f.Bounds().Dy() >= full.Dx()*full.Dy() {
			t.Errorf("frame %d covers the whole picture; only the changed region should be stored", i)
		}
		tr := -1 // the transparent index: the colour with alpha 0
		for j, c := range f.Palette {
			if _, _, _, a := c.RGBA(); a == 0 {
				tr = j
				break
			}
		}
		for y := f.Bounds().Min.Y; y < f.Bounds().Max.Y; y++ {
			for x := f.Bounds().Min.X; x < f.Bounds().Max.X; x++ {
				if c := f.ColorIndexAt(x, y); int(c) != tr || i == 0 {
					canvas.SetColorIndex(x, y, c)
				}
			}
		}
	}
	final := play(t, moves)
	want := Board(&final, Options{Words: en, LastMove: moves[len(moves)-1], Orientation: WhiteBottom})
	if !bytes.Equal(canvas.Pix, want.Pix) {
		t.Error("the GIF's last picture differs from the board of the final position")
	}
}

func TestGIFRejectsAnIllegalMove(t *testing.T) {
	var buf bytes.Buffer
	err := GIF(&buf, game.StartPosition(), []game.Move{uci(t, "h2g3"), uci(t, "e7e5")}, Options{Words: en})
	if err == nil || !strings.Contains(err.Error(), "move 2 (e7e5) is not legal") {
		t.Errorf("got error %v, want one naming move 2 (e7e5)", err)
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written for a game that cannot be drawn", buf.Len())
	}
}

func TestIceAgeNeedsAnEvent(t *testing.T) {
	p := game.StartPosition()
	if err := IceAge(&bytes.Buffer{}, nil, &p, Options{Words: en}); err == nil {
		t.Error("IceAge accepted a nil event")
	}
}

func TestThemeNamesRoundTrip(t *testing.T) {
	for th := Theme(0); th < numThemes; th++ {
		got, err := ParseTheme(th.String())
		if err != nil || got != th {
			t.Errorf("ParseTheme(%q) = %v, %v", th.String(), got, err)
		}
	}
	if _, err := ParseTheme("neon"); err == nil {
		t.Error("ParseTheme accepted an unknown theme")
	}
}

func TestAnUnknownThemeDrawsClassic(t *testing.T) {
	p := game.StartPosition()
	if !bytes.Equal(Board(&p, Options{Words: en, Theme: 200}).Pix, Board(&p, Options{Words: en}).Pix) {
		t.Error("an unknown theme does not draw as Classic")
	}
}

func TestIceAgeMarksCheckOnBothBoards(t *testing.T) {
	// 20... Ng4-f2+ gives check, and after the Ice Age it is mate.
	before := mustFEN(t, mateFEN)
	m := uci(t, "g4f2")
	after, ev := before.ApplyWithEvent(m)
	if ev == nil {
		t.Fatal("Black's 20th move brought no Ice Age")
	}
	l := layout{sq: 64}
	h1 := l.display(game.H1)
	t.Run("the board before the Ice Age marks the check Black's move gave", func(t *testing.T) {
		keys, _ := iceAgeBefore(ev, l, &Options{Words: en, LastMove: m})
		if keys[h1].under != underCheck {
			t.Fatalf("h1 is drawn with %d under it, want the check mark", keys[h1].under)
		}
	})
	t.Run("the board after the Ice Age marks the king in check", func(t *testing.T) {
		keys, _ := iceAgeAfter(ev, &after, l, &Options{Words: en, LastMove: m})
		if keys[h1].under != underCheck {
			t.Fatalf("h1 is drawn with %d under it, want the check mark", keys[h1].under)
		}
	})
}
