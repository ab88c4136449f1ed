package tui

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
)

// Glyph returns the Unicode chess symbol of a man: ♔♕♖♗♘♙ for White,
// ♚♛♜♝♞♟ for Black, and "" for no man.
func Glyph(x game.Piece) string {
	if x == game.NoPiece {
		return ""
	}
	g := []rune("♙♘♗♖♕♔")[x.Kind()-game.Pawn]
	if x.Color() == game.Black {
		g += '♟' - '♙'
	}
	return string(g)
}

// TextBoard draws p as lines of text, White at the bottom unless flipped:
// Unicode men, '*' for ice and '·' for an empty square, with the files
// and ranks around it.
func TextBoard(p *game.Position, flipped bool) string {
	files := "    a b c d e f g h\n"
	if flipped {
		files = "    h g f e d c b a\n"
	}
	var b strings.Builder
	b.WriteString(files)
	for row := 0; row < 8; row++ {
		rank := 7 - row
		if flipped {
			rank = row
		}
		fmt.Fprintf(&b, "  %d", rank+1)
		for col := 0; col < 8; col++ {
			file := col
			if flipped {
				file = 7 - col
			}
			sq := game.SquareAt(file, rank)
			cell := "·"
			switch {
			case p.PieceAt(sq) != game.NoPiece:
				cell = Glyph(p.PieceAt(sq))
			case p.IsIce(sq):
				cell = "*"
			}
			b.WriteString(" " + cell)
		}
		fmt.Fprintf(&b, "  %d\n", rank+1)
	}
	b.WriteString(files)
	return b.String()
}

// FreezeText names the men that stand alone on the move that brings an Ice
// Age (see WouldFreeze), or "" when there are none or no Ice Age is due.
func (s *Session) FreezeText() string {
	b := s.WouldFreeze()
	if b == 0 {
		return ""
	}
	p := s.Position()
	return i18n.WouldFreeze(s.opt.Lang, &p)
}

// RunPlain plays the session as lines of text: it reads one move or
// command per line from in and writes to out the board after every move
// (Unicode men, '*' for ice), each move's SAN, explanations of refused
// moves, the Ice Ages and the result. It returns at the end of in or when
// the players type quit, with the final FEN written, and returns only the
// errors of reading and writing.
func RunPlain(s *Session, in io.Reader, out io.Writer) error {
	w := &errWriter{w: out}
	fmt.Fprint(w, s.t("terminal.welcome", map[string]any{"Game": s.t("challenge.title", nil), "White": s.Name(game.White), "Black": s.Name(game.Black)})+"\n\n")
	for _, n := range s.Pending() {
		fmt.Fprintln(w, n.Text)
	}
	shown := plainState(w, s)
	sc := bufio.NewScanner(in)
	for sc.Scan() && w.err == nil {
		r := s.Do(sc.Text())
		for _, n := range r.Notes {
			if n.Kind != Ended { // said under the board, as its status
				fmt.Fprintln(w, n.Text)
			}
		}
		if r.Quit {
			break
		}
		if key := boardKey(s); key != shown {
			fmt.Fprintln(w)
			shown = plainState(w, s)
		}
		for _, n := range r.Notes {
			if n.Kind == Asked {
				fmt.Fprintln(w, s.Prompt())
				break
			}
		}
	}
	fmt.Fprintln(w, "FEN: "+s.m.FEN())
	if err := sc.Err(); err != nil {
		return err
	}
	return w.err
}

// plainState writes the board and the lines under it, and returns what
// it showed.
func plainState(w io.Writer, s *Session) string {
	p := s.Position()
	fmt.Fprint(w, TextBoard(&p, s.Flipped()))
	line := s.Status()
	if c := s.Countdown(); c != "" {
		line += " · " + c
	}
	fmt.Fprintln(w, line)
	if f := s.FreezeText(); f != "" {
		fmt.Fprintln(w, f)
	}
	return boardKey(s)
}

// boardKey changes whenever the board or the game's state shown under it
// does.
func boardKey(s *Session) string {
	return fmt.Sprint(s.m.FEN(), s.Flipped(), s.Outcome())
}

// errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}
