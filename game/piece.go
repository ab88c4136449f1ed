package game

// Color is a side: White or Black.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent's colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Kind is the kind of a man, without colour. The values are stable.
type Kind uint8

const (
	NoKind Kind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Name returns the kind's English name, e.g. "knight".
func (k Kind) Name() string {
	return [...]string{"nothing", "pawn", "knight", "bishop", "rook", "queen", "king"}[k%7]
}

// Letter returns the SAN letter: 'N', 'B', 'R', 'Q', 'K', and 0 for a pawn.
func (k Kind) Letter() byte { return " PNBRQK"[k%7] }

// Piece is a man of one colour, or NoPiece. Bits 0–2 hold the Kind,
// bit 3 the Color, so a Piece fits the mailbox byte.
type Piece uint8

// NoPiece is the zero Piece: no man on the square (it may hold ice).
const NoPiece Piece = 0

// MakePiece returns the man of kind k and colour c.
func MakePiece(c Color, k Kind) Piece { return Piece(uint8(c)<<3 | uint8(k)) }

// Kind returns the kind of the man.
func (p Piece) Kind() Kind { return Kind(p & 7) }

// Color returns the colour of the man (White for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// FENLetter returns the man's FEN letter: upper case for White.
func (p Piece) FENLetter() byte {
	l := " PNBRQK"[p.Kind()%7]
	if p.Color() == Black && l != ' ' {
		l += 'a' - 'A'
	}
	return l
}

// String returns e.g. "white knight".
func (p Piece) String() string {
	if p == NoPiece {
		return "nothing"
	}
	return p.Color().String() + " " + p.Kind().Name()
}

func pieceFromFEN(c byte) Piece {
	switch c {
	case 'P':
		return MakePiece(White, Pawn)
	case 'N':
		return MakePiece(White, Knight)
	case 'B':
		return MakePiece(White, Bishop)
	case 'R':
		return MakePiece(White, Rook)
	case 'Q':
		return MakePiece(White, Queen)
	case 'K':
		return MakePiece(White, King)
	case 'p':
		return MakePiece(Black, Pawn)
	case 'n':
		return MakePiece(Black, Knight)
	case 'b':
		return MakePiece(Black, Bishop)
	case 'r':
		return MakePiece(Black, Rook)
	case 'q':
		return MakePiece(Black, Queen)
	case 'k':
		return MakePiece(Black, King)
	}
	return NoPiece
}
