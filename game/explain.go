package game

import (
	"math/bits"
	"strconv"
	"strings"
)

// This file says, in a player's words, why a move is not legal. It walks
// the rules one by one on the slow path only: ParseMove calls it after the
// move generator has found no legal move that fits what was typed.

// judge returns why the move from → to (promoting to promo) is not legal in
// p, or a MoveError of Kind 0 when it is legal (a value, not a pointer:
// the judging of every move in tests should not allocate). It decides
// every rule of docs/rules.md by itself, from the position's fields, so
// that its answer can be checked against the move generator. The error's
// Text and Move are left for the caller to fill.
func (p *Position) judge(from, to Square, promo Kind) MoveError {
	x := p.board[from]
	if x == NoPiece {
		if p.ice.Has(from) {
			return p.manError(NoSuchMan, DetailIceOnFrom, from, to, "there is ice on "+from.String()+", not a man")
		}
		return p.manError(NoSuchMan, DetailEmptyFrom, from, to, "there is no man on "+from.String())
	}
	if x.Color() != p.turn {
		return p.manError(NotYourTurn, DetailNotYourTurn, from, to, "the "+x.Kind().Name()+" on "+from.String()+" is "+
			colorName(x.Color())+"'s, and it is "+colorName(p.turn)+"'s turn")
	}
	who := manOn(x, from)
	if from == to {
		return p.manError(CannotMoveThatWay, DetailSameSquare, from, to, who+" must move to another square")
	}
	if y := p.board[to]; y != NoPiece && y.Color() == p.turn {
		e := p.manError(OwnManOnTarget, DetailOwnManOnTarget, from, to, who+" cannot go to "+to.String()+": your own "+y.Kind().Name()+" stands there")
		e.Blocker, e.BlockerPiece = to, y
		return e
	}
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	k := x.Kind()
	if k != Pawn && promo != NoKind {
		e := p.manError(PromotionNotAllowed, DetailPromotionByPiece, from, to, "only a pawn reaching the last rank promotes, and "+who+" is no pawn")
		e.Named = promo
		return e
	}
	switch k {
	case Pawn:
		if e := p.judgePawn(from, to, promo, df, dr); e.Kind != 0 {
			return e
		}
	case Knight:
		if !(absi(df) == 1 && absi(dr) == 2 || absi(df) == 2 && absi(dr) == 1) {
			return p.manError(CannotMoveThatWay, DetailKnightMove, from, to, who+" cannot go to "+to.String()+": a knight jumps two squares one way and one square sideways")
		}
	case Bishop, Rook, Queen:
		diag := absi(df) == absi(dr)
		straight := df == 0 || dr == 0
		if k == Bishop && !diag || k == Rook && !straight || k == Queen && !diag && !straight {
			d, how := DetailQueenMove, "a queen moves only along ranks, files and diagonals"
			switch k {
			case Bishop:
				d, how = DetailBishopMove, "a bishop moves only diagonally"
			case Rook:
				d, how = DetailRookMove, "a rook moves only along ranks and files"
			}
			return p.manError(CannotMoveThatWay, d, from, to, who+" cannot go to "+to.String()+": "+how)
		}
		if s, ok := p.firstBetween(from, to); ok {
			return p.blocked(from, to, s)
		}
	case King:
		if absi(df) == 2 && dr == 0 && from == castleFrom(p.turn) {
			return p.judgeCastling(to)
		}
		if absi(df) > 1 || absi(dr) > 1 {
			return p.manError(CannotMoveThatWay, DetailKingMove, from, to, who+" cannot go to "+to.String()+": a king moves one square at a time (or two when castling)")
		}
	}
	return p.judgeSafety(from, to, promo)
}

// manError returns an error about the man on from (if any) going to to.
func (p *Position) manError(k MoveErrorKind, d MoveErrorDetail, from, to Square, msg string) MoveError {
	return MoveError{Kind: k, Detail: d, Msg: msg, Piece: p.board[from], From: from, To: to,
		FromFile: -1, FromRank: -1, Blocker: NoSquare, Attacked: NoSquare}
}

// judgePawn checks a pawn's move shape, its blockers and its promotion.
func (p *Position) judgePawn(from, to Square, promo Kind, df, dr int) MoveError {
	who := manOn(p.board[from], from)
	fwd := 1
	if p.turn == Black {
		fwd = -1
	}
	pushedOnto := func() MoveError {
		if p.ice.Has(to) {
			e := p.manError(PawnCannotPushOntoIce, DetailPawnPushOntoIce, from, to, who+" cannot push onto the ice on "+to.String()+": a pawn takes ice only diagonally")
			e.Blocker = to
			return e
		}
		if y := p.board[to]; y != NoPiece {
			e := p.manError(BlockedByMan, DetailPawnBlocked, from, to, who+" cannot move to "+to.String()+": the "+y.Kind().Name()+" there blocks it (a pawn captures only diagonally)")
			e.Blocker, e.BlockerPiece = to, y
			return e
		}
		return MoveError{}
	}
	switch {
	case df == 0 && dr == fwd:
		if e := pushedOnto(); e.Kind != 0 {
			return e
		}
	case df == 0 && dr == 2*fwd:
		start := 1
		if p.turn == Black {
			start = 6
		}
		if from.Rank() != start {
			return p.manError(CannotMoveThatWay, DetailPawnDoubleStep, from, to, who+" cannot go to "+to.String()+": a pawn moves two squares only from its starting square")
		}
		mid := Square(int(from) + 8*fwd)
		if p.ice.Has(mid) {
			e := p.manError(BlockedByIce, DetailBlockedByIce, from, to, who+" cannot reach "+to.String()+": ice on "+mid.String()+" blocks it")
			e.Blocker = mid
			return e
		}
		if y := p.board[mid]; y != NoPiece {
			e := p.manError(BlockedByMan, DetailBlockedByMan, from, to, who+" cannot reach "+to.String()+": the "+y.Kind().Name()+" on "+mid.String()+" blocks it")
			e.Blocker, e.BlockerPiece = mid, y
			return e
		}
		if e := pushedOnto(); e.Kind != 0 {
			return e
		}
	case absi(df) == 1 && dr == fwd:
		if p.board[to] == NoPiece && !p.ice.Has(to) && to != p.ep {
			// A player who tries en passant too late should learn why.
			epRank := 4 // where a pawn stands to take en passant: its fifth rank
			if p.turn == Black {
				epRank = 3
			}
			if beside := SquareAt(to.File(), from.Rank()); from.Rank() == epRank && p.board[beside] == MakePiece(p.turn.Other(), Pawn) {
				e := p.manError(CannotMoveThatWay, DetailEnPassantLapsed, from, to, who+" cannot go to "+to.String()+": it is empty, and the pawn on "+beside.String()+
					" can be taken en passant only on the move right after its double step (an Ice Age ends that right too)")
				e.Blocker, e.BlockerPiece = beside, p.board[beside]
				return e
			}
			return p.manError(CannotMoveThatWay, DetailPawnCapturesOnly, from, to, who+" cannot go to "+to.String()+": a pawn moves diagonally only to capture, and "+to.String()+" is empty")
		}
	default:
		return p.manError(CannotMoveThatWay, DetailPawnMove, from, to, who+" cannot go to "+to.String()+": a pawn moves straight forward, or one square diagonally forward to capture")
	}
	last := to.Rank() == 7 || to.Rank() == 0
	switch {
	case last && promo == NoKind:
		return p.manError(NoPromotionPiece, DetailNoPromotionPiece, from, to, who+" reaches the last rank: say what it becomes, e.g. "+to.String()+"=Q")
	case last && (promo == King || promo == Pawn):
		e := p.manError(PromotionNotAllowed, DetailPromotionToKingOrPawn, from, to, "a pawn cannot become a "+promo.Name()+": choose a queen, rook, bishop or knight")
		e.Named = promo
		return e
	case !last && promo != NoKind:
		e := p.manError(PromotionNotAllowed, DetailPromotionTooEarly, from, to, who+" does not reach the last rank on "+to.String()+", so it cannot promote")
		e.Named = promo
		return e
	}
	return MoveError{}
}

// judgeCastling checks castling of the side to move with the king going to
// to (g- or c-file), then the safety of the king.
func (p *Position) judgeCastling(to Square) MoveError {
	c := p.turn
	home := castleFrom(c)
	kingside := to > home
	right, side, rookFrom := WhiteKingside, "kingside", home+3
	if !kingside {
		right, side, rookFrom = WhiteQueenside, "queenside", home-4
	}
	if c == Black {
		right <<= 2
	}
	castlingError := func(d MoveErrorDetail, msg string) MoveError {
		e := p.manError(CastlingNotAllowed, d, home, to, msg)
		e.Castling = right
		return e
	}
	if p.castling&right == 0 {
		return castlingError(DetailCastlingRightLost, colorName(c)+" can no longer castle "+side+": the king or the rook on "+
			rookFrom.String()+" has moved, been taken or frozen")
	}
	lo, hi := home+1, rookFrom
	if !kingside {
		lo, hi = rookFrom+1, home
	}
	for s := lo; s < hi; s++ {
		if p.ice.Has(s) {
			e := castlingError(DetailCastlingBlockedByIce, "you cannot castle "+side+": ice on "+s.String()+" stands between king and rook")
			e.Blocker = s
			return e
		}
		if y := p.board[s]; y != NoPiece {
			e := castlingError(DetailCastlingBlockedByMan, "you cannot castle "+side+": the "+y.Kind().Name()+" on "+s.String()+" stands between king and rook")
			e.Blocker, e.BlockerPiece = s, y
			return e
		}
	}
	them := c.Other()
	attacked := func(d MoveErrorDetail, s Square, a Bitboard, msg string) MoveError {
		e := castlingError(d, msg)
		e.Attacked, e.Attackers = s, p.placements(a)
		return e
	}
	if a := p.whoAttacks(home, them); a != 0 {
		return attacked(DetailCastlingInCheck, home, a, "you cannot castle out of check: "+p.menList(a)+" "+attack(a)+" your king")
	}
	cross := (home + to) / 2
	if a := p.whoAttacks(cross, them); a != 0 {
		return attacked(DetailCastlingThroughAttack, cross, a, "you cannot castle "+side+": the king would cross "+cross.String()+", which "+p.menList(a)+" "+attack(a))
	}
	if a := p.whoAttacks(to, them); a != 0 {
		return attacked(DetailCastlingIntoAttack, to, a, "you cannot castle "+side+": the king would land on "+to.String()+", which "+p.menList(a)+" "+attack(a))
	}
	return p.judgeSafety(home, to, NoKind)
}

// judgeSafety checks that the mover's king is not attacked after the move
// (and after the Ice Age on Black's Ice-Age move, docs/rules.md §4.5).
func (p *Position) judgeSafety(from, to Square, promo Kind) MoveError {
	after := p.boardAfter(from, to, promo)
	if p.IceAgeNow() {
		frozen, filled := iceAgeSquares(after.men[White]|after.men[Black], after.ice)
		for b := frozen; b != 0; b &= b - 1 {
			after.remove(b.First())
		}
		after.ice |= frozen | filled
	}
	us, them := p.turn, p.turn.Other()
	k, ok := after.KingSquare(us)
	if !ok {
		return MoveError{} // the king froze: legal, and the game is lost (docs/rules.md §4.5)
	}
	a := after.whoAttacks(k, them)
	if a == 0 {
		return MoveError{}
	}
	x := p.board[from]
	who := manOn(x, from)
	by := after.menList(a)
	attacked := func(k MoveErrorKind, d MoveErrorDetail, s Square, a Bitboard, on *Position, msg string) MoveError {
		e := p.manError(k, d, from, to, msg)
		e.Attacked, e.Attackers = s, on.placements(a)
		return e
	}
	if x.Kind() == King {
		if p.ice.Has(to) {
			return attacked(KingCannotTakeAttackedIce, DetailIceAttacked, to, a, &after, "the king cannot take the ice on "+to.String()+": "+by+" "+attack(a)+" that square")
		}
		return attacked(LeavesKingInCheck, DetailKingAttacked, to, a, &after, "the king cannot go to "+to.String()+": "+by+" "+attack(a)+" that square")
	}
	if ks, ok := p.KingSquare(us); ok {
		// The check is left unanswered only when a checker still attacks
		// the king; a man that blocks or takes the checker but was pinned
		// exposes the king to another attacker instead.
		if c := p.whoAttacks(ks, them); c&a != 0 {
			return attacked(LeavesKingInCheck, DetailCheckNotAnswered, ks, c, p,
				"your king is in check from "+p.menList(c)+", and moving "+who+" to "+to.String()+" does not stop it")
		}
	}
	return attacked(LeavesKingInCheck, DetailPinned, k, a, &after, who+" is pinned: moving it would expose your king to "+by)
}

// boardAfter returns the men and ice of p after the move from → to, without
// the Ice Age and without any check of legality: captures (of men, of ice,
// en passant), promotion and the castling rook are done; clocks, rights and
// the side to move are left as they were.
func (p *Position) boardAfter(from, to Square, promo Kind) Position {
	q := *p
	x := q.board[from]
	q.remove(from)
	q.remove(to)
	q.ice &^= Bit(to)
	if x.Kind() == Pawn && to == p.ep && from.File() != to.File() {
		q.remove(SquareAt(to.File(), from.Rank()))
	}
	if promo != NoKind {
		x = MakePiece(x.Color(), promo)
	}
	q.put(to, x)
	if x.Kind() == King && absi(to.File()-from.File()) == 2 {
		rook := SquareAt(7, from.Rank())
		dst := SquareAt(5, from.Rank())
		if to.File() == 2 {
			rook, dst = SquareAt(0, from.Rank()), SquareAt(3, from.Rank())
		}
		r := q.board[rook]
		q.remove(rook)
		q.put(dst, r)
	}
	return q
}

// whoAttacks returns the men of colour by that attack s; men and ice
// block lines.
func (p *Position) whoAttacks(s Square, by Color) Bitboard {
	var a Bitboard
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
				pawn := k == Pawn && diag && i == 1 && (by == White && d[1] == -1 || by == Black && d[1] == 1)
				if k == Queen || diag && k == Bishop || !diag && k == Rook || i == 1 && k == King || pawn {
					a |= Bit(t)
				}
			}
			break
		}
	}
	for _, d := range [8][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}} {
		nf, nr := f+d[0], r+d[1]
		if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 && p.board[SquareAt(nf, nr)] == MakePiece(by, Knight) {
			a |= Bit(SquareAt(nf, nr))
		}
	}
	return a
}

// firstBetween returns the first occupied square (man or ice) strictly
// between from and to on their common line.
func (p *Position) firstBetween(from, to Square) (Square, bool) {
	df, dr := signi(to.File()-from.File()), signi(to.Rank()-from.Rank())
	occ := p.Occupied()
	for f, r := from.File()+df, from.Rank()+dr; SquareAt(f, r) != to; f, r = f+df, r+dr {
		if s := SquareAt(f, r); occ.Has(s) {
			return s, true
		}
	}
	return NoSquare, false
}

// blocked explains that the square s on the way from from to to is
// occupied.
func (p *Position) blocked(from, to, s Square) MoveError {
	who := manOn(p.board[from], from)
	if p.ice.Has(s) {
		e := p.manError(BlockedByIce, DetailBlockedByIce, from, to, who+" cannot reach "+to.String()+": ice on "+s.String()+" blocks it")
		e.Blocker = s
		return e
	}
	y := p.board[s]
	owner := "your"
	if y.Color() != p.turn {
		owner = "the " + y.Color().String()
	}
	e := p.manError(BlockedByMan, DetailBlockedByMan, from, to, who+" cannot reach "+to.String()+": "+owner+" "+y.Kind().Name()+" on "+s.String()+" blocks it")
	e.Blocker, e.BlockerPiece = s, y
	return e
}

// menList names the men on the squares of b, e.g. "the bishop on b5" or
// "the rook on a1 and the queen on h4".
func (p *Position) menList(b Bitboard) string {
	var parts []string
	for ; b != 0; b &= b - 1 {
		s := b.First()
		parts = append(parts, manOn(p.board[s], s))
	}
	return strings.Join(parts, " and ")
}

// attack is the verb after menList(b): one man attacks, two attack.
func attack(b Bitboard) string {
	if b.Count() > 1 {
		return "attack"
	}
	return "attacks"
}

// placements returns the men on the squares of b, by square.
func (p *Position) placements(b Bitboard) []Placement {
	out := make([]Placement, 0, b.Count())
	for ; b != 0; b &= b - 1 {
		s := b.First()
		out = append(out, Placement{Square: s, Piece: p.board[s]})
	}
	return out
}

// manOn names a man by kind and square, e.g. "the knight on f3".
func manOn(x Piece, s Square) string { return "the " + x.Kind().Name() + " on " + s.String() }

// colorName returns "White" or "Black", capitalised as a player's name.
func colorName(c Color) string {
	if c == White {
		return "White"
	}
	return "Black"
}

// castleFrom returns the square a king of colour c castles from.
func castleFrom(c Color) Square {
	if c == White {
		return Square(4)
	}
	return Square(60)
}

func absi(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func signi(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

// explain returns why no legal move of p fits spec; legal holds p's legal
// moves.
func (p *Position) explain(spec *moveSpec, legal []Move) *MoveError {
	e := p.explainRules(spec, legal)
	if e == nil {
		// The rules here are decided as the move generator decides them (a
		// test holds the two together); should they ever part, the player
		// still gets a true answer.
		e = NewMoveError(CannotMoveThatWay, DetailNotLegal, spec.text, spec.text+" is not a legal move here")
	}
	return e
}

// explainRules is explain without the last resort: it returns nil when the
// rules find nothing wrong.
func (p *Position) explainRules(spec *moveSpec, legal []Move) *MoveError {
	// judged fills in what judge leaves to its caller.
	judged := func(e MoveError, m Move) *MoveError {
		if e.Kind == 0 {
			return nil
		}
		e.Text, e.Move = spec.text, m
		return &e
	}
	if len(legal) == 0 {
		o := p.Outcome()
		e := NewMoveError(GameOver, DetailGameOver, spec.text, "the game is over: "+o.Reason.String())
		e.Outcome = o
		return e
	}
	us := p.turn
	if spec.castle != 0 {
		from := castleFrom(us)
		to := from + 2
		right := WhiteKingside
		if spec.castle == castleQueenside {
			to, right = from-2, WhiteQueenside
		}
		if us == Black {
			right <<= 2
		}
		m := NewMove(from, to, NoKind)
		if p.board[from] != MakePiece(us, King) {
			e := NewMoveError(CastlingNotAllowed, DetailCastlingKingMoved, spec.text, "you cannot castle: your king has left "+from.String())
			e.Move, e.From, e.To, e.Castling = m, from, to, right
			return e
		}
		return judged(p.judge(from, to, NoKind), m)
	}
	if spec.fromFile >= 0 && spec.fromRank >= 0 {
		from := SquareAt(spec.fromFile, spec.fromRank)
		m := NewMove(from, spec.to, spec.promo)
		if x := p.board[from]; x != NoPiece && x.Color() == us && spec.piece != NoKind && x.Kind() != spec.piece && !spec.orPawn {
			e := p.manError(NoSuchMan, DetailOtherManOnFrom, from, spec.to,
				"the man on "+from.String()+" is a "+x.Kind().Name()+", not a "+spec.piece.Name())
			e.Named = spec.piece
			return judged(e, m)
		}
		return judged(p.judge(from, spec.to, spec.promo), m)
	}
	// The men the text may mean.
	var cands Bitboard
	kinds := p.Pieces(us, spec.piece)
	if spec.orPawn {
		kinds |= p.Pieces(us, Bishop)
	}
	for b := kinds; b != 0; b &= b - 1 {
		s := b.First()
		if spec.fromRank >= 0 && s.Rank() != spec.fromRank {
			continue
		}
		if p.board[s].Kind() == Pawn {
			file := spec.fromFile
			if file < 0 {
				file = spec.to.File() // a push
			}
			if s.File() != file {
				continue
			}
		} else if spec.fromFile >= 0 && s.File() != spec.fromFile && !spec.orPawn {
			continue
		}
		cands |= Bit(s)
	}
	// A push is meant for the pawn nearest behind the target.
	if spec.piece == Pawn && spec.fromFile < 0 && cands != 0 {
		var behind Bitboard
		for b := cands; b != 0; b &= b - 1 {
			if s := b.First(); us == White && s < spec.to || us == Black && s > spec.to {
				behind |= Bit(s)
			}
		}
		if behind != 0 {
			if us == White {
				cands = Bit(Square(63 - bits.LeadingZeros64(uint64(behind))))
			} else {
				cands = Bit(behind.First())
			}
		}
	}
	name := spec.piece.Name()
	if spec.orPawn {
		name = "pawn or bishop"
	}
	// textError is an error about the men the text names, not one man.
	textError := func(k MoveErrorKind, d MoveErrorDetail, msg string) *MoveError {
		e := NewMoveError(k, d, spec.text, msg)
		e.To = spec.to
		if !spec.orPawn {
			e.Named = spec.piece
		}
		return e
	}
	switch cands.Count() {
	case 0:
		where := ""
		if spec.fromFile >= 0 {
			where = " on the " + string(rune('a'+spec.fromFile)) + "-file"
		}
		if spec.fromRank >= 0 {
			where += " on rank " + string(rune('1'+spec.fromRank))
		}
		if spec.piece == Pawn && spec.fromFile < 0 && !spec.orPawn {
			return textError(NoSuchMan, DetailNoPawnToPush, "you have no pawn on the "+string(rune('a'+spec.to.File()))+"-file to push to "+spec.to.String()+
				" (a pawn capture names the pawn's file, e.g. exd5)")
		}
		d := DetailNoManOfKind
		if spec.orPawn {
			d = DetailNoPawnOrBishop
		}
		e := textError(NoSuchMan, d, "you have no "+name+where)
		e.FromFile, e.FromRank = spec.fromFile, spec.fromRank
		return e
	case 1:
		from := cands.First()
		return judged(p.judge(from, spec.to, spec.promo), NewMove(from, spec.to, spec.promo))
	}
	if y := p.board[spec.to]; y != NoPiece && y.Color() == us {
		e := textError(OwnManOnTarget, DetailOwnManOnTargetOfMany, "you cannot move onto "+spec.to.String()+": your own "+y.Kind().Name()+" stands there")
		e.Blocker, e.BlockerPiece = spec.to, y
		return e
	}
	// Several men: the most telling reason wins; a man that cannot move
	// that way at all tells the least.
	var best *MoveError
	bestRank := 99
	shape := 0
	for b := cands; b != 0; b &= b - 1 {
		from := b.First()
		e := p.judge(from, spec.to, spec.promo)
		if e.Kind == 0 {
			continue
		}
		if e.Kind == CannotMoveThatWay {
			shape++
		}
		if r := kindRank(e.Kind); r < bestRank {
			best, bestRank = judged(e, NewMove(from, spec.to, spec.promo)), r
		}
	}
	if best == nil || shape == cands.Count() {
		d := DetailNoneCanGo
		if spec.orPawn {
			d = DetailNoPawnOrBishopCanGo
		}
		return textError(CannotMoveThatWay, d, "none of your "+plural(name)+" can go to "+spec.to.String())
	}
	return best
}

// kindRank orders the reasons by how much they tell a player who meant
// one of several men: the earlier, the more telling.
func kindRank(k MoveErrorKind) int {
	switch k {
	case LeavesKingInCheck, KingCannotTakeAttackedIce:
		return 0
	case NoPromotionPiece, PromotionNotAllowed:
		return 1
	case BlockedByIce, BlockedByMan, PawnCannotPushOntoIce:
		return 2
	case CastlingNotAllowed:
		return 3
	case OwnManOnTarget:
		return 4
	}
	return 5
}

func plural(name string) string {
	if name == "pawn or bishop" {
		return "pawns or bishops"
	}
	return name + "s"
}

// FrozenMeant finds the man that a refused move may have meant but that
// an Ice Age of m froze, so that the refusal can say what happened
// there: the man frozen on e's from square when it holds ice; or, when
// the text names a kind the mover has none of, or a man that cannot go
// that way, a man of the mover's of that kind frozen on a square still
// iced, from where it could go to e's target, on the file and rank the
// text gives. The latest Ice Age is looked at first.
func (m *Match) FrozenMeant(e *MoveError) (FrozenMan, bool) {
	if e == nil {
		return FrozenMan{}, false
	}
	pos := &m.pos
	us := pos.turn
	kind := e.Named
	if kind == NoKind && e.Piece != NoPiece {
		kind = e.Piece.Kind()
	}
	for i := len(m.iceAges) - 1; i >= 0; i-- {
		ev := m.iceAges[i]
		if ev == nil {
			continue
		}
		number := ev.Before.fullmove - 1
		for _, f := range ev.Frozen {
			if !pos.ice.Has(f.Square) {
				continue // taken since: the square no longer tells of it
			}
			switch {
			case e.Detail == DetailIceOnFrom:
				if f.Square != e.From {
					continue
				}
			case e.Kind == NoSuchMan || e.Kind == CannotMoveThatWay:
				if kind == NoKind || e.To == NoSquare || f.Piece != MakePiece(us, kind) || !wouldGo(f.Piece, f.Square, e.To) ||
					e.FromFile >= 0 && f.Square.File() != e.FromFile || e.FromRank >= 0 && f.Square.Rank() != e.FromRank {
					continue
				}
			default:
				continue
			}
			return FrozenMan{Placement: f, BlackMove: number}, true
		}
	}
	return FrozenMan{}, false
}

// wouldGo reports whether man x on from moves in a shape that reaches
// to, whatever stands between.
func wouldGo(x Piece, from, to Square) bool {
	df, dr := to.File()-from.File(), to.Rank()-from.Rank()
	if from == to {
		return false
	}
	switch x.Kind() {
	case Knight:
		return absi(df) == 1 && absi(dr) == 2 || absi(df) == 2 && absi(dr) == 1
	case Bishop:
		return absi(df) == absi(dr)
	case Rook:
		return df == 0 || dr == 0
	case Queen:
		return absi(df) == absi(dr) || df == 0 || dr == 0
	case King:
		return absi(df) <= 1 && absi(dr) <= 1
	case Pawn:
		fwd := 1
		if x.Color() == Black {
			fwd = -1
		}
		return absi(df) <= 1 && dr == fwd || df == 0 && dr == 2*fwd
	}
	return false
}

// NoteFrozen tells, with e, of the man f that the move may have meant
// and that an Ice Age froze (Match.FrozenMeant): what happened on its
// square replaces "there is ice", and follows any other reason.
func (e *MoveError) NoteFrozen(f FrozenMan) {
	e.Frozen = &f
	froze := "the " + strings.ToLower(colorName(f.Piece.Color())) + " " + f.Piece.Kind().Name() + " on " + f.Square.String() +
		" froze in the Ice Age after Black's move " + strconv.Itoa(f.BlackMove) + ": it is ice now"
	if e.Detail == DetailIceOnFrom {
		e.Msg = froze
		return
	}
	e.Msg += ". " + strings.ToUpper(froze[:1]) + froze[1:]
}
