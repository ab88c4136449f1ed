package game

import "fmt"

// Square numbering, from White's side:
//
//	8 | 56 57 58 59 60 61 62 63
//	7 | 48 49 50 51 52 53 54 55
//	6 | 40 41 42 43 44 45 46 47
//	5 | 32 33 34 35 36 37 38 39
//	4 | 24 25 26 27 28 29 30 31
//	3 | 16 17 18 19 20 21 22 23
//	2 |  8  9 10 11 12 13 14 15
//	1 |  0  1  2  3  4  5  6  7
//	    a  b  c  d  e  f  g  h
//
// so a1 = 0, h1 = 7, a8 = 56, h8 = 63; file = sq & 7, rank = sq >> 3.

// Square is one of the 64 squares, or NoSquare.
type Square uint8

// NoSquare stands for "no square", e.g. no en-passant target.
const NoSquare Square = 64

// Named squares used by the rules (castling) and by tests.
const (
	A1, B1, C1, D1, E1, F1, G1, H1 Square = 0, 1, 2, 3, 4, 5, 6, 7
	A8, B8, C8, D8, E8, F8, G8, H8 Square = 56, 57, 58, 59, 60, 61, 62, 63
)

// SquareAt returns the square on file f (0 = a) and rank r (0 = first rank).
func SquareAt(f, r int) Square { return Square(r<<3 | f) }

// File returns 0 for the a-file … 7 for the h-file.
func (s Square) File() int { return int(s & 7) }

// Rank returns 0 for the first rank … 7 for the eighth.
func (s Square) Rank() int { return int(s >> 3) }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s < 64 }

// String returns the square's name, e.g. "e4", or "-" for NoSquare.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{'a' + byte(s.File()), '1' + byte(s.Rank())})
}

// ParseSquare reads a square name such as "e4" (lower case only, as in FEN
// and UCI).
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8' {
		return NoSquare, fmt.Errorf("%s is not a square: a square is a file a–h and a rank 1–8, e.g. e4", QuoteInput(text))
	}
	return SquareAt(int(text[0]-'a'), int(text[1]-'1')), nil
}
