package i18n

import (
	"strings"

	"github.com/iceagechess/iceage/play"
)

// The words of a time control, one home for every front end that names
// or refuses one: Discord's challenges and boards, the Activity's lobby.

// LiveTerms names a live time control with its speed: "5+3 blitz".
func LiveTerms(lang Lang, tc play.TimeControl) string {
	return T(lang, "clock.terms", map[string]any{"Control": tc.String(), "Speed": SpeedName(lang, tc.Speed())})
}

// SpeedName names a speed in lang, in lower case: "blitz".
func SpeedName(lang Lang, s play.Speed) string { return T(lang, "clock.speed."+s.String(), nil) }

// TimeTerms names a time control as a challenge and a board say it:
// "5+3 blitz", "3 days per move", or no limit.
func TimeTerms(lang Lang, tc play.TimeControl, days int) string {
	switch {
	case tc.Live():
		return LiveTerms(lang, tc)
	case days > 0:
		return DaysPerMove(lang, days)
	}
	return T(lang, "choice.no_limit", nil)
}

// BadTimeControl says, in lang, why a time control typed does not read,
// with the usual ones (play.OfferedTimes) as examples.
func BadTimeControl(lang Lang, e *play.TimeControlError) string {
	key := "clock.bad.unreadable"
	switch e.Kind {
	case play.TimeLimitRange:
		key = "clock.bad.limit"
	case play.TimeIncrementRange:
		key = "clock.bad.increment"
	}
	return T(lang, key, map[string]any{"Text": Quote(lang, e.Text), "Examples": strings.Join(play.OfferedTimes, ", ")})
}
