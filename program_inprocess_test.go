package main

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/internal/discordurl"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
)

// club is the program run inside the test's process, as runBot builds
// it, against a fake Discord holding one server ("Club") with a #chess
// channel and two players, alice and bob. The tests of what the whole
// program wires together (the web listener, the stream, the Activity)
// start it here, so that they differ only in what they check.
type club struct {
	srv        *fakediscord.Server
	app        *app
	guild      fakediscord.Guild
	chess      fakediscord.Channel
	alice, bob fakediscord.User
	// ctx bounds the whole test; the program stops when it ends.
	ctx context.Context
}

// clubOptions says what the program runs beside the bot.
type clubOptions struct {
	// web turns the web listener on, at a free address of 127.0.0.1.
	web bool
	// activity gives the application its OAuth2 credentials and Discord
	// the Activities, which the Activity's sign-in needs (with web).
	activity bool
	// within bounds the whole test.
	within time.Duration
}

// startClub starts the program and returns once the bot is ready; it is
// stopped and closed when the test ends, and a failure of either fails
// the test.
func startClub(t *testing.T, o clubOptions) *club {
	t.Helper()
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // a loaded machine under -race may be slower than Discord allows; not the point here
	if o.activity {
		srv.EnableActivities()
	}
	c := &club{srv: srv}
	c.guild = srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	c.chess = srv.AddChannel(fakediscord.Channel{GuildID: c.guild.ID, Name: "chess"})
	c.alice = srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	c.bob = srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	discordurl.Point(srv.URL())
	cfg := config.Default()
	cfg.Discord.Token = srv.Token()
	cfg.Database.Path = filepath.Join(t.TempDir(), "iceage.db")
	cfg.Log.Level = "error"
	if o.activity {
		cfg.Discord.APIURL = srv.URL()
		cfg.Discord.ClientID, cfg.Discord.ClientSecret = srv.AppID(), srv.ClientSecret()
	}
	if o.web {
		cfg.Web.Listen = freeAddr(t)
		cfg.Web.PublicURL = "http://" + cfg.Web.Listen + "/"
		cfg.Web.SecretFile = filepath.Join(t.TempDir(), "web.secret")
	}
	a, err := newApp(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	c.app = a
	ctx, cancel := context.WithTimeout(context.Background(), o.within)
	c.ctx = ctx
	runCtx, stop := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- a.Run(runCtx) }()
	t.Cleanup(func() {
		stop()
		if err := <-ran; err != nil {
			t.Errorf("Run: %v", err)
		}
		if err := a.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		cancel()
	})
	select {
	case <-a.bot.Ready():
	case <-ctx.Done():
		t.Fatal("the bot did not get ready")
	}
	return c
}

// gameStarted has alice challenge bob in #chess and bob accept (as
// gameStarted does for the program run as a process), and returns the
// game once it is stored, and its thread.
func (c *club) gameStarted(t *testing.T) (play.Game, string) {
	t.Helper()
	thread := gameStarted(c.ctx, t, c.srv, c.chess.ID, c.alice.ID, c.bob.ID)
	game, err := c.app.play.GameIn(c.ctx, thread)
	for err != nil && c.ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
		game, err = c.app.play.GameIn(c.ctx, thread)
	}
	if err != nil {
		t.Fatal(err)
	}
	return game, thread
}
