package i18n

import (
	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play/round"
)

// EventMarks say how a front end writes what an event names: a player by
// id (a mention, a name) and a move's SAN (bold, plain).
type EventMarks struct {
	Player func(id string) string
	Move   func(san string) string
	// Side, when set, reports the players a front end calls by their
	// colour alone ("Black", as the terminal calls a side without a
	// name). A sentence whose subject is a colour must agree with its
	// noun, plural in some languages ("Чёрные предлагают ничью"), so
	// such a player's sentences get the colour's forms as .Side.
	Side func(id string) (game.Color, bool)
}

// PlayerData returns the data a sentence about player id needs: .Player
// as m writes it, and .Side, the forms of its colour, when m calls it by
// its colour alone (EventMarks.Side).
func (m EventMarks) PlayerData(lang Lang, id string) map[string]any {
	data := map[string]any{"Player": m.Player(id)}
	if m.Side != nil {
		if c, ok := m.Side(id); ok {
			data["Side"] = colorForms(lang, c)
		}
	}
	return data
}

// with adds key and value to data.
func with(data map[string]any, key string, value any) map[string]any {
	data[key] = value
	return data
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
		return T(lang, id, with(m.PlayerData(lang, e.By), "Move", m.Move(e.SAN)))
	case round.Offered:
		id := "draw.offered"
		if e.Offer == round.Takeback {
			id = "takeback.requested"
		}
		return T(lang, id, with(m.PlayerData(lang, e.By), "Opponent", m.Player(e.To)))
	case round.Declined:
		id := "draw.declined"
		if e.Offer == round.Takeback {
			id = "takeback.declined"
		}
		return T(lang, id, m.PlayerData(lang, e.By))
	case round.TookBack:
		return N(lang, "game.took_back", e.Plies, nil)
	case round.Lapsed:
		id := "draw.lapsed"
		if e.Offer == round.Takeback {
			id = "takeback.lapsed"
		}
		return T(lang, id, m.PlayerData(lang, e.By))
	case round.Ended:
		if e.By == "" {
			return ""
		}
		switch act {
		case round.Resign:
			return T(lang, "game.resigned", m.PlayerData(lang, e.By))
		case round.Abort:
			return T(lang, "game.aborted", m.PlayerData(lang, e.By))
		case round.OfferDraw, round.AcceptDraw:
			return T(lang, "game.draw_agreed", nil)
		case round.ClaimWin:
			return T(lang, "timeout.claimed_win", m.PlayerData(lang, e.By))
		case round.ClaimDraw:
			return T(lang, "timeout.claimed_draw", m.PlayerData(lang, e.By))
		}
	}
	return ""
}
