package main

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"

	"github.com/iceagechess/iceage/internal/browsertest"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The program with its web listener on: the board in the thread links to
// the game's live page, which a browser opens; a move made through
// Discord appears there without a reload.
func TestTheLivePageFollowsAMoveMadeInDiscord(t *testing.T) {
	tab := browsertest.New(t, 1200, 900)
	c := startClub(t, clubOptions{web: true, within: 60 * time.Second})
	srv, ctx, a, ch, alice := c.srv, c.ctx, c.app, c.chess, c.alice
	game, thread := c.gameStarted(t)
	// The board in the thread links to the page.
	var live string
	for live == "" && ctx.Err() == nil {
		for _, m := range srv.Messages(thread) {
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
	if c, err := srv.WaitResponse(ctx, srv.Command(game.White.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))); err != nil || c.Err != nil {
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
	if link != a.web.LeaderboardURL(c.guild.ID) {
		t.Errorf("/leaderboard links to %q, want %q", link, a.web.LeaderboardURL(c.guild.ID))
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
