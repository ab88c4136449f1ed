package i18n

import (
	"github.com/iceagechess/iceage/game"
)

var kindIDs = map[game.Kind]string{
	game.King: "man.king", game.Queen: "man.queen", game.Rook: "man.rook",
	game.Bishop: "man.bishop", game.Knight: "man.knight", game.Pawn: "man.pawn",
}

// Man names a man on its square, e.g. "the white knight on d4".
func Man(lang Lang, p game.Piece, s game.Square) string {
	color := "white"
	if p.Color() == game.Black {
		color = "black"
	}
	return T(lang, kindIDs[p.Kind()]+"."+color, map[string]any{"Square": s.String()})
}

// Outcome says how a game ended, e.g. "White wins by checkmate".
func Outcome(lang Lang, o game.Outcome) string {
	side := ""
	switch o.Result {
	case game.WhiteWins:
		side = ".white"
	case game.BlackWins:
		side = ".black"
	}
	id := map[game.Reason]string{
		game.Checkmate: "outcome.checkmate", game.Stalemate: "outcome.stalemate",
		game.KingFrozen: "outcome.king_frozen", game.BothKingsFrozen: "outcome.both_frozen",
		game.FiftyMoveRule: "outcome.fifty_moves", game.Resignation: "outcome.resignation",
		game.DrawAgreed: "outcome.agreed", game.Timeout: "outcome.timeout", game.Aborted: "outcome.aborted",
	}[o.Reason]
	if id == "" {
		return T(lang, "outcome.ongoing", nil)
	}
	switch o.Reason {
	case game.Stalemate, game.BothKingsFrozen, game.FiftyMoveRule, game.DrawAgreed, game.Aborted:
		side = ""
	}
	return T(lang, id+side, nil)
}

// MoveError explains an illegal move in lang.
func MoveError(lang Lang, e *game.MoveError) string {
	if lang == English {
		return e.Msg
	}
	data := map[string]any{"Move": truncate(e.Text, 24)}
	return T(lang, "move_error."+snake(e.Kind.String()), data)
}

// SyntaxError says why a text is no move in lang.
func SyntaxError(lang Lang, e *game.SyntaxError) string {
	if lang == English {
		return e.Error()
	}
	if e.Text == "" {
		return T(lang, "syntax_error.empty", nil)
	}
	return T(lang, "syntax_error.not_a_move", map[string]any{"Text": truncate(e.Text, 24)})
}

func snake(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == ' ' || c == '-' {
			b[i] = '_'
		}
	}
	return string(b)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
