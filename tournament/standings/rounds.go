package standings

import (
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/tournament"
)

// ByeKey is the message that tells of a round's bye: a Swiss's scores
// what the organiser chose (a point, half a point or nothing); a
// round-robin's free player sits the round out. Its one datum is Player.
func ByeKey(t *tournament.Tournament) string {
	if t.System == tournament.RoundRobin {
		return "tournament.round.sits_out"
	}
	switch t.ByeScore {
	case tournament.ByeHalfPoint:
		return "tournament.round.bye_half"
	case tournament.ByeNoPoint:
		return "tournament.round.bye_none"
	}
	return "tournament.round.bye"
}

// Result is a board's result as a crosstable writes it, from White's
// side: 1–0, ½–½, 0–1, +–− and −–+ for a forfeit, −–− when neither
// came; for a game not over, the mark of those still playing.
func Result(lang i18n.Lang, white tournament.Outcome) string {
	switch white {
	case tournament.Win:
		return "1–0"
	case tournament.Draw:
		return "½–½"
	case tournament.Loss:
		return "0–1"
	case tournament.ForfeitWin:
		return "+–−"
	case tournament.ForfeitLoss:
		return "−–+"
	case tournament.DoubleForfeit:
		return "−–−"
	}
	return i18n.T(lang, "tournament.standings.playing", nil)
}
