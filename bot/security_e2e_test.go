package bot_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/bot"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// otherServersGame stores a finished game between two strangers on a
// server the world's users are not on, and returns its id.
func otherServersGame(t *testing.T, st play.Storage, at time.Time) uint64 {
	t.Helper()
	svc := play.New(st, play.Options{})
	r, err := svc.Start(context.Background(), play.NewGame{Guild: "999000999", Channel: "999000998",
		White: play.Seat{ID: "999000001", Name: "Secret White"}, Black: play.Seat{ID: "999000002", Name: "Secret Black"}, At: at})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Resign(context.Background(), play.Act{By: "999000001", Game: r.Game.ID, Revision: r.Game.Revision, At: at}); err != nil {
		t.Fatal(err)
	}
	return r.Game.ID
}

func TestAnalyzeOfAnotherServersGameIsRefused(t *testing.T) {
	st := memstore.New()
	w := newEngineWorld(t, st, "en-US", fastEngine)
	id := otherServersGame(t, st, w.clock.Now())
	got := w.command(w.alice, w.chess.ID, "analyze", fakediscord.IntOption("game", int64(id)))
	if !got.Ephemeral() || !strings.Contains(got.Content, fmt.Sprint(id)) || strings.Contains(fmt.Sprint(got), "Secret") {
		t.Fatalf("/analyze of another server's game #%d answered %q (%d embeds); want an ephemeral no such game", id, got.Content, len(got.Embeds))
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindResponseEdit && strings.Contains(fmt.Sprint(c.Message), "Secret") {
			t.Fatalf("another server's game was shown: %+v", c.Message)
		}
	}
}

func TestAnAnalysisCutShortSaysSo(t *testing.T) {
	// A move budget too small for a game of 37 moves.
	w := newEngineWorld(t, memstore.New(), "en-US", bot.EngineConfig{MoveTime: time.Millisecond, Workers: 1})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	w.playAlternately(thread, w.alice, w.bob, referenceGame(t, "checkmate", 37))
	id := w.srv.Command(w.alice.ID, thread, "analyze")
	w.answer(id)
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponseEdit && c.InteractionID == id
	})
	if err != nil {
		t.Fatalf("the analysis never came: %v", err)
	}
	f := c.Message.Embeds[0].Fields[0]
	if strings.Contains(f.Value, "clean game") || !strings.Contains(f.Value, "Time ran out: the analysis stops at move") {
		t.Fatalf("an analysis cut short says %q", f.Value)
	}
}

// TestForgedClicks posts clicks that no message carries, as anyone who
// can sign (or replay) a request could, to the interactions endpoint.
func TestForgedClicks(t *testing.T) {
	st := memstore.New()
	w := newWorld(t, st, "en-US")
	pub, priv, _ := ed25519.GenerateKey(nil)
	srv := httptest.NewServer(w.bot.InteractionsHandler(pub))
	defer srv.Close()
	n := 0
	click := func(user fakediscord.User, customID string) (int, string) {
		n++
		body := fmt.Sprintf(`{"id":"80000%d","application_id":"1","type":3,"token":"forged%d","guild_id":%q,"channel_id":%q,`+
			`"member":{"user":{"id":%q,"username":%q}},"locale":"en-US","data":{"custom_id":%q,"component_type":2}}`,
			n, n, w.guild.ID, w.chess.ID, user.ID, user.Username, customID)
		resp, err := http.DefaultClient.Do(signed(t, srv.URL, priv, body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	t.Run("a flip of another server's game shows nothing of it", func(t *testing.T) {
		id := otherServersGame(t, st, w.clock.Now())
		code, body := click(w.alice, fmt.Sprintf("g:flip:%d:0", id))
		if code != 200 || strings.Contains(body, "Secret") || !strings.Contains(body, fmt.Sprint(id)) {
			t.Fatalf("%d %.300s; want the ephemeral no such game", code, body)
		}
	})
	t.Run("an accept without the challenge's message does not panic", func(t *testing.T) {
		m := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
		before := w.bot.Metrics.Failures.Load()
		code, _ := click(w.bob, button(t, m, "accept").CustomID)
		if code != 200 {
			t.Fatalf("status %d", code)
		}
		// The board comes after the challenge's message is edited, where
		// the message was read.
		w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
		err := st.View(context.Background(), func(tx play.ReadTx) error { _, err := tx.GameIn(w.chess.ID); return err })
		if err != nil {
			t.Fatalf("the accepted challenge made no game: %v", err)
		}
		if f := w.bot.Metrics.Failures.Load(); f != before {
			t.Fatalf("%d failures (a panic?) accepting without a message", f-before)
		}
	})
}

// TestAStalledDatabaseGetsAFastApology stalls PostgreSQL under a running
// bot: the player is told at once that something went wrong, within the
// three seconds Discord gives an interaction's first answer (the fake
// Discord refuses a later one), instead of waiting on the database.
func TestAStalledDatabaseGetsAFastApology(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the timeouts of a stalled PostgreSQL; skipped with -short")
	}
	url, proxy := pgtest.Stalling(t)
	st, err := pgstore.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	w := newWorld(t, st, "en-US")
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	proxy.Stall()
	got := w.command(w.alice, thread, "board")
	if !got.Ephemeral() || !strings.Contains(got.Content, "something went wrong") {
		t.Fatalf("/board on a stalled database answered %q", got.Content)
	}
}
