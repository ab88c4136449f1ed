package game

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENRefusesWhatNoGameReaches(t *testing.T) {
	cases := []struct {
		name, fen string
		says      string // a part of the reason; "" when the FEN is accepted
	}{
		{"nine pawns are refused", "4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", "White has 9 pawns; a side has at most 8"},
		{"sixteen pawns of one side are refused", "4k3/8/8/PPPPPPPP/PPPPPPPP/8/8/4K3 w - - 0 1", "White has 16 pawns"},
		{"thirty queens are refused", "QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQ2/8/8/8/4K2k w - - 0 1", "White has 31 men; a side has at most 16"},
		{"seventeen men are refused", "4k3/8/8/8/8/N7/PPPPPPPP/RNBQKBNR w - - 0 1", "White has 17 men"},
		{"seventeen black men are refused", "rnbqkbnr/pppppppp/n7/8/8/8/8/4K3 b - - 0 1", "Black has 17 men"},
		{"a double knight check is refused", "4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "from two men (knight on d6, knight on f6) of which neither is a bishop, rook or queen"},
		{"a check from a pawn and a knight is refused", "4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", "neither is a bishop, rook or queen"},
		{"a double check from two bishops is refused", "4k3/8/8/1B5B/8/8/8/4K3 b - - 0 1", "from two bishops (bishop on b5, bishop on h5)"},
		{"two checks from both sides of one line are refused", "R3k2R/8/8/8/8/8/8/4K3 b - - 0 1", "from both sides of one line"},
		{"three checkers are refused", "R3k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1", "from 3 men"},
		{"a check that the double push named by the en-passant square cannot have given is refused",
			"R3k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", "the last move was e2-e4, which cannot have given the check from the rook on a8"},
		{"a black double push and a check it cannot have given are refused",
			"4k3/8/8/4p3/8/8/8/r3K3 w - e6 0 1", "the last move was e7-e5"},
		{"the side not to move in check is refused", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "the side not to move (black) is in check"},

		{"the published Ice Age example, three knights beside eight pawns, reads", "r3k3/pp1p1p*r/2n1b1p1/5P2/4P3/2N2N2/PPP2PPP/R2QK1NR b KQq - 3 20", ""},
		{"eight pawns and eight pieces read", "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", ""},
		{"a double check from two queens reads", "2Q1k3/8/8/8/Q7/8/8/4K3 b - - 0 1", ""},
		{"a double check from two rooks, one just promoted, reads", "6R1/R5k1/8/8/8/8/8/4K3 b - - 0 1", ""},
		{"a knight's check with a rook's uncovered one reads", "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1", ""},
		{"a check from the pawn that just moved two squares reads", "8/8/8/3k4/4P3/8/8/4K3 b - e3 0 1", ""},
		{"a check uncovered by a double push reads", "8/8/8/7k/4P3/8/8/3BK3 b - e3 0 1", ""},
		{"a missing king, frozen, reads", "8/8/8/8/8/8/8/4K3 w - - 0 1", ""},
		{"no kings at all, both frozen, read", "8/8/8/8/8/8/8/8 w - - 0 1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(c.fen)
			if c.says == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var fe *FENError
			if !errors.As(err, &fe) || fe.Field != "position" {
				t.Fatalf("got %v, want a *FENError about the position", err)
			}
			if !strings.Contains(fe.Msg, c.says) {
				t.Fatalf("the reason %q does not say %q", fe.Msg, c.says)
			}
		})
	}
}

// ParseFEN refuses no position that play reaches: every node two plies
// (one under -short) below each vector position, and every position of
// the reference games, reads back as it is.
func TestReachedPositionsRead(t *testing.T) {
	depth := 2
	if testing.Short() {
		depth = 1
	}
	var walk func(p Position, d int) int
	walk = func(p Position, d int) int {
		back, err := ParseFEN(p.FEN())
		if err != nil || back != p {
			t.Fatalf("the reached position %s does not read back: %v", p.FEN(), err)
		}
		if d == 0 || p.Outcome().Over() {
			return 1
		}
		n := 1
		for _, m := range p.LegalMoves(nil) {
			n += walk(p.Apply(m), d-1)
		}
		return n
	}
	nodes := 0
	for _, name := range []string{"perft-standard.txt", "perft-ice.txt", "iceage-events.txt", "san.txt"} {
		for _, v := range readVectors(t, name) {
			nodes += walk(mustFEN(t, v.fields[0]), depth)
		}
	}
	for _, v := range readVectors(t, "games.txt") {
		p := StartPosition()
		for _, uci := range strings.Fields(v.fields[0]) {
			m, err := ParseUCI(uci)
			if err != nil || !p.IsLegal(m) {
				t.Fatalf("games.txt:%d: %s is not legal in %s", v.line, uci, p.FEN())
			}
			p = p.Apply(m)
			nodes += walk(p, 0)
		}
	}
	t.Logf("%d positions read back", nodes)
}
