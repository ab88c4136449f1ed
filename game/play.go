package game

// castlingLost[s] is the castling rights lost when a man leaves or is
// captured on s: a right lasts while its king and rook stand at home.
var castlingLost = [64]Castling{
	A1: WhiteQueenside, E1: WhiteKingside | WhiteQueenside, H1: WhiteKingside,
	A8: BlackQueenside, E8: BlackKingside | BlackQueenside, H8: BlackKingside,
}

// Apply returns the position after the legal move m, including the Ice Age
// when m is Black's 20th, 40th, … move (docs/rules.md §4). It does not check
// that m is legal (see IsLegal); an illegal move gives a position that
// breaks the rules. It does not allocate.
//
// The counters stay within what ParseFEN reads: the half-move clock stops
// at MaxMoveNumber, and a full-move number that would pass MaxMoveNumber
// steps back by IceAgePeriod instead, so the Ice Age still comes on every
// 20th Black move; only the number shown stops growing.
func (p *Position) Apply(m Move) Position {
	q := *p
	q.play(m)
	if p.IceAgeNow() {
		q.iceAge()
	}
	return q
}

// ApplyWithEvent is Apply that also returns what the Ice Age did, or nil
// when m brings no Ice Age.
func (p *Position) ApplyWithEvent(m Move) (Position, *IceAge) {
	q := *p
	q.play(m)
	if !p.IceAgeNow() {
		return q, nil
	}
	e := &IceAge{Before: q}
	frozen, filled := iceAgeSquares(q.men[White]|q.men[Black], q.ice)
	e.Filled = filled
	for b := frozen; b != 0; b &= b - 1 {
		s := b.First()
		e.Frozen = append(e.Frozen, Placement{Square: s, Piece: q.board[s]})
	}
	q.iceAge()
	return q, e
}

// play makes the bare move m on p: the man moves, captures (a man or ice),
// castles, takes en passant or promotes; the rights, the clocks and the
// side to move are updated. The Ice Age is not part of it.
func (p *Position) play(m Move) {
	from, to := m.From(), m.To()
	x := p.board[from]
	us := p.turn
	fromBit, toBit := Bit(from), Bit(to)

	if p.halfmove < MaxMoveNumber {
		p.halfmove++
	}
	if y := p.board[to]; y != NoPiece {
		p.men[us^1] &^= toBit
		p.kinds[y.Kind()] &^= toBit
		p.halfmove = 0
	} else if p.ice&toBit != 0 {
		p.ice &^= toBit
		p.halfmove = 0
	}

	kind := x.Kind()
	p.board[from] = NoPiece
	p.men[us] ^= fromBit | toBit
	p.kinds[kind] &^= fromBit
	ep := NoSquare
	switch kind {
	case Pawn:
		p.halfmove = 0
		switch {
		case to == p.ep && from.File() != to.File():
			captured := to - 8
			if us == Black {
				captured = to + 8
			}
			p.board[captured] = NoPiece
			p.men[us^1] &^= Bit(captured)
			p.kinds[Pawn] &^= Bit(captured)
		case to == from+16 || from == to+16:
			ep = (from + to) / 2
		}
		if promo := m.Promotion(); promo != NoKind {
			kind, x = promo, MakePiece(us, promo)
		}
	case King:
		if to == from+2 || from == to+2 {
			rookFrom, rookTo := from+3, from+1
			if to < from {
				rookFrom, rookTo = from-4, from-1
			}
			p.board[rookTo], p.board[rookFrom] = p.board[rookFrom], NoPiece
			p.men[us] ^= Bit(rookFrom) | Bit(rookTo)
			p.kinds[Rook] ^= Bit(rookFrom) | Bit(rookTo)
		}
	}
	p.board[to] = x
	p.kinds[kind] |= toBit
	p.ep = ep
	p.castling &^= castlingLost[from] | castlingLost[to]
	if us == Black {
		p.fullmove++
		if p.fullmove > MaxMoveNumber {
			p.fullmove -= IceAgePeriod
		}
	}
	p.turn = us ^ 1
}
