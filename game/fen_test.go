package game

import (
	"errors"
	"testing"
)

func TestFENRoundTrip(t *testing.T) {
	fens := []string{
		StartFEN,
		"rnbqkb1r/pppppppp/*****n**/********/********/******P*/PPPPPPP1/RNBQKBNR w KQkq - 0 2",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
		"***b****/**k*****/********/********/********/********/********/******** w - - 0 81",
	}
	for _, fen := range fens {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("ParseFEN(%q): %v", fen, err)
		}
		if got := p.FEN(); got != fen {
			t.Errorf("round trip of %q gave %q", fen, got)
		}
	}
}

// Every FEN in the vector files parses and prints back unchanged.
func TestFENRoundTripVectors(t *testing.T) {
	for _, name := range []string{"perft-ice.txt", "iceage-events.txt", "san.txt", "games.txt"} {
		n := 0
		for _, fields := range readCases(t, name) {
			idx := []int{0}
			switch name {
			case "iceage-events.txt":
				idx = []int{0, 2}
			case "games.txt":
				idx = []int{2}
			}
			for _, i := range idx {
				fen := fields[i]
				p, err := ParseFEN(fen)
				if err != nil {
					t.Errorf("%s: ParseFEN(%q): %v", name, fen, err)
					continue
				}
				if got := p.FEN(); got != fen {
					t.Errorf("%s: round trip of %q gave %q", name, fen, got)
				}
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no FEN read", name)
		}
	}
}

func TestParseFENErrors(t *testing.T) {
	cases := []struct{ fen, field string }{
		{"", "position"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "board"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnr/pppppppp/*******/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "board"},
		{"kk6/8/8/8/8/8/8/K7 w - - 0 1", "board"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "half-move clock"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "full-move number"},
		{"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "position"},
	}
	for _, c := range cases {
		_, err := ParseFEN(c.fen)
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("ParseFEN(%q) = %v, want a *FENError", c.fen, err)
			continue
		}
		if fe.Field != c.field {
			t.Errorf("ParseFEN(%q): field %q, want %q (%v)", c.fen, fe.Field, c.field, err)
		}
	}
}

func FuzzParseFEN(f *testing.F) {
	f.Add(StartFEN)
	f.Add("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	f.Add("8/8/8/8/8/8/8/8 w - - 0 1")
	f.Add("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		again, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("FEN %q of parsed %q does not parse: %v", p.FEN(), fen, err)
		}
		if again != p {
			t.Fatalf("FEN round trip changed the position: %q → %q", fen, again.FEN())
		}
	})
}
