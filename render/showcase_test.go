package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/iceagechess/iceage/game"
)

var showcase = flag.String("showcase", "", "write the README's example images into this directory (e.g. ../docs/images)")

// TestShowcase writes the example images of the README, from the test
// game: go test ./render -run Showcase -showcase ../docs/images
func TestShowcase(t *testing.T) {
	if *showcase == "" {
		t.Skip("no -showcase directory given")
	}
	moves := testGame(t)
	write := func(name string, draw func(*bytes.Buffer) error) {
		var buf bytes.Buffer
		if err := draw(&buf); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*showcase, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A middle game with the last move and a hint arrow.
	p30 := play(t, moves[:30])
	write("board.png", func(b *bytes.Buffer) error {
		return PNG(b, &p30, Options{Words: en, LastMove: moves[29], Arrows: []Arrow{{From: game.SquareAt(7, 2), To: game.C8, Mark: Hint}}})
	})
	// White's 20th move: the next Black move brings the Ice Age.
	p38 := play(t, moves[:38])
	write("countdown.png", func(b *bytes.Buffer) error { return PNG(b, &p38, Options{Words: en, LastMove: moves[37]}) })
	// Black's 20th move and its Ice Age.
	p39 := play(t, moves[:39])
	after, ev := p39.ApplyWithEvent(moves[39])
	write("iceage.png", func(b *bytes.Buffer) error { return IceAge(b, ev, &after, Options{Words: en, LastMove: moves[39]}) })
	write("game.gif", func(b *bytes.Buffer) error {
		return GIF(b, game.StartPosition(), moves[:44], Options{Words: en, Size: 384})
	})
}
