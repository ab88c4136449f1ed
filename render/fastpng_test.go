package render

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/iceagechess/iceage/game"
)

// TestFastPNGDrawsTheSamePixels: FastPNG changes the compression only.
func TestFastPNGDrawsTheSamePixels(t *testing.T) {
	p := game.StartPosition()
	var slow, fast bytes.Buffer
	if err := PNG(&slow, &p, Options{Words: en}); err != nil {
		t.Fatal(err)
	}
	if err := PNG(&fast, &p, Options{Words: en, FastPNG: true}); err != nil {
		t.Fatal(err)
	}
	a, err := png.Decode(&slow)
	if err != nil {
		t.Fatal(err)
	}
	b, err := png.Decode(&fast)
	if err != nil {
		t.Fatal(err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("bounds %v and %v", a.Bounds(), b.Bounds())
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				t.Fatalf("pixel %d,%d differs", x, y)
			}
		}
	}
}
