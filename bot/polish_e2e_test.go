package bot_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

func TestASettledChallengeNoLongerExpires(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	for _, verb := range []string{"accept", "decline"} {
		ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
		if len(ch.Embeds) != 1 || ch.Embeds[0].Footer == nil || ch.Embeds[0].Timestamp == "" {
			t.Fatalf("a waiting challenge shows no expiry: %+v", ch.Embeds)
		}
		w.click(w.bob, ch, verb)
		if verb == "accept" {
			// The challenge's message is edited before the game's first
			// board is posted.
			if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
				return c.Kind == fakediscord.KindMessage && len(c.Message.Files) > 0
			}); err != nil {
				t.Fatalf("no board for the accepted challenge: %v", err)
			}
		}
		m, _ := w.srv.Message(ch.ID)
		if len(m.Components) != 0 {
			t.Errorf("%s: the challenge keeps its buttons", verb)
		}
		if len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Description, "⏳") {
			t.Errorf("%s: the challenge's terms are gone: %+v", verb, m.Embeds)
			continue
		}
		if e := m.Embeds[0]; e.Footer != nil || e.Timestamp != "" {
			t.Errorf("%s: the settled challenge still says %q %q", verb, e.Footer.Text, e.Timestamp)
		}
	}
}

func TestTheEngineHasANameInTheServersLanguage(t *testing.T) {
	for _, c := range []struct{ locale, want string }{
		{"fr", "Alice contre Moteur de l'Âge de Glace (niveau 1)"},
		{"ru", "Alice — Движок «Ледникового периода» (уровень 1)"},
	} {
		w := newEngineWorld(t, memstore.New(), c.locale, fastEngine)
		opts := []*fakediscord.Option{fakediscord.UserOption("opponent", w.srv.Bot().ID), fakediscord.IntOption("level", 1), fakediscord.StringOption("color", "white")}
		got := w.command(w.alice, w.chess.ID, "challenge", opts...)
		_, rest, _ := strings.Cut(got.Content, "<#")
		thread, _, _ := strings.Cut(rest, ">")
		ch, ok := w.srv.Channel(thread)
		if !ok {
			t.Fatalf("%s: no thread in %q", c.locale, got.Content)
		}
		if ch.Name != c.want {
			t.Errorf("%s: the thread is named %q, want %q", c.locale, ch.Name, c.want)
		}
		if g := w.gameOf(thread); g.Black.Name != strings.TrimPrefix(strings.TrimPrefix(c.want, "Alice contre "), "Alice — ") {
			t.Errorf("%s: the engine's seat is named %q", c.locale, g.Black.Name)
		}
	}
}
