package game

import "math/bits"

// Bitboard is a set of squares: bit i is Square i.
type Bitboard uint64

// Bit returns the set holding only s.
func Bit(s Square) Bitboard { return 1 << (s & 63) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<(s&63)) != 0 }

// Count returns the number of squares in the set.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// First returns the lowest square of a non-empty set.
func (b Bitboard) First() Square { return Square(bits.TrailingZeros64(uint64(b))) }

// Squares returns the squares of the set in ascending order.
func (b Bitboard) Squares() []Square {
	out := make([]Square, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		out = append(out, b.First())
	}
	return out
}

const (
	fileA Bitboard = 0x0101010101010101
	fileH Bitboard = fileA << 7
	rank1 Bitboard = 0xff
	rank8 Bitboard = rank1 << 56
)

// around returns every square that is one king step from some square of b.
// A square of b is in the result only if another square of b is next to it.
func (b Bitboard) around() Bitboard {
	row := (b&^fileA)>>1 | (b&^fileH)<<1
	return row | (row|b)<<8 | (row|b)>>8
}

// orthogonal returns, for every square of b, the up to four squares beside
// it, above and below it.
func (b Bitboard) orthogonal() Bitboard {
	return (b&^fileA)>>1 | (b&^fileH)<<1 | b<<8 | b>>8
}
