package game

import (
	"fmt"
	"slices"
	"testing"
)

func TestComplete(t *testing.T) {
	const (
		queenFEN   = "4k3/8/5n2/8/8/8/4P3/3QK3 w - - 0 1"
		passantFEN = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
		// White's knight on d5 can check on c7, take the queen on f6
		// with check, take the pawn on b6, or go to quiet squares.
		knightFEN = "4k3/8/1p3q2/3N4/8/8/8/4K3 w - - 0 1"
	)
	for _, tc := range []struct {
		name, fen, typed string
		want             []string // the whole list, or its start with a "…" at the end
	}{
		{"0-0 offers O-O first, then O-O-O", castleFEN, "0-0", []string{"O-O", "O-O-O"}},
		{"00 too", castleFEN, "00", []string{"O-O", "O-O-O"}},
		{"o-o too", castleFEN, "o-o", []string{"O-O", "O-O-O"}},
		{"O-O as written", castleFEN, "O-O", []string{"O-O", "O-O-O"}},
		{"0-0-0", castleFEN, "0-0-0", []string{"O-O-O"}},
		{"castling in UCI", castleFEN, "e1g1", []string{"O-O"}},
		{"castling as the king's move", castleFEN, "Kc1", []string{"O-O-O"}},
		{"UCI", chessFEN, "e2e4", []string{"e4"}},
		{"UCI begun", chessFEN, "e2", []string{"e3", "e4"}},
		{"long algebraic", chessFEN, "e2-e4", []string{"e4"}},
		{"long algebraic with a letter", chessFEN, "Ng1-f3", []string{"Nf3"}},
		{"a letter and a rank", chessFEN, "N1", []string{"Na3", "Nc3", "Nf3", "Nh3"}},
		{"a figurine", chessFEN, "♘f", []string{"Nf3"}},
		{"a capture without its x and in lower case", StartFEN, "nf", []string{"Nxf3"}},
		{"a capture as written", StartFEN, "Nxf3", []string{"Nxf3"}},
		{"a capture in lower case", StartFEN, "nxf3", []string{"Nxf3"}},
		{"b: the pawns as written, then the men of b1 by UCI", StartFEN, "b", []string{"bxa3", "bxc3", "Nxa3", "Nxc3"}},
		{"a pawn's capture without x", StartFEN, "gh", []string{"gxh3"}},
		{"a promotion without =", promoteFEN, "a8q", []string{"a8=Q+"}},
		{"promotions, checks first", promoteFEN, "a8", []string{"a8=Q+", "a8=R+", "a8=B", "a8=N"}},
		{"a promotion in UCI", promoteFEN, "a7a8n", []string{"a8=N"}},
		{"en passant as written", passantFEN, "exd6 e.p.", []string{"exd6"}},
		{"checks first, then captures of men, then the rest", knightFEN, "N", []string{"Nc7+", "Nxf6+", "Nxb6", "Nb4", "…"}},
		{"checks first with nothing typed", queenFEN, "", []string{"Qa4+", "Qd7+", "Qd8+", "Kd2", "…"}},
		{"a capture of a man before quiet moves", passantFEN, "", []string{"exd6", "Kd1", "Kd2", "Ke2", "Kf1", "Kf2", "e6"}},
		{"a pawn's letter in capitals", chessFEN, "Pe", []string{"e3", "e4"}},
		{"a lower-case p is no pawn", chessFEN, "p", nil},
		{"a pawn's from rank", chessFEN, "2a3", []string{"a3"}},
		{"nothing fits", StartFEN, "zz", nil},
		{"only signs", StartFEN, "x+", nil},
		{"a move of the other side", chessFEN, "e5", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := positionOf(t, tc.fen)
			var got []string
			for _, m := range Complete(&p, tc.typed) {
				got = append(got, m.SAN)
			}
			want := tc.want
			if n := len(want); n > 0 && want[n-1] == "…" {
				want = want[:n-1]
				if len(got) > len(want) {
					got = got[:len(want)]
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("Complete(%q) = %q, want %q", tc.typed, got, tc.want)
			}
		})
	}
	t.Run("nothing typed gives every legal move", func(t *testing.T) {
		for _, fen := range fuzzPositions {
			p := positionOf(t, fen)
			if got, all := len(Complete(&p, "")), len(p.LegalMoves(nil)); got != all {
				t.Errorf("%s: %d moves offered, %d legal", fen, got, all)
			}
		}
	})
}

// Whatever is typed, Complete does not panic; every move it offers is
// legal and its SAN reads back as it; a text that ParseMove reads as a
// move offers that move, and so does every start of the move's SAN.
func FuzzComplete(f *testing.F) {
	for _, s := range []string{"", "e4", "Nf3", "nf3", "bxc3", "ed5", "e8=Q", "e8q", "O-O", "0-0", "o-o", "0-0-0", "00",
		"e2-e4", "e2 e4", "Ng1xf3", "hxg3", "Kxe2", "♘f3", "exd6 e.p.", "a8(Q)", "Bd6!?", "zz", "e2e4q", "x", "-", "N1f3", "Pe4"} {
		for i := range fuzzPositions {
			f.Add(i, s)
		}
	}
	positions := make([]Position, len(fuzzPositions))
	for i, fen := range fuzzPositions {
		positions[i] = positionOf(f, fen)
	}
	f.Fuzz(func(t *testing.T, i int, text string) {
		p := positions[uint(i)%uint(len(positions))]
		got := Complete(&p, text)
		for _, m := range got {
			if !p.IsLegal(m.Move) || p.SAN(m.Move) != m.SAN {
				t.Fatalf("Complete(%q) offers %q (%s), not a legal move's SAN in %s", text, m.SAN, m.Move.UCI(), p.FEN())
			}
			if back, err := ParseMove(&p, m.SAN); err != nil || back != m.Move {
				t.Fatalf("Complete(%q) offers %q, which reads back as %v, %v", text, m.SAN, back, err)
			}
		}
		offers := func(got []MoveSAN, m Move) bool {
			return slices.ContainsFunc(got, func(c MoveSAN) bool { return c.Move == m })
		}
		if m, err := ParseMove(&p, text); err == nil && !offers(got, m) {
			t.Fatalf("ParseMove reads %q as %s in %s, which Complete does not offer: %v", text, p.SAN(m), p.FEN(), got)
		}
		if len(got) > 0 {
			san := got[0].SAN
			for n := range len(san) {
				if !offers(Complete(&p, san[:n]), got[0].Move) { // SAN is ASCII
					t.Fatalf("%q, the start of %s, does not offer it", san[:n], san)
				}
			}
		}
	})
}

// BenchmarkComplete measures a keystroke's completion in a middlegame
// with ice: with nothing typed, a piece letter, and castling as 0-0.
func BenchmarkComplete(b *testing.B) {
	p := positionOf(b, "r1bqk2r/pp1n1ppp/2p1pn2/*2p*3/1bPP4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 7")
	for _, typed := range []string{"", "N", "0-0"} {
		b.Run(fmt.Sprintf("%q", typed), func(b *testing.B) {
			for b.Loop() {
				Complete(&p, typed)
			}
		})
	}
}
