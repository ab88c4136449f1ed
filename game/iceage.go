package game

// Every ice rule of docs/rules.md lives in this file, but for ice as a blocker
// and a capturable target, which is occupancy in movegen.go (docs/rules.md §1,
// §3): ice is in occ, so it stops sliders, pawn pushes and castling, and it
// is not one of our men, so any man but a pushing pawn may take it.

// IceAgePeriod is the number of Black moves between Ice Ages (docs/rules.md §4).
const IceAgePeriod = 20

// IceAgeNow reports whether the side to move is Black on a move that brings
// an Ice Age (Black's 20th, 40th, … move).
func (p *Position) IceAgeNow() bool {
	return p.turn == Black && p.fullmove%IceAgePeriod == 0
}

// BlackMovesToIceAge returns how many Black moves remain until the next Ice
// Age, counting the one that brings it: 1 when Black's next move brings it.
func (p *Position) BlackMovesToIceAge() int {
	return IceAgePeriod - (p.fullmove-1)%IceAgePeriod
}

// WouldFreeze returns the men that are isolated now, so would freeze if the
// Ice Age came in this position (docs/rules.md §4.1).
func (p *Position) WouldFreeze() Bitboard {
	men := p.men[White] | p.men[Black]
	return men &^ men.around()
}

// iceAgeSquares returns, for the men and ice of a position right after
// Black's move, the men that freeze and the empty squares that fill with
// ice (docs/rules.md §4.1–4.3). A frozen man never shelters a square, so both
// are judged on the same men.
func iceAgeSquares(men, ice Bitboard) (frozen, filled Bitboard) {
	frozen = men &^ men.around()
	sheltered := ^(^men).orthogonal()
	filled = ^(men | ice) &^ sheltered
	return frozen, filled
}

// Placement is a man on a square.
type Placement struct {
	Square Square
	Piece  Piece
}

// IceAge is what an Ice Age did to the position, for telling and showing it.
type IceAge struct {
	Before Position    // right after Black's bare move, White to move, before freezing and filling
	Frozen []Placement // the men that froze, by square
	Filled Bitboard    // empty squares filled with ice (frozen men's squares not included)
}

// Iced returns every square that turned to ice: filled ones and frozen men's.
func (e *IceAge) Iced() Bitboard {
	b := e.Filled
	for _, f := range e.Frozen {
		b |= Bit(f.Square)
	}
	return b
}

// iceAge brings the Ice Age on p, the position right after Black's move
// (docs/rules.md §4.1–4.3): isolated men freeze into ice, unsheltered empty
// squares fill with ice, castling rights whose king or rook froze are lost
// and the en-passant right lapses (its target square is always filled: it
// has the double-pushed pawn on one side and an empty square on the
// other). The half-move clock is left alone (§5).
func (p *Position) iceAge() {
	frozen, filled := iceAgeSquares(p.men[White]|p.men[Black], p.ice)
	for b := frozen; b != 0; b &= b - 1 {
		p.board[b.First()] = NoPiece
	}
	p.men[White] &^= frozen
	p.men[Black] &^= frozen
	for k := Pawn; k <= King; k++ {
		p.kinds[k] &^= frozen
	}
	p.ice |= frozen | filled
	p.ep = NoSquare
	for _, c := range [4]struct {
		right      Castling
		king, rook Square
		color      Color
	}{
		{WhiteKingside, E1, H1, White}, {WhiteQueenside, E1, A1, White},
		{BlackKingside, E8, H8, Black}, {BlackQueenside, E8, A8, Black},
	} {
		if p.board[c.king] != MakePiece(c.color, King) || p.board[c.rook] != MakePiece(c.color, Rook) {
			p.castling &^= c.right
		}
	}
}

// iceAgeMoves appends Black's legal moves on an Ice-Age move (docs/rules.md
// §4.5): a move is legal if, after it and the Ice Age, Black's king is not
// attacked, or has frozen (the move is legal and loses). Ice may thus
// block a check the bare move would leave standing. Castling keeps its
// standard conditions, judged before the move; they already guarantee a
// safe king, since the Ice Age only turns men and empty squares into ice
// and so never opens a line.
func (p *Position) iceAgeMoves(dst []Move) []Move {
	var g moveGen
	if !g.setup(p, true) {
		return dst
	}
	start := len(dst)
	dst = p.generate(dst, &g)
	legal := dst[:start]
	for _, m := range dst[start:] {
		q := p.Apply(m)
		k := q.kinds[King] & q.men[Black]
		if k == 0 || !q.Attacked(k.First(), White) {
			legal = append(legal, m)
		}
	}
	return legal
}
