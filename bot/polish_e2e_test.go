package bot_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/i18n"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/render"
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

func TestTheColourBlindThemeIsAPlayersSetting(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	got := w.command(w.alice, w.chess.ID, "settings", fakediscord.StringOption("theme", "colorblind"))
	if !got.Ephemeral() || !strings.Contains(got.Content, "Boards: Colour-blind safe (grey)") {
		t.Fatalf("/settings theme colorblind is answered %q", got.Content)
	}
	if got := w.command(w.bob, w.chess.ID, "settings"); !strings.Contains(got.Content, "Échiquiers\u00a0: Classique (brun)") {
		t.Errorf("Bob's settings, in French, say %q", got.Content)
	}
	// Alice plays White: the first board waits for her and wears her
	// colours, the grey squares of the colour-blind theme.
	ch := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID), fakediscord.StringOption("color", "white"))
	w.click(w.bob, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && len(c.Message.Files) > 0
	})
	if err != nil {
		t.Fatalf("no board: %v", err)
	}
	board := c.Message
	im, err := png.Decode(bytes.NewReader(board.Files[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	// The left edge of a8, a light square, beside its rook.
	r, g, b, _ := im.At(2, im.Bounds().Dy()/16+4).RGBA()
	if got := [3]uint32{r >> 8, g >> 8, b >> 8}; got != [3]uint32{0xe4, 0xe4, 0xe0} {
		t.Errorf("a light square of Alice's board is %x, not the colour-blind theme's grey", got)
	}
}

func TestEveryThemeASettingOffersIsDrawn(t *testing.T) {
	for _, name := range play.Themes {
		if th, err := render.ParseTheme(name); err != nil || th.String() != name {
			t.Errorf("play offers the theme %q, which render reads as %v, %v", name, th, err)
		}
	}
}

func TestTheIceAgePictureIsCaptioned(t *testing.T) {
	w := newWorld(t, memstore.New(), "ru")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	sans := referenceGame(t, "white_king_frozen", 40)
	last := w.playAlternately(thread, w.alice, w.bob, sans)
	if len(last.Files) != 2 || last.Files[1].Name != "iceage.png" {
		t.Fatalf("the Ice Age move's answer has files %v", last.Files)
	}
	// The same picture, drawn here with the Russian captions.
	p := game.StartPosition()
	var ev *game.IceAge
	for _, san := range sans {
		m, err := game.ParseMove(&p, san)
		if err != nil {
			t.Fatal(err)
		}
		p, ev = p.ApplyWithEvent(m)
	}
	if ev == nil {
		t.Fatal("the 40th ply brought no Ice Age")
	}
	var want bytes.Buffer
	if err := render.IceAge(&want, ev, &p, render.Options{NoHeader: true, Size: 384, FastPNG: true, Captions: i18n.IceAgeCaptions(i18n.Russian)}); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(last.Files[1].Data))
	if err != nil {
		t.Fatal(err)
	}
	wantIm, _ := png.Decode(&want)
	if got.Bounds() != wantIm.Bounds() {
		t.Fatalf("the Ice Age picture is %v, want %v", got.Bounds(), wantIm.Bounds())
	}
	for y := got.Bounds().Min.Y; y < got.Bounds().Max.Y; y++ {
		for x := got.Bounds().Min.X; x < got.Bounds().Max.X; x++ {
			if got.At(x, y) != wantIm.At(x, y) {
				t.Fatalf("the Ice Age picture differs from the captioned one at (%d, %d)", x, y)
			}
		}
	}
}
