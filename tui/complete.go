package tui

import (
	"sort"
	"strings"

	"github.com/iceagechess/iceage/game"
)

// commandWords are the commands Complete offers, with a space after one
// that takes an argument.
var commandWords = []string{"draw", "fen", "flip", "help", "moves", "new", "no", "png ", "quit", "resign", "takeback"}

// Complete returns the legal moves' SAN that the text typed so far may
// become, in any notation, best first, as Discord's autocomplete offers
// them (game.Complete). When no move fits, the commands that text in
// lower case begins. Empty text gives every legal move.
func (s *Session) Complete(text string) []string {
	t := strings.TrimLeft(text, " ")
	var out []string
	if !s.Over() {
		p := s.Position()
		for _, m := range game.Complete(&p, t) {
			out = append(out, m.SAN)
		}
	}
	if lower := strings.ToLower(t); len(out) == 0 && t != "" && t == lower {
		for _, w := range commandWords {
			if strings.HasPrefix(w, lower) && w != lower {
				out = append(out, w)
			}
		}
	}
	return out
}

// sortMoves puts SANs in the order they are listed: pieces, castling,
// then pawns, each by text.
func sortMoves(sans []string) { sort.Strings(sans) }
