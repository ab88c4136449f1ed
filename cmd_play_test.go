package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestPlayCommand(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"moves in mixed notations from the ice start",
			[]string{"hxg3", "g8f6", "g3-h4"}, 0,
			"1. hxg3\n1... Nxf6\n2. gxh4\nFEN: rnbqkb1r/pppppppp/*****n**/********/*******P/******1*/PPPPPPP1/RNBQKBNR b KQkq - 0 2\n" +
				"Status: Black to move; Ice Age in 19 Black moves\n", ""},
		{"an Ice Age from a FEN",
			[]string{"-fen", "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20", "Bd6"}, 0,
			"20... Bd6  {Ice Age: 57 squares iced; frozen: Rh4}\nFEN: ****k***/***p****/***b****/********/********/********/P****P**/K***R*** w - - 1 21\n" +
				"Status: White to move; Ice Age in 20 Black moves\n", ""},
		{"a checkmate",
			[]string{"-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "f3", "e5", "g4", "qh4"}, 0,
			"1. f3\n1... e5\n2. g4\n2... Qh4#\nFEN: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\nStatus: Black wins by checkmate, 0-1.\n", ""},
		{"an illegal move with suggestions",
			[]string{"-fen", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5"}, 1,
			"FEN: 4k3/8/8/8/8/*7/8/R3K3 w - - 0 1\nStatus: White to move; Ice Age in 20 Black moves\n",
			"1. Ra5: the rook on a1 cannot reach a5: ice on a3 blocks it\nLegal moves like it: Rxa3, Ra2, Rb1, Rc1, Rd1\n"},
		{"an Ice Age that freezes a lone king ends the game",
			[]string{"-fen", "k7/pp6/8/8/8/8/8/7K b - - 0 20", "b6"}, 0,
			"20... b6  {Ice Age: 61 squares iced; frozen: Kh1}\nFEN: k*******/p*******/*p******/********/********/********/********/******** w - - 0 21\n" +
				"Status: Black wins: White's king froze in the Ice Age, 0-1.\n", ""},
		{"a move after the end is refused",
			[]string{"-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "f3", "e5", "g4", "Qh4", "Nf3"}, 1,
			"1. f3\n1... e5\n2. g4\n2... Qh4#\nFEN: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\nStatus: Black wins by checkmate, 0-1.\n",
			"3. Nf3: This game is over: Black wins by checkmate.\n"},
		{"a move by the side not to move is explained with Black's moves",
			[]string{"hxg3", "Nf3"}, 1,
			"1. hxg3\nFEN: rnbqkbnr/pppppppp/********/********/********/******P*/PPPPPPP1/RNBQKBNR b KQkq - 0 1\n" +
				"Status: Black to move; Ice Age in 20 Black moves\n",
			"1... Nf3: none of your knights can go to f3\nLegal moves like it: Nxc6, Nxf6, Nxh6, Nxa6\n"},
		{"text that is no move is explained",
			[]string{"hello"}, 1,
			"FEN: rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nStatus: White to move; Ice Age in 20 Black moves\n",
			"1. hello: “hello” is not a move: a move ends with the target square, e.g. e4 or Nf3 (files a–h, ranks 1–8)\n"},
		{"past move 10,000 the FEN printed is one that reads back",
			[]string{"-fen", "4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 10000", "f3", "f6"}, 0,
			"10000. f3\n10000... f6  {Ice Age: 56 squares iced}\nFEN: ****k***/***pp***/*****p**/********/********/*****P**/***PP***/****K*** w - - 0 10001\n" +
				"Status: White to move; Ice Age in 20 Black moves\n", ""},
		{"in Russian, the status and the refusal",
			[]string{"-lang", "ru", "-fen", "4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5"}, 1,
			"FEN: 4k3/8/8/8/8/*7/8/R3K3 w - - 0 1\nСостояние: Ход белых; Ледниковый период через 20 ходов чёрных\n",
			"1. Ra5: ладья на a1 не может пройти на a5: путь преграждает лёд на a3\nПохожие возможные ходы: Rxa3, Ra2, Rb1, Rc1, Rd1\n"},
		{"in French, the side to move agrees",
			[]string{"-lang", "fr", "-fen", "4k3/8/8/8/8/*7/8/R3K3 b - - 0 1"}, 0,
			"FEN: 4k3/8/8/8/8/*7/8/R3K3 b - - 0 1\nÉtat\u00a0: Au tour des Noirs\u00a0; Âge de Glace dans 20 coups des Noirs\n", ""},
		{"a FEN that is wrong", []string{"-fen", "8/8 w"}, 1, "",
			"invalid FEN (position): want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found 2\n"},
		{"a start position that is already the end of a game", []string{"-fen", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1"}, 1, "",
			"the start position is the end of a game already: 1-0, checkmate\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := dispatch(append([]string{"play"}, tt.args...), &out, &errOut)
			if code != tt.code || out.String() != tt.stdout || errOut.String() != tt.stderr {
				t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, stdout:\n%s\nstderr:\n%s",
					code, out.String(), errOut.String(), tt.code, tt.stdout, tt.stderr)
			}
			// What play prints, fen reads.
			if fen, ok := strings.CutPrefix(lineWith(out.String(), "FEN: "), "FEN: "); ok {
				var fout, ferr bytes.Buffer
				if code := dispatch([]string{"fen", "-fen", fen}, &fout, &ferr); code != 0 {
					t.Fatalf("fen refuses the FEN that play printed: %s", ferr.String())
				}
			}
		})
	}
}

// lineWith returns the first line of text that starts with prefix, or "".
func lineWith(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
