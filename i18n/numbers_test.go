package i18n

import "testing"

func TestNumbersInEveryLanguage(t *testing.T) {
	// CLDR separates the per cent sign with a no-break space in French,
	// Russian, Norwegian and Spanish.
	for _, c := range []struct {
		lang             Lang
		percent, decimal string
	}{
		{English, "47.5%", "2.40"},
		{French, "47,5\u00a0%", "2,40"},
		{Russian, "47,5\u00a0%", "2,40"},
		{Norwegian, "47,5\u00a0%", "2,40"},
		{Spanish, "47,5\u00a0%", "2,40"},
		{Dutch, "47,5%", "2,40"},
	} {
		if got := Percent(c.lang, 0.4752, 1); got != c.percent {
			t.Errorf("Percent(%s, 0.4752, 1) = %q, want %q", c.lang, got, c.percent)
		}
		if got := Decimal(c.lang, 2.4, 2); got != c.decimal {
			t.Errorf("Decimal(%s, 2.4, 2) = %q, want %q", c.lang, got, c.decimal)
		}
	}
	if got := Percent(English, 1, 0); got != "100%" {
		t.Errorf("Percent(en, 1, 0) = %q", got)
	}
	if got := Percent(English, 0, 1); got != "0.0%" {
		t.Errorf("Percent(en, 0, 1) = %q", got)
	}
}
