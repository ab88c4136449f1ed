package game

import "fmt"

// SyntaxError reports text that is not a move in any notation ParseMove
// reads (SAN, UCI or a forgiving variant of them), whatever the position.
type SyntaxError struct {
	Text string // what was typed, at most its first 40 characters (see QuoteInput)
	// Kind says why it is not a move, for front ends that say it in
	// another language; 0 when the maker of the error gave none.
	Kind SyntaxErrorKind
	Msg  string // why it is not a move, for the player, in English
}

func (e *SyntaxError) Error() string {
	if e.Text == "" {
		return "no move given: " + e.Msg
	}
	return QuoteInput(e.Text) + " is not a move: " + e.Msg
}

// SyntaxErrorKind says why text is not a move. The numbers are stable,
// so front ends may store or branch on them.
type SyntaxErrorKind uint8

const (
	// SyntaxEmpty: nothing was typed but spaces, check signs or
	// annotations.
	SyntaxEmpty SyntaxErrorKind = 1
	// SyntaxTooLong: more characters than any move has.
	SyntaxTooLong SyntaxErrorKind = 2
	// SyntaxNoTarget: the text does not end with a square (after an
	// optional promotion piece).
	SyntaxNoTarget SyntaxErrorKind = 3
	// SyntaxBadStart: what stands before the target square is not a
	// man's letter, a from file and a from rank.
	SyntaxBadStart SyntaxErrorKind = 4
	// SyntaxPieceCannotPromote: a promotion piece was written after a
	// piece's move ("Nf8=Q").
	SyntaxPieceCannotPromote SyntaxErrorKind = 5
	// SyntaxUCILength: strict UCI (ParseUCI) of the wrong length.
	SyntaxUCILength SyntaxErrorKind = 6
	// SyntaxUCISquares: strict UCI whose squares are not two different
	// squares.
	SyntaxUCISquares SyntaxErrorKind = 7
	// SyntaxUCIPromotion: strict UCI whose promotion letter is not one of
	// n, b, r, q.
	SyntaxUCIPromotion SyntaxErrorKind = 8
)

// String returns a short stable name, e.g. "no target square".
func (k SyntaxErrorKind) String() string {
	switch k {
	case SyntaxEmpty:
		return "empty"
	case SyntaxTooLong:
		return "too long"
	case SyntaxNoTarget:
		return "no target square"
	case SyntaxBadStart:
		return "bad start"
	case SyntaxPieceCannotPromote:
		return "piece cannot promote"
	case SyntaxUCILength:
		return "UCI length"
	case SyntaxUCISquares:
		return "UCI squares"
	case SyntaxUCIPromotion:
		return "UCI promotion"
	}
	return fmt.Sprintf("SyntaxErrorKind(%d)", uint8(k))
}

// MoveErrorKind says why a well-formed move cannot be played. The numbers
// are stable, so front ends may store or branch on them.
type MoveErrorKind uint8

const (
	// NoSuchMan: no man of the side to move fits the move, e.g. "Nd2"
	// without a knight, or a from square that is empty or iced.
	NoSuchMan MoveErrorKind = 1
	// Ambiguous: more than one legal move fits; MoveError.Candidates
	// holds them.
	Ambiguous MoveErrorKind = 2
	// BlockedByIce: ice stands on the way (or, for a pawn's double push,
	// on the square it crosses).
	BlockedByIce MoveErrorKind = 3
	// BlockedByMan: a man stands on the way, or in front of a pushed pawn.
	BlockedByMan MoveErrorKind = 4
	// OwnManOnTarget: the target square holds a man of the mover's side.
	OwnManOnTarget MoveErrorKind = 5
	// CannotMoveThatWay: the man does not move like that at all (a knight
	// moving straight, a pawn moving backwards or diagonally onto an
	// empty square, …).
	CannotMoveThatWay MoveErrorKind = 6
	// LeavesKingInCheck: after the move the mover's king would be
	// attacked: a pinned man moved, the king walked into an attack, or a
	// check was not answered.
	LeavesKingInCheck MoveErrorKind = 7
	// KingCannotTakeAttackedIce: a king may capture ice only on an
	// unattacked square (docs/rules.md §1).
	KingCannotTakeAttackedIce MoveErrorKind = 8
	// CastlingNotAllowed: the right is lost, ice or a man stands between
	// king and rook, the king is in check, or it would pass through or
	// land on an attacked square.
	CastlingNotAllowed MoveErrorKind = 9
	// PawnCannotPushOntoIce: a pawn captures ice only diagonally.
	PawnCannotPushOntoIce MoveErrorKind = 10
	// NoPromotionPiece: a pawn reaches the last rank but no piece to
	// promote to was named.
	NoPromotionPiece MoveErrorKind = 11
	// PromotionNotAllowed: a promotion piece was named for a move that is
	// no promotion, or the piece is a king or a pawn.
	PromotionNotAllowed MoveErrorKind = 12
	// GameOver: the game has ended; no move can be played.
	GameOver MoveErrorKind = 13
	// NotYourTurn: the man named belongs to the side not to move.
	NotYourTurn MoveErrorKind = 14
)

// String returns a short stable name, e.g. "blocked by ice".
func (k MoveErrorKind) String() string {
	switch k {
	case NoSuchMan:
		return "no such man"
	case Ambiguous:
		return "ambiguous"
	case BlockedByIce:
		return "blocked by ice"
	case BlockedByMan:
		return "blocked by a man"
	case OwnManOnTarget:
		return "own man on target"
	case CannotMoveThatWay:
		return "cannot move that way"
	case LeavesKingInCheck:
		return "leaves king in check"
	case KingCannotTakeAttackedIce:
		return "king cannot take attacked ice"
	case CastlingNotAllowed:
		return "castling not allowed"
	case PawnCannotPushOntoIce:
		return "pawn cannot push onto ice"
	case NoPromotionPiece:
		return "no promotion piece"
	case PromotionNotAllowed:
		return "promotion not allowed"
	case GameOver:
		return "game over"
	case NotYourTurn:
		return "not your turn"
	}
	return fmt.Sprintf("MoveErrorKind(%d)", uint8(k))
}

// MoveErrorDetail says which explanation a MoveError gives: it is finer
// than MoveErrorKind (each detail belongs to one kind) and tells a front end
// that words the error itself which sentence to say and which of the
// MoveError's fields it fills. The numbers are stable, so front ends may
// store or branch on them. Fields not named below are left empty: NoPiece,
// NoSquare, NoKind, -1, nil.
type MoveErrorDetail uint8

const (
	// DetailIceOnFrom (NoSuchMan): From holds ice, not a man. From, To.
	DetailIceOnFrom MoveErrorDetail = 1
	// DetailEmptyFrom (NoSuchMan): From is empty. From, To.
	DetailEmptyFrom MoveErrorDetail = 2
	// DetailOtherManOnFrom (NoSuchMan): the man on From, Piece, is not of
	// the kind the text names, Named. Piece, From, To, Named.
	DetailOtherManOnFrom MoveErrorDetail = 3
	// DetailNoPawnToPush (NoSuchMan): a push to To, but no pawn of the
	// side to move stands on To's file. To, Named (Pawn).
	DetailNoPawnToPush MoveErrorDetail = 4
	// DetailNoManOfKind (NoSuchMan): the side to move has no man of kind
	// Named (on the file FromFile and the rank FromRank, when the text
	// names them). To, Named, FromFile, FromRank.
	DetailNoManOfKind MoveErrorDetail = 5
	// DetailNoPawnOrBishop (NoSuchMan): a lower-case "b" read both as the
	// b-pawn and as a bishop, and neither is there. To, FromFile (1),
	// FromRank.
	DetailNoPawnOrBishop MoveErrorDetail = 6
	// DetailAmbiguous (Ambiguous): several legal moves fit. To (NoSquare
	// for castling), Named, Candidates, SANs.
	DetailAmbiguous MoveErrorDetail = 7
	// DetailBlockedByIce (BlockedByIce): ice on Blocker stands between
	// From and To. Piece, From, To, Blocker.
	DetailBlockedByIce MoveErrorDetail = 8
	// DetailBlockedByMan (BlockedByMan): the man BlockerPiece on Blocker
	// stands between From and To (for a pawn's double step: on the square
	// it crosses). Piece, From, To, Blocker, BlockerPiece.
	DetailBlockedByMan MoveErrorDetail = 9
	// DetailPawnBlocked (BlockedByMan): a pawn pushes onto To, where the
	// man BlockerPiece stands (Blocker = To). Piece, From, To, Blocker,
	// BlockerPiece.
	DetailPawnBlocked MoveErrorDetail = 10
	// DetailOwnManOnTarget (OwnManOnTarget): the mover's own man
	// BlockerPiece stands on To (Blocker = To). Piece, From, To, Blocker,
	// BlockerPiece.
	DetailOwnManOnTarget MoveErrorDetail = 11
	// DetailOwnManOnTargetOfMany (OwnManOnTarget): as DetailOwnManOnTarget,
	// when the text fits several men of kind Named (NoKind for a
	// lower-case "b" read both as the b-pawn and as a bishop). To, Named,
	// Blocker, BlockerPiece.
	DetailOwnManOnTargetOfMany MoveErrorDetail = 12
	// DetailSameSquare (CannotMoveThatWay): From and To are one square.
	// Piece (NoPiece when the move was given as a Move, not typed), From,
	// To.
	DetailSameSquare MoveErrorDetail = 13
	// DetailKnightMove (CannotMoveThatWay): a knight does not move so.
	// Piece, From, To; the same for the four details that follow.
	DetailKnightMove MoveErrorDetail = 14
	// DetailBishopMove (CannotMoveThatWay): a bishop moves only
	// diagonally.
	DetailBishopMove MoveErrorDetail = 15
	// DetailRookMove (CannotMoveThatWay): a rook moves only along ranks
	// and files.
	DetailRookMove MoveErrorDetail = 16
	// DetailQueenMove (CannotMoveThatWay): a queen moves only along ranks,
	// files and diagonals.
	DetailQueenMove MoveErrorDetail = 17
	// DetailKingMove (CannotMoveThatWay): a king moves one square (two
	// when castling).
	DetailKingMove MoveErrorDetail = 18
	// DetailPawnMove (CannotMoveThatWay): a pawn moves straight forward,
	// or one square diagonally forward to capture. Piece, From, To.
	DetailPawnMove MoveErrorDetail = 19
	// DetailPawnDoubleStep (CannotMoveThatWay): a pawn moves two squares
	// only from its starting square. Piece, From, To.
	DetailPawnDoubleStep MoveErrorDetail = 20
	// DetailPawnCapturesOnly (CannotMoveThatWay): a pawn moves diagonally
	// only to capture, and To is empty. Piece, From, To.
	DetailPawnCapturesOnly MoveErrorDetail = 21
	// DetailEnPassantLapsed (CannotMoveThatWay): To is empty, and the
	// enemy pawn beside From, on To's file, may be taken en passant only
	// right after its double step. Piece, From, To, Blocker (the pawn's
	// square), BlockerPiece (the pawn).
	DetailEnPassantLapsed MoveErrorDetail = 22
	// DetailNoneCanGo (CannotMoveThatWay): none of the men of kind Named
	// the text may mean can go to To. To, Named.
	DetailNoneCanGo MoveErrorDetail = 23
	// DetailNoPawnOrBishopCanGo (CannotMoveThatWay): as DetailNoneCanGo,
	// for a lower-case "b" read both as the b-pawn and as a bishop. To.
	DetailNoPawnOrBishopCanGo MoveErrorDetail = 24
	// DetailNotLegal (CannotMoveThatWay): the last resort, should the
	// explanation and the move generator ever disagree. Text only.
	DetailNotLegal MoveErrorDetail = 25
	// DetailPinned (LeavesKingInCheck): moving Piece from From to To would
	// expose the king on Attacked to Attackers. Piece, From, To, Attacked,
	// Attackers.
	DetailPinned MoveErrorDetail = 26
	// DetailCheckNotAnswered (LeavesKingInCheck): the king on Attacked is
	// in check from Attackers, and moving Piece from From to To does not
	// stop it. Piece, From, To, Attacked, Attackers.
	DetailCheckNotAnswered MoveErrorDetail = 27
	// DetailKingAttacked (LeavesKingInCheck): the king would go to To,
	// which Attackers attack (Attacked = To). Piece, From, To, Attacked,
	// Attackers.
	DetailKingAttacked MoveErrorDetail = 28
	// DetailIceAttacked (KingCannotTakeAttackedIce): the king would take
	// the ice on To, which Attackers attack (Attacked = To). Piece, From,
	// To, Attacked, Attackers.
	DetailIceAttacked MoveErrorDetail = 29
	// DetailCastlingRightLost (CastlingNotAllowed): the right Castling is
	// lost: the king or the rook on its home square has moved, been taken
	// or frozen. Piece (the king), From, To, Castling.
	DetailCastlingRightLost MoveErrorDetail = 30
	// DetailCastlingKingMoved (CastlingNotAllowed): castling was typed,
	// but the king no longer stands on From, its home square. From, To,
	// Castling.
	DetailCastlingKingMoved MoveErrorDetail = 31
	// DetailCastlingBlockedByIce (CastlingNotAllowed): ice on Blocker
	// stands between king and rook. Piece, From, To, Castling, Blocker.
	DetailCastlingBlockedByIce MoveErrorDetail = 32
	// DetailCastlingBlockedByMan (CastlingNotAllowed): the man
	// BlockerPiece on Blocker stands between king and rook. Piece, From,
	// To, Castling, Blocker, BlockerPiece.
	DetailCastlingBlockedByMan MoveErrorDetail = 33
	// DetailCastlingInCheck (CastlingNotAllowed): the king on From
	// (= Attacked) is in check from Attackers. Piece, From, To, Castling,
	// Attacked, Attackers.
	DetailCastlingInCheck MoveErrorDetail = 34
	// DetailCastlingThroughAttack (CastlingNotAllowed): the king would
	// cross Attacked, which Attackers attack. Piece, From, To, Castling,
	// Attacked, Attackers.
	DetailCastlingThroughAttack MoveErrorDetail = 35
	// DetailCastlingIntoAttack (CastlingNotAllowed): the king would land
	// on To (= Attacked), which Attackers attack. Piece, From, To,
	// Castling, Attacked, Attackers.
	DetailCastlingIntoAttack MoveErrorDetail = 36
	// DetailPawnPushOntoIce (PawnCannotPushOntoIce): the pawn would push
	// onto the ice on To (Blocker = To). Piece, From, To, Blocker.
	DetailPawnPushOntoIce MoveErrorDetail = 37
	// DetailNoPromotionPiece (NoPromotionPiece): the pawn reaches the last
	// rank on To, and no piece was named. Piece, From, To.
	DetailNoPromotionPiece MoveErrorDetail = 38
	// DetailPromotionByPiece (PromotionNotAllowed): a promotion piece,
	// Named, was given for a man that is no pawn. Piece, From, To, Named.
	DetailPromotionByPiece MoveErrorDetail = 39
	// DetailPromotionToKingOrPawn (PromotionNotAllowed): a pawn cannot
	// become Named, a king or a pawn. Piece, From, To, Named.
	DetailPromotionToKingOrPawn MoveErrorDetail = 40
	// DetailPromotionTooEarly (PromotionNotAllowed): the pawn does not
	// reach the last rank on To, so cannot promote to Named. Piece, From,
	// To, Named.
	DetailPromotionTooEarly MoveErrorDetail = 41
	// DetailGameOver (GameOver): the game has ended with Outcome.
	DetailGameOver MoveErrorDetail = 42
	// DetailNotYourTurn (NotYourTurn): Piece, on From, belongs to the
	// side not to move. Piece, From, To.
	DetailNotYourTurn MoveErrorDetail = 43
)

// #nosec G101 -- names of move errors ("… from square"), not credentials
var detailNames = [...]string{
	DetailIceOnFrom:             "ice on from square",
	DetailEmptyFrom:             "empty from square",
	DetailOtherManOnFrom:        "other man on from square",
	DetailNoPawnToPush:          "no pawn to push",
	DetailNoManOfKind:           "no man of kind",
	DetailNoPawnOrBishop:        "no pawn or bishop",
	DetailAmbiguous:             "ambiguous",
	DetailBlockedByIce:          "blocked by ice",
	DetailBlockedByMan:          "blocked by a man",
	DetailPawnBlocked:           "pawn blocked",
	DetailOwnManOnTarget:        "own man on target",
	DetailOwnManOnTargetOfMany:  "own man on target of many",
	DetailSameSquare:            "same square",
	DetailKnightMove:            "knight move",
	DetailBishopMove:            "bishop move",
	DetailRookMove:              "rook move",
	DetailQueenMove:             "queen move",
	DetailKingMove:              "king move",
	DetailPawnMove:              "pawn move",
	DetailPawnDoubleStep:        "pawn double step",
	DetailPawnCapturesOnly:      "pawn captures only",
	DetailEnPassantLapsed:       "en passant lapsed",
	DetailNoneCanGo:             "none can go",
	DetailNoPawnOrBishopCanGo:   "no pawn or bishop can go",
	DetailNotLegal:              "not legal",
	DetailPinned:                "pinned",
	DetailCheckNotAnswered:      "check not answered",
	DetailKingAttacked:          "king attacked",
	DetailIceAttacked:           "ice attacked",
	DetailCastlingRightLost:     "castling right lost",
	DetailCastlingKingMoved:     "castling king moved",
	DetailCastlingBlockedByIce:  "castling blocked by ice",
	DetailCastlingBlockedByMan:  "castling blocked by a man",
	DetailCastlingInCheck:       "castling in check",
	DetailCastlingThroughAttack: "castling through attack",
	DetailCastlingIntoAttack:    "castling into attack",
	DetailPawnPushOntoIce:       "pawn push onto ice",
	DetailNoPromotionPiece:      "no promotion piece",
	DetailPromotionByPiece:      "promotion by a piece",
	DetailPromotionToKingOrPawn: "promotion to king or pawn",
	DetailPromotionTooEarly:     "promotion too early",
	DetailGameOver:              "game over",
	DetailNotYourTurn:           "not your turn",
}

// String returns a short stable name, e.g. "blocked by ice".
func (d MoveErrorDetail) String() string {
	if int(d) < len(detailNames) && detailNames[d] != "" {
		return detailNames[d]
	}
	return fmt.Sprintf("MoveErrorDetail(%d)", uint8(d))
}

// MoveError reports a well-formed move that is not legal in the position,
// with the reason in a player's words (Msg, in English) and as data, for
// front ends that say it in other languages: Kind and Detail say which
// explanation it is, the other fields hold what that explanation names.
// Detail's documentation lists the fields each explanation fills; the
// others are empty (NoPiece, NoSquare, NoKind, -1, nil). Build one with
// NewMoveError, whose squares start as NoSquare (the zero Square is a1).
type MoveError struct {
	Kind   MoveErrorKind
	Detail MoveErrorDetail
	Text   string // what was typed
	// Move is the move that was meant when the text names exactly one man
	// and one target; NullMove otherwise.
	Move Move
	// Candidates holds the legal moves the text fits when Kind is
	// Ambiguous, and SANs the same moves in SAN.
	Candidates []Move
	SANs       []string
	// Piece is the man meant, the one on From (the opponent's for
	// NotYourTurn); NoPiece if none.
	Piece Piece
	// From and To are the squares the man moves from and to; NoSquare
	// when unknown.
	From, To Square
	// Named is the kind of man the text names where it is not Piece's: the
	// kind the player has none of (or several of), the kind named for a
	// square that holds another man, or a promotion piece that is refused;
	// NoKind otherwise.
	Named Kind
	// FromFile and FromRank are the file (0 = a) and rank (0 = first) the
	// text gives for the man when it gives no whole from square; -1 when
	// not given.
	FromFile, FromRank int
	// Blocker is the square of the ice or man in the way: on the path, on
	// the square a pawn pushes to, between king and rook, the own man on
	// the target, or the pawn that may no longer be taken en passant;
	// BlockerPiece is the man there, NoPiece when it is ice. NoSquare if
	// none.
	Blocker      Square
	BlockerPiece Piece
	// Attacked is the square the Attackers attack: the king's (in check,
	// or exposed by a pinned man), the one the king would go to or cross,
	// or the ice the king would take; NoSquare if none. Attackers are the
	// opponent's men that attack it (that would give check), by square.
	Attacked  Square
	Attackers []Placement
	// Castling is the castling right concerned (WhiteKingside, …) when
	// Kind is CastlingNotAllowed; NoCastling otherwise.
	Castling Castling
	// Outcome is how the game ended when Kind is GameOver.
	Outcome Outcome
	// Frozen is the man an Ice Age froze that the move may have meant
	// (Match.FrozenMeant); nil when none, or when nobody looked.
	Frozen *FrozenMan
	Msg    string // the explanation in English, e.g. "ice on a3 blocks it"
}

// FrozenMan is a man an Ice Age turned to ice: the man, its square, and
// the number of Black's move that brought that Ice Age.
type FrozenMan struct {
	Placement
	BlackMove int
}

// NewMoveError returns a MoveError of kind k, detail d and text, with no
// man, no squares and no files or ranks named; the caller fills in the
// rest.
func NewMoveError(k MoveErrorKind, d MoveErrorDetail, text, msg string) *MoveError {
	return &MoveError{Kind: k, Detail: d, Text: clipInput(text), Msg: msg,
		From: NoSquare, To: NoSquare, FromFile: -1, FromRank: -1, Blocker: NoSquare, Attacked: NoSquare}
}

func (e *MoveError) Error() string { return e.Msg }
