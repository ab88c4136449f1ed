package game

// attacked reports whether a man of colour by attacks s. Ice and men block
// lines. (Simple ray walking; to be replaced by the fast attack tables.)
func (p *Position) attacked(s Square, by Color) bool {
	occ := p.Occupied()
	f, r := s.File(), s.Rank()
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		for i := 1; ; i++ {
			nf, nr := f+d[0]*i, r+d[1]*i
			if nf < 0 || nf > 7 || nr < 0 || nr > 7 {
				break
			}
			t := SquareAt(nf, nr)
			if !occ.Has(t) {
				continue
			}
			x := p.board[t]
			if x != NoPiece && x.Color() == by {
				k := x.Kind()
				diag := d[0] != 0 && d[1] != 0
				if k == Queen || (diag && k == Bishop) || (!diag && k == Rook) || (i == 1 && k == King) {
					return true
				}
				if i == 1 && k == Pawn && diag && ((by == White && d[1] == -1) || (by == Black && d[1] == 1)) {
					return true
				}
			}
			break
		}
	}
	for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		nf, nr := f+d[0], r+d[1]
		if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 && p.board[SquareAt(nf, nr)] == MakePiece(by, Knight) {
			return true
		}
	}
	return false
}

// illegalReason says why the position cannot arise in a game, or "".
func (p *Position) illegalReason() string {
	them := p.turn.Other()
	if k, ok := p.KingSquare(them); ok && p.attacked(k, p.turn) {
		return "the side not to move (" + them.String() + ") is in check"
	}
	return ""
}
