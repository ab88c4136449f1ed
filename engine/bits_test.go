package engine

import (
	"testing"

	"github.com/iceagechess/iceage/game"
)

// slowSlide walks the rays of a slider square by square: the obvious
// definition the fast lookups are checked against.
func slowSlide(s game.Square, occ bitboard, dirs [][2]int) bitboard {
	var a bitboard
	for _, d := range dirs {
		f, r := s.File(), s.Rank()
		for {
			f, r = f+d[0], r+d[1]
			if f < 0 || f > 7 || r < 0 || r > 7 {
				break
			}
			a |= game.Bit(game.SquareAt(f, r))
			if occ.Has(game.SquareAt(f, r)) {
				break
			}
		}
	}
	return a
}

func TestSliderAttacksAgreeWithARayWalk(t *testing.T) {
	r := splitmix64(1)
	straight := [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	diagonal := [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	for range 2000 {
		// Two draws and-ed: about a quarter of the squares occupied.
		a, b := r.next(), r.next()
		occ := bitboard(a & b)
		s := game.Square(r.intn(64))
		if got, want := rookAttacks(s, occ), slowSlide(s, occ, straight); got != want {
			t.Fatalf("rook on %s, occupancy %x: %x, want %x", s, uint64(occ), uint64(got), uint64(want))
		}
		if got, want := bishopAttacks(s, occ), slowSlide(s, occ, diagonal); got != want {
			t.Fatalf("bishop on %s, occupancy %x: %x, want %x", s, uint64(occ), uint64(got), uint64(want))
		}
	}
}

func TestShelteredAndIsolatedFollowTheRules(t *testing.T) {
	cases := []struct {
		fen       string
		sheltered string // an empty square the Ice Age would leave free
		iced      string // an empty square it would fill
	}{
		{"4k3/3p4/8/8/8/8/PP6/1NK5 b - - 0 20", "a1", "d1"},    // the edge is a wall
		{"4k3/3p4/8/8/8/3P4/2P1N3/3K4 b - - 0 20", "d2", "c1"}, // men on all four sides
		{"4k3/3p4/8/8/8/3P4/2P1*3/3K4 b - - 0 20", "", "d2"},   // ice does not shelter
	}
	for _, c := range cases {
		p := mustFEN(t, c.fen)
		men := p.Men(game.White) | p.Men(game.Black)
		if got, want := men&^around(men), p.WouldFreeze(); got != want {
			t.Errorf("%s: isolated men %v, game says %v", c.fen, got.Squares(), want.Squares())
		}
		free := sheltered(men) &^ p.Occupied()
		if c.sheltered != "" {
			if sq, _ := game.ParseSquare(c.sheltered); !free.Has(sq) {
				t.Errorf("%s: %s is not sheltered; sheltered: %v", c.fen, c.sheltered, free.Squares())
			}
		}
		if sq, _ := game.ParseSquare(c.iced); free.Has(sq) {
			t.Errorf("%s: %s is sheltered", c.fen, c.iced)
		}
	}
}
