package game

import (
	"fmt"
	"strconv"
	"strings"
)

// FENError says what is wrong with a FEN string and in which field.
type FENError struct {
	FEN   string // the text as given
	Field string // "board", "side to move", "castling", "en passant", "half-move clock", "full-move number" or "position"
	Msg   string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("invalid FEN (%s): %s", e.Field, e.Msg)
}

// ParseFEN reads a position in FEN with '*' for ice (docs/rules.md §6). The
// half-move clock and full-move number may be omitted (0 and 1); they are
// digits only, at most MaxMoveNumber. It refuses a position no game can
// reach, saying why: more than one king, 8 pawns or 16 men a side, a pawn
// on the first or last rank, castling rights without their king and rook
// on their home squares, an en-passant square that no double push just
// passed, the side not to move in check, and checks on the side to move
// that no one move gives (more than two checkers, two without a bishop,
// rook or queen among them, two bishops, two on one line through the
// king, or one that the double push named by the en-passant square cannot
// have given). Promotions are not counted kind by kind. A king may be
// missing, because it froze, so such a FEN is accepted (the game is then
// over). Errors are *FENError.
func ParseFEN(fen string) (Position, error) {
	var p Position
	fail := func(field, format string, args ...any) (Position, error) {
		return Position{}, &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return fail("position", "want 4 to 6 fields separated by spaces (board, side to move, castling, en passant, clocks), found %d", len(fields))
	}

	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("board", "want 8 ranks separated by '/', found %d", len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if f >= 8 && c != ' ' {
				return fail("board", "rank %d has more than 8 squares", r+1)
			}
			switch {
			case c >= '1' && c <= '8':
				f += int(c - '0')
				if f > 8 {
					return fail("board", "rank %d has more than 8 squares", r+1)
				}
			case c == '*':
				p.ice |= Bit(SquareAt(f, r))
				f++
			default:
				x := pieceFromFEN(c)
				if x == NoPiece {
					return fail("board", "%s on rank %d is not a man, a digit or '*' (ice)", describeChar(row, j), r+1)
				}
				s := SquareAt(f, r)
				if x.Kind() == Pawn && (r == 0 || r == 7) {
					return fail("board", "a pawn cannot stand on %s", s)
				}
				p.put(s, x)
				f++
			}
		}
		if f != 8 {
			return fail("board", "rank %d has %d squares, want 8", r+1, f)
		}
	}
	for _, c := range []Color{White, Black} {
		if p.Pieces(c, King).Count() > 1 {
			return fail("board", "%s has more than one king", c)
		}
	}

	switch fields[1] {
	case "w":
		p.turn = White
	case "b":
		p.turn = Black
	default:
		return fail("side to move", "%s: want w or b", QuoteInput(fields[1]))
	}

	if fields[2] != "-" {
		for _, c := range []byte(fields[2]) {
			var right Castling
			var king, rook Square
			switch c {
			case 'K':
				right, king, rook = WhiteKingside, E1, H1
			case 'Q':
				right, king, rook = WhiteQueenside, E1, A1
			case 'k':
				right, king, rook = BlackKingside, E8, H8
			case 'q':
				right, king, rook = BlackQueenside, E8, A8
			default:
				return fail("castling", "%s: want '-' or letters from KQkq", QuoteInput(fields[2]))
			}
			if p.castling&right != 0 {
				return fail("castling", "%s names %c twice", QuoteInput(fields[2]), c)
			}
			color := White
			if c >= 'a' {
				color = Black
			}
			if p.board[king] != MakePiece(color, King) || p.board[rook] != MakePiece(color, Rook) {
				return fail("castling", "%c needs the %s king on %s and a rook on %s", c, color, king, rook)
			}
			p.castling |= right
		}
	}

	p.ep = NoSquare
	if fields[3] != "-" {
		s, err := ParseSquare(fields[3])
		if err != nil {
			return fail("en passant", "%s: want '-' or a square", QuoteInput(fields[3]))
		}
		// The pawn that passed over s stands just beyond it, and the
		// square it left is empty.
		wantRank, pawnAt, from := 5, s-8, s+8
		if p.turn == Black {
			wantRank, pawnAt, from = 2, s+8, s-8
		}
		if s.Rank() != wantRank {
			return fail("en passant", "%s is not on rank %d, where a %s pawn's double step passes", s, wantRank+1, p.turn.Other())
		}
		if p.board[pawnAt] != MakePiece(p.turn.Other(), Pawn) || p.Occupied().Has(s) || p.Occupied().Has(from) {
			return fail("en passant", "%s: no %s pawn can just have moved two squares over it", s, p.turn.Other())
		}
		p.ep = s
	}

	p.fullmove = 1
	if len(fields) >= 5 {
		n, ok := parseCounter(fields[4], 0)
		if !ok {
			return fail("half-move clock", "%s: want a whole number from 0 to %d, digits only", QuoteInput(fields[4]), MaxMoveNumber)
		}
		p.halfmove = n
	}
	if len(fields) == 6 {
		n, ok := parseCounter(fields[5], 1)
		if !ok {
			return fail("full-move number", "%s: want a whole number from 1 to %d, digits only", QuoteInput(fields[5]), MaxMoveNumber)
		}
		p.fullmove = n
	}
	if msg := p.illegalReason(); msg != "" {
		return fail("position", "%s", msg)
	}
	return p, nil
}

// MaxMoveNumber is the largest full-move number and half-move clock that
// ParseFEN reads and that Apply writes. A game that could get there would
// need a million moves, so only one set up from a FEN near the limit can;
// Apply then keeps the counters within it (see Apply), so that every
// position the engine makes reads back. The half-move clock means the same
// from 100 on (the game is drawn), so stopping it there changes nothing.
const MaxMoveNumber = 1_000_000

// parseCounter reads a FEN counter: decimal digits only (no sign, no
// space), a value from min to MaxMoveNumber.
func parseCounter(text string, min int) (int, bool) {
	if text == "" || len(text) > 12 {
		return 0, false
	}
	for i := 0; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(text)
	return n, err == nil && n >= min && n <= MaxMoveNumber
}

// FEN returns the position in FEN with '*' for ice.
func (p *Position) FEN() string {
	var b strings.Builder
	b.Grow(90)
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			s := SquareAt(f, r)
			x := p.board[s]
			if x == NoPiece && !p.ice.Has(s) {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte('0' + byte(empty))
				empty = 0
			}
			if x != NoPiece {
				b.WriteByte(x.FENLetter())
			} else {
				b.WriteByte('*')
			}
		}
		if empty > 0 {
			b.WriteByte('0' + byte(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	if p.turn == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	if p.castling == NoCastling {
		b.WriteByte('-')
	}
	for i, l := range "KQkq" {
		if p.castling&(1<<i) != 0 {
			b.WriteRune(l)
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.ep.String())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.halfmove))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.fullmove))
	return b.String()
}

// String returns the FEN.
func (p Position) String() string { return p.FEN() }
