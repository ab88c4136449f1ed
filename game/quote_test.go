package game

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuoteInput(t *testing.T) {
	long := strings.Repeat("Nf3", 20)
	cases := []struct{ name, in, want string }{
		{"a short text is quoted whole", "Nf3", `"Nf3"`},
		{"forty characters are quoted whole", long[:40], `"` + long[:40] + `"`},
		{"a longer text is cut after forty characters", long, `"` + long[:40] + `…"`},
		{"characters, not bytes, are counted", strings.Repeat("ü", 41), `"` + strings.Repeat("ü", 40) + `…"`},
		{"an invalid byte shows as an escape", "e\xff4", `"e\xff4"`},
		{"a text clipped before is not clipped again", long[:40] + "…", `"` + long[:40] + `…"`},
		{"the empty text is an empty quote", "", `""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := QuoteInput(c.in); got != c.want {
				t.Fatalf("QuoteInput(%.50q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}

// A player's text in an error is quoted by its start only: a pasted page
// comes back as a line, whatever path the parser took to refuse it.
func TestErrorsQuoteAShortPrefix(t *testing.T) {
	const big = 100_000
	start := StartPosition()
	ambiguous, err := ParseFEN("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	over := NewMatch(start)
	if err := over.Resign(White); err != nil {
		t.Fatal(err)
	}
	emptyBoard := "4k3/8/8/8/8/8/8/4K3"
	cases := []struct {
		name string
		err  func() error
	}{
		{"a move that is too long", func() error { _, err := ParseMove(&start, strings.Repeat("z", big)); return err }},
		{"a move padded with separators that is not legal", func() error {
			_, err := ParseMove(&start, "e"+strings.Repeat("-", big)+"4")
			return err
		}},
		{"an ambiguous move padded with separators", func() error {
			_, err := ParseMove(&ambiguous, "N"+strings.Repeat(" ", big)+"d2")
			return err
		}},
		{"a move after the game ended", func() error { _, err := over.Play(strings.Repeat("e4", big)); return err }},
		{"a UCI move", func() error { _, err := ParseUCI(strings.Repeat("e2e4", big)); return err }},
		{"a square", func() error { _, err := ParseSquare(strings.Repeat("e", big)); return err }},
		{"a FEN's side to move", func() error { _, err := ParseFEN(emptyBoard + " " + strings.Repeat("w", big) + " - -"); return err }},
		{"a FEN's castling", func() error {
			_, err := ParseFEN("4k3/8/8/8/8/8/8/R3K2R w " + strings.Repeat("K", big) + " -")
			return err
		}},
		{"a FEN's en passant", func() error { _, err := ParseFEN(emptyBoard + " w - " + strings.Repeat("e", big)); return err }},
		{"a FEN's clock", func() error { _, err := ParseFEN(emptyBoard + " w - - " + strings.Repeat("9", big)); return err }},
		{"a FEN's move number", func() error { _, err := ParseFEN(emptyBoard + " w - - 0 " + strings.Repeat("9", big)); return err }},
		{"a PGN move", func() error { _, _, err := ParsePGN("1. " + strings.Repeat("e", big)); return err }},
		{"a PGN variant", func() error { _, _, err := ParsePGN(`[Variant "` + strings.Repeat("x", big) + `"]`); return err }},
		{"a PGN tag name given twice", func() error {
			name := strings.Repeat("T", big)
			_, _, err := ParsePGN("[" + name + ` "a"]` + "\n[" + name + ` "b"]`)
			return err
		}},
		{"a PGN tag without its value", func() error { _, _, err := ParsePGN("[" + strings.Repeat("T", big) + "]"); return err }},
		{"a PGN result", func() error {
			_, _, err := ParsePGN(`[Result "` + strings.Repeat("1", big) + `"]` + "\n\n*")
			return err
		}},
		{"a PGN FEN tag", func() error {
			_, _, err := ParsePGN(`[FEN "` + emptyBoard + " " + strings.Repeat("w", big) + ` - -"]`)
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if err == nil {
				t.Fatal("no error")
			}
			if n := len(err.Error()); n > 400 {
				t.Fatalf("the error is %d bytes long: %.200s…", n, err.Error())
			}
			var se *SyntaxError
			var me *MoveError
			text := ""
			switch {
			case errors.As(err, &se):
				text = se.Text
			case errors.As(err, &me):
				text = me.Text
			}
			if n := utf8.RuneCountInString(text); n > maxQuoted+1 {
				t.Fatalf("the error's Text holds %d characters", n)
			}
		})
	}
}

// A character that is not allowed is named as the character it is, not
// as the first byte of its UTF-8 form read as Latin-1.
func TestErrorsNameCharacters(t *testing.T) {
	cases := []struct{ name, fen, want, not string }{
		{"a letter with an accent", "4k3/8/8/8/8/8/8/4Kü2 w - - 0 1", "'ü' on rank 1", "Ã"},
		{"a figurine", "4k3/8/8/8/8/8/8/4K♘2 w - - 0 1", "'♘' on rank 1", "â"},
		{"a byte that is not UTF-8", "4k3/8/8/8/8/8/8/4K\xff2 w - - 0 1", "the byte 0xFF (not UTF-8 text) on rank 1", "ÿ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(c.fen)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
				t.Fatalf("got %v, want it to say %q", err, c.want)
			}
		})
	}
	t.Run("a move with an invalid byte quotes it as an escape", func(t *testing.T) {
		p := StartPosition()
		_, err := ParseMove(&p, "e\xff4")
		if err == nil || !strings.Contains(err.Error(), `"e\xff4"`) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a PGN delimiter out of place is named", func(t *testing.T) {
		_, _, err := ParsePGN("1. hxg3 \"")
		if err == nil || !strings.Contains(err.Error(), `unexpected character '"'`) {
			t.Fatalf("got %v", err)
		}
	})
}
