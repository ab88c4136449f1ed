package game

// Legal move generation. In every position but one kind, moves are made
// legal as they are generated, from three facts computed once:
//
//   - checkers: the enemy men attacking our king; in double check only the
//     king moves, in single check other men must capture the checker or
//     step between (mask);
//   - pinned: our men that alone stand between our king and an enemy
//     slider; each may move only along that line (line[king][man]);
//   - danger: every square the enemy attacks with our king lifted off the
//     board, which the king may not step on.
//
// Ice needs no special case beyond occupancy: it blocks every line (it is
// in occ), it is a target for every man but the pawn's push (it is not in
// own), and pawns capture it diagonally like an enemy man. En passant is
// tested by playing it on the occupancy, which covers the rare discovered
// checks along the rank (both pawns leave it) and the diagonals.
//
// The exception is Black's Ice-Age move (docs/rules.md §4.5), whose legality is
// judged after the Ice Age: those moves are generated pseudo-legally and
// each is played with its Ice Age and kept if Black's king is then safe or
// frozen (see iceAgeMoves in iceage.go).

// moveGen holds what the generators need to know about a position.
type moveGen struct {
	us       Color
	king     Square
	own      Bitboard // our men
	capture  Bitboard // enemy men and ice: what a man may take
	occ      Bitboard // men and ice
	checkers Bitboard
	mask     Bitboard // squares our men other than the king may move to (check evasion)
	pinned   Bitboard
	danger   Bitboard // enemy attacks with our king off the board
	avoid    Bitboard // squares the king may not step on: danger, or nothing when generating pseudo-legally
	pseudo   bool     // generate moves without the check and pin tests
}

// setup fills g for p. It returns false when a king is missing, so the game
// is over and there are no moves. pseudo asks for moves that obey how men
// move (and castling's own conditions) but may leave the king attacked.
func (g *moveGen) setup(p *Position, pseudo bool) bool {
	us := p.turn
	them := us ^ 1
	kings := p.kinds[King]
	if kings&p.men[White] == 0 || kings&p.men[Black] == 0 {
		return false
	}
	g.us = us
	g.king = (kings & p.men[us]).First()
	g.own = p.men[us]
	g.capture = p.men[them] | p.ice
	g.occ = p.men[White] | p.men[Black] | p.ice
	g.pseudo = pseudo
	g.checkers = p.attackersOf(g.king, them, g.occ)
	g.danger = p.attackedBy(them, g.occ&^Bit(g.king))
	if pseudo {
		g.mask, g.pinned, g.avoid = ^Bitboard(0), 0, 0
		return true
	}
	g.avoid = g.danger
	switch {
	case g.checkers == 0:
		g.mask = ^Bitboard(0)
	case single(g.checkers):
		g.mask = g.checkers | between[g.king][g.checkers.First()]
	default:
		g.mask = 0
	}
	g.pinned = 0
	enemy := p.men[them]
	snipers := (rookRays[g.king]&(p.kinds[Rook]|p.kinds[Queen]) |
		bishopRays[g.king]&(p.kinds[Bishop]|p.kinds[Queen])) & enemy
	for ; snipers != 0; snipers &= snipers - 1 {
		b := between[g.king][snipers.First()] & g.occ
		if single(b) && b&g.own != 0 {
			g.pinned |= b
		}
	}
	return true
}

// LegalMoves appends every legal move of the side to move to dst and
// returns the extended slice (docs/rules.md, ice and the Ice-Age move's special
// legality included). It ignores the fifty-move rule, and returns dst
// unchanged when either king is missing (the game is over by freezing). It
// allocates only if dst lacks room: a slice with room for 256 moves is
// enough for any position known (standard chess tops out at 218, and ice
// only takes the place of empty squares or men).
func (p *Position) LegalMoves(dst []Move) []Move {
	if p.IceAgeNow() {
		return p.iceAgeMoves(dst)
	}
	var g moveGen
	if !g.setup(p, false) {
		return dst
	}
	return p.generate(dst, &g)
}

// IsLegal reports whether m is a legal move for the side to move.
func (p *Position) IsLegal(m Move) bool {
	var buf [256]Move
	for _, x := range p.LegalMoves(buf[:0]) {
		if x == m {
			return true
		}
	}
	return false
}

// countLegal returns len(p.LegalMoves(nil)) without listing the moves in
// the usual case: it adds up the sizes of the target sets.
func (p *Position) countLegal() int {
	if p.IceAgeNow() {
		var buf [256]Move
		return len(p.iceAgeMoves(buf[:0]))
	}
	var g moveGen
	if !g.setup(p, false) {
		return 0
	}
	return p.count(&g)
}

// appendTargets appends a move from s to every square of t.
func appendTargets(dst []Move, s Square, t Bitboard) []Move {
	for ; t != 0; t &= t - 1 {
		dst = append(dst, Move(s)|Move(t.First())<<6)
	}
	return dst
}

// appendPawnMoves appends, for every target square of t, the pawn move
// from t-delta, as four promotions on the last rank.
func appendPawnMoves(dst []Move, t Bitboard, delta int) []Move {
	for ; t != 0; t &= t - 1 {
		to := t.First()
		m := Move(int(to)-delta) | Move(to)<<6
		if Bit(to)&(rank1|rank8) != 0 {
			dst = append(dst, m|Move(Queen)<<12, m|Move(Rook)<<12, m|Move(Bishop)<<12, m|Move(Knight)<<12)
		} else {
			dst = append(dst, m)
		}
	}
	return dst
}

// pawnSets returns, for our pawns in from, the squares reached by single
// pushes, double pushes, captures towards the a-file and captures towards
// the h-file (each as the set of target squares), and the square offsets
// of those four kinds of move.
func (g *moveGen) pawnSets(from Bitboard) (one, two, west, east Bitboard, d1, d2, dw, de int) {
	empty := ^g.occ
	if g.us == White {
		one = from << 8 & empty
		two = (one & (rank1 << 16)) << 8 & empty
		west = (from &^ fileA) << 7 & g.capture
		east = (from &^ fileH) << 9 & g.capture
		return one, two, west, east, 8, 16, 7, 9
	}
	one = from >> 8 & empty
	two = (one & (rank1 << 40)) >> 8 & empty
	west = (from &^ fileA) >> 9 & g.capture
	east = (from &^ fileH) >> 7 & g.capture
	return one, two, west, east, -8, -16, -9, -7
}

// castlingMoves returns the castling moves allowed now: the right is held
// (so king and rook stand at home), the squares between them are empty
// (ice blocks), the king is not in check and neither the square it crosses
// nor the one it lands on is attacked.
func (p *Position) castlingMoves(g *moveGen) (kingside, queenside bool) {
	if g.checkers != 0 {
		return false, false
	}
	const (
		wks, wqs = 1<<5 | 1<<6, 1<<1 | 1<<2 | 1<<3 // f1 g1; b1 c1 d1
		wkd, wqd = 1<<5 | 1<<6, 1<<2 | 1<<3        // squares that must be safe
	)
	right, shift := WhiteKingside, 0
	if g.us == Black {
		right, shift = BlackKingside, 56
	}
	kingside = p.castling&right != 0 && g.occ&(wks<<shift) == 0 && g.danger&(wkd<<shift) == 0
	queenside = p.castling&(right<<1) != 0 && g.occ&(wqs<<shift) == 0 && g.danger&(wqd<<shift) == 0
	return kingside, queenside
}

// enPassantFrom returns our pawns that may capture en passant now. Each is
// tried on the occupancy: the capturing pawn leaves its square and lands on
// the target, the captured pawn disappears, and our king must then be
// safe. In pseudo-legal generation no test is made.
func (p *Position) enPassantFrom(g *moveGen) Bitboard {
	if p.ep >= NoSquare {
		return 0
	}
	from := pawnAttacks[g.us^1][p.ep] & p.kinds[Pawn] & g.own
	if from == 0 || g.pseudo {
		return from
	}
	captured := p.ep - 8
	if g.us == Black {
		captured = p.ep + 8
	}
	var ok Bitboard
	for b := from; b != 0; b &= b - 1 {
		s := b.First()
		occ := g.occ&^Bit(s)&^Bit(captured) | Bit(p.ep)
		if p.attackersOf(g.king, g.us^1, occ)&^Bit(captured) == 0 {
			ok |= Bit(s)
		}
	}
	return ok
}

// generate appends the moves g allows.
func (p *Position) generate(dst []Move, g *moveGen) []Move {
	k := g.king
	dst = appendTargets(dst, k, kingAttacks[k]&^g.own&^g.avoid)
	if g.mask == 0 {
		return dst // double check: only the king moves
	}
	if ks, qs := p.castlingMoves(g); ks || qs {
		if ks {
			dst = append(dst, Move(k)|Move(k+2)<<6)
		}
		if qs {
			dst = append(dst, Move(k)|Move(k-2)<<6)
		}
	}
	targets := ^g.own & g.mask
	for b := p.kinds[Knight] & g.own &^ g.pinned; b != 0; b &= b - 1 {
		s := b.First()
		dst = appendTargets(dst, s, knightAttacks[s]&targets)
	}
	for b := (p.kinds[Bishop] | p.kinds[Queen]) & g.own; b != 0; b &= b - 1 {
		s := b.First()
		t := bishopAttacks(s, g.occ) & targets
		if g.pinned.Has(s) {
			t &= line[k][s]
		}
		dst = appendTargets(dst, s, t)
	}
	for b := (p.kinds[Rook] | p.kinds[Queen]) & g.own; b != 0; b &= b - 1 {
		s := b.First()
		t := rookAttacks(s, g.occ) & targets
		if g.pinned.Has(s) {
			t &= line[k][s]
		}
		dst = appendTargets(dst, s, t)
	}

	pawns := p.kinds[Pawn] & g.own
	one, two, west, east, d1, d2, dw, de := g.pawnSets(pawns &^ g.pinned)
	dst = appendPawnMoves(dst, one&g.mask, d1)
	dst = appendPawnMoves(dst, two&g.mask, d2)
	dst = appendPawnMoves(dst, west&g.mask, dw)
	dst = appendPawnMoves(dst, east&g.mask, de)
	for b := pawns & g.pinned; b != 0; b &= b - 1 {
		s := b.First()
		allowed := line[k][s] & g.mask
		one, two, west, east, d1, d2, dw, de := g.pawnSets(Bit(s))
		dst = appendPawnMoves(dst, one&allowed, d1)
		dst = appendPawnMoves(dst, two&allowed, d2)
		dst = appendPawnMoves(dst, west&allowed, dw)
		dst = appendPawnMoves(dst, east&allowed, de)
	}
	for b := p.enPassantFrom(g); b != 0; b &= b - 1 {
		dst = append(dst, Move(b.First())|Move(p.ep)<<6)
	}
	return dst
}

// pawnCount returns the number of pawn moves that land on t: four for each
// square on the last rank.
func pawnCount(t Bitboard) int {
	return popcount(t) + 3*popcount(t&(rank1|rank8))
}

// count returns how many moves generate would append.
func (p *Position) count(g *moveGen) int {
	k := g.king
	n := popcount(kingAttacks[k] &^ g.own &^ g.avoid)
	if g.mask == 0 {
		return n
	}
	if ks, qs := p.castlingMoves(g); ks || qs {
		if ks {
			n++
		}
		if qs {
			n++
		}
	}
	targets := ^g.own & g.mask
	for b := p.kinds[Knight] & g.own &^ g.pinned; b != 0; b &= b - 1 {
		n += popcount(knightAttacks[b.First()] & targets)
	}
	for b := (p.kinds[Bishop] | p.kinds[Queen]) & g.own; b != 0; b &= b - 1 {
		s := b.First()
		t := bishopAttacks(s, g.occ) & targets
		if g.pinned.Has(s) {
			t &= line[k][s]
		}
		n += popcount(t)
	}
	for b := (p.kinds[Rook] | p.kinds[Queen]) & g.own; b != 0; b &= b - 1 {
		s := b.First()
		t := rookAttacks(s, g.occ) & targets
		if g.pinned.Has(s) {
			t &= line[k][s]
		}
		n += popcount(t)
	}

	pawns := p.kinds[Pawn] & g.own
	one, two, west, east, _, _, _, _ := g.pawnSets(pawns &^ g.pinned)
	n += pawnCount(one&g.mask) + popcount(two&g.mask) + pawnCount(west&g.mask) + pawnCount(east&g.mask)
	for b := pawns & g.pinned; b != 0; b &= b - 1 {
		s := b.First()
		allowed := line[k][s] & g.mask
		one, two, west, east, _, _, _, _ := g.pawnSets(Bit(s))
		n += pawnCount((one | two | west | east) & allowed)
	}
	return n + popcount(p.enPassantFrom(g))
}
