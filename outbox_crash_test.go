package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The bot killed between a move's commit and the board's delivery
// delivers the board after its restart, once: the board was in the
// outbox, committed with the move.
func TestABoardCommittedBeforeASIGKILLIsDeliveredOnceAfterTheRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a board's hold to end (15 s)")
	}
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	dir := t.TempDir()
	bot := startBot(t, srv, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	thread := gameStarted(ctx, t, srv, ch.ID, alice.ID, bob.ID)
	white, black := alice, bob
	if msgs := srv.Messages(thread); !strings.Contains(msgs[len(msgs)-1].Content, alice.ID) {
		white, black = bob, alice
	}

	// Discord holds the move's answer back for a long while: the move is
	// committed, its board waits in the outbox, and the bot is killed.
	srv.Refuse(fakediscord.RouteCallback, fakediscord.Refusal{Status: http.StatusTooManyRequests, RetryAfter: time.Minute})
	move := srv.Command(white.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if _, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponse && c.InteractionID == move && c.Refused != nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := bot.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	bot.done <- <-bot.done
	checkStored(t, filepath.Join(dir, "iceage.db"), thread, 1)
	played := "played **Nxf3**"
	for _, m := range srv.Messages(thread) {
		if strings.Contains(m.Content, played) {
			t.Fatalf("the board was delivered before the kill: %q", m.Content)
		}
	}

	startBot(t, srv, dir)
	c, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread && strings.Contains(c.Message.Content, played)
	})
	if err != nil {
		t.Fatalf("after the restart the board was not delivered: %v", err)
	}
	if !strings.Contains(c.Message.Content, "<@"+black.ID+">") || len(c.Message.Files) == 0 {
		t.Errorf("the board delivered after the restart: %q with %d files; want the board calling %s", c.Message.Content, len(c.Message.Files), black.Username)
	}
	// Long enough for a second delivery, had the first not been marked
	// done: the loop looks every half second.
	time.Sleep(2 * time.Second)
	n := 0
	for _, m := range srv.Messages(thread) {
		if strings.Contains(m.Content, played) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the board is in the thread %d times, want once", n)
	}
}
