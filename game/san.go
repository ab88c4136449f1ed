package game

// maxMoves bounds the legal moves of any position (the known maximum in
// chess is 218; ice only removes moves), so move lists fit on the stack.
const maxMoves = 256

// SAN returns m in Standard Algebraic Notation as docs/rules.md §6 writes it:
// "x" for every capture, ice included; "=Q" for a promotion; O-O and O-O-O;
// file, rank or both to tell apart men of one kind that reach the same
// square; "+" or "#" judged on the position the opponent then faces — on
// Black's Ice-Age move, after the Ice Age. m must be legal in p; for a move
// that is not, SAN returns its UCI form.
func (p *Position) SAN(m Move) string {
	var buf [maxMoves]Move
	legal := p.LegalMoves(buf[:0])
	if !contains(legal, m) {
		return m.UCI()
	}
	q := p.Apply(m)
	return p.san(m, legal, suffix(&q, false))
}

// MoveSAN is a legal move with its SAN.
type MoveSAN struct {
	Move Move
	SAN  string
}

// SANs returns every legal move of p with its SAN, in the order of
// LegalMoves: what a front end offers when a player starts typing. It
// generates the legal moves once and plays each move once.
func (p *Position) SANs() []MoveSAN {
	var buf [maxMoves]Move
	legal := p.LegalMoves(buf[:0])
	out := make([]MoveSAN, len(legal))
	for i, m := range legal {
		q := p.Apply(m)
		out[i] = MoveSAN{m, p.san(m, legal, suffix(&q, false))}
	}
	return out
}

// suffix returns the check sign for the position q the opponent faces:
// "#" when q is checkmate, "+" when its side to move is in check. mate
// tells that q is already known to be checkmate; otherwise it is found
// out here, only when q is check.
func suffix(q *Position, mate bool) string {
	if !q.InCheck() {
		return ""
	}
	if mate {
		return "#"
	}
	if q.Pieces(White, King) != 0 && q.Pieces(Black, King) != 0 {
		var buf [maxMoves]Move
		if len(q.LegalMoves(buf[:0])) == 0 {
			return "#"
		}
	}
	return "+"
}

// san writes the legal move m of p, legal being all legal moves of p.
func (p *Position) san(m Move, legal []Move, check string) string {
	var b [16]byte
	return string(p.appendSAN(b[:0], m, legal, check))
}

// AppendSAN appends the SAN of m, one of legal, the legal moves of p,
// to dst; q is the position m leads to (p.Apply(m)). A replay that has
// both at hand, as reading a stored game does, writes each move's SAN
// without generating them again.
func (p *Position) AppendSAN(dst []byte, m Move, legal []Move, q *Position) []byte {
	return p.appendSAN(dst, m, legal, suffix(q, false))
}

func (p *Position) appendSAN(out []byte, m Move, legal []Move, check string) []byte {
	from, to := m.From(), m.To()
	x := p.board[from]
	if x.Kind() == King && absi(to.File()-from.File()) == 2 {
		if to.File() == 6 {
			out = append(out, "O-O"...)
		} else {
			out = append(out, "O-O-O"...)
		}
		return append(out, check...)
	}
	capture := p.board[to] != NoPiece || p.ice.Has(to)
	if x.Kind() == Pawn {
		if from.File() != to.File() {
			out = append(out, 'a'+byte(from.File()), 'x')
		}
	} else {
		out = append(out, x.Kind().Letter())
		sameFile, sameRank, others := false, false, false
		for _, o := range legal {
			f := o.From()
			if o.To() != to || f == from || p.board[f] != x {
				continue
			}
			others = true
			sameFile = sameFile || f.File() == from.File()
			sameRank = sameRank || f.Rank() == from.Rank()
		}
		if others {
			if !sameFile {
				out = append(out, 'a'+byte(from.File()))
			} else if !sameRank {
				out = append(out, '1'+byte(from.Rank()))
			} else {
				out = append(out, 'a'+byte(from.File()), '1'+byte(from.Rank()))
			}
		}
		if capture {
			out = append(out, 'x')
		}
	}
	out = append(out, 'a'+byte(to.File()), '1'+byte(to.Rank()))
	if k := m.Promotion(); k != NoKind {
		out = append(out, '=', k.Letter())
	}
	return append(out, check...)
}

func contains(moves []Move, m Move) bool {
	for _, x := range moves {
		if x == m {
			return true
		}
	}
	return false
}
