package i18n

import (
	"strconv"
	"time"
)

// Dates as a reader writes them, with abbreviated month names: "4 Dec
// 2026", "4 дек. 2026 г.", "4. des. 2026". Times are taken in UTC, as the
// bot's records keep them.

// Date writes a day in full: "4 Dec 2026".
func Date(lang Lang, t time.Time) string { return ChartDates{Lang: lang}.Day(t, true) }

// ChartDates write a rating chart's dates in one language; they satisfy
// render.DateWords.
type ChartDates struct{ Lang Lang }

// Day is a day of the month with its year or not: "4 Dec 2026", "4 Dec".
func (d ChartDates) Day(t time.Time, year bool) string {
	t = t.UTC()
	id := "date.day"
	if year {
		id = "date.day_year"
	}
	return T(d.Lang, id, map[string]any{"Day": t.Day(), "Year": t.Year(),
		"Month": T(d.Lang, "date.in_day.m"+strconv.Itoa(int(t.Month())), nil)})
}

// Month is a month with its year or not: "Dec 2026", "Dec".
func (d ChartDates) Month(t time.Time, year bool) string {
	t = t.UTC()
	month := T(d.Lang, "date.alone.m"+strconv.Itoa(int(t.Month())), nil)
	if !year {
		return month
	}
	return T(d.Lang, "date.month_year", map[string]any{"Month": month, "Year": t.Year()})
}

// EngineName is the engine's name as a player at a level, "Ice Age
// Engine (level 3)", for thread names and the terminal.
func EngineName(lang Lang, level int) string {
	return T(lang, "engine.name", map[string]any{"Level": level})
}

// IceAgeCaptions label the two boards of an Ice Age's picture: "Before
// the Ice Age", "After the Ice Age"; they fill render.Options.Captions.
func IceAgeCaptions(lang Lang) [2]string {
	return [2]string{T(lang, "iceage.caption_before", nil), T(lang, "iceage.caption_after", nil)}
}
