package game

// Move is a move in 16 bits:
//
//	bits 0–5   from square
//	bits 6–11  to square
//	bits 12–14 promotion Kind (NoKind when none)
//
// Castling is the king's two-square move (e1g1, e1c1, e8g8, e8c8), en
// passant a pawn's diagonal move to the en-passant square, as in UCI; the
// position a move is played in tells which case it is. The zero Move is
// NullMove, never legal (from = to).
type Move uint16

// NullMove is the zero Move: no move.
const NullMove Move = 0

// NewMove returns the move from → to, promoting to promo (NoKind if none).
func NewMove(from, to Square, promo Kind) Move {
	return Move(from&63) | Move(to&63)<<6 | Move(promo&7)<<12
}

// From returns the square the man leaves.
func (m Move) From() Square { return Square(m & 63) }

// To returns the square the man goes to.
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Promotion returns the kind a pawn promotes to, or NoKind.
func (m Move) Promotion() Kind { return Kind(m >> 12 & 7) }

// UCI returns the move in long algebraic notation, e.g. "h2g3", "e7e8q".
func (m Move) UCI() string {
	b := []byte(m.From().String() + m.To().String())
	if k := m.Promotion(); k != NoKind {
		b = append(b, k.Letter()+'a'-'A')
	}
	return string(b)
}

// String returns the UCI form.
func (m Move) String() string { return m.UCI() }
