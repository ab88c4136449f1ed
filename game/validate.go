package game

import (
	"strconv"
	"strings"
)

// illegalReason says why the position cannot arise in a game, or "".
// ParseFEN refuses, beyond the form of the text (and the kings, castling
// rights and en-passant square that it checks itself):
//
//   - A side with more than 8 pawns or 16 men: nothing adds a man, and a
//     promotion turns a pawn into a piece. Promotions are not counted
//     kind by kind (a second queen beside eight pawns would be refused
//     then): the rules' own published example of an Ice Age
//     (docs/rules.md §4) has three white knights beside eight pawns, and
//     it must read.
//   - A pawn on the first or last rank.
//   - The side not to move in check: it would have moved into it.
//   - Checks on the side to move that no one move gives. A move gives
//     check with the man that moved and by uncovering a line through a
//     square it left, which only a bishop, rook or queen can use. So
//     there are at most two checkers (en passant and castling leave two
//     squares, but give no more), and of two checkers one is a bishop,
//     rook or queen; two bishops never check together (the bishop that
//     moved, or a pawn promoting to one, would leave one diagonal through
//     the king for another, and they do not meet); and two checkers never
//     stand on one line through the king, as the man that moved would
//     have crossed the king.
//   - With an en-passant square, a check that the double push it names
//     cannot have given: from neither the pushed pawn nor along a line
//     through the square the pawn left.
//
// Each rule holds in Ice Age Chess as in chess: an Ice Age only takes
// men away (a frozen man turns to ice) and only adds ice, so it neither
// adds a man nor uncovers a line, and a capture of ice uncovers a line as
// the capture of a man does. A missing king is not refused: it froze in
// an Ice Age (docs/rules.md §4), and the game is over.
func (p *Position) illegalReason() string {
	for _, c := range []Color{White, Black} {
		if msg := p.materialReason(c); msg != "" {
			return msg
		}
	}
	them := p.turn.Other()
	if k, ok := p.KingSquare(them); ok && p.Attacked(k, p.turn) {
		return "the side not to move (" + them.String() + ") is in check"
	}
	return p.checkReason()
}

// materialReason says why c's men cannot all be there, or "".
func (p *Position) materialReason(c Color) string {
	side := title(c)
	pawns := p.Pieces(c, Pawn).Count()
	if pawns > 8 {
		return side + " has " + strconv.Itoa(pawns) + " pawns; a side has at most 8"
	}
	if n := p.men[c].Count(); n > 16 {
		return side + " has " + strconv.Itoa(n) + " men; a side has at most 16"
	}
	return ""
}

// checkReason says why the checks on the side to move cannot come from
// one move, or "".
func (p *Position) checkReason() string {
	k, ok := p.KingSquare(p.turn)
	if !ok {
		return ""
	}
	them := p.turn.Other()
	checkers := p.attackersOf(k, them, p.Occupied())
	king := p.turn.String() + " king on " + k.String()
	switch n := checkers.Count(); {
	case n == 0:
		return ""
	case n > 2:
		return "the " + king + " is in check from " + strconv.Itoa(n) + " men (" + p.describeMen(checkers) +
			"); one move gives check from at most two"
	case n == 2:
		a, b := checkers.First(), (checkers & (checkers - 1)).First()
		ka, kb := p.board[a].Kind(), p.board[b].Kind()
		men := p.describeMen(checkers)
		switch {
		case !isSlider(ka) && !isSlider(kb):
			return "the " + king + " is in check from two men (" + men + ") of which neither is a bishop, rook or queen; " +
				"one move gives at most one such check, and only a bishop, rook or queen gives a check that a move uncovers"
		case ka == Bishop && kb == Bishop:
			return "the " + king + " is in check from two bishops (" + men + "); no move gives such a double check"
		case line[a][k].Has(b):
			return "the " + king + " is in check from both sides of one line (" + men + "); no move gives such a double check"
		}
	}
	if p.ep != NoSquare {
		// The pawn that moved two squares stands beyond ep, and left the
		// square before it.
		pawnAt, from := p.ep+8, p.ep-8
		if them == Black {
			pawnAt, from = p.ep-8, p.ep+8
		}
		for b := checkers; b != 0; b &= b - 1 {
			s := b.First()
			if s != pawnAt && !between[s][k].Has(from) {
				return "the en-passant square " + p.ep.String() + " says the last move was " + from.String() + "-" + pawnAt.String() +
					", which cannot have given the check from the " + p.board[s].Kind().Name() + " on " + s.String()
			}
		}
	}
	return ""
}

// isSlider reports whether a man of kind k attacks along lines, and so
// can give a check that another man's move uncovers.
func isSlider(k Kind) bool { return k == Bishop || k == Rook || k == Queen }

// describeMen lists the men on b, e.g. "knight on c6, pawn on d7".
func (p *Position) describeMen(b Bitboard) string {
	var parts []string
	for ; b != 0; b &= b - 1 {
		s := b.First()
		parts = append(parts, p.board[s].Kind().Name()+" on "+s.String())
	}
	return strings.Join(parts, ", ")
}

// title returns "White" or "Black", for the start of a sentence.
func title(c Color) string {
	if c == White {
		return "White"
	}
	return "Black"
}
