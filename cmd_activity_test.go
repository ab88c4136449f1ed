package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/config"
	"github.com/iceagechess/iceage/internal/discordurl"
	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The program with the web listener on and the application's OAuth2
// credentials set: the Entry Point command is registered, the boards have
// Play here, and the web listener serves the Activity, whose sign-in
// trades a code at Discord's token endpoint (discord.api_url's).
func TestTheProgramServesTheActivity(t *testing.T) {
	srv := fakediscord.New(t)
	srv.SetResponseDeadline(0) // a loaded machine may be slower than Discord allows; not the point here
	srv.EnableActivities()
	g := srv.AddGuild(fakediscord.Guild{Name: "Club", Locale: "en-US"})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID, Name: "chess"})
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "en-US"})
	bob := srv.AddUser(fakediscord.User{Username: "bob", Locale: "en-US"})
	discordurl.Point(srv.URL())
	cfg := config.Default()
	cfg.Discord.Token = srv.Token()
	cfg.Discord.APIURL = srv.URL()
	cfg.Discord.ClientID, cfg.Discord.ClientSecret = srv.AppID(), srv.ClientSecret()
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
	if h := srv.EntryPointHandler(); h != fakediscord.HandlerDiscordLaunchActivity {
		t.Errorf("the Entry Point's handler is %d, want 2 (Discord launches the Activity)", h)
	}

	c, err := srv.WaitResponse(ctx, srv.Command(alice.ID, ch.ID, "challenge", fakediscord.UserOption("opponent", bob.ID)))
	if err != nil || c.Err != nil {
		t.Fatal(err, c.Err)
	}
	for _, b := range c.Message.Buttons() {
		if strings.HasPrefix(b.CustomID, "ch:accept:") {
			srv.Click(bob.ID, c.Message.ID, b.CustomID)
		}
	}
	board, err := srv.WaitFor(ctx, func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && len(c.Message.Files) > 0
	})
	if err != nil {
		t.Fatal(err)
	}
	here := false
	for _, b := range board.Message.Buttons() {
		here = here || strings.Contains(b.CustomID, ":here:")
	}
	if !here {
		t.Errorf("the board has no Play here button: %v", board.Message.Buttons())
	}

	base := "http://" + cfg.Web.Listen + "/activity/"
	resp, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), `data-client-id="`+srv.AppID()+`"`) || resp.Header.Get("X-Frame-Options") != "" {
		t.Errorf("the Activity's page: %s, X-Frame-Options %q", resp.Status, resp.Header.Get("X-Frame-Options"))
	}
	resp, err = http.Post(base+"api/token", "application/json", strings.NewReader(`{"code":"`+srv.Authorize(alice.ID)+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	json.NewDecoder(resp.Body).Decode(&tok)
	resp.Body.Close()
	if resp.StatusCode != 200 || tok.AccessToken == "" {
		t.Errorf("the sign-in: %s %+v", resp.Status, tok)
	}
}
