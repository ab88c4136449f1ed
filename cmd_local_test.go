package main

import (
	"bytes"
	"strings"
	"testing"
)

// runLocalWith runs the local subcommand with in as its standard input.
func runLocalWith(t *testing.T, in string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	old := localInput
	localInput = strings.NewReader(in)
	t.Cleanup(func() { localInput = old })
	var out, errOut bytes.Buffer
	code = dispatch(append([]string{"local"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLocalLineMode(t *testing.T) {
	code, out, errOut := runLocalWith(t, "Ra5\nBd6\nKxb1\nresign\n",
		"-fen", "4k3/3pb3/8/8/7r/8/P4P2/K3R3 b - - 0 20", "-white", "Alice", "-black", "Bob")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Ice Age Chess: Alice (White) against Bob (Black).",
		"  4 · · · · · · · ♜  4\n",
		"Bob (Black) to move · Ice Age after this move!\n",
		"20… Ra5: the rook on h4 cannot go to a5: a rook moves only along ranks and files.\nLegal moves like it: Ra4, Rb4, Rc4, Rd4, Re4\n",
		"20… Bd6\nIce Age! 1 man froze: the black rook on h4.\n",
		"  4 * * * * * * * *  4\n",
		"Alice (White) to move · Ice Age in 20 Black moves\n",
		"21. Kxb1\n",
		"White wins: Black resigned, 1-0.\n",
		"FEN: ****k***/***p****/***b****/********/********/********/P****P**/1K**R*** b - - 0 21\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

func TestLocalFromTheIceStart(t *testing.T) {
	code, out, _ := runLocalWith(t, "hxg3\nnf6\n")
	if code != 0 || !strings.Contains(out, "1. hxg3\n") || !strings.Contains(out, "1… Nxf6\n") ||
		!strings.HasSuffix(out, "FEN: rnbqkb1r/pppppppp/*****n**/********/********/******P*/PPPPPPP1/RNBQKBNR w KQkq - 0 2\n") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}

func TestLocalRefusesBadInput(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a FEN that is wrong", []string{"-fen", "8/8 w"}, 2,
			"local: -fen: invalid FEN (position): want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found 2\n"},
		{"a decided position", []string{"-fen", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"}, 2,
			"local: -fen: the position is already decided (checkmate): start from one where the game goes on\n"},
		{"moves as arguments", []string{"hxg3"}, 2,
			"local: unexpected argument \"hxg3\": moves are typed once the game has started (give a position with -fen \"...\", quoted)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runLocalWith(t, "", tt.args...)
			if code != tt.code || errOut != tt.stderr || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr %q", code, out, errOut, tt.code, tt.stderr)
			}
		})
	}
}

func TestLocalHelp(t *testing.T) {
	_, _, errOut := runLocalWith(t, "", "-h")
	for _, want := range []string{"usage: iceage local [-fen FEN] [-white NAME] [-black NAME] [-engine LEVEL [-engine-color white|black]] [-lang en|fr|ru|nb|es|nl] [-plain]", "-plain", "-white", "png FILE"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("-h lacks %q:\n%s", want, errOut)
		}
	}
	var out bytes.Buffer
	dispatch([]string{"help"}, &out, &out)
	if !strings.Contains(out.String(), "  local    play Ice Age Chess in the terminal against a friend at the same keyboard\n") {
		t.Errorf("the usage does not list local:\n%s", out.String())
	}
}

func TestLocalAgainstTheEngineInLineMode(t *testing.T) {
	old := localEngineNodes
	localEngineNodes = 5000
	t.Cleanup(func() { localEngineNodes = old })
	code, out, errOut := runLocalWith(t, "hxg3\nNxf3\ntakeback\nmoves\n", "-engine", "1", "-white", "Alice")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"Alice (White) against Ice Age Engine (level 1) (Black).",
		"1. hxg3\n1… ", // the engine answers at once
		"2. Nxf3\n2… ",
		"moves were taken back.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The engine with White opens before the first line is read.
	code, out, _ = runLocalWith(t, "", "-engine", "2", "-engine-color", "white")
	if code != 0 || !strings.Contains(out, "1. ") || strings.Contains(out, "FEN: "+"rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w") {
		t.Errorf("the engine with White did not open: exit %d\n%s", code, out)
	}
}
