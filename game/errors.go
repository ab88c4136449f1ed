package game

import "fmt"

// SyntaxError reports text that is not a move in any notation ParseMove
// reads (SAN, UCI or a forgiving variant of them), whatever the position.
type SyntaxError struct {
	Text string // what was typed, at most its first 40 characters (see QuoteInput)
	Msg  string // why it is not a move, for the player
}

func (e *SyntaxError) Error() string {
	if e.Text == "" {
		return "no move given: " + e.Msg
	}
	return QuoteInput(e.Text) + " is not a move: " + e.Msg
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

// MoveError reports a well-formed move that is not legal in the position,
// with the reason in a player's words.
type MoveError struct {
	Kind MoveErrorKind
	Text string // what was typed
	// Move is the move that was meant when the text names exactly one man
	// and one target; NullMove otherwise.
	Move Move
	// Candidates holds the legal moves the text fits when Kind is
	// Ambiguous.
	Candidates []Move
	Msg        string // the explanation, e.g. "ice on a3 blocks it"
}

func (e *MoveError) Error() string { return e.Msg }
