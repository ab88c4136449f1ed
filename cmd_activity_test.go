package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// The program with the web listener on and the application's OAuth2
// credentials set: the Entry Point command is registered, the boards have
// Play here, and the web listener serves the Activity, whose sign-in
// trades a code at Discord's token endpoint (discord.api_url's).
func TestTheProgramServesTheActivity(t *testing.T) {
	c := startClub(t, clubOptions{web: true, activity: true, within: 60 * time.Second})
	srv, ctx, a, alice := c.srv, c.ctx, c.app, c.alice
	if h := srv.EntryPointHandler(); h != fakediscord.HandlerDiscordLaunchActivity {
		t.Errorf("the Entry Point's handler is %d, want 2 (Discord launches the Activity)", h)
	}

	c.gameStarted(t)
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

	base := "http://" + a.cfg.Web.Listen + "/activity/"
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
