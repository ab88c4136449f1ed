package game

// Every ice rule of RULES.md lives in this file, but for the ice-aware move
// generation in movegen.go and the legality rule of §4.5 in play.go.

// IceAgePeriod is the number of Black moves between Ice Ages (RULES.md §4).
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
// Ice Age came in this position (RULES.md §4.1).
func (p *Position) WouldFreeze() Bitboard {
	men := p.men[White] | p.men[Black]
	return men &^ men.around()
}

// iceAgeSquares returns, for the men and ice of a position right after
// Black's move, the men that freeze and the empty squares that fill with
// ice (RULES.md §4.1–4.3). A frozen man never shelters a square, so both
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
