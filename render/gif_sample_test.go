package render

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
)

func TestSamplePlies(t *testing.T) {
	// 'I' is a ply that brings an Ice Age, '.' any other.
	cases := []struct {
		name, plies string
		max         int
		want        string // 'x' for a ply drawn
		frames      int
	}{
		{"a game that fits is drawn whole", "...I..", 10, "xxxxxx", 8},
		{"no plies, no frames but the start", "", 1, "", 1},
		{"ordinary plies share what is left evenly, the last one kept", "..........", 6, ".x.x.x.x.x", 6},
		{"Ice Ages and the last ply are kept first", "....I....I", 6, "....xx...x", 6},
		{"a cap below what must be drawn keeps the Ice Ages and the end", "...I...I..", 2, "...x...x.x", 6},
		{"a cap of exactly what must be drawn draws nothing else", "...I...", 4, "...x..x", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ice := make([]bool, len(c.plies))
			for i := range c.plies {
				ice[i] = c.plies[i] == 'I'
			}
			var got strings.Builder
			frames := 1 // the start
			for i, s := range samplePlies(ice, c.max) {
				switch {
				case s && ice[i]:
					got.WriteByte('x')
					frames += 2
				case s:
					got.WriteByte('x')
					frames++
				default:
					got.WriteByte('.')
				}
			}
			if got.String() != c.want || frames != c.frames {
				t.Fatalf("drawn %q in %d frames, want %q in %d", got.String(), frames, c.want, c.frames)
			}
		})
	}
}

// longGame returns the first 300-ply game of the rules engine's reference
// games.
func longGame(t testing.TB) []game.Move {
	t.Helper()
	f, err := os.Open("../game/testdata/games.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), " ; ")
		if strings.HasPrefix(fields[0], "#") || len(fields) != 5 {
			continue
		}
		if ucis := strings.Fields(fields[0]); len(ucis) == 300 {
			moves := make([]game.Move, len(ucis))
			for i, u := range ucis {
				moves[i] = uci(t, u)
			}
			return moves
		}
	}
	t.Fatal("games.txt has no game of 300 plies")
	return nil
}

// A long game is drawn in at most the cap of frames, every Ice Age and the
// final position among them, and every frame shows the board of its ply.
func TestLongGIFIsSampled(t *testing.T) {
	moves := longGame(t)
	caps := []int{0, 40}
	if testing.Short() {
		caps = caps[1:]
	}
	for _, max := range caps {
		t.Run(fmt.Sprintf("with MaxFrames %d", max), func(t *testing.T) {
			want := max
			if want == 0 {
				want = DefaultMaxFrames
			}
			var buf bytes.Buffer
			info, err := WriteGIF(&buf, game.StartPosition(), moves, Options{Words: en, MaxFrames: max})
			if err != nil {
				t.Fatal(err)
			}
			if info.Plies != 300 || info.Frames != want || !info.Sampled() || info.Shown >= 300 {
				t.Fatalf("info %+v, want 300 plies in %d frames, sampled", info, want)
			}
			g, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Image) != info.Frames {
				t.Fatalf("%d frames decoded, %d reported", len(g.Image), info.Frames)
			}
			// What each frame should show: the board of its ply, nil for
			// the two frames of an Ice Age.
			iceAges := 0
			p := game.StartPosition()
			ice := make([]bool, len(moves))
			for i, m := range moves {
				ice[i] = p.IceAgeNow()
				p = p.Apply(m)
			}
			show := samplePlies(ice, want)
			p = game.StartPosition()
			wants := []*image.Paletted{Board(&p, Options{Words: en, Orientation: WhiteBottom})}
			for i, m := range moves {
				next, ev := p.ApplyWithEvent(m)
				switch {
				case ev != nil:
					iceAges++
					if !show[i] {
						t.Fatalf("the Ice Age of ply %d is not drawn", i+1)
					}
					wants = append(wants, nil, nil)
				case show[i]:
					wants = append(wants, Board(&next, Options{Words: en, LastMove: m, Orientation: WhiteBottom}))
				}
				p = next
			}
			if !show[len(moves)-1] {
				t.Fatal("the final position is not drawn")
			}
			if n := countDelays(g, delayIceAge); n != iceAges {
				t.Errorf("%d Ice-Age frames, the game has %d Ice Ages", n, iceAges)
			}
			full := image.Rect(0, 0, g.Config.Width, g.Config.Height)
			canvas := image.NewPaletted(full, g.Image[0].Palette)
			for i, f := range g.Image {
				paint(canvas, f, i == 0)
				if wants[i] != nil && !bytes.Equal(canvas.Pix, wants[i].Pix) {
					t.Fatalf("the GIF's picture after frame %d differs from the board of its ply", i)
				}
			}
		})
	}
}

// The cap bounds the memory a long game takes: drawn whole, a 300-ply
// game allocated about 80 MB (the kit's tiles aside); at the default cap
// well under half of that.
func TestLongGIFMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measures memory over three long GIFs; skipped under -short, as under the race detector, which also skews allocation")
	}
	moves := longGame(t)
	var buf bytes.Buffer
	// The kit's tiles and headers are made once, and kept: first draw
	// every one that the measured GIFs need.
	GIF(&buf, game.StartPosition(), moves, Options{Words: en, MaxFrames: len(moves) + 100})
	alloc := func(max int) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		buf.Reset()
		if err := GIF(&buf, game.StartPosition(), moves, Options{Words: en, MaxFrames: max}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	whole, capped := alloc(len(moves)+100), alloc(0)
	t.Logf("drawn whole: %d MB; at the default cap: %d MB", whole>>20, capped>>20)
	if capped > whole/2 {
		t.Errorf("at the default cap a 300-ply GIF allocates %d MB, drawn whole %d MB", capped>>20, whole>>20)
	}
}

// countDelays counts the frames of g shown for delay hundredths.
func countDelays(g *gif.GIF, delay int) int {
	n := 0
	for _, d := range g.Delay {
		if d == delay {
			n++
		}
	}
	return n
}

// paint draws frame f over canvas as a GIF viewer does: the first frame
// whole, later ones but for their transparent pixels.
func paint(canvas, f *image.Paletted, first bool) {
	tr := -1
	for j, c := range f.Palette {
		if _, _, _, a := c.RGBA(); a == 0 {
			tr = j
			break
		}
	}
	for y := f.Bounds().Min.Y; y < f.Bounds().Max.Y; y++ {
		for x := f.Bounds().Min.X; x < f.Bounds().Max.X; x++ {
			if c := f.ColorIndexAt(x, y); int(c) != tr || first {
				canvas.SetColorIndex(x, y, c)
			}
		}
	}
}
