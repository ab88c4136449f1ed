package bot

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

// The daily puzzle's hour is UTC (a server keeps no time zone): the
// option that sets it and the answer that shows it say so, in every
// language.
func TestTheDailyPuzzleHourSaysUTCInEveryLanguage(t *testing.T) {
	found := false
	for _, c := range declarations(&Config{AllowedDays: play.AllowedDays, VacationDays: 14}) {
		for _, o := range c.Options {
			if c.Name != "server-settings" || o.Name != "puzzle_hour" {
				continue
			}
			found = true
			if !strings.Contains(o.Description, "UTC") || len(o.DescriptionLocalizations) < len(i18n.Languages())-1 {
				t.Errorf("puzzle_hour: %q, %v", o.Description, o.DescriptionLocalizations)
			}
			for loc, d := range o.DescriptionLocalizations {
				if !strings.Contains(d, "UTC") {
					t.Errorf("puzzle_hour in %s: %q", loc, d)
				}
			}
		}
	}
	if !found {
		t.Fatal("no /server-settings puzzle_hour option")
	}
	for _, lang := range i18n.Languages() {
		if got := tr(lang, "serversettings.daily_on", map[string]any{"Channel": "<#1>", "Hour": "07:00"}); !strings.Contains(got, "07:00 UTC") {
			t.Errorf("%s: %q", lang, got)
		}
	}
}
