package i18n

import (
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// TestEveryRefusalIsWorded: every refusal play knows reads as a sentence
// in every language, with what it carries filled in.
func TestEveryRefusalIsWorded(t *testing.T) {
	strict(t)
	marks := Marks{Player: func(id string) string { return "@" + id }, Time: func(time.Time) string { return "<date>" },
		Until: func(time.Time) string { return "<soon>" }}
	for k := play.RefusalKind(1); k < 255; k++ {
		if strings.HasPrefix(k.String(), "RefusalKind(") {
			continue
		}
		x := &play.Refusal{Kind: k, Who: play.Seat{ID: "bob"}, Most: 7, Until: time.Unix(0, 0), Allowed: []int{1, 3}, Left: 2, Days: 5, Line: 1}
		for _, lang := range Languages() {
			text := Refusal(lang, x, marks)
			checkText(t, lang.String()+" "+k.String(), text)
		}
	}
	for _, k := range []play.RefusalKind{play.TooManyChallenges, play.TooManyPosts} {
		text := Refusal(French, &play.Refusal{Kind: k, Most: 7}, marks)
		if !strings.Contains(text, "7") || !strings.Contains(text, "<soon>") {
			t.Errorf("%v in French: %q names neither the cap nor when to try again", k, text)
		}
	}
}
