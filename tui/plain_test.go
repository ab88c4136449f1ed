package tui

import (
	"errors"
	"strings"
	"testing"
)

func TestRunPlainIceAge(t *testing.T) {
	s := newSession(t, Options{FEN: iceAgeFEN, White: "Alice", Black: "Bob"})
	var out strings.Builder
	in := strings.NewReader("Ra5\nBd6\nKxb1\n\ntakeback\nno\nflip\nresign\nKa2\n")
	if err := RunPlain(s, in, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	wantIn(t, got,
		"Bob (Black) to move · Ice Age after this move!\nWould freeze now: the black rook on h4.\n",
		"20… Ra5: the rook on h4 cannot go to a5: a rook moves only along ranks and files.\nLegal moves like it: Ra4, Rb4, Rc4, Rd4, Re4\n",
		"20… Bd6\nIce Age! 1 man froze: the black rook on h4.\n",
		"  4 * * * * * * * *  4\n",
		"21. Kxb1\n",
		"White wins: Black resigned, 1-0.\n",
		"FEN: ****k***/***p****/***b****/********/********/********/P****P**/1K**R*** b - - 0 21\n")
	golden(t, "plain-iceage.txt", got)
}

func TestRunPlainFromTheStart(t *testing.T) {
	s := newSession(t, Options{})
	var out strings.Builder
	in := strings.NewReader("e4\nhxg3\nNxf6\ndraw\nno\ngxh4\ndraw\ndraw\nhelp\n")
	if err := RunPlain(s, in, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	wantIn(t, got,
		"1. e4: the pawn on e2 cannot reach e4: ice on e3 blocks it.\nLegal moves like it: exd3, fxe3, dxe3, exf3, dxc3\n",
		"1. hxg3\n", "1… Nxf6\n", "2. gxh4\n",
		"White offers a draw. Black, do you accept?\nBlack: accept the draw? Type draw to accept, no to decline.\nBlack declined the draw. Play on!\n",
		"Black offers a draw. White, do you accept?\nWhite: accept the draw? Type draw to accept, no to decline.\n",
		"    a b c d e f g h\nDraw by agreement, 1/2-1/2.\nType a move in any notation")
	if n := strings.Count(got, "    a b c d e f g h\n"); n != 2*5 {
		t.Errorf("the board is drawn %d times, want 5 (the start, three moves, the end)", n/2)
	}
	golden(t, "plain-start.txt", got)
}

func TestRunPlainStopsAtQuit(t *testing.T) {
	s := newSession(t, Options{})
	var out strings.Builder
	if err := RunPlain(s, strings.NewReader("hxg3\nquit\nNxf6\n"), &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Nxf6") || !strings.HasSuffix(out.String(), "FEN: rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1\n") {
		t.Errorf("output after quit:\n%s", out.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestRunPlainReportsWriteErrors(t *testing.T) {
	s := newSession(t, Options{})
	if err := RunPlain(s, strings.NewReader("hxg3\n"), failingWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("err %v, want disk full", err)
	}
}
