package i18n

import (
	"maps"
	"strings"
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/iceagechess/iceage/game"
)

// TestEveryMessageInEveryLanguage fails when a language lacks a message
// of the English file, or a plural form its grammar needs for any count
// from 0 to 1000, or has a message English does not.
func TestEveryMessageInEveryLanguage(t *testing.T) {
	en, err := Messages(English)
	if err != nil {
		t.Fatal(err)
	}
	b, err := load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Langs {
		msgs, err := Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		loc := goi18n.NewLocalizer(b, string(lang)) // no fallback: a gap is an error
		for id, text := range en {
			got, ok := msgs[id]
			if !ok {
				t.Errorf("%s: message %q is missing", lang, id)
				continue
			}
			if _, plural := text.(map[string]any); plural {
				if _, ok := got.(map[string]any); !ok {
					t.Errorf("%s: %q must have plural forms", lang, id)
					continue
				}
				for n := range 1001 {
					s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: n, TemplateData: withCount(n)})
					if err != nil || strings.Contains(s, "<no value>") {
						t.Errorf("%s: %q for %d: %q, %v", lang, id, n, s, err)
						break
					}
				}
			}
		}
		for id := range msgs {
			if _, ok := en[id]; !ok {
				t.Errorf("%s: message %q is not in the English file", lang, id)
			}
		}
	}
}

// withCount is templateData with a count, for a message that counts.
func withCount(n int) map[string]any {
	d := maps.Clone(templateData)
	d["Count"] = n
	return d
}

func TestRussianPlurals(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "1 день"}, {2, "2 дня"}, {5, "5 дней"}, {11, "11 дней"}, {21, "21 день"}, {22, "22 дня"}, {14, "14 дней"}} {
		if got := N(Russian, "days", c.n, nil); got != c.want {
			t.Errorf("N(ru, days, %d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// templateData fills every field a message template names.
var templateData = map[string]any{"Player": "@a", "Opponent": "@b", "From": "@a", "To": "@b", "By": "@b", "Channel": "#c",
	"Move": "Nxf6", "Text": "zz", "Outcome": "1-0", "Deadline": "t", "Allowed": "1, 3", "Moves": "a, b",
	"White": "A", "Black": "B", "A": "A", "B": "B", "Number": 3, "When": "t", "Square": "d4", "Men": "x",
	"ID": 7, "Result": "won", "Endings": "mate 50%", "Average": "1.5", "Name": "A", "Rank": 1, "Rating": "1500?",
	"WinRate": "50%", "Page": 1, "Pages": 2, "Deviation": 80, "High": 1600, "Low": 1400, "Shown": 9, "Draws": "5%"}

func TestTemplatesFillEveryField(t *testing.T) {
	data := templateData
	for _, lang := range Langs {
		msgs, _ := Messages(lang)
		for id, text := range msgs {
			if _, plural := text.(map[string]any); plural {
				continue
			}
			if got := T(lang, id, data); strings.Contains(got, "<no value>") || got == id {
				t.Errorf("%s %s: %q", lang, id, got)
			}
		}
	}
}

func TestFromDiscord(t *testing.T) {
	for loc, want := range map[string]Lang{
		"en-US": English, "en-GB": English, "fr": French, "ru": Russian, "no": Norwegian, "nb": Norwegian,
		"es-ES": Spanish, "es-419": Spanish, "nl": Dutch, "de": English, "": English, "pt-BR": English, "FR": French,
	} {
		if got := FromDiscord(loc); got != want {
			t.Errorf("FromDiscord(%q) = %s, want %s", loc, got, want)
		}
	}
}

func TestOutcomesAndMenInEveryLanguage(t *testing.T) {
	outcomes := []game.Outcome{
		game.WinFor(game.White, game.Checkmate), game.WinFor(game.Black, game.KingFrozen),
		{Result: game.Draw, Reason: game.BothKingsFrozen}, game.WinFor(game.White, game.Timeout),
		{Result: game.Draw, Reason: game.Stalemate}, {Reason: game.Aborted},
	}
	for _, lang := range Langs {
		seen := map[string]bool{}
		for _, o := range outcomes {
			s := Outcome(lang, o)
			if seen[s] || strings.HasPrefix(s, "outcome.") {
				t.Errorf("%s: outcome %v reads %q", lang, o, s)
			}
			seen[s] = true
		}
		if s := Man(lang, game.MakePiece(game.Black, game.Knight), game.SquareAt(3, 3)); !strings.Contains(s, "d4") {
			t.Errorf("%s: the black knight on d4 reads %q", lang, s)
		}
	}
	if s := Outcome(French, game.WinFor(game.White, game.Checkmate)); !strings.Contains(s, "échec et mat") {
		t.Errorf("French checkmate: %q", s)
	}
}

func TestMoveErrorsInEveryLanguage(t *testing.T) {
	p := game.StartPosition()
	_, err := game.ParseMove(&p, "Rh5")
	me, ok := err.(*game.MoveError)
	if !ok {
		t.Fatalf("Rh5 at the start: %v", err)
	}
	for _, lang := range Langs {
		if s := MoveError(lang, me); s == "" || strings.HasPrefix(s, "move_error.") {
			t.Errorf("%s: %q", lang, s)
		}
	}
	for k := game.NoSuchMan; k <= game.NotYourTurn; k++ {
		for _, lang := range Langs[1:] {
			if s := MoveError(lang, &game.MoveError{Kind: k, Text: "Nf3"}); strings.HasPrefix(s, "move_error.") || !strings.Contains(s, "Nf3") && k != game.GameOver {
				t.Errorf("%s kind %v: %q", lang, k, s)
			}
		}
	}
}

func FuzzFromDiscord(f *testing.F) {
	for _, s := range []string{"fr", "es-419", "no", "", "-", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		l := FromDiscord(loc)
		found := false
		for _, x := range Langs {
			found = found || x == l
		}
		if !found {
			t.Fatalf("FromDiscord(%q) = %q, not one of ours", loc, l)
		}
	})
}
