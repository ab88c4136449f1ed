package game

// Castling is a set of castling rights.
type Castling uint8

const (
	WhiteKingside Castling = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
	NoCastling  Castling = 0
	AllCastling Castling = 15
)

// Position is a complete, immutable-by-convention game state: men, ice, the
// side to move, castling and en-passant rights and the move counters. It is
// a small value: copy it freely. The zero Position is an empty board with
// White to move; build real ones with StartPosition or ParseFEN.
//
// Invariants: board, men and kinds describe the same men; ice is disjoint
// from every man; ep is NoSquare or an empty square on rank 3 or 6.
type Position struct {
	board    [64]Piece   // mailbox, NoPiece where empty or iced
	men      [2]Bitboard // by colour
	kinds    [7]Bitboard // by Kind; kinds[NoKind] is unused
	ice      Bitboard
	turn     Color
	castling Castling
	ep       Square
	halfmove int
	fullmove int
}

// StartFEN is the ice start position of docs/rules.md §2.
const StartFEN = "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// StartPosition returns the ice start position.
func StartPosition() Position {
	p, err := ParseFEN(StartFEN)
	if err != nil {
		panic("game: the start position does not parse: " + err.Error())
	}
	return p
}

// PieceAt returns the man on s, or NoPiece if s is empty or iced.
func (p *Position) PieceAt(s Square) Piece { return p.board[s&63] }

// IsIce reports whether s holds ice.
func (p *Position) IsIce(s Square) bool { return p.ice.Has(s) }

// Ice returns the iced squares.
func (p *Position) Ice() Bitboard { return p.ice }

// Men returns the squares of c's men.
func (p *Position) Men(c Color) Bitboard { return p.men[c] }

// Occupied returns every square that holds a man or ice.
func (p *Position) Occupied() Bitboard { return p.men[White] | p.men[Black] | p.ice }

// Pieces returns the squares of c's men of kind k.
func (p *Position) Pieces(c Color, k Kind) Bitboard { return p.kinds[k%7] & p.men[c] }

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// CastlingRights returns the castling rights still held.
func (p *Position) CastlingRights() Castling { return p.castling }

// EnPassant returns the en-passant target square, or NoSquare.
func (p *Position) EnPassant() Square { return p.ep }

// HalfMoveClock returns the half-moves since the last capture (ice
// included) or pawn move.
func (p *Position) HalfMoveClock() int { return p.halfmove }

// FullMoveNumber returns the number of the current full move, from 1.
func (p *Position) FullMoveNumber() int { return p.fullmove }

// KingSquare returns the square of c's king; ok is false when that king has
// frozen (only in a finished game).
func (p *Position) KingSquare(c Color) (s Square, ok bool) {
	k := p.Pieces(c, King)
	if k == 0 {
		return NoSquare, false
	}
	return k.First(), true
}

// put places man x on the empty, ice-free square s.
func (p *Position) put(s Square, x Piece) {
	b := Bit(s)
	p.board[s] = x
	p.men[x.Color()] |= b
	p.kinds[x.Kind()] |= b
}

// remove takes the man off s, if any.
func (p *Position) remove(s Square) {
	x := p.board[s]
	if x == NoPiece {
		return
	}
	b := Bit(s)
	p.board[s] = NoPiece
	p.men[x.Color()] &^= b
	p.kinds[x.Kind()] &^= b
}
