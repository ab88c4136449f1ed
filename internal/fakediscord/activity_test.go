package fakediscord_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// post sends a form to the fake's token endpoint and decodes its JSON.
func postForm(t *testing.T, srv *fakediscord.Server, form url.Values, contentType string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL()+"api/v10/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	return do(t, req)
}

func do(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%s %s: %d %q is no JSON object", req.Method, req.URL.Path, resp.StatusCode, body)
	}
	return resp.StatusCode, m
}

func me(t *testing.T, srv *fakediscord.Server, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL()+"api/v10/users/@me", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	return do(t, req)
}

func TestOAuth2CodeExchangeAndUsersMe(t *testing.T) {
	t.Parallel()
	srv := fakediscord.New(t)
	other := fakediscord.New(t) // another app in the same process: its codes are not ours
	alice := srv.AddUser(fakediscord.User{Username: "alice", Locale: "ru"})
	const form = "application/x-www-form-urlencoded"
	exchange := func(code string) url.Values {
		return url.Values{"client_id": {srv.AppID()}, "client_secret": {srv.ClientSecret()}, "grant_type": {"authorization_code"}, "code": {code}}
	}

	code := srv.Authorize(alice.ID, "identify", "guilds")
	status, got := postForm(t, srv, exchange(code), form)
	token, _ := got["access_token"].(string)
	if status != 200 || token == "" || got["token_type"] != "Bearer" || got["scope"] != "identify guilds" || got["expires_in"] != float64(604800) {
		t.Fatalf("exchange: %d %v", status, got)
	}
	if status, got := postForm(t, srv, exchange(code), form); status != 400 || got["error"] != "invalid_grant" {
		t.Errorf("the same code again: %d %v, want 400 invalid_grant", status, got)
	}
	if status, got := me(t, srv, token); status != 200 || got["id"] != alice.ID || got["username"] != "alice" || got["locale"] != "ru" {
		t.Errorf("/users/@me: %d %v", status, got)
	}

	for _, bad := range []struct {
		name        string
		form        url.Values
		contentType string
		status      int
		error       string
	}{
		{"a wrong secret", url.Values{"client_id": {srv.AppID()}, "client_secret": {"nope"}, "grant_type": {"authorization_code"}, "code": {srv.Authorize(alice.ID)}}, form, 401, "invalid_client"},
		{"another app's id", url.Values{"client_id": {other.AppID()}, "client_secret": {srv.ClientSecret()}, "grant_type": {"authorization_code"}, "code": {srv.Authorize(alice.ID)}}, form, 401, "invalid_client"},
		{"no client", url.Values{"grant_type": {"authorization_code"}, "code": {srv.Authorize(alice.ID)}}, form, 401, "invalid_client"},
		{"another grant", url.Values{"client_id": {srv.AppID()}, "client_secret": {srv.ClientSecret()}, "grant_type": {"password"}}, form, 400, "unsupported_grant_type"},
		{"no code", url.Values{"client_id": {srv.AppID()}, "client_secret": {srv.ClientSecret()}, "grant_type": {"authorization_code"}}, form, 400, "invalid_request"},
		{"a made-up code", exchange("made-up"), form, 400, "invalid_grant"},
		{"JSON", exchange(srv.Authorize(alice.ID)), "application/json", 400, "invalid_request"},
	} {
		if status, got := postForm(t, srv, bad.form, bad.contentType); status != bad.status || got["error"] != bad.error {
			t.Errorf("%s: %d %v, want %d %s", bad.name, status, got, bad.status, bad.error)
		}
	}

	// The client's id and secret may come as HTTP Basic instead.
	req, _ := http.NewRequest(http.MethodPost, srv.URL()+"api/oauth2/token", strings.NewReader(url.Values{"grant_type": {"authorization_code"}, "code": {srv.Authorize(alice.ID)}}.Encode()))
	req.Header.Set("Content-Type", form)
	req.SetBasicAuth(srv.AppID(), srv.ClientSecret())
	if status, got := do(t, req); status != 200 || got["access_token"] == nil {
		t.Errorf("Basic: %d %v", status, got)
	}

	// A token without identify names no one; a bearer token reaches only
	// what a user's token may; a revoked one nothing.
	status, got = postForm(t, srv, exchange(srv.Authorize(alice.ID, "guilds")), form)
	if status != 200 {
		t.Fatalf("exchange: %d %v", status, got)
	}
	if status, _ := me(t, srv, got["access_token"].(string)); status != 401 {
		t.Errorf("/users/@me without identify: %d, want 401", status)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL()+"api/v10/guilds/1", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if status, _ := do(t, req); status != 404 {
		t.Errorf("a guild with a user's token: %d, want 404", status)
	}
	srv.RevokeTokens(alice.ID)
	if status, _ := me(t, srv, token); status != 401 {
		t.Errorf("/users/@me with a revoked token: %d, want 401", status)
	}
	if status, _ := me(t, srv, "made-up"); status != 401 {
		t.Errorf("/users/@me with a made-up token: %d, want 401", status)
	}
	if tokens, identities := srv.Exchanges(); tokens != 8 || identities != 3 { // the others were refused before reaching this app
		t.Errorf("%d exchanges and %d identities counted, want 8 and 3", tokens, identities)
	}
}

func TestActivityInstances(t *testing.T) {
	w := newWorld(t)
	w.srv.EnableActivities()
	in := w.srv.LaunchActivity(w.chess.ID, w.alice.ID)
	if !strings.HasPrefix(in.ID, "i-"+in.LaunchID+"-gc-"+w.guild.ID+"-"+w.chess.ID) {
		t.Errorf("instance id %q", in.ID)
	}
	w.srv.JoinActivity(in.ID, w.bob.ID)
	var got struct {
		ApplicationID string `json:"application_id"`
		InstanceID    string `json:"instance_id"`
		LaunchID      string `json:"launch_id"`
		Location      struct {
			Kind, ChannelID, GuildID string
		} `json:"location"`
		Users []string `json:"users"`
	}
	path := discordgo.EndpointApplication(w.srv.AppID()) + "/activity-instances/"
	body, err := w.dg.RequestWithBucketID(http.MethodGet, path+in.ID, nil, "instances")
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(body, &got)
	var loc map[string]map[string]string
	json.Unmarshal(body, &loc)
	if got.ApplicationID != w.srv.AppID() || got.InstanceID != in.ID || got.LaunchID != in.LaunchID ||
		loc["location"]["kind"] != "gc" || loc["location"]["channel_id"] != w.chess.ID || loc["location"]["guild_id"] != w.guild.ID ||
		!slices.Equal(got.Users, []string{w.alice.ID, w.bob.ID}) {
		t.Errorf("instance %s", body)
	}
	w.srv.LeaveActivity(in.ID, w.alice.ID)
	w.srv.LeaveActivity(in.ID, w.bob.ID)
	var rest *discordgo.RESTError
	if _, err := w.dg.RequestWithBucketID(http.MethodGet, path+in.ID, nil, "instances"); !errors.As(err, &rest) || rest.Response.StatusCode != 404 {
		t.Errorf("an ended instance: %v, want 404", err)
	}
	// A user's token does not read instances.
	req, _ := http.NewRequest(http.MethodGet, path+"i-1", nil)
	req.Header.Set("Authorization", "Bearer made-up")
	if status, _ := do(t, req); status != 401 {
		t.Errorf("instances with a bearer token: %d, want 401", status)
	}
}

func TestLaunchActivityAndTheEntryPoint(t *testing.T) {
	w := newWorld(t)
	m, err := w.dg.ChannelMessageSendComplex(w.chess.ID, &discordgo.MessageSend{Content: "board", Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Play here", CustomID: "play", Style: discordgo.PrimaryButton}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	launch := &discordgo.InteractionResponse{Type: fakediscord.ResponseLaunchActivity}

	// Without Activities, LAUNCH_ACTIVITY is refused.
	i := w.interaction(t, w.srv.Click(w.alice.ID, m.ID, "play"))
	var rest *discordgo.RESTError
	if err := w.dg.InteractionRespond(i.Interaction, launch); !errors.As(err, &rest) || rest.Response.StatusCode != 400 {
		t.Errorf("LAUNCH_ACTIVITY without Activities: %v, want 400", err)
	}

	w.srv.EnableActivities()
	i = w.interaction(t, w.srv.Click(w.alice.ID, m.ID, "play"))
	if err := w.dg.InteractionRespond(i.Interaction, launch); err != nil {
		t.Fatal(err)
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindResponse && c.InteractionID == i.ID && c.Err == nil
	})
	in, ok := w.srv.ActivityIn(w.chess.ID)
	if err != nil || call.ResponseType != fakediscord.ResponseLaunchActivity || !ok || call.Instance != in.ID || !slices.Equal(in.Users, []string{w.alice.ID}) {
		t.Errorf("launch: %+v, %v; instance %+v", call, err, in)
	}
	// Bob's click joins the same instance.
	i = w.interaction(t, w.srv.Click(w.bob.ID, m.ID, "play"))
	if err := w.dg.InteractionRespond(i.Interaction, launch); err != nil {
		t.Fatal(err)
	}
	if in, _ := w.srv.ActivityIn(w.chess.ID); !slices.Equal(in.Users, []string{w.alice.ID, w.bob.ID}) {
		t.Errorf("after bob's click: %+v", in)
	}

	// Enabling Activities gave the app Discord's default Entry Point
	// command: an overwrite without one is refused, one with one takes
	// its place; two, a guild's, a bad handler are refused.
	put := func(guild string, cmds ...map[string]any) error {
		path := discordgo.EndpointApplicationGlobalCommands(w.srv.AppID())
		if guild != "" {
			path = discordgo.EndpointApplicationGuildCommands(w.srv.AppID(), guild)
		}
		_, err := w.dg.RequestWithBucketID(http.MethodPut, path, cmds, "commands")
		return err
	}
	if h := w.srv.EntryPointHandler(); h != fakediscord.HandlerDiscordLaunchActivity {
		t.Errorf("default entry point handler %d", h)
	}
	slash := map[string]any{"name": "move", "description": "Make a move", "type": 1}
	entry := func(handler int) map[string]any {
		return map[string]any{"name": "play", "description": "Play Ice Age Chess here", "type": 4, "handler": handler}
	}
	if err := put("", slash); !errors.As(err, &rest) || rest.Message == nil || rest.Message.Code != 50240 {
		t.Errorf("an overwrite without the Entry Point: %v, want 50240", err)
	}
	for name, cmds := range map[string][]map[string]any{
		"two entry points": {entry(2), {"name": "launch2", "description": "x", "type": 4, "handler": 2}},
		"no handler":       {{"name": "play", "description": "Play", "type": 4}},
		"handler 3":        {entry(3)},
		"options":          {{"name": "play", "description": "Play", "type": 4, "handler": 2, "options": []map[string]any{{"name": "x", "description": "x", "type": 3}}}},
	} {
		if err := put("", cmds...); !errors.As(err, &rest) || rest.Response.StatusCode != 400 {
			t.Errorf("%s: %v, want 400", name, err)
		}
	}
	if err := put(w.guild.ID, entry(2)); !errors.As(err, &rest) || rest.Response.StatusCode != 400 {
		t.Errorf("a guild's Entry Point: %v, want 400", err)
	}
	if err := put("", slash, entry(fakediscord.HandlerApp)); err != nil {
		t.Fatal(err)
	}
	// With handler 1 the app gets the command and launches the Activity.
	id := w.srv.LaunchFromEntryPoint(w.alice.ID, w.quiet.ID)
	i = w.interaction(t, id)
	if d := i.ApplicationCommandData(); d.Name != "play" || d.CommandType != fakediscord.EntryPointCommand {
		t.Errorf("entry point interaction %+v", d)
	}
	if err := w.dg.InteractionRespond(i.Interaction, launch); err != nil {
		t.Fatal(err)
	}
	if in, ok := w.srv.ActivityIn(w.quiet.ID); !ok || !slices.Equal(in.Users, []string{w.alice.ID}) {
		t.Errorf("after the entry point: %+v %v", in, ok)
	}
	// With handler 2 Discord launches it alone.
	if err := put("", slash, entry(fakediscord.HandlerDiscordLaunchActivity)); err != nil {
		t.Fatal(err)
	}
	third := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "third"})
	if id := w.srv.LaunchFromEntryPoint(w.bob.ID, third.ID); !strings.HasPrefix(id, "i-") {
		t.Errorf("handler 2 launch gave %q", id)
	}
}
