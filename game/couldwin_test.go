package game

import "testing"

func TestCouldWin(t *testing.T) {
	for _, tt := range []struct {
		fen          string
		white, black bool
	}{
		{"7k/8/8/8/8/8/8/K7 w - - 0 1", false, false},
		{"7k/8/8/8/8/8/8/K6* w - - 0 1", false, false},
		{"7k/8/8/8/8/8/8/KN6 w - - 0 1", true, true}, // a lone king wins beside the knight
		{"7k/7p/8/8/8/8/8/K7 w - - 0 1", true, true}, // either side, by the pawn
		{"7k/8/8/8/8/8/8/KQ6 b - - 0 1", true, true}, // the queen mates, or the king freezes
		{"rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1", true, true},
	} {
		p, err := ParseFEN(tt.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.CouldWin(White); got != tt.white {
			t.Errorf("%s: White could win: %v, want %v", tt.fen, got, tt.white)
		}
		if got := p.CouldWin(Black); got != tt.black {
			t.Errorf("%s: Black could win: %v, want %v", tt.fen, got, tt.black)
		}
	}
}

// A flag drawn against a lone king reads back from its PGN as it was
// written.
func TestADrawnFlagReadsBackFromPGN(t *testing.T) {
	m, err := ReplayUCI("7k/8/8/8/8/8/8/K7 w - - 0 1", []string{"a1a2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.End(Outcome{Draw, Timeout}); err != nil {
		t.Fatal(err)
	}
	text := m.PGN(Tags{})
	back, _, err := ParsePGN(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if back.Outcome() != (Outcome{Draw, Timeout}) {
		t.Fatalf("read back %+v from\n%s", back.Outcome(), text)
	}
}
