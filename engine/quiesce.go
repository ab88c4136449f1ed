package engine

import "github.com/iceagechess/iceage/game"

// Quiescence: past the horizon only captures are searched, until the
// position is quiet, so that the evaluation is never taken in the middle
// of an exchange. Captures of men come first (MVV-LVA); ice is taken only
// where that is tactics rather than housekeeping (iceTactics), and only
// on the first ply of quiescence: where the capture gives check, directly
// or by opening a line to the enemy king, or, with the Ice Age one or two
// plies away, where the man lands beside an own man that would otherwise
// freeze. (Deeper, ice captures that check would chain without end: the
// board holds dozens of iced squares.) In check every evasion is searched;
// on Black's Ice-Age move quiescence hands back to search, which plays
// every move with its Ice Age.

// qsearch returns the quiet score of the position at ply within alpha and
// beta; qply counts the plies since the horizon.
func (e *Engine) qsearch(ply, qply, alpha, beta int) int {
	p := &e.pos[ply]
	e.pvLen[ply] = ply
	if score, over := terminal(p, ply); over {
		return score
	}
	if p.IceAgeNow() {
		return e.search(ply, 1, alpha, beta)
	}
	e.tick()
	if e.stop {
		return 0
	}
	if ply >= maxPly-1 {
		return evaluate(p)
	}
	inCheck := p.InCheck()
	best := -infinity
	stand := 0
	var moves []game.Move
	keys := e.order[ply][:0]
	if !inCheck {
		if p.HalfMoveClock() >= 100 {
			return 0 // the fifty-move rule; a stalemate would be a draw too
		}
		stand = e.evaluate(ply)
		if stand >= beta {
			return stand
		}
		best = stand
		alpha = max(alpha, stand)
		var t iceTactics
		if qply == 0 {
			t.setup(p)
		}
		moves = pseudoCaptures(p, e.moves[ply][:0], qply == 0)
		n := 0
		for _, m := range moves {
			k := int32(0)
			switch {
			case isManCapture(p, m):
				victim := p.PieceAt(m.To()).Kind()
				if victim == game.NoKind {
					victim = game.Pawn
				}
				// Delta pruning: even winning the man for nothing would not
				// lift the score to alpha.
				if stand+pieceValue[victim]+200 <= alpha && m.Promotion() == game.NoKind {
					continue
				}
				k = orderCapture + int32(victim)*16 - int32(p.PieceAt(m.From()).Kind())
			case m.Promotion() == game.Queen:
				k = orderCapture + int32(game.Queen)*16
			case qply == 0 && p.IsIce(m.To()) && t.tactical(p, m):
				k = orderKiller
			default:
				continue
			}
			moves[n] = m
			keys = append(keys, k)
			n++
		}
		moves = moves[:n]
	} else {
		moves = p.LegalMoves(e.moves[ply][:0])
		if len(moves) == 0 {
			return -(Mate - ply)
		}
		if p.HalfMoveClock() >= 100 {
			return 0
		}
		for _, m := range moves {
			keys = append(keys, e.moveOrder(p, m, game.NullMove, ply))
		}
	}
	us := p.Turn()
	for i := range moves {
		pick(moves, keys, i)
		m := moves[i]
		child := &e.pos[ply+1]
		*child = p.Apply(m)
		if !inCheck && !kingSafe(child, us) {
			continue // pseudo-legal: it left the king attacked
		}
		e.keys[ply+1] = childKey(e.keys[ply], p, child)
		score := -e.qsearch(ply+1, qply+1, -beta, -alpha)
		if e.stop {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				if score >= beta {
					break
				}
			}
		}
	}
	return best
}

// iceTactics holds what deciding whether an ice capture is tactical needs
// about one position.
type iceTactics struct {
	king        game.Square // the enemy king
	occ         bitboard
	discoverers bitboard // own men that alone block an own slider's line to the enemy king
	shelter     bool     // the Ice Age is one or two plies away
	freezing    bitboard // own men that would freeze now
	men         bitboard
}

func (t *iceTactics) setup(p *game.Position) {
	us := p.Turn()
	them := us.Other()
	t.king, _ = p.KingSquare(them)
	t.occ = p.Occupied()
	own := p.Men(us)
	t.discoverers = 0
	straight := p.Pieces(us, game.Rook) | p.Pieces(us, game.Queen)
	diagonal := p.Pieces(us, game.Bishop) | p.Pieces(us, game.Queen)
	for b := straight&rookAttacksEmpty[t.king] | diagonal&bishopAttacksEmpty[t.king]; b != 0; b &= b - 1 {
		s := b.First()
		if x := between[s][t.king] & t.occ; x != 0 && x&(x-1) == 0 && x&own != 0 {
			t.discoverers |= x
		}
	}
	t.shelter = pliesToIceAge(p) <= 2
	if t.shelter {
		t.men = p.Men(game.White) | p.Men(game.Black)
		t.freezing = p.WouldFreeze() & own
	}
}

// tactical reports whether the ice capture m gives check (directly or
// by discovery) or, with the Ice Age at hand, keeps an own man from
// freezing.
func (t *iceTactics) tactical(p *game.Position, m game.Move) bool {
	from, to := m.From(), m.To()
	x := p.PieceAt(from)
	if t.discoverers.Has(from) {
		return true
	}
	occ := t.occ &^ game.Bit(from)
	if attacks(x.Kind(), x.Color(), to, occ).Has(t.king) && x.Kind() != game.King {
		return true
	}
	if t.shelter {
		if kingAttacks[to]&t.freezing&^game.Bit(from) != 0 {
			return true // lands beside a man that would freeze
		}
		if t.freezing.Has(from) && kingAttacks[to]&t.men&^game.Bit(from) != 0 {
			return true // the man itself finds company
		}
	}
	return false
}

// pseudoCaptures appends the captures of enemy men (en passant included)
// of the side to move in p, queen promotions by push or capture, and
// with ice the captures of ice, all by how the men move: a move may still
// leave its own king attacked (kingSafe tells). Quiescence uses it out of
// check, where generating every legal move only to keep the captures
// would cost more than the captures themselves. p must not be on Black's
// Ice-Age move, whose legality only the Ice Age decides.
func pseudoCaptures(p *game.Position, dst []game.Move, ice bool) []game.Move {
	us := p.Turn()
	them := us.Other()
	occ := p.Occupied()
	targets := p.Men(them) &^ p.Pieces(them, game.King)
	if ice {
		targets |= p.Ice()
	}
	for k := game.Knight; k <= game.King; k++ {
		for b := p.Pieces(us, k); b != 0; b &= b - 1 {
			s := b.First()
			for t := attacks(k, us, s, occ) & targets; t != 0; t &= t - 1 {
				dst = append(dst, game.NewMove(s, t.First(), game.NoKind))
			}
		}
	}
	last, step := rank8, 8
	if us == game.Black {
		last, step = rank1, -8
	}
	ep := p.EnPassant()
	for b := p.Pieces(us, game.Pawn); b != 0; b &= b - 1 {
		s := b.First()
		t := pawnAttacks[us][s] & targets
		if ep != game.NoSquare && pawnAttacks[us][s].Has(ep) {
			t |= game.Bit(ep)
		}
		for ; t != 0; t &= t - 1 {
			to := t.First()
			promo := game.NoKind
			if last.Has(to) {
				promo = game.Queen
			}
			dst = append(dst, game.NewMove(s, to, promo))
		}
		if push := game.Square(int(s) + step); last.Has(push) && !occ.Has(push) {
			dst = append(dst, game.NewMove(s, push, game.Queen))
		}
	}
	return dst
}

// kingSafe reports whether c's king stands and is not attacked in q.
func kingSafe(q *game.Position, c game.Color) bool {
	k := q.Pieces(c, game.King)
	return k != 0 && !q.Attacked(k.First(), c.Other())
}
