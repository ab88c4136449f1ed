package i18n

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
)

// startsAsASentence reports whether a refusal starts as a sentence: with
// a capital, with something that is no letter (a quote, a mention), or
// with the move exactly as the player typed it, whose case is the move's.
func startsAsASentence(s, typed string) bool {
	if typed != "" && strings.HasPrefix(s, typed) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return !unicode.IsLetter(r) || unicode.IsUpper(r)
}

func TestRefusalsStartWithACapital(t *testing.T) {
	strict(t)
	marks := Marks{Player: func(id string) string { return "@" + id }, Time: func(time.Time) string { return "tomorrow" }}
	var refusals []*play.Refusal
	for k := play.RefusalKind(1); k < 255; k++ {
		if strings.HasPrefix(k.String(), "RefusalKind(") {
			continue
		}
		refusals = append(refusals, &play.Refusal{Kind: k, Who: play.Seat{ID: "u"}, Deadline: time.Unix(0, 0), Allowed: []int{1, 3}, Line: 0, Left: 2,
			Outcome: game.WinFor(game.White, game.Resignation)})
	}
	for _, e := range moveErrors(t) {
		refusals = append(refusals, &play.Refusal{Kind: play.IllegalMove, Err: e})
	}
	// Moves typed in lower case, as players type them.
	for _, e := range moveErrors(t) {
		e.Text = strings.ToLower(e.Text)
		refusals = append(refusals, &play.Refusal{Kind: play.IllegalMove, Err: e})
	}
	for k := range syntaxErrorIDs {
		for _, text := range []string{"", "zz9"} {
			refusals = append(refusals, &play.Refusal{Kind: play.NotAMove, Err: &game.SyntaxError{Kind: k, Text: text}}, &play.Refusal{Kind: play.NotAMove, Err: &game.SyntaxError{Kind: k, Text: text}, Line: 2})
		}
	}
	if len(refusals) < 60 {
		t.Fatalf("only %d refusals to check", len(refusals))
	}
	for _, l := range Languages() {
		for _, x := range refusals {
			got := Refusal(l, x, marks)
			var me *game.MoveError
			typed := ""
			if errors.As(x.Err, &me) {
				typed = me.Text
			}
			if !startsAsASentence(got, typed) {
				t.Errorf("%s: the refusal %v (%v) starts in lower case: %q", l, x.Kind, x.Err, got)
			}
		}
	}
}

func TestCountsOfZeroSayNone(t *testing.T) {
	strict(t)
	// Every count a player can see at zero has its own sentence.
	for _, id := range []string{"games.your_move_count", "stats.frozen_value", "vacation.left", "tournament.signup.players", "refusal.no_vacation_left", "describe.iced"} {
		for _, l := range Languages() {
			got := N(l, id, 0, nil)
			if strings.ContainsAny(got, "0") {
				t.Errorf("%s: %s at zero says %q", l, id, got)
			}
			if got == N(l, id, 1, nil) {
				t.Errorf("%s: %s says the same for none and one: %q", l, id, got)
			}
		}
	}
	if got := N(English, "games.your_move_count", 0, nil); got != "No game is waiting for your move." {
		t.Errorf("English: %q", got)
	}
	if got := N(English, "games.your_move_count", 2, nil); got != "It is your move in 2 games." {
		t.Errorf("English, two: %q", got)
	}
}

func TestDatesInEveryLanguage(t *testing.T) {
	strict(t)
	at := time.Date(2026, 12, 4, 20, 0, 0, 0, time.UTC)
	may := time.Date(2026, 5, 9, 0, 0, 0, 0, time.UTC)
	want := map[Lang][4]string{
		English:   {"4 Dec 2026", "4 Dec", "Dec 2026", "9 May"},
		French:    {"4 déc. 2026", "4 déc.", "déc. 2026", "9 mai"},
		Russian:   {"4 дек. 2026 г.", "4 дек.", "дек. 2026 г.", "9 мая"},
		Norwegian: {"4. des. 2026", "4. des.", "des 2026", "9. mai"},
		Spanish:   {"4 dic 2026", "4 dic", "dic 2026", "9 may"},
		Dutch:     {"4 dec 2026", "4 dec", "dec 2026", "9 mei"},
	}
	for _, l := range Languages() {
		d := ChartDates{Lang: l}
		got := [4]string{d.Day(at, true), d.Day(at, false), d.Month(at, true), d.Day(may, false)}
		if got != want[l] {
			t.Errorf("%s: %q, want %q", l, got, want[l])
		}
		if Date(l, at) != want[l][0] {
			t.Errorf("%s: Date = %q", l, Date(l, at))
		}
		if m := d.Month(may, false); l == Russian && m != "май" {
			t.Errorf("Russian May alone is %q", m)
		}
	}
}

func TestEngineAndCaptionsInEveryLanguage(t *testing.T) {
	strict(t)
	seen := map[string]Lang{}
	for _, l := range Languages() {
		name := EngineName(l, 3)
		if !strings.Contains(name, "3") {
			t.Errorf("%s: the engine's name %q lacks its level", l, name)
		}
		if other, ok := seen[name]; ok && l != English {
			t.Errorf("%s names the engine as %s does: %q", l, other, name)
		}
		seen[name] = l
		c := IceAgeCaptions(l)
		if c[0] == "" || c[1] == "" || c[0] == c[1] {
			t.Errorf("%s: captions %q", l, c)
		}
	}
	if got := EngineName(French, 1); got != "Moteur de l'Âge de Glace (niveau 1)" {
		t.Errorf("French: %q", got)
	}
	if got := fmt.Sprint(IceAgeCaptions(Russian)); got != "[До Ледникового периода После Ледникового периода]" {
		t.Errorf("Russian captions: %s", got)
	}
}
