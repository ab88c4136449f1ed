package game

import (
	"errors"
	"strings"
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

// What the engine writes reads back, at any move number: a game set up
// near the limit plays on, and its Ice Ages keep their rhythm.
func TestCountersReadBack(t *testing.T) {
	starts := []struct{ name, fen string }{
		{"move 10,000, where the old limit refused the next FEN", "4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 0 10000"},
		{"the ice start just before the limit", "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 999955"},
		{"Black to move at the limit, an Ice-Age move", "4k3/3ppp2/8/8/8/8/3PPP2/4K3 b - - 0 1000000"},
		{"the half-move clock at the limit", "4k3/3ppp2/8/8/8/8/3PPP2/4K3 w - - 1000000 500000"},
	}
	for _, s := range starts {
		t.Run("from "+s.name+", every position reads back", func(t *testing.T) {
			p, err := ParseFEN(s.fen)
			if err != nil {
				t.Fatal(err)
			}
			iceAges := 0
			for ply := 0; ply < 200; ply++ {
				moves := p.LegalMoves(nil)
				if len(moves) == 0 {
					break
				}
				// A move that varies with the ply, so the game wanders.
				m := moves[(ply*7)%len(moves)]
				iceAgeDue := p.IceAgeNow()
				next, ev := p.ApplyWithEvent(m)
				if (ev != nil) != iceAgeDue {
					t.Fatalf("ply %d (%s) from %s: Ice Age %v, due %v", ply, m, p.FEN(), ev != nil, iceAgeDue)
				}
				if ev != nil {
					iceAges++
				}
				back, err := ParseFEN(next.FEN())
				if err != nil {
					t.Fatalf("after %s from %s the FEN %s does not read back: %v", m, p.FEN(), next.FEN(), err)
				}
				if back != next {
					t.Fatalf("the FEN %s reads back as %s", next.FEN(), back.FEN())
				}
				if n := next.FullMoveNumber(); n < 1 || n > MaxMoveNumber || next.HalfMoveClock() > MaxMoveNumber {
					t.Fatalf("counters out of range: %s", next.FEN())
				}
				p = next
			}
			t.Logf("%d Ice Ages on the way", iceAges)
		})
	}
	t.Run("past the limit the move number steps back by the Ice-Age period", func(t *testing.T) {
		p, err := ParseFEN("4k3/3ppp2/8/8/8/8/3PPP2/4K3 b - - 7 1000000")
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMove(&p, "e7e6")
		if err != nil {
			t.Fatal(err)
		}
		next := p.Apply(m)
		if got, want := next.FullMoveNumber(), MaxMoveNumber+1-IceAgePeriod; got != want {
			t.Fatalf("move number %d, want %d", got, want)
		}
	})
}

func TestParseFENCounters(t *testing.T) {
	const board = "4k3/8/8/8/8/8/8/4K3 w - - "
	cases := []struct {
		name, counters string
		field          string // "" when accepted
	}{
		{"both counters at the limit are read", "1000000 1000000", ""},
		{"leading zeros are read", "007 010", ""},
		{"a half-move clock above the limit is refused", "1000001 1", "half-move clock"},
		{"a move number above the limit is refused", "0 1000001", "full-move number"},
		{"a huge number is refused", "0 99999999999999999999999", "full-move number"},
		{"a plus sign is refused", "+5 1", "half-move clock"},
		{"a plus sign on the move number is refused", "0 +5", "full-move number"},
		{"a minus sign is refused", "-0 1", "half-move clock"},
		{"move number zero is refused", "0 0", "full-move number"},
		{"a letter is refused", "0 1x", "full-move number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFEN(board + c.counters)
			if c.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var fe *FENError
			if !errors.As(err, &fe) || fe.Field != c.field {
				t.Fatalf("got %v, want a *FENError in the %s", err, c.field)
			}
			if !strings.Contains(err.Error(), "1000000") {
				t.Errorf("the error does not name the limit: %v", err)
			}
		})
	}
}
