package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/discordurl"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The program with its web listener on: the board in the thread links to
// the game's live page, which a browser opens; a move made through
// Discord appears there without a reload.
func TestTheLivePageFollowsAMoveMadeInDiscord(t *testing.T) {
	tab := browsertest.New(t, 1200, 900)
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // a loaded machine may be slower than Discord allows; not the point here
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	discordurl.Point(srv.URL())
	cfg := config.Default()
	cfg.Discord.Token = srv.Token()
	cfg.Database.Path = filepath.Join(t.TempDir(), "iceage.db")
	cfg.Log.Level = "error"
	cfg.Web.Listen = freeAddr(t)
	cfg.Web.PublicURL = "http://" + cfg.Web.Listen + "/"
	cfg.Web.SecretFile = filepath.Join(t.TempDir(), "web.secret")
	a, err := newApp(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
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
	// The board in the thread links to the page.
	var live string
	for live == "" && ctx.Err() == nil {
		for _, m := range srv.Messages(th.Channel.ID) {
			for _, b := range m.Buttons() {
				if b.Style == discordgo.LinkButton && b.Label == "Watch live" {
					live = b.URL
				}
			}
		}
		if live == "" {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if live != a.web.GameURL(game.ID) {
		t.Fatalf("the board's Watch live links to %q, want %q", live, a.web.GameURL(game.ID))
	}
	moves := `document.querySelectorAll("#moves button.move").length`
	if err := chromedp.Do(tab,
		chromedp.Navigate(live),
		chromedp.WaitVisible(chromedp.CSS("#board svg")),
		chromedp.Evaluate[chromedp.Void](`window.noReload = true`),
	); err != nil {
		t.Fatal(err)
	}
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#board g[data-ice]").length`)); err != nil || n != 32 {
		t.Fatalf("the board shows %d squares of ice, want the start's 32 (%v)", n, err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelector("#live.on") !== null`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the page never said it was live: %v", err)
	}
	if c, err := srv.WaitResponse(ctx, srv.Command(game.White.ID, th.Channel.ID, "move", fakediscord.StringOption("move", "Nxf3"))); err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](moves+` === 1`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("the move made in Discord did not appear on the page: %v", err)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.querySelector("#moves button.move").textContent + " " + (window.noReload === true)`))
	if err != nil || got != "Nxf3 true" {
		t.Fatalf("the page shows %q, want the move Nxf3 without a reload (%v)", got, err)
	}
	// /leaderboard links to the server's leaderboard page.
	lb, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "leaderboard"))
	if err != nil || lb.Err != nil {
		t.Fatal(err, lb.Err)
	}
	var link string
	for _, b := range lb.Message.Buttons() {
		if b.Style == discordgo.LinkButton {
			link = b.URL
		}
	}
	if link != a.web.LeaderboardURL(g.ID) {
		t.Errorf("/leaderboard links to %q, want %q", link, a.web.LeaderboardURL(g.ID))
	}
	// The blitz leaderboard does not pass the correspondence page off
	// as its own.
	lb, err = srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "leaderboard", fakediscord.StringOption("speed", "blitz")))
	if err != nil || lb.Err != nil {
		t.Fatal(err, lb.Err)
	}
	for _, b := range lb.Message.Buttons() {
		if b.Style == discordgo.LinkButton {
			t.Errorf("/leaderboard speed:blitz links to %q", b.URL)
		}
	}
}
