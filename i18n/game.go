package i18n

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/iceagechess/iceage/game"
)

// kindKeys names the kinds of men in message ids: piece.<key>.<form>.
var kindKeys = [...]string{game.Pawn: "pawn", game.Knight: "knight", game.Bishop: "bishop",
	game.Rook: "rook", game.Queen: "queen", game.King: "king"}

func kindKey(k game.Kind) string {
	if int(k) < len(kindKeys) {
		return kindKeys[k]
	}
	return ""
}

func colorKey(c game.Color) string {
	if c == game.Black {
		return "black"
	}
	return "white"
}

// PieceName returns the name of a kind of man, e.g. "knight", "cavalier",
// "конь"; "" for NoKind.
func PieceName(lang Lang, k game.Kind) string {
	if kindKey(k) == "" {
		return ""
	}
	return T(lang, "piece."+kindKey(k)+".name", nil)
}

// ColorName returns the name of a side as a label, e.g. "White",
// "Blancs", "Белые".
func ColorName(lang Lang, c game.Color) string {
	return T(lang, "color."+colorKey(c)+".name", nil)
}

// forms returns every form of the words under prefix (e.g. "piece.rook."),
// keyed by form name: the messages prefix+form of lang.
func forms(lang Lang, prefix string) map[string]any {
	if !lang.known() {
		lang = English
	}
	out := map[string]any{}
	for _, form := range loaded().groups[lang][prefix] {
		out[form] = T(lang, prefix+form, nil)
	}
	return out
}

// PieceForms returns the forms of the name of kind k in lang, for a
// message that picks one ({{.Victim.def}}).
func PieceForms(lang Lang, k game.Kind) map[string]any { return pieceForms(lang, k) }

// pieceForms returns the forms of the name of kind k (none for NoKind, so
// that a template that uses them shows "<no value>" in tests).
func pieceForms(lang Lang, k game.Kind) map[string]any {
	if kindKey(k) == "" {
		return map[string]any{}
	}
	return forms(lang, "piece."+kindKey(k)+".")
}

func colorForms(lang Lang, c game.Color) map[string]any {
	return forms(lang, "color."+colorKey(c)+".")
}

// menForms returns, for each form of the men's names, the list of the men
// on their squares in that form, e.g. "the bishop on b4 and the rook on
// e8"; and, under "many", whether there is more than one (for the verb).
func menForms(lang Lang, men []game.Placement) map[string]any {
	if len(men) == 0 {
		return map[string]any{}
	}
	names := make([]map[string]any, len(men))
	for i, m := range men {
		names[i] = pieceForms(lang, m.Piece.Kind())
	}
	out := map[string]any{}
	for form := range names[0] {
		items := make([]string, len(men))
		for i, m := range men {
			items[i] = T(lang, "man_on", map[string]any{"Man": names[i][form], "Square": m.Square.String()})
		}
		out[form] = And(lang, items)
	}
	out["many"] = len(men) > 1 // for the verb's agreement: "the rook and the queen attack"
	return out
}

// And joins items as "a, b and c" in lang.
func And(lang Lang, items []string) string { return list(lang, "list.and", items) }

// Or joins items as "a, b or c" in lang.
func Or(lang Lang, items []string) string { return list(lang, "list.or", items) }

func list(lang Lang, id string, items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return T(lang, id, map[string]any{
		"Head": strings.Join(items[:len(items)-1], ", "),
		"Last": items[len(items)-1],
	})
}

func square(s game.Square) string {
	if !s.Valid() {
		return ""
	}
	return s.String()
}

// Quote writes what a player typed between the quotation marks of lang:
// « » with no-break spaces in French, « » in Russian, Norwegian and
// Spanish, “ ” in English and Dutch. Like game.QuoteInput, it keeps the
// first 40 characters and shows a byte that is not UTF-8, or a character
// that does not print, as a Go escape (\xff, \t, \u200b), so that what
// is shown is what was typed.
func Quote(lang Lang, text string) string {
	open, close := "“", "”"
	switch lang {
	case French:
		open, close = "«\u00a0", "\u00a0»"
	case Russian, Norwegian, Spanish:
		open, close = "«", "»"
	}
	text = game.ClipInput(text)
	var b strings.Builder
	b.Grow(len(text) + len(open) + len(close))
	b.WriteString(open)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", text[i])
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(text[i : i+size])
		}
		i += size
	}
	b.WriteString(close)
	return b.String()
}

// moveErrorIDs are the message ids of the details that have one message
// (the others choose among several in moveErrorID).
var moveErrorIDs = map[game.MoveErrorDetail]string{
	game.DetailIceOnFrom:             "move_error.ice_on_from",
	game.DetailEmptyFrom:             "move_error.empty_from",
	game.DetailOtherManOnFrom:        "move_error.other_man_on_from",
	game.DetailNoPawnToPush:          "move_error.no_pawn_to_push",
	game.DetailNoManOfKind:           "move_error.no_man_of_kind",
	game.DetailNoPawnOrBishop:        "move_error.no_pawn_or_bishop",
	game.DetailAmbiguous:             "move_error.ambiguous",
	game.DetailBlockedByIce:          "move_error.blocked_by_ice",
	game.DetailPawnBlocked:           "move_error.pawn_blocked",
	game.DetailOwnManOnTarget:        "move_error.own_man_on_target",
	game.DetailOwnManOnTargetOfMany:  "move_error.own_man_on_target_of_many",
	game.DetailKnightMove:            "move_error.knight_move",
	game.DetailBishopMove:            "move_error.bishop_move",
	game.DetailRookMove:              "move_error.rook_move",
	game.DetailQueenMove:             "move_error.queen_move",
	game.DetailKingMove:              "move_error.king_move",
	game.DetailPawnMove:              "move_error.pawn_move",
	game.DetailPawnDoubleStep:        "move_error.pawn_double_step",
	game.DetailPawnCapturesOnly:      "move_error.pawn_captures_only",
	game.DetailEnPassantLapsed:       "move_error.en_passant_lapsed",
	game.DetailNoneCanGo:             "move_error.none_can_go",
	game.DetailNoPawnOrBishopCanGo:   "move_error.no_pawn_or_bishop_can_go",
	game.DetailNotLegal:              "move_error.not_legal",
	game.DetailPinned:                "move_error.pinned",
	game.DetailCheckNotAnswered:      "move_error.check_not_answered",
	game.DetailKingAttacked:          "move_error.king_attacked",
	game.DetailIceAttacked:           "move_error.ice_attacked",
	game.DetailCastlingRightLost:     "move_error.castling_right_lost",
	game.DetailCastlingKingMoved:     "move_error.castling_king_moved",
	game.DetailCastlingBlockedByIce:  "move_error.castling_blocked_by_ice",
	game.DetailCastlingBlockedByMan:  "move_error.castling_blocked_by_man",
	game.DetailCastlingInCheck:       "move_error.castling_in_check",
	game.DetailCastlingThroughAttack: "move_error.castling_through_attack",
	game.DetailCastlingIntoAttack:    "move_error.castling_into_attack",
	game.DetailPawnPushOntoIce:       "move_error.pawn_push_onto_ice",
	game.DetailNoPromotionPiece:      "move_error.no_promotion_piece",
	game.DetailPromotionByPiece:      "move_error.promotion_by_piece",
	game.DetailPromotionToKingOrPawn: "move_error.promotion_to_king_or_pawn",
	game.DetailPromotionTooEarly:     "move_error.promotion_too_early",
	game.DetailGameOver:              "move_error.game_over",
	game.DetailNotYourTurn:           "move_error.not_your_turn",
}

// moveErrorID returns the id of the message that says e.
func moveErrorID(e *game.MoveError) string {
	switch e.Detail {
	case game.DetailBlockedByMan:
		switch {
		case e.Piece.Kind() == game.Pawn:
			return "move_error.blocked_by_man.pawn" // a double step, stopped on the square it crosses
		case e.BlockerPiece.Color() == e.Piece.Color():
			return "move_error.blocked_by_man.own"
		}
		return "move_error.blocked_by_man.enemy"
	case game.DetailSameSquare:
		if e.Piece == game.NoPiece {
			return "move_error.same_square.move"
		}
		return "move_error.same_square.man"
	}
	if id, ok := moveErrorIDs[e.Detail]; ok {
		return id
	}
	return "move_error.not_legal"
}

// MoveError says in lang why the move of e cannot be played, from e's
// Detail and data (not from its English Msg). An error without a Detail
// it knows is said as "… is not a legal move here".
func MoveError(lang Lang, e *game.MoveError) string {
	if e == nil {
		return ""
	}
	if f := e.Frozen; f != nil {
		froze := T(lang, "iceage.froze_here", map[string]any{"Number": f.BlackMove, "Square": f.Square.String(),
			"Frozen": T(lang, "piece."+kindKey(f.Piece.Kind())+"."+colorKey(f.Piece.Color()), nil)})
		if e.Detail == game.DetailIceOnFrom {
			return froze
		}
		return T(lang, moveErrorID(e), moveErrorData(lang, e)) + ". " + Sentence(froze)
	}
	return T(lang, moveErrorID(e), moveErrorData(lang, e))
}

// moveErrorData is the template data of every move error message:
//
//	Text        what was typed
//	From, To    the squares of the move, e.g. "e2"
//	ToFile      the file of To, e.g. "e"
//	Where       " on the b-file on rank 1": the file and rank the text
//	            names for its man, with a space before, or ""
//	Block       the blocker's square
//	Attacked    the square the attackers attack
//	Rook        the castling rook's home square
//	Kingside    true when castling kingside
//	Moves       the candidate moves in SAN, as "a, b or c"
//	Reason      why the game is over, e.g. "checkmate"
//	Man         the forms of the moving man's name (.Man.def, …)
//	Blocker     the forms of the blocking man's name
//	Named       the forms of the name of the kind the text names
//	Attackers   the forms of the list of the attackers on their squares
//	Color       the forms of the name of the moving man's side (the
//	            castling side's for castling)
//	Turn        the forms of the name of the side to move, for NotYourTurn
//	BlockerColor the forms of the name of the blocking man's side
func moveErrorData(lang Lang, e *game.MoveError) map[string]any {
	text := e.Text
	if text == "" && e.Move != game.NullMove {
		text = e.Move.UCI()
	}
	color := e.Piece.Color()
	kingside := e.Castling&(game.WhiteKingside|game.BlackKingside) != 0
	rook := game.NoSquare
	switch e.Castling {
	case game.WhiteKingside:
		rook = game.H1
	case game.WhiteQueenside:
		rook = game.A1
	case game.BlackKingside:
		rook = game.H8
	case game.BlackQueenside:
		rook = game.A8
	}
	if e.Castling&(game.BlackKingside|game.BlackQueenside) != 0 {
		color = game.Black
	}
	toFile := ""
	if e.To.Valid() {
		toFile = e.To.String()[:1]
	}
	var where []string
	if e.FromFile >= 0 && e.FromFile < 8 {
		where = append(where, T(lang, "where.file", map[string]any{"File": string(rune('a' + e.FromFile))}))
	}
	if e.FromRank >= 0 && e.FromRank < 8 {
		where = append(where, T(lang, "where.rank", map[string]any{"Rank": string(rune('1' + e.FromRank))}))
	}
	whereText := ""
	if len(where) > 0 {
		whereText = " " + strings.Join(where, " ")
	}
	return map[string]any{
		"Text":         text,
		"From":         square(e.From),
		"To":           square(e.To),
		"ToFile":       toFile,
		"Where":        whereText,
		"Block":        square(e.Blocker),
		"Attacked":     square(e.Attacked),
		"Rook":         square(rook),
		"Kingside":     kingside,
		"Moves":        Or(lang, e.SANs),
		"Reason":       reasonName(lang, e.Outcome.Reason),
		"Man":          pieceForms(lang, e.Piece.Kind()),
		"Blocker":      pieceForms(lang, e.BlockerPiece.Kind()),
		"Named":        pieceForms(lang, e.Named),
		"Attackers":    menForms(lang, e.Attackers),
		"Color":        colorForms(lang, color),
		"Turn":         colorForms(lang, color.Other()),
		"BlockerColor": colorForms(lang, e.BlockerPiece.Color()),
	}
}

var syntaxErrorIDs = map[game.SyntaxErrorKind]string{
	game.SyntaxEmpty:              "syntax_error.empty",
	game.SyntaxTooLong:            "syntax_error.too_long",
	game.SyntaxNoTarget:           "syntax_error.no_target",
	game.SyntaxBadStart:           "syntax_error.bad_start",
	game.SyntaxPieceCannotPromote: "syntax_error.piece_cannot_promote",
	game.SyntaxUCILength:          "syntax_error.uci_length",
	game.SyntaxUCISquares:         "syntax_error.uci_squares",
	game.SyntaxUCIPromotion:       "syntax_error.uci_promotion",
}

// SyntaxError says in lang that the text of e is not a move and why, as
// e.Error does in English: `"hello" is not a move: a move ends with …`,
// or "no move given: …" when nothing was typed. An error of a kind it does
// not know gets the advice of SyntaxEmpty.
func SyntaxError(lang Lang, e *game.SyntaxError) string {
	if e == nil {
		return ""
	}
	id, ok := syntaxErrorIDs[e.Kind]
	if !ok {
		id = syntaxErrorIDs[game.SyntaxEmpty]
	}
	why := T(lang, id, nil)
	if e.Text == "" {
		return T(lang, "syntax_error.nothing", map[string]any{"Why": why})
	}
	return T(lang, "syntax_error.not_a_move", map[string]any{"Text": Quote(lang, e.Text), "Why": why})
}

var reasonKeys = map[game.Reason]string{
	game.NoReason:        "none",
	game.Checkmate:       "checkmate",
	game.Stalemate:       "stalemate",
	game.KingFrozen:      "king_frozen",
	game.BothKingsFrozen: "both_kings_frozen",
	game.FiftyMoveRule:   "fifty_move_rule",
	game.Resignation:     "resignation",
	game.DrawAgreed:      "draw_agreed",
	game.Timeout:         "timeout",
	game.Aborted:         "aborted",
	game.Adjudicated:     "adjudicated",
}

// reasonName returns the short name of a reason, in lower case, e.g.
// "checkmate", "échec et mat".
func reasonName(lang Lang, r game.Reason) string {
	key, ok := reasonKeys[r]
	if !ok {
		key = "none"
	}
	return T(lang, "reason."+key, nil)
}

// Reason names why a game ended, in lower case, to follow other words:
// "checkmate", "échec et mat".
func Reason(lang Lang, r game.Reason) string { return reasonName(lang, r) }

// Outcome says how a game ended, as a sentence: "White wins by
// checkmate", "Black wins: White's king froze in the Ice Age", "Draw: both
// kings froze in the Ice Age", "Game aborted", or "The game goes on" for
// the zero Outcome.
func Outcome(lang Lang, o game.Outcome) string {
	switch o.Reason {
	case game.NoReason:
		return T(lang, "outcome.ongoing", nil)
	case game.Aborted:
		return T(lang, "outcome.aborted", nil)
	}
	switch o.Result {
	case game.WhiteWins, game.BlackWins:
		side := "white"
		if o.Result == game.BlackWins {
			side = "black"
		}
		switch o.Reason {
		case game.Checkmate, game.KingFrozen, game.Resignation, game.Timeout, game.Adjudicated:
			return T(lang, "outcome."+side+"."+reasonKeys[o.Reason], nil)
		}
		return T(lang, "outcome."+side+".wins", nil)
	case game.Draw:
		switch o.Reason {
		case game.Stalemate, game.BothKingsFrozen, game.FiftyMoveRule, game.DrawAgreed, game.Adjudicated:
			return T(lang, "outcome.draw."+reasonKeys[o.Reason], nil)
		case game.Timeout:
			// A flag against a side that could not have won.
			return T(lang, "clock.draw_on_time", nil)
		}
		return T(lang, "outcome.draw.plain", nil)
	}
	return Sentence(reasonName(lang, o.Reason)) // a reason without a result: only a broken record has one
}

// Countdown says how far the next Ice Age is: "Ice Age in 3 Black moves",
// where n is game.Position.BlackMovesToIceAge (1: Black's next move
// brings it).
func Countdown(lang Lang, n int) string { return N(lang, "iceage.countdown", n, nil) }

// Moves returns "1 move", "3 moves" in lang.
func Moves(lang Lang, n int) string { return N(lang, "count.moves", n, nil) }

// Days returns "1 day", "3 days" in lang.
func Days(lang Lang, n int) string { return N(lang, "count.days", n, nil) }

// DaysPerMove returns the time control "3 days per move" in lang.
func DaysPerMove(lang Lang, n int) string {
	return T(lang, "time.days_per_move", map[string]any{"Days": Days(lang, n)})
}

// FrozenMen names the men an Ice Age froze (game.IceAge.Frozen): "Frozen
// men: the white knight on b1 and the black pawn on h7", or "No man froze".
func FrozenMen(lang Lang, men []game.Placement) string {
	if len(men) == 0 {
		return T(lang, "iceage.frozen_none", nil)
	}
	items := make([]string, len(men))
	for i, m := range men {
		name := T(lang, "piece."+kindKey(m.Piece.Kind())+"."+colorKey(m.Piece.Color()), nil)
		items[i] = T(lang, "man_on", map[string]any{"Man": name, "Square": m.Square.String()})
	}
	return N(lang, "iceage.frozen", len(men), map[string]any{"Men": And(lang, items)})
}
