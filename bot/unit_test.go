package bot

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/play"
)

func TestEveryRefusalReadsInEveryLanguage(t *testing.T) {
	for k := play.RefusalKind(1); k < 40; k++ {
		if strings.HasPrefix(k.String(), "RefusalKind(") {
			continue
		}
		for _, lang := range i18n.Languages() {
			x := &play.Refusal{Kind: k, Who: play.Seat{ID: "42"}, Allowed: []int{1, 3}, Outcome: game.WinFor(game.White, game.Resignation)}
			if k == play.IllegalMove {
				x.Err = &game.MoveError{Kind: game.BlockedByIce, Text: "Rh5", Msg: "the rook on h1 cannot reach h5: ice on h3 blocks it"}
				x.Suggestions = []string{"Nxf3"}
			}
			if k == play.NotAMove {
				x.Err = &game.SyntaxError{Text: "zz", Msg: "no such move"}
			}
			got := refusalText(lang, x)
			if got == "" || strings.Contains(got, "refusal.") || strings.Contains(got, "<no value>") {
				t.Errorf("%s, %s: %q", lang, k, got)
			}
		}
	}
}

func TestCommandsAreValidForDiscord(t *testing.T) {
	for _, c := range declarations(&Config{AllowedDays: play.AllowedDays, VacationDays: 14}) {
		if c.Type == discordgo.UserApplicationCommand {
			// A context menu's name may have capitals and spaces, but no
			// more than 32 characters in any language.
			for loc, s := range *c.NameLocalizations {
				if n := utf8.RuneCountInString(s); n < 1 || n > 32 {
					t.Errorf("menu command %q in %s: %d characters", s, loc, n)
				}
			}
			continue
		}
		checkName(t, c.Name, c.NameLocalizations)
		if n := utf8.RuneCountInString(c.Description); n < 1 || n > 100 {
			t.Errorf("/%s: description of %d characters", c.Name, n)
		}
		for loc, d := range *c.DescriptionLocalizations {
			if n := utf8.RuneCountInString(d); n < 1 || n > 100 {
				t.Errorf("/%s in %s: description of %d characters", c.Name, loc, n)
			}
		}
		for _, o := range c.Options {
			ol := o.NameLocalizations
			checkName(t, o.Name, &ol)
			if len(o.Choices) > 25 {
				t.Errorf("/%s %s: %d choices", c.Name, o.Name, len(o.Choices))
			}
		}
	}
}

func checkName(t *testing.T, name string, locs *map[discordgo.Locale]string) {
	t.Helper()
	ok := func(s string) bool {
		if n := utf8.RuneCountInString(s); n < 1 || n > 32 || strings.ToLower(s) != s || strings.ContainsAny(s, " .") {
			return false
		}
		return true
	}
	if !ok(name) {
		t.Errorf("name %q is not a valid command name", name)
	}
	if locs == nil {
		return
	}
	for loc, s := range *locs {
		if !ok(s) {
			t.Errorf("name %q in %s is not a valid command name", s, loc)
		}
	}
}

// TestInteractionsRunUnderADeadline: what an interaction does is bounded
// by its token's lifetime, and released when its handler returns.
func TestInteractionsRunUnderADeadline(t *testing.T) {
	b, _, _ := offlineBot(t, play.Options{})
	in := b.newInteraction(&discordgo.Interaction{ID: "1", Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ApplicationCommandInteractionData{Name: "help"}})
	dl, ok := in.ctx.Deadline()
	if !ok || time.Until(dl) > interactionDeadline || time.Until(dl) < interactionDeadline-time.Minute {
		t.Fatalf("deadline %v (ok %v)", dl, ok)
	}
	in.cancel()
	if in.ctx.Err() == nil {
		t.Fatal("the context outlives its handler")
	}
}

func TestAnInteractionIDIsTakenOnceInItsLife(t *testing.T) {
	var s seenIDs
	t0 := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		id   string
		at   time.Duration
		want bool
	}{
		{"1", 0, true},
		{"1", time.Second, false},
		{"2", time.Second, true},
		{"1", interactionLife - time.Second, false},
		{"1", interactionLife + 2*time.Minute, true}, // long dead, and swept: its request is refused for its age anyway
		{"2", interactionLife + 2*time.Minute, true},
	} {
		if got := s.first(c.id, t0.Add(c.at)); got != c.want {
			t.Errorf("id %s at +%v: first %v, want %v", c.id, c.at, got, c.want)
		}
	}
}
