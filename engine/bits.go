package engine

import (
	"math/bits"

	"github.com/iceagechess/iceage/game"
)

// Attack tables of the engine's own. Package game keeps its attack
// functions to itself, and the evaluation needs the squares every man
// attacks (mobility, king safety, the lines ice opens and closes), so this
// file has the few tables that takes. Sliders walk their rays on the
// occupancy (men and ice: ice blocks like a man) and stop at the first
// blocker found with a bit scan, the "classical approach": eight rays a
// square, no magic numbers, a few nanoseconds a lookup.

type bitboard = game.Bitboard

const (
	fileA bitboard = 0x0101010101010101
	fileH bitboard = fileA << 7
	rank1 bitboard = 0xff
	rank8 bitboard = rank1 << 56
)

// Ray directions. The first four run towards higher square numbers, so the
// nearest blocker on them is the lowest set bit; the last four the other
// way.
const (
	north     = iota // +8
	east             // +1
	northEast        // +9
	northWest        // +7
	south            // -8
	west             // -1
	southWest        // -9
	southEast        // -7
)

var (
	knightAttacks [64]bitboard
	kingAttacks   [64]bitboard
	pawnAttacks   [2][64]bitboard
	rays          [8][64]bitboard
	// between[a][b] holds the squares strictly between a and b on a shared
	// rank, file or diagonal, and nothing when they share none.
	between [64][64]bitboard
)

func init() {
	steps := [8][2]int{{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}
	at := func(f, r int) bitboard {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return 0
		}
		return game.Bit(game.SquareAt(f, r))
	}
	for s := 0; s < 64; s++ {
		f, r := s&7, s>>3
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
			knightAttacks[s] |= at(f+d[0], r+d[1])
		}
		for dir, d := range steps {
			kingAttacks[s] |= at(f+d[0], r+d[1])
			var walked bitboard
			for i := 1; ; i++ {
				b := at(f+d[0]*i, r+d[1]*i)
				if b == 0 {
					break
				}
				between[s][b.First()] = walked
				walked |= b
			}
			rays[dir][s] = walked
		}
		pawnAttacks[game.White][s] = at(f-1, r+1) | at(f+1, r+1)
		pawnAttacks[game.Black][s] = at(f-1, r-1) | at(f+1, r-1)
	}
}

// rayAttacks returns the squares along direction dir from s up to and
// including the first occupied one.
func rayAttacks(dir int, s game.Square, occ bitboard) bitboard {
	r := rays[dir][s]
	b := r & occ
	if b == 0 {
		return r
	}
	if dir < south {
		return r ^ rays[dir][bits.TrailingZeros64(uint64(b))]
	}
	return r ^ rays[dir][63-bits.LeadingZeros64(uint64(b))]
}

func rookAttacks(s game.Square, occ bitboard) bitboard {
	return rayAttacks(north, s, occ) | rayAttacks(east, s, occ) |
		rayAttacks(south, s, occ) | rayAttacks(west, s, occ)
}

func bishopAttacks(s game.Square, occ bitboard) bitboard {
	return rayAttacks(northEast, s, occ) | rayAttacks(northWest, s, occ) |
		rayAttacks(southEast, s, occ) | rayAttacks(southWest, s, occ)
}

// attacks returns the squares a man of kind k and colour c on s attacks.
func attacks(k game.Kind, c game.Color, s game.Square, occ bitboard) bitboard {
	switch k {
	case game.Pawn:
		return pawnAttacks[c][s]
	case game.Knight:
		return knightAttacks[s]
	case game.Bishop:
		return bishopAttacks(s, occ)
	case game.Rook:
		return rookAttacks(s, occ)
	case game.Queen:
		return bishopAttacks(s, occ) | rookAttacks(s, occ)
	case game.King:
		return kingAttacks[s]
	}
	return 0
}

// around returns every square one king step from a square of b; a square
// of b is in it only when another square of b is next to it. So
// men &^ around(men) are the isolated men, those an Ice Age would freeze.
func around(b bitboard) bitboard {
	row := (b&^fileA)>>1 | (b&^fileH)<<1
	return row | (row|b)<<8 | (row|b)>>8
}

// orthogonal returns the up to four squares beside, above and below every
// square of b.
func orthogonal(b bitboard) bitboard {
	return (b&^fileA)>>1 | (b&^fileH)<<1 | b<<8 | b>>8
}

// sheltered returns the squares an Ice Age would leave free of ice if it
// came now: those whose every orthogonal neighbour on the board holds a
// man (the edge counts as a wall), docs/rules.md §4.2. It includes squares
// holding men; callers mask what they need.
func sheltered(men bitboard) bitboard {
	return ^orthogonal(^men)
}

func popcount(b bitboard) int { return bits.OnesCount64(uint64(b)) }

// rookAttacksEmpty and bishopAttacksEmpty are the lines from each square
// on an empty board.
var rookAttacksEmpty, bishopAttacksEmpty [64]bitboard

func init() {
	for s := range 64 {
		rookAttacksEmpty[s] = rays[north][s] | rays[south][s] | rays[east][s] | rays[west][s]
		bishopAttacksEmpty[s] = rays[northEast][s] | rays[northWest][s] | rays[southEast][s] | rays[southWest][s]
	}
}
