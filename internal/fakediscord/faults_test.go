package fakediscord_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/iceagechess/iceage/internal/fakediscord"
)

// postWithNonce posts content with a nonce, as discordgo's MessageSend
// cannot.
func postWithNonce(w *world, channelID, content string, nonce any, enforce bool) (*discordgo.Message, error) {
	body := map[string]any{"content": content, "nonce": nonce, "enforce_nonce": enforce}
	raw, err := w.dg.RequestWithBucketID(http.MethodPost, discordgo.EndpointChannelMessages(channelID), body, discordgo.EndpointChannelMessages(channelID))
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	return &m, discordgo.Unmarshal(raw, &m)
}

func TestNonce(t *testing.T) {
	w := newWorld(t)
	first, err := postWithNonce(w, w.chess.ID, "1. e4", "game-7-ply-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := w.srv.Message(first.ID); m.Nonce != "game-7-ply-1" {
		t.Errorf("the message's nonce is %q", m.Nonce)
	}
	again, err := postWithNonce(w, w.chess.ID, "1. e4 (again)", "game-7-ply-1", true)
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || again.Content != "1. e4" {
		t.Errorf("a repeated enforced nonce answered %s %q, want the first message %s", again.ID, again.Content, first.ID)
	}
	if ms := w.srv.Messages(w.chess.ID); len(ms) != 1 {
		t.Errorf("%d messages after a repeated nonce, want 1", len(ms))
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Repeated })
	if err != nil || call.Message.ID != first.ID || call.Kind != fakediscord.KindMessage {
		t.Errorf("the repeat's call %v, %v", call, err)
	}

	// Not enforced, in another channel, or another nonce: a new message.
	for _, post := range []struct {
		channel string
		nonce   any
		enforce bool
	}{
		{w.chess.ID, "game-7-ply-1", false},
		{w.quiet.ID, "game-7-ply-1", true},
		{w.chess.ID, "game-7-ply-2", true},
		{w.chess.ID, 12345, true},
	} {
		m, err := postWithNonce(w, post.channel, "move", post.nonce, post.enforce)
		if err != nil || m.ID == first.ID {
			t.Errorf("post %+v: %+v, %v; want a new message", post, m, err)
		}
	}
	if _, err := postWithNonce(w, w.chess.ID, "move", 12345, true); err != nil {
		t.Fatal(err)
	}
	if n := len(w.srv.Messages(w.chess.ID)); n != 4 {
		t.Errorf("%d messages in #chess, want 4", n)
	}
	_, err = postWithNonce(w, w.chess.ID, "move", strings.Repeat("n", 26), true)
	restError(t, err, 400, 50035)
	_, err = postWithNonce(w, w.chess.ID, "move", 1.5, true)
	restError(t, err, 400, 50035)
}

func TestRefusedCallback(t *testing.T) {
	w := newWorld(t)
	respond := func(i *discordgo.InteractionCreate) error {
		return w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		})
	}

	// A 429 whose wait outlasts the interaction's window: discordgo sleeps
	// through it and retries, too late.
	w.srv.SetResponseDeadline(300 * time.Millisecond)
	i := w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	w.srv.RefuseCallback(i.ID, fakediscord.Refusal{Status: 429, RetryAfter: time.Second})
	restError(t, respond(i), 404, 10062)
	var calls []fakediscord.Call
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindResponse && c.InteractionID == i.ID {
			calls = append(calls, c)
		}
	}
	if len(calls) != 2 || calls[0].Refused == nil || calls[0].Refused.Status != 429 || calls[1].Err == nil || calls[1].Err.Code != 10062 {
		t.Errorf("the callbacks %v, want a 429 then 10062", calls)
	}
	w.srv.SetResponseDeadline(fakediscord.ResponseWindow)

	// Without discordgo's retry, the bot sees the 429 and its wait.
	i = w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	w.srv.RefuseCallback(i.ID, fakediscord.Refusal{Status: 429, RetryAfter: 5 * time.Second})
	err := w.dg.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
	}, discordgo.WithRetryOnRatelimit(false))
	var limited *discordgo.RateLimitError
	if !errors.As(err, &limited) || limited.RetryAfter != 5*time.Second {
		t.Fatalf("error %v, want a rate limit of 5s", err)
	}
	if err := respond(i); err != nil {
		t.Errorf("the callback after the refusal: %v", err)
	}

	// A 500 refuses once; the next callback is taken.
	i = w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	w.srv.RefuseCallback(i.ID, fakediscord.Refusal{Status: 500})
	restError(t, respond(i), 500, 0)
	if err := respond(i); err != nil {
		t.Errorf("the callback after a 500: %v", err)
	}

	// A 502 after serving: the response was made, discordgo retries the
	// 502 on its own, and Discord says it is acknowledged.
	i = w.interaction(t, w.srv.Command(w.alice.ID, w.chess.ID, "board"))
	w.srv.RefuseCallback(i.ID, fakediscord.Refusal{Status: 502, AfterServing: true})
	restError(t, respond(i), 400, 40060)
	resp, err := w.srv.WaitResponse(ctx(t), i.ID)
	if err != nil || resp.Err != nil || resp.Refused == nil || resp.Refused.Status != 502 || resp.Message.Content != "ok" {
		t.Errorf("the served callback %v, %v", resp, err)
	}
}

func TestRefuseAnyRoute(t *testing.T) {
	w := newWorld(t)
	w.srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{
		Err:   &fakediscord.Error{Status: 403, Code: 50001, Message: "Missing Access"},
		Where: map[string]string{"channel": w.quiet.ID}, Times: 2,
	})
	for range 2 {
		_, err := w.dg.ChannelMessageSend(w.quiet.ID, "hello")
		restError(t, err, 403, 50001)
	}
	if _, err := w.dg.ChannelMessageSend(w.chess.ID, "elsewhere"); err != nil {
		t.Errorf("a channel the refusal does not name: %v", err)
	}
	if _, err := w.dg.ChannelMessageSend(w.quiet.ID, "third"); err != nil {
		t.Errorf("after the refusals ran out: %v", err)
	}
	if ms := w.srv.Messages(w.quiet.ID); len(ms) != 1 {
		t.Errorf("%d messages in #quiet, want 1", len(ms))
	}
}

func TestRateLimitOnThreads(t *testing.T) {
	w := newWorld(t)
	other := w.srv.AddChannel(fakediscord.Channel{GuildID: w.guild.ID, Name: "other"})
	w.srv.SetRateLimit(fakediscord.RouteThreads, fakediscord.RateLimit{Requests: 1, Per: 10 * time.Minute, Hidden: true})
	start := func(channelID string) (*discordgo.Channel, error) {
		return w.dg.ThreadStartComplex(channelID, &discordgo.ThreadStart{Name: "game", Type: discordgo.ChannelTypeGuildPublicThread},
			discordgo.WithRetryOnRatelimit(false))
	}
	if _, err := start(w.chess.ID); err != nil {
		t.Fatal(err)
	}
	_, err := start(w.chess.ID)
	var limited *discordgo.RateLimitError
	if !errors.As(err, &limited) || limited.RetryAfter < 9*time.Minute || limited.RetryAfter > 10*time.Minute {
		t.Fatalf("error %v, want a rate limit of about 10 minutes", err)
	}
	// Limits count per channel.
	if _, err := start(other.ID); err != nil {
		t.Errorf("a thread in another channel: %v", err)
	}
	call, err := w.srv.WaitFor(ctx(t), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread && c.Refused != nil })
	if err != nil || call.Err.Status != 429 {
		t.Errorf("the limited call %v, %v", call, err)
	}

	// A limit the headers show: discordgo waits for its reset by itself.
	w.srv.SetRateLimit(fakediscord.RouteMessages, fakediscord.RateLimit{Requests: 1, Per: 10 * time.Minute})
	if _, err := w.dg.ChannelMessageSend(w.chess.ID, "one"); err != nil {
		t.Fatal(err)
	}
	b := w.dg.Ratelimiter.GetBucket(discordgo.EndpointChannelMessages(w.chess.ID))
	if wait := w.dg.Ratelimiter.GetWaitTime(b, 1); wait < 9*time.Minute {
		t.Errorf("discordgo would wait %v, want the limit's reset", wait)
	}
}

func TestRateLimitHeaders(t *testing.T) {
	srv := fakediscord.New(t)
	g := srv.AddGuild(fakediscord.Guild{})
	ch := srv.AddChannel(fakediscord.Channel{GuildID: g.ID})
	srv.SetRateLimit(fakediscord.RouteMessages, fakediscord.RateLimit{Requests: 2, Per: time.Minute})
	post := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL()+"api/v9/channels/"+ch.ID+"/messages", strings.NewReader(`{"content":"x"}`))
		req.Header.Set("Authorization", "Bot "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for want := 1; want >= 0; want-- {
		h := post().Header
		if h.Get("X-RateLimit-Limit") != "2" || h.Get("X-RateLimit-Remaining") != string(rune('0'+want)) || h.Get("X-RateLimit-Bucket") == "" || h.Get("X-RateLimit-Reset-After") == "" || h.Get("X-RateLimit-Reset") == "" {
			t.Errorf("headers %v, want %d remaining", h, want)
		}
	}
	resp := post()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "60" || resp.Header.Get("X-RateLimit-Scope") != "user" {
		t.Errorf("over the limit: %d %v", resp.StatusCode, resp.Header)
	}
	srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{Status: 429, RetryAfter: 1500 * time.Millisecond, Global: true})
	srv.SetRateLimit(fakediscord.RouteMessages, fakediscord.RateLimit{})
	resp = post()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || resp.Header.Get("X-RateLimit-Global") != "true" || resp.Header.Get("X-RateLimit-Scope") != "global" {
		t.Errorf("the global limit: %d %v", resp.StatusCode, resp.Header)
	}
}

func TestLatency(t *testing.T) {
	w := newWorld(t)
	w.srv.SetLatency(100 * time.Millisecond)
	start := time.Now()
	if _, err := w.dg.Channel(w.chess.ID); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 100*time.Millisecond {
		t.Errorf("a request took %v, less than the latency", took)
	}
}
