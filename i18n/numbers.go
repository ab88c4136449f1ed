package i18n

import (
	"strconv"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Percent writes a share in [0, 1] as a percentage the way lang writes
// one, with exactly decimals digits after the decimal separator:
// "47.5%" in English, "47,5 %" in French, "47,5%" in Dutch (CLDR's
// patterns, from golang.org/x/text).
func Percent(lang Lang, share float64, decimals int) string {
	return printer(lang).Sprint(number.Percent(share, fraction(decimals)...))
}

// Decimal writes x the way lang writes a number, with exactly decimals
// digits after the decimal separator: "2.4" in English, "2,4" in French.
func Decimal(lang Lang, x float64, decimals int) string {
	return printer(lang).Sprint(number.Decimal(x, fraction(decimals)...))
}

func fraction(decimals int) []number.Option {
	d := max(decimals, 0)
	return []number.Option{number.MinFractionDigits(d), number.MaxFractionDigits(d)}
}

// printer returns a new printer for lang: a message.Printer is not
// documented as safe for concurrent use, and numbers are written rarely.
func printer(lang Lang) *message.Printer {
	tag, err := language.Parse(string(lang))
	if err != nil {
		tag = language.English
	}
	return message.NewPrinter(tag)
}

// Points writes n parts of a point (halves or quarters) as lang writes
// a number: 5 halves are "2.5" in English, "2,5" in French and Russian.
func Points(lang Lang, n, parts int) string {
	if n%parts == 0 {
		return strconv.Itoa(n / parts)
	}
	decimals := 1
	if parts == 4 && n%2 != 0 {
		decimals = 2
	}
	return Decimal(lang, float64(n)/float64(parts), decimals)
}
