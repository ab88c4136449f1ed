package tui

import (
	"sort"
	"strings"
)

// commandWords are the commands Complete offers, with a space after one
// that takes an argument.
var commandWords = []string{"draw", "fen", "flip", "help", "moves", "new", "no", "png ", "quit", "resign", "takeback"}

// Complete returns the legal moves' SAN that the text typed so far may
// become, best first: those it begins as typed, then those it begins
// however the case and with x, +, #, = left out (nf3 for Nxf3, e8q for
// e8=Q, 0-0 for O-O), then those whose UCI it begins (g1 for Nf3). When
// no move fits, the commands that text in lower case begins. Empty text gives every legal move.
func (s *Session) Complete(text string) []string {
	t := strings.TrimLeft(text, " ")
	var out []string
	if !s.Over() {
		p := s.Position()
		sans := p.SANs()
		sort.Slice(sans, func(i, j int) bool { return sans[i].SAN < sans[j].SAN })
		var tiers [3][]string
		norm, lower := normalizeMove(t), strings.ToLower(t)
		for _, m := range sans {
			switch {
			case strings.HasPrefix(m.SAN, t):
				tiers[0] = append(tiers[0], m.SAN)
			case norm != "" && strings.HasPrefix(normalizeMove(m.SAN), norm):
				tiers[1] = append(tiers[1], m.SAN)
			case lower != "" && strings.HasPrefix(m.Move.UCI(), lower):
				tiers[2] = append(tiers[2], m.SAN)
			}
		}
		out = append(append(tiers[0], tiers[1]...), tiers[2]...)
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

// normalizeMove reduces a move as typed or written to what matters for
// matching: lower case, no capture, check or promotion signs, and 0 for O.
func normalizeMove(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case 'x', '+', '#', '=', '!', '?', ' ':
		case '0':
			b.WriteRune('o')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sortMoves puts SANs in the order they are listed: pieces, castling,
// then pawns, each by text.
func sortMoves(sans []string) { sort.Strings(sans) }
