package render

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
)

func TestFormatClock(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{5*time.Minute + 3*time.Second, "5:03"}, {time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"},
		{180 * time.Minute, "3:00:00"}, {10 * time.Second, "0:10"}, {7400 * time.Millisecond, "0:07.4"},
		{0, "0:00.0"}, {-time.Second, "0:00.0"}, {59*time.Second + 999*time.Millisecond, "0:59"},
	} {
		if got := FormatClock(tt.d); got != tt.want {
			t.Errorf("%v is %q, want %q", tt.d, got, tt.want)
		}
	}
}

// A board with clocks has a header strip of its height over the board,
// even without words, and the strip differs with the running side.
func TestBoardWithClocks(t *testing.T) {
	p, err := game.ParseFEN(game.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	plain := Board(&p, Options{NoHeader: true})
	clocks := &Clocks{White: 4*time.Minute + 32*time.Second, Black: 3*time.Minute + 15*time.Second, Running: game.Black}
	im := Board(&p, Options{NoHeader: true, Clocks: clocks})
	if plain.Rect.Dy() >= im.Rect.Dy() || im.Rect.Dx() != plain.Rect.Dx() {
		t.Fatalf("a board with clocks is %v, without %v", im.Rect, plain.Rect)
	}
	other := Board(&p, Options{NoHeader: true, Clocks: &Clocks{White: clocks.White, Black: clocks.Black, Running: game.White}})
	if bytes.Equal(im.Pix, other.Pix) {
		t.Fatal("the running clock is not shown")
	}
	if dir := os.Getenv("RENDER_OUT"); dir != "" {
		for name, size := range map[string]int{"clocks.png": 512, "clocks-phone.png": 400} {
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(f, Board(&p, Options{Size: size, NoHeader: true, Clocks: clocks})); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
}
