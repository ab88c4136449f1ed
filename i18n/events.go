package i18n

import "github.com/iceagechess/iceage/play/round"

// EventMarks say how a front end writes what an event names: a player by
// id (a mention, a name) and a move's SAN (bold, plain).
type EventMarks struct {
	Player func(id string) string
	Move   func(san string) string
}

// Event is the sentence of a round event in lang, the same in every
// front end but for how it writes players and moves (m): a move, a reply
// from conditional moves, an offer, its refusal, a takeback, an end by a
// player's act (act says which: a resignation, an abort, an agreed
// draw). It is "" for an event that has no sentence of its own: the
// players to tell, the engine thinking, the start, an end the board
// decided (Outcome says it), an Ice Age (IceAgeNews says it).
func Event(lang Lang, e round.Event, act round.Kind, m EventMarks) string {
	switch e := e.(type) {
	case round.Moved:
		id := "game.moved"
		if e.Reply {
			id = "premove.played"
		}
		return T(lang, id, map[string]any{"Player": m.Player(e.By), "Move": m.Move(e.SAN)})
	case round.Offered:
		id := "draw.offered"
		if e.Offer == round.Takeback {
			id = "takeback.requested"
		}
		return T(lang, id, map[string]any{"Player": m.Player(e.By), "Opponent": m.Player(e.To)})
	case round.Declined:
		id := "draw.declined"
		if e.Offer == round.Takeback {
			id = "takeback.declined"
		}
		return T(lang, id, map[string]any{"Player": m.Player(e.By)})
	case round.TookBack:
		return N(lang, "game.took_back", e.Plies, nil)
	case round.Lapsed:
		id := "draw.lapsed"
		if e.Offer == round.Takeback {
			id = "takeback.lapsed"
		}
		return T(lang, id, map[string]any{"Player": m.Player(e.By)})
	case round.Ended:
		if e.By == "" {
			return ""
		}
		switch act {
		case round.Resign:
			return T(lang, "game.resigned", map[string]any{"Player": m.Player(e.By)})
		case round.Abort:
			return T(lang, "game.aborted", map[string]any{"Player": m.Player(e.By)})
		case round.OfferDraw, round.AcceptDraw:
			return T(lang, "game.draw_agreed", nil)
		case round.ClaimWin:
			return T(lang, "timeout.claimed_win", map[string]any{"Player": m.Player(e.By)})
		case round.ClaimDraw:
			return T(lang, "timeout.claimed_draw", map[string]any{"Player": m.Player(e.By)})
		}
	}
	return ""
}
