package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/internal/discordurl"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/stream"
)

// The program builds one stream of the games' events on its storage, and
// a move made through Discord reaches its watchers.
func TestTheProgramStreamsTheGamesEvents(t *testing.T) {
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // a loaded machine under -race may be slower than Discord allows; not the point here
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	discordurl.Point(srv.URL())
	cfg := config.Default()
	cfg.Discord.Token = srv.Token()
	cfg.Database.Path = filepath.Join(t.TempDir(), "iceage.db")
	cfg.Log.Level = "error"
	a, err := newApp(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- a.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
		if err := a.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}()
	<-a.bot.Ready()

	c, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "challenge", fakediscord.UserOption("opponent", bob.ID)))
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	for _, b := range c.Message.Buttons() {
		if strings.HasPrefix(b.CustomID, "ch:accept:") {
			srv.Click(bob.ID, c.Message.ID, b.CustomID)
		}
	}
	th, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread })
	if err != nil {
		t.Fatal(err)
	}
	game, err := a.play.GameIn(ctx, th.Channel.ID)
	for err != nil && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
		game, err = a.play.GameIn(ctx, th.Channel.ID)
	}
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.stream.Subscribe(ctx, game.ID, game.Revision)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if c, err := srv.WaitResponse(ctx, srv.Command(game.White.ID, th.Channel.ID, "move", fakediscord.StringOption("move", "Nxf3"))); err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	select {
	case ev := <-w.Events():
		if ev.Kind != stream.Moved || ev.Revision != game.Revision+1 || ev.Moves[0].SAN != "Nxf3" || ev.By != game.White.ID {
			t.Fatalf("the move is told as %+v", ev)
		}
	case <-ctx.Done():
		t.Fatal("the move did not reach the stream")
	}
}
