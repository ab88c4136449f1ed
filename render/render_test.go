package render

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

func mustFEN(t testing.TB, fen string) game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("bad test FEN %q: %v", fen, err)
	}
	return p
}

// uci reads a test move such as "e2e4" or "b7c8n".
func uci(t testing.TB, s string) game.Move {
	t.Helper()
	from, err1 := game.ParseSquare(s[0:2])
	to, err2 := game.ParseSquare(s[2:4])
	if err1 != nil || err2 != nil || len(s) > 5 {
		t.Fatalf("bad test move %q", s)
	}
	promo := game.NoKind
	if len(s) == 5 {
		promo = map[byte]game.Kind{'n': game.Knight, 'b': game.Bishop, 'r': game.Rook, 'q': game.Queen}[s[4]]
	}
	return game.NewMove(from, to, promo)
}

// testGame returns the 60 plies of testdata/game60.txt.
func testGame(t testing.TB) []game.Move {
	t.Helper()
	f, err := os.Open("testdata/game60.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var moves []game.Move
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "#") {
			for _, w := range strings.Fields(line) {
				moves = append(moves, uci(t, w))
			}
		}
	}
	return moves
}

// play plays moves from the start position.
func play(t testing.TB, moves []game.Move) game.Position {
	t.Helper()
	p := game.StartPosition()
	for i, m := range moves {
		if !p.IsLegal(m) {
			t.Fatalf("test game: move %d %s is not legal in %s", i+1, m, p.FEN())
		}
		p = p.Apply(m)
	}
	return p
}

const (
	checkFEN     = "4k3/3*4/8/2*5/7q/8/7P/4K3 w - - 0 30"
	promotionFEN = "2r1k2Q/p4p2/4p3/8/3*4/8/PP3PPP/6K1 b - - 0 25"
	warningFEN   = "4k3/8/1p6/8/3*4/5N2/PP6/4K2R w K - 0 20"
	mateFEN      = "6k1/5ppp/8/8/6n1/8/6PP/6RK b - - 0 20" // Black's 20th move mates after the Ice Age
	iceAgeFEN    = "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20"
)

func iceAgeEvent(t testing.TB) (*game.IceAge, game.Position, game.Move) {
	t.Helper()
	p := mustFEN(t, iceAgeFEN)
	m := uci(t, "h7h8")
	after, ev := p.ApplyWithEvent(m)
	if ev == nil {
		t.Fatal("Black's 20th move brought no Ice Age")
	}
	return ev, after, m
}

// goldenCases are the images kept in testdata/, by file name.
func goldenCases(t testing.TB) map[string]func() image.Image {
	start := game.StartPosition()
	afterH := start.Apply(uci(t, "h2g3"))
	afterNf6 := afterH.Apply(uci(t, "g8f6"))
	check := mustFEN(t, checkFEN)
	promo := mustFEN(t, promotionFEN)
	warn := mustFEN(t, warningFEN)
	ev, after, m := iceAgeEvent(t)
	mateBefore := mustFEN(t, mateFEN)
	mateMove := uci(t, "g4f2")
	mate, mateEv := mateBefore.ApplyWithEvent(mateMove)
	cases := map[string]func() image.Image{
		"checkmate-after-iceage": func() image.Image {
			return IceAgeImage(mateEv, &mate, Options{Words: en, LastMove: mateMove})
		},
		"checkmate": func() image.Image { return Board(&mate, Options{Words: en, LastMove: mateMove}) },
		"start":     func() image.Image { return Board(&start, Options{Words: en}) },
		"start-256": func() image.Image { return Board(&start, Options{Words: en, Size: 256}) },
		"black-view": func() image.Image {
			return Board(&afterH, Options{Words: en, LastMove: uci(t, "h2g3")})
		},
		"last-move": func() image.Image {
			return Board(&afterNf6, Options{Words: en, LastMove: uci(t, "g8f6")})
		},
		"check": func() image.Image {
			return Board(&check, Options{Words: en, LastMove: uci(t, "d8h4")})
		},
		"promotion": func() image.Image {
			return Board(&promo, Options{Words: en, LastMove: uci(t, "g7h8q"), Orientation: WhiteBottom})
		},
		"warnings": func() image.Image { return Board(&warn, Options{Words: en}) },
		"iceage":   func() image.Image { return IceAgeImage(ev, &after, Options{Words: en, LastMove: m}) },
		"arrows": func() image.Image {
			return Board(&check, Options{Words: en,
				Arrows:     []Arrow{{From: game.E1, To: uci(t, "d2d2").From(), Mark: Hint}, {From: uci(t, "c5c5").From(), To: uci(t, "e6e6").From(), Mark: Info}, {From: uci(t, "h4h4").From(), To: game.E1, Mark: Danger}},
				Highlights: []Highlight{{Square: uci(t, "d7d7").From(), Mark: Info}},
			})
		},
		"colorblind": func() image.Image {
			return Board(&check, Options{Words: en,
				Theme: ColorBlind, LastMove: uci(t, "d8h4"),
				Arrows:     []Arrow{{From: game.E1, To: uci(t, "d2d2").From(), Mark: Hint}, {From: uci(t, "h4h4").From(), To: game.E1, Mark: Danger}},
				Highlights: []Highlight{{Square: uci(t, "c5c5").From(), Mark: Danger}},
			})
		},
		"colorblind-iceage": func() image.Image {
			return IceAgeImage(ev, &after, Options{Words: en, LastMove: m, Theme: ColorBlind})
		},
	}
	maps.Copy(cases, phoneCases(t))
	return cases
}

func TestGoldenImages(t *testing.T) {
	for name, draw := range goldenCases(t) {
		t.Run("the "+name+" image matches its golden file", func(t *testing.T) {
			got := draw()
			path := filepath.Join("testdata", name+".png")
			if *update {
				writePNG(t, path, got)
				return
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render -run Golden -update to create it)", err)
			}
			want, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Fatalf("golden %s: %v", path, err)
			}
			if msg := imageDiff(want, got); msg != "" {
				actual := filepath.Join("testdata", name+".actual.png")
				writePNG(t, actual, got)
				t.Errorf("%s differs from %s: %s (actual image written to %s; run with -update if the change is wanted)", name, path, msg, actual)
			}
		})
	}
}

func writePNG(t *testing.T, path string, im image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// imageDiff compares decoded pixels with a small tolerance, so that a
// different PNG encoding or a tiny change in anti-aliasing does not fail a
// test: at most 0.2 % of the pixels may differ by more than 24 in a
// channel. It returns "" when the images match.
func imageDiff(want, got image.Image) string {
	if want.Bounds() != got.Bounds() {
		return fmt.Sprintf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	b := want.Bounds()
	bad := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !near(want.At(x, y), got.At(x, y), 24) {
				bad++
			}
		}
	}
	if limit := b.Dx() * b.Dy() / 500; bad > limit {
		return fmt.Sprintf("%d pixels differ (at most %d may)", bad, limit)
	}
	return ""
}

func near(a, b color.Color, tol int) bool {
	c, d := color.NRGBAModel.Convert(a).(color.NRGBA), color.NRGBAModel.Convert(b).(color.NRGBA)
	diff := func(x, y uint8) bool { return int(x)-int(y) > tol || int(y)-int(x) > tol }
	return !diff(c.R, d.R) && !diff(c.G, d.G) && !diff(c.B, d.B) && !diff(c.A, d.A)
}

// en are the English words of the headers the golden images show.
var en Words = i18n.BoardWords{Lang: i18n.English}
