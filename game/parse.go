package game

import (
	"strings"
)

// moveSpec is what a typed move says, before the position is consulted.
type moveSpec struct {
	text     string // the typed text, trimmed, for messages
	castle   int    // 0, castleKingside or castleQueenside
	piece    Kind   // the man named; Pawn when no letter was given, NoKind when a from square names it
	orPawn   bool   // a lower-case "b" that may be the b-pawn's file or a bishop
	orBPawn  bool   // an upper-case "B" that is a bishop unless only the b-pawn fits
	fromFile int    // 0–7, or -1 when not given
	fromRank int    // 0–7, or -1 when not given
	to       Square
	promo    Kind
}

const (
	castleKingside  = 1
	castleQueenside = 2
)

// ParseMove reads a move typed by a player for the position p and returns
// it if it is legal. It accepts:
//
//   - SAN, strict or forgiving: e4, exd5, ed5, Nf3, nf3, Nbd2, R1e2, Qh4e1,
//     Nxf3 (the x is optional and may be ':'), e8=Q, e8Q, e8q, O-O, 0-0,
//     O-O-O, 0-0-0, with any trailing +, #, !, ?, !? or e.p.;
//   - UCI and long algebraic: e2e4, e7e8q, e2-e4, e2 e4, e2xd3, Ng1f3,
//     Ng1-f3, Ng1xf3;
//   - the figurine letters ♔♕♖♗♘ (and the black ones) for K Q R B N.
//
// A lower-case "b" at the start is read as the b-pawn's file when a b-pawn
// move fits, else as a bishop ("bxc3" is the b-pawn taking on c3 unless only
// a bishop can go there); an upper-case "B" is a bishop unless only the
// b-pawn fits (never in place of a bishop move that only a pin or a check
// forbids), and other files may be typed in capitals ("E4", "Exd5"), as
// phones like to write them. Text that is not a move in any of these forms
// gives a *SyntaxError; a move that is not legal here gives a *MoveError
// whose Kind and message say why, e.g. "the rook on a1 cannot reach a5: ice
// on a3 blocks it". Explaining runs only when no legal move fits the text
// as first read.
func ParseMove(p *Position, text string) (Move, error) {
	var buf [maxMoves]Move
	return parseMove(p, text, p.LegalMoves(buf[:0]))
}

// parseMove is ParseMove with the legal moves of p already generated.
func parseMove(p *Position, text string, legal []Move) (Move, error) {
	spec, err := parseSpec(text)
	if err != nil {
		return NullMove, err
	}
	var found [maxMoves]Move
	matches := spec.match(p, legal, found[:0], false)
	if len(matches) == 0 && (spec.orPawn || spec.orBPawn) {
		// The other reading of a "b" is a guess, taken only when the first
		// reading's man cannot make the move. When that man could, but
		// the move would leave the king in check ("Bxc3" with a pinned
		// bishop), the player meant it: playing the b-pawn instead would
		// make a move nobody asked for.
		first := spec
		first.orPawn = false
		if e := p.explain(&first, legal); e.Kind == LeavesKingInCheck || e.Kind == GameOver {
			return NullMove, e
		}
		matches = spec.match(p, legal, found[:0], true)
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return NullMove, p.explain(&spec, legal)
	}
	cands := append([]Move(nil), matches...)
	names := make([]string, len(cands))
	for i, m := range cands {
		names[i] = p.san(m, legal, "")
	}
	list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	e := NewMoveError(Ambiguous, DetailAmbiguous, spec.text, spec.text+" is ambiguous: "+list)
	e.Candidates, e.SANs, e.To = cands, names, spec.to
	if spec.piece != NoKind && !spec.orPawn {
		e.Named = spec.piece
	}
	return NullMove, e
}

// match appends to dst the legal moves that fit s. With alt set, the
// other reading of a "b" is taken: a bishop for a lower-case one, the
// b-pawn for an upper-case one.
func (s *moveSpec) match(p *Position, legal, dst []Move, alt bool) []Move {
	piece, fromFile := s.piece, s.fromFile
	switch {
	case alt && s.orPawn:
		piece, fromFile = Bishop, -1
	case alt && s.orBPawn:
		piece, fromFile = Pawn, 1
	}
	for _, m := range legal {
		from, to := m.From(), m.To()
		x := p.board[from]
		if s.castle != 0 {
			if x.Kind() == King && absi(to.File()-from.File()) == 2 && (to.File() == 6) == (s.castle == castleKingside) {
				dst = append(dst, m)
			}
			continue
		}
		if to != s.to || piece != NoKind && x.Kind() != piece || m.Promotion() != s.promo ||
			s.fromRank >= 0 && from.Rank() != s.fromRank {
			continue
		}
		if fromFile >= 0 && from.File() != fromFile {
			continue
		}
		// A pawn move without a from file is a push: "d5" never means exd5.
		if piece == Pawn && fromFile < 0 && from.File() != to.File() {
			continue
		}
		dst = append(dst, m)
	}
	return dst
}

// figurines maps the Unicode chess men to SAN letters (pawns to nothing,
// as SAN writes no letter for them).
var figurines = strings.NewReplacer("♔", "K", "♚", "K", "♕", "Q", "♛", "Q", "♖", "R", "♜", "R",
	"♗", "B", "♝", "B", "♘", "N", "♞", "N", "♙", "", "♟", "", "×", "x", "–", "-", "—", "-")

// parseSpec reads the notation of a move without looking at a position.
func parseSpec(text string) (moveSpec, error) {
	s := strings.TrimSpace(text)
	spec := moveSpec{text: s, piece: Pawn, fromFile: -1, fromRank: -1, to: NoSquare}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 { // only then can there be figurines to replace
			s = figurines.Replace(s)
			break
		}
	}
	// Trailing annotations: check signs, !, ?, and "e.p." for en passant.
	for {
		t := strings.TrimRight(s, "+#!? ")
		t = strings.TrimSuffix(strings.TrimSuffix(t, "e.p."), "ep")
		if t == s {
			break
		}
		s = t
	}
	if s == "" {
		return spec, &SyntaxError{Text: spec.text, Kind: SyntaxEmpty, Msg: "type a move such as e4, Nf3, exd5, O-O or e2e4"}
	}
	switch strings.ToUpper(strings.ReplaceAll(s, "0", "O")) {
	case "O-O", "OO":
		spec.castle = castleKingside
		return spec, nil
	case "O-O-O", "OOO":
		spec.castle = castleQueenside
		return spec, nil
	}
	// Drop the separators players put between the parts: capture signs,
	// dashes, spaces, "=" and brackets around a promotion piece.
	var b [16]byte
	c := b[:0]
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case 'x', 'X', ':', '-', ' ', '=', '(', ')', '/':
		default:
			if len(c) == len(b) {
				return spec, &SyntaxError{Text: spec.text, Kind: SyntaxTooLong, Msg: "too long for a move"}
			}
			if ch >= 'A' && ch <= 'H' && ch != 'B' {
				ch += 'a' - 'A' // a file typed in capitals ("E4", "Exd5"): no piece has these letters
			}
			c = append(c, ch)
		}
	}
	// From the end: an optional promotion piece, then the target square.
	if n := len(c); n >= 3 && isRank(c[n-2]) {
		if k := promoKind(c[n-1]); k != NoKind {
			spec.promo = k
			c = c[:n-1]
		}
	}
	if len(c) == 2 && c[0] == 'B' && isRank(c[1]) {
		c[0] = 'b' // "B4" and "B8=Q" can only be the b-pawn's push
	}
	n := len(c)
	if n < 2 || !isFile(c[n-2]) || !isRank(c[n-1]) {
		return spec, &SyntaxError{Text: spec.text, Kind: SyntaxNoTarget, Msg: "a move ends with the target square, e.g. e4 or Nf3 (files a–h, ranks 1–8)"}
	}
	spec.to = SquareAt(int(c[n-2]-'a'), int(c[n-1]-'1'))
	c = c[:n-2]
	// The start: an optional piece letter, then an optional from file and
	// from rank.
	letter := false
	if len(c) > 0 {
		switch ch := c[0]; {
		case ch == 'b' && len(c) == 1:
			spec.orPawn = true
		case ch == 'b' && isRank(c[1]):
			// "b2…": the b-file of a from square, not a bishop.
		case ch == 'B' && len(c) == 1:
			spec.piece, spec.orBPawn = Bishop, true
			c, letter = c[1:], true
		case strings.IndexByte("NBRQKP", ch) >= 0:
			spec.piece = letterKind(ch)
			c, letter = c[1:], true
		case strings.IndexByte("nbrqk", ch) >= 0:
			spec.piece = letterKind(ch - 'a' + 'A')
			c, letter = c[1:], true
		}
	}
	if len(c) > 0 && isFile(c[0]) {
		spec.fromFile = int(c[0] - 'a')
		c = c[1:]
	}
	if len(c) > 0 && isRank(c[0]) {
		spec.fromRank = int(c[0] - '1')
		c = c[1:]
	}
	if spec.piece == Pawn && spec.fromFile >= 0 && spec.fromRank >= 0 && !letter {
		// Long algebraic or UCI: the from square tells which man moves.
		spec.piece = NoKind
	}
	if len(c) > 0 {
		return spec, &SyntaxError{Text: spec.text, Kind: SyntaxBadStart, Msg: "write the man's letter (K, Q, R, B, N; none for a pawn), then where it comes from if needed, then the target square, e.g. Nbd2 or exd5"}
	}
	if spec.orBPawn && spec.promo != NoKind {
		// "Bxa8=Q": only a pawn promotes, so the capital B is the b-file.
		spec.piece, spec.fromFile, spec.orBPawn = Pawn, 1, false
	}
	if spec.promo != NoKind && spec.piece != Pawn && spec.piece != NoKind {
		return spec, &SyntaxError{Text: spec.text, Kind: SyntaxPieceCannotPromote, Msg: "only a pawn promotes: write the pawn's move and the new piece, e.g. e8=Q"}
	}
	return spec, nil
}

func isFile(c byte) bool { return c >= 'a' && c <= 'h' }
func isRank(c byte) bool { return c >= '1' && c <= '8' }

// promoKind reads a promotion letter in either case (UCI writes it in lower
// case); a king is read too, so that the error can say it is not allowed.
func promoKind(c byte) Kind {
	switch c {
	case 'Q', 'q':
		return Queen
	case 'R', 'r':
		return Rook
	case 'B', 'b':
		return Bishop
	case 'N', 'n':
		return Knight
	case 'K', 'k':
		return King
	}
	return NoKind
}

func letterKind(c byte) Kind {
	switch c {
	case 'N':
		return Knight
	case 'B':
		return Bishop
	case 'R':
		return Rook
	case 'Q':
		return Queen
	case 'K':
		return King
	}
	return Pawn
}
