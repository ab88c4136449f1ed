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

// ParseUCI reads a move in strict UCI form, as stored and exchanged between
// programs: from and to squares and an optional lower-case promotion letter
// ("h2g3", "e7e8q"). It checks the form only, not legality. What players
// type goes through ParseMove instead. Errors are *SyntaxError.
func ParseUCI(text string) (Move, error) {
	if len(text) != 4 && len(text) != 5 {
		return NullMove, &SyntaxError{Text: text, Kind: SyntaxUCILength, Msg: "a UCI move is two squares and an optional promotion letter, e.g. e2e4 or e7e8q"}
	}
	from, err1 := ParseSquare(text[:2])
	to, err2 := ParseSquare(text[2:4])
	if err1 != nil || err2 != nil || from == to {
		return NullMove, &SyntaxError{Text: text, Kind: SyntaxUCISquares, Msg: "a UCI move names two different squares, e.g. e2e4"}
	}
	promo := NoKind
	if len(text) == 5 {
		switch text[4] {
		case 'n':
			promo = Knight
		case 'b':
			promo = Bishop
		case 'r':
			promo = Rook
		case 'q':
			promo = Queen
		default:
			return NullMove, &SyntaxError{Text: text, Kind: SyntaxUCIPromotion, Msg: "the promotion letter is one of n, b, r, q"}
		}
	}
	return NewMove(from, to, promo), nil
}
