package game

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// detailSpecs says, for every MoveErrorDetail, its kind and the fields it
// fills, one letter each: P the piece (p: may be NoPiece), F from, T to,
// N named (n: may be NoKind), R from file and rank (each may be -1), B the
// blocker, b the blocker's man (ice otherwise), A attacked and attackers,
// C castling, O the outcome, S candidates and their SANs.
var detailSpecs = map[MoveErrorDetail]struct {
	kind   MoveErrorKind
	fields string
}{
	DetailIceOnFrom:             {NoSuchMan, "FT"},
	DetailEmptyFrom:             {NoSuchMan, "FT"},
	DetailOtherManOnFrom:        {NoSuchMan, "PFTN"},
	DetailNoPawnToPush:          {NoSuchMan, "TN"},
	DetailNoManOfKind:           {NoSuchMan, "TNR"},
	DetailNoPawnOrBishop:        {NoSuchMan, "TR"},
	DetailAmbiguous:             {Ambiguous, "TnS"},
	DetailBlockedByIce:          {BlockedByIce, "PFTB"},
	DetailBlockedByMan:          {BlockedByMan, "PFTBb"},
	DetailPawnBlocked:           {BlockedByMan, "PFTBb"},
	DetailOwnManOnTarget:        {OwnManOnTarget, "PFTBb"},
	DetailOwnManOnTargetOfMany:  {OwnManOnTarget, "TnBb"},
	DetailSameSquare:            {CannotMoveThatWay, "pFT"},
	DetailKnightMove:            {CannotMoveThatWay, "PFT"},
	DetailBishopMove:            {CannotMoveThatWay, "PFT"},
	DetailRookMove:              {CannotMoveThatWay, "PFT"},
	DetailQueenMove:             {CannotMoveThatWay, "PFT"},
	DetailKingMove:              {CannotMoveThatWay, "PFT"},
	DetailPawnMove:              {CannotMoveThatWay, "PFT"},
	DetailPawnDoubleStep:        {CannotMoveThatWay, "PFT"},
	DetailPawnCapturesOnly:      {CannotMoveThatWay, "PFT"},
	DetailEnPassantLapsed:       {CannotMoveThatWay, "PFTBb"},
	DetailNoneCanGo:             {CannotMoveThatWay, "TN"},
	DetailNoPawnOrBishopCanGo:   {CannotMoveThatWay, "T"},
	DetailNotLegal:              {CannotMoveThatWay, ""},
	DetailPinned:                {LeavesKingInCheck, "PFTA"},
	DetailCheckNotAnswered:      {LeavesKingInCheck, "PFTA"},
	DetailKingAttacked:          {LeavesKingInCheck, "PFTA"},
	DetailIceAttacked:           {KingCannotTakeAttackedIce, "PFTA"},
	DetailCastlingRightLost:     {CastlingNotAllowed, "PFTC"},
	DetailCastlingKingMoved:     {CastlingNotAllowed, "FTC"},
	DetailCastlingBlockedByIce:  {CastlingNotAllowed, "PFTCB"},
	DetailCastlingBlockedByMan:  {CastlingNotAllowed, "PFTCBb"},
	DetailCastlingInCheck:       {CastlingNotAllowed, "PFTCA"},
	DetailCastlingThroughAttack: {CastlingNotAllowed, "PFTCA"},
	DetailCastlingIntoAttack:    {CastlingNotAllowed, "PFTCA"},
	DetailPawnPushOntoIce:       {PawnCannotPushOntoIce, "PFTB"},
	DetailNoPromotionPiece:      {NoPromotionPiece, "PFT"},
	DetailPromotionByPiece:      {PromotionNotAllowed, "PFTN"},
	DetailPromotionToKingOrPawn: {PromotionNotAllowed, "PFTN"},
	DetailPromotionTooEarly:     {PromotionNotAllowed, "PFTN"},
	DetailGameOver:              {GameOver, "O"},
	DetailNotYourTurn:           {NotYourTurn, "PFT"},
}

// detailMasks is detailSpecs by detail, with the letters as a set, for
// checks that run millions of times.
var detailMasks = func() (m [256]struct {
	kind   MoveErrorKind
	fields [128]bool
}) {
	for d, spec := range detailSpecs {
		m[d].kind = spec.kind
		for _, c := range []byte(spec.fields) {
			m[d].fields[c] = true
		}
	}
	return m
}()

// checkMoveErrorData fails the test unless e, an error about a move in p,
// fills exactly the fields its Detail promises, and what they name is
// there in p: the piece on From, the ice or man on Blocker, the attackers
// (the opponent's men) on their squares.
func checkMoveErrorData(t testing.TB, p *Position, e *MoveError) {
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %v %q: %s", p.FEN(), e.Detail, e.Msg, fmt.Sprintf(format, args...))
	}
	spec := detailMasks[e.Detail]
	if spec.kind == 0 || spec.kind != e.Kind {
		fail("kind %v, but the detail belongs to %v", e.Kind, spec.kind)
	}
	has := func(c byte) bool { return spec.fields[c] }
	set := func(c byte, isSet bool, what string) {
		upper, lower := has(c), has(c+'a'-'A')
		switch {
		case upper && !isSet:
			fail("%s is not set", what)
		case !upper && !lower && isSet:
			fail("%s is set, though the detail names none", what)
		}
	}
	set('P', e.Piece != NoPiece, "Piece")
	set('F', e.From != NoSquare, "From")
	set('T', e.To != NoSquare, "To")
	set('N', e.Named != NoKind, "Named")
	set('B', e.Blocker != NoSquare, "Blocker")
	set('A', e.Attacked != NoSquare, "Attacked")
	set('A', len(e.Attackers) > 0, "Attackers")
	set('C', e.Castling != NoCastling, "Castling")
	set('O', e.Outcome.Over(), "Outcome")
	set('S', len(e.SANs) > 0, "SANs")
	if len(e.SANs) != len(e.Candidates) {
		fail("%d candidates but %d SANs", len(e.Candidates), len(e.SANs))
	}
	if !has('R') && (e.FromFile != -1 || e.FromRank != -1) {
		fail("FromFile %d, FromRank %d, though the detail names none", e.FromFile, e.FromRank)
	}
	if e.FromFile < -1 || e.FromFile > 7 || e.FromRank < -1 || e.FromRank > 7 {
		fail("FromFile %d, FromRank %d", e.FromFile, e.FromRank)
	}
	for _, s := range []Square{e.From, e.To, e.Blocker, e.Attacked} {
		if s != NoSquare && !s.Valid() {
			fail("square %d", s)
		}
	}
	if e.Piece != NoPiece && p.PieceAt(e.From) != e.Piece {
		fail("Piece %v, but %v stands on %v", e.Piece, p.PieceAt(e.From), e.From)
	}
	switch {
	case e.Blocker == NoSquare && e.BlockerPiece != NoPiece:
		fail("BlockerPiece %v without a Blocker", e.BlockerPiece)
	case e.Blocker != NoSquare && e.BlockerPiece == NoPiece && (has('b') || !p.IsIce(e.Blocker)):
		fail("the blocker on %v is ice, but the square holds %v", e.Blocker, p.PieceAt(e.Blocker))
	case e.Blocker != NoSquare && e.BlockerPiece != NoPiece && p.PieceAt(e.Blocker) != e.BlockerPiece:
		fail("BlockerPiece %v, but %v stands on %v", e.BlockerPiece, p.PieceAt(e.Blocker), e.Blocker)
	}
	for i, a := range e.Attackers {
		if a.Piece == NoPiece || a.Piece.Color() == p.Turn() || p.PieceAt(a.Square) != a.Piece {
			fail("attacker %v on %v, but %v stands there", a.Piece, a.Square, p.PieceAt(a.Square))
		}
		if i > 0 && e.Attackers[i-1].Square >= a.Square {
			fail("attackers not by square: %v", e.Attackers)
		}
	}
	if c := e.Castling; c != NoCastling {
		mine := WhiteKingside | WhiteQueenside
		if p.Turn() == Black {
			mine = BlackKingside | BlackQueenside
		}
		kingside := c == WhiteKingside || c == BlackKingside
		if c&^mine != 0 || c&(c-1) != 0 || (e.To > e.From) != kingside {
			fail("castling %v for %v from %v to %v", c, p.Turn(), e.From, e.To)
		}
	}
}

// describe lists the data of e that is set, e.g.
// "piece=R from=a1 to=a5 blocker=*a3".
func describe(e *MoveError) string {
	var b []string
	add := func(format string, args ...any) { b = append(b, fmt.Sprintf(format, args...)) }
	if e.Piece != NoPiece {
		add("piece=%c", e.Piece.FENLetter())
	}
	if e.From != NoSquare {
		add("from=%v", e.From)
	}
	if e.To != NoSquare {
		add("to=%v", e.To)
	}
	if e.Named != NoKind {
		add("named=%c", " PNBRQK"[e.Named])
	}
	if e.FromFile >= 0 {
		add("file=%c", 'a'+e.FromFile)
	}
	if e.FromRank >= 0 {
		add("rank=%c", '1'+e.FromRank)
	}
	if e.Blocker != NoSquare {
		c := byte('*')
		if e.BlockerPiece != NoPiece {
			c = e.BlockerPiece.FENLetter()
		}
		add("blocker=%c%v", c, e.Blocker)
	}
	if e.Attacked != NoSquare {
		add("attacked=%v", e.Attacked)
	}
	if len(e.Attackers) > 0 {
		var by []string
		for _, a := range e.Attackers {
			by = append(by, string(a.Piece.FENLetter())+a.Square.String())
		}
		add("attackers=%s", strings.Join(by, ","))
	}
	if e.Castling != NoCastling {
		add("castling=%c", "KQkq"[map[Castling]int{WhiteKingside: 0, WhiteQueenside: 1, BlackKingside: 2, BlackQueenside: 3}[e.Castling]])
	}
	if e.Outcome.Over() {
		add("outcome=%v %v", e.Outcome.Result, e.Outcome.Reason)
	}
	if len(e.SANs) > 0 {
		add("sans=%s", strings.Join(e.SANs, ","))
	}
	return strings.Join(b, " ")
}

func TestMoveErrorsCarryWhatTheyName(t *testing.T) {
	const (
		bare       = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
		lateEPFEN  = "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"
		mateFEN    = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
		castleBase = "r3k2r/8/8/8/8/8/"
	)
	tests := []struct {
		fen, text string
		detail    MoveErrorDetail
		want      string
	}{
		{StartFEN, "e3e4", DetailIceOnFrom, "from=e3 to=e4"},
		{chessFEN, "e3e4", DetailEmptyFrom, "from=e3 to=e4"},
		{chessFEN, "Bg1f3", DetailOtherManOnFrom, "piece=N from=g1 to=f3 named=B"},
		{pawnsFEN, "d5", DetailNoPawnToPush, "to=d5 named=P"},
		{bare, "Nf3", DetailNoManOfKind, "to=f3 named=N"},
		{bare, "Nbd2", DetailNoManOfKind, "to=d2 named=N file=b"},
		{bare, "N1d2", DetailNoManOfKind, "to=d2 named=N rank=1"},
		{bare, "bc3", DetailNoPawnOrBishop, "to=c3 file=b"},
		{twoKnightFEN, "Nd2", DetailAmbiguous, "to=d2 named=N sans=Nbd2,Nfd2"},
		{"4k3/8/8/8/8/*7/8/R3K3 w - - 0 1", "Ra5", DetailBlockedByIce, "piece=R from=a1 to=a5 blocker=*a3"},
		{StartFEN, "e4", DetailBlockedByIce, "piece=P from=e2 to=e4 blocker=*e3"},
		{"4k3/8/8/8/8/N7/8/R3K3 w - - 0 1", "Ra5", DetailBlockedByMan, "piece=R from=a1 to=a5 blocker=Na3"},
		{"4k3/8/8/8/8/n7/8/R3K3 w - - 0 1", "Ra5", DetailBlockedByMan, "piece=R from=a1 to=a5 blocker=na3"},
		{"4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e4", DetailBlockedByMan, "piece=P from=e2 to=e4 blocker=ne3"},
		{"4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e4", DetailPawnBlocked, "piece=P from=e3 to=e4 blocker=pe4"},
		{chessFEN, "Ng1e2", DetailOwnManOnTarget, "piece=N from=g1 to=e2 blocker=Pe2"},
		{chessFEN, "Nd2", DetailOwnManOnTargetOfMany, "to=d2 named=N blocker=Pd2"},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a1", DetailSameSquare, "piece=R from=a1 to=a1"},
		{"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Ng3", DetailKnightMove, "piece=N from=g1 to=g3"},
		{"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "Bc4", DetailBishopMove, "piece=B from=c1 to=c4"},
		{"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb2", DetailRookMove, "piece=R from=a1 to=b2"},
		{"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Qe3", DetailQueenMove, "piece=Q from=d1 to=e3"},
		{"4k3/8/8/8/8/8/3K4/8 w - - 0 1", "Kd4", DetailKingMove, "piece=K from=d2 to=d4"},
		{pawnsFEN, "e4e3", DetailPawnMove, "piece=P from=e4 to=e3"},
		{"4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e5", DetailPawnDoubleStep, "piece=P from=e3 to=e5"},
		{pawnsFEN, "exf5", DetailPawnCapturesOnly, "piece=P from=e4 to=f5"},
		{lateEPFEN, "exd6", DetailEnPassantLapsed, "piece=P from=e5 to=d6 blocker=pd5"},
		{chessFEN, "Nd4", DetailNoneCanGo, "to=d4 named=N"},
		{chessFEN, "bd4", DetailNoPawnOrBishopCanGo, "to=d4"},
		{"4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "Nf3", DetailPinned, "piece=N from=d2 to=f3 attacked=e1 attackers=bb4"},
		{"4r2k/8/8/8/1b6/8/8/N3K3 w - - 0 1", "Nb3", DetailCheckNotAnswered, "piece=N from=a1 to=b3 attacked=e1 attackers=bb4,re8"},
		{"4k3/8/8/8/8/8/5r2/K7 w - - 0 1", "Ka2", DetailKingAttacked, "piece=K from=a1 to=a2 attacked=a2 attackers=rf2"},
		{"4k3/8/8/1b6/8/8/4*3/4K3 w - - 0 1", "Kxe2", DetailIceAttacked, "piece=K from=e1 to=e2 attacked=e2 attackers=bb5"},
		{castleBase + "8/R3K2R w Qkq - 0 1", "O-O", DetailCastlingRightLost, "piece=K from=e1 to=g1 castling=K"},
		{castleBase + "8/R3K2R b KQq - 0 1", "O-O", DetailCastlingRightLost, "piece=k from=e8 to=g8 castling=k"},
		{castleBase + "8/R4K1R w kq - 0 1", "O-O", DetailCastlingKingMoved, "from=e1 to=g1 castling=K"},
		{castleBase + "8/R3K1*R w KQkq - 0 1", "O-O", DetailCastlingBlockedByIce, "piece=K from=e1 to=g1 blocker=*g1 castling=K"},
		{castleBase + "8/RN2K2R w KQkq - 0 1", "O-O-O", DetailCastlingBlockedByMan, "piece=K from=e1 to=c1 blocker=Nb1 castling=Q"},
		{castleBase + "4r3/R3K2R w KQkq - 0 1", "O-O", DetailCastlingInCheck, "piece=K from=e1 to=g1 attacked=e1 attackers=re2 castling=K"},
		{castleBase + "5r2/R3K2R w KQkq - 0 1", "O-O", DetailCastlingThroughAttack, "piece=K from=e1 to=g1 attacked=f1 attackers=rf2 castling=K"},
		{castleBase + "6r1/R3K2R w KQkq - 0 1", "0-0", DetailCastlingIntoAttack, "piece=K from=e1 to=g1 attacked=g1 attackers=rg2 castling=K"},
		{StartFEN, "e3", DetailPawnPushOntoIce, "piece=P from=e2 to=e3 blocker=*e3"},
		{promoteFEN, "a8", DetailNoPromotionPiece, "piece=P from=a7 to=a8"},
		{chessFEN, "g1f3q", DetailPromotionByPiece, "piece=N from=g1 to=f3 named=Q"},
		{promoteFEN, "a8=K", DetailPromotionToKingOrPawn, "piece=P from=a7 to=a8 named=K"},
		{chessFEN, "e2e4q", DetailPromotionTooEarly, "piece=P from=e2 to=e4 named=Q"},
		{mateFEN, "e4", DetailGameOver, "outcome=0-1 checkmate"},
		{chessFEN, "e7e5", DetailNotYourTurn, "piece=p from=e7 to=e5"},
	}
	covered := map[MoveErrorDetail]bool{DetailNotLegal: true} // the last resort cannot be reached
	for _, tt := range tests {
		covered[tt.detail] = true
		t.Run(tt.detail.String()+" "+tt.text, func(t *testing.T) {
			p := positionOf(t, tt.fen)
			_, err := ParseMove(&p, tt.text)
			var e *MoveError
			if !errors.As(err, &e) {
				t.Fatalf("ParseMove(%q) in %s = %v, want a *MoveError", tt.text, tt.fen, err)
			}
			if e.Detail != tt.detail {
				t.Fatalf("ParseMove(%q) in %s: detail %v (%s), want %v", tt.text, tt.fen, e.Detail, e.Msg, tt.detail)
			}
			if got := describe(e); got != tt.want {
				t.Fatalf("ParseMove(%q) in %s: %s\n got %s\nwant %s", tt.text, tt.fen, e.Msg, got, tt.want)
			}
			checkMoveErrorData(t, &p, e)
		})
	}
	for d := range detailSpecs {
		if !covered[d] {
			t.Errorf("no case for %v", d)
		}
	}
}

func TestMatchErrorsCarryWhatTheyName(t *testing.T) {
	m := NewMatch(StartPosition())
	p := m.Position()
	_, err := m.PlayMove(NewMove(12, 12, NoKind))
	var e *MoveError
	if !errors.As(err, &e) || e.Detail != DetailSameSquare || describe(e) != "from=e2 to=e2" {
		t.Fatalf("PlayMove(e2e2) = %v, %+v", err, e)
	}
	checkMoveErrorData(t, &p, e)
	if _, err := m.PlayMove(NewMove(12, 28, NoKind)); !errors.As(err, &e) || e.Detail != DetailBlockedByIce || describe(e) != "piece=P from=e2 to=e4 blocker=*e3" {
		t.Fatalf("PlayMove(e2e4) = %v, %+v", err, e)
	}
	if err := m.End(WinFor(Black, Resignation)); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{m.End(WinFor(White, Resignation)), m.End(Outcome{Result: Draw, Reason: DrawAgreed}), m.End(WinFor(Black, Timeout))} {
		if !errors.As(err, &e) || e.Detail != DetailGameOver || describe(e) != "outcome=0-1 resignation" {
			t.Fatalf("after resigning: %v, %+v", err, e)
		}
	}
	if _, err := m.Play("hxg3"); !errors.As(err, &e) || e.Detail != DetailGameOver || describe(e) != "outcome=0-1 resignation" {
		t.Fatalf("a move after resigning: %v, %+v", err, e)
	}
}

func TestMoveErrorDetailsHaveStableNames(t *testing.T) {
	seen := map[string]bool{}
	for d := MoveErrorDetail(1); d <= DetailNotYourTurn; d++ {
		s := d.String()
		if strings.HasPrefix(s, "MoveErrorDetail(") || seen[s] {
			t.Errorf("detail %d has name %q", d, s)
		}
		seen[s] = true
		if _, ok := detailSpecs[d]; !ok {
			t.Errorf("detail %v has no spec in this test", d)
		}
	}
	for _, d := range []MoveErrorDetail{0, DetailNotYourTurn + 1, 255} {
		if got, want := d.String(), fmt.Sprintf("MoveErrorDetail(%d)", d); got != want {
			t.Errorf("an unknown detail is named %q, want %q", got, want)
		}
	}
}

func TestSyntaxErrorsSayWhyByKind(t *testing.T) {
	tests := []struct {
		text string
		uci  bool
		want SyntaxErrorKind
	}{
		{"  ", false, SyntaxEmpty},
		{"+!?", false, SyntaxEmpty},
		{"e2e4e5e6e7e8e9e1e2", false, SyntaxTooLong},
		{"hello", false, SyntaxNoTarget},
		{"Ne9", false, SyntaxNoTarget},
		{"Zf3", false, SyntaxBadStart},
		{"Nf8=Q", false, SyntaxPieceCannotPromote},
		{"e2e", true, SyntaxUCILength},
		{"e2e2", true, SyntaxUCISquares},
		{"e9e4", true, SyntaxUCISquares},
		{"e7e8k", true, SyntaxUCIPromotion},
	}
	p := positionOf(t, chessFEN)
	for _, tt := range tests {
		var err error
		if tt.uci {
			_, err = ParseUCI(tt.text)
		} else {
			_, err = ParseMove(&p, tt.text)
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Kind != tt.want {
			t.Errorf("%q: %v (%#v), want kind %v", tt.text, err, se, tt.want)
		}
	}
	seen := map[string]bool{}
	for k := SyntaxEmpty; k <= SyntaxUCIPromotion; k++ {
		if s := k.String(); strings.HasPrefix(s, "SyntaxErrorKind(") || seen[s] {
			t.Errorf("syntax error kind %d has name %q", k, s)
		} else {
			seen[s] = true
		}
	}
	if got := SyntaxErrorKind(0).String(); got != "SyntaxErrorKind(0)" {
		t.Errorf("the zero kind is named %q", got)
	}
}
