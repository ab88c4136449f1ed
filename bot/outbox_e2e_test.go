package bot_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// The refusals of an interaction's answer that the outbox must outlive:
// a 429 whose wait outlasts Discord's 3-second window (the fake's
// ResponseWindow; discordgo waits, tries again and hears 10062), and a
// server error.
var refusedAnswers = []struct {
	name    string
	refusal fakediscord.Refusal
}{
	{"a 429 with a Retry-After past the window", fakediscord.Refusal{Status: http.StatusTooManyRequests, RetryAfter: fakediscord.ResponseWindow + time.Second}},
	{"a 503", fakediscord.Refusal{Status: http.StatusServiceUnavailable}},
}

// mentions returns the users a posted message may ping, from the request
// as the bot sent it.
func mentions(t *testing.T, c fakediscord.Call) []string {
	t.Helper()
	var req struct {
		AllowedMentions *struct {
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	if err := json.Unmarshal(c.JSON, &req); err != nil {
		t.Fatalf("the post's JSON: %v", err)
	}
	if req.AllowedMentions == nil {
		return nil
	}
	return req.AllowedMentions.Users
}

// posted waits for the post in channel whose content has all of want,
// and returns its call.
func (w *world) posted(channel string, want ...string) fakediscord.Call {
	w.t.Helper()
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		if c.Kind != fakediscord.KindMessage || c.Message.ChannelID != channel || c.Err != nil {
			return false
		}
		for _, s := range want {
			if !strings.Contains(c.Message.Content, s) {
				return false
			}
		}
		return true
	})
	if err != nil {
		w.t.Fatalf("no post in %s with %q: %v", channel, want, err)
	}
	return c
}

// count returns how many messages of channel have s in their content.
func (w *world) count(channel, s string) int {
	n := 0
	for _, m := range w.srv.Messages(channel) {
		if strings.Contains(m.Content, s) {
			n++
		}
	}
	return n
}

func TestABoardWhoseAnswerDiscordRefusesReachesTheThread(t *testing.T) {
	for _, tc := range refusedAnswers {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, memstore.New(), "en-US")
			thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
			if g := w.gameOf(thread); g.White.ID != w.alice.ID {
				t.Fatalf("Alice does not have White: %+v", g.White)
			}
			w.srv.Refuse(fakediscord.RouteCallback, tc.refusal)
			id := w.srv.Command(w.alice.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))
			c := w.posted(thread, "<@"+w.alice.ID+"> played **Nxf3**", "<@"+w.bob.ID+">")
			if len(c.Message.Files) == 0 || !slices.Contains(mentions(t, c), w.bob.ID) {
				t.Errorf("the board posted instead of the answer: %d files, mentions %v; want the board, pinging Bob", len(c.Message.Files), mentions(t, c))
			}
			if c.Message.InteractionID != "" {
				t.Errorf("the board was posted as the refused interaction's answer (%s)", c.Message.InteractionID)
			}
			if g := w.gameOf(thread); g.Ply() != 1 {
				t.Errorf("the game has %d plies, want 1", g.Ply())
			}
			answered := false
			for _, c := range w.srv.Calls() {
				answered = answered || c.Kind == fakediscord.KindResponse && c.InteractionID == id && c.Err == nil
			}
			if answered {
				t.Fatal("the refusal did not refuse the answer")
			}
			// Bob's answer goes on as usual, and Alice's board is not posted
			// again.
			got := w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
			if got.Ephemeral() || !strings.Contains(got.Content, "Nxf6") {
				t.Errorf("Bob's move is answered %q", got.Content)
			}
			if n := w.count(thread, "played **Nxf3**"); n != 1 {
				t.Errorf("Alice's board is in the thread %d times", n)
			}
		})
	}
}

func TestAnEngineGameGoesOnWhenDiscordRefusesTheAnswer(t *testing.T) {
	for _, tc := range refusedAnswers {
		t.Run(tc.name, func(t *testing.T) {
			w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
			thread, _ := w.engineGame(w.alice, fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 2))
			w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
			w.srv.Refuse(fakediscord.RouteCallback, tc.refusal)
			w.srv.Command(w.alice.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))
			mine := w.posted(thread, "<@"+w.alice.ID+"> played **Nxf3**")
			if len(mine.Message.Files) == 0 {
				t.Error("Alice's board reached the thread without its picture")
			}
			reply := w.engineReply(thread)
			if !strings.Contains(reply.Content, "<@"+w.alice.ID+">, your move") {
				t.Errorf("the engine's board does not call Alice: %q", reply.Content)
			}
			if g := w.gameOf(thread); g.Ply() != 2 {
				t.Errorf("the game has %d plies, want 2", g.Ply())
			}
		})
	}
}

// A post whose answer is lost (Discord posted it, the bot heard a 500) is
// tried again with the same enforced nonce: Discord answers with the
// first message and posts nothing more.
func TestARetriedPostIsNotDuplicated(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	thread, _ := w.engineGame(w.alice, fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 2))
	w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	w.srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{Status: http.StatusInternalServerError, AfterServing: true,
		Where: map[string]string{"channel": thread}})
	// The thinking board cannot be edited: the engine's board is posted.
	w.srv.Refuse(fakediscord.RouteMessageEdit, fakediscord.Refusal{Status: http.StatusForbidden, Times: -1,
		Where: map[string]string{"channel": thread}})
	got := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if got.Ephemeral() {
		t.Fatalf("Alice's move is answered %q", got.Content)
	}
	// The engine's board, posted by the outbox: served, its answer lost,
	// then, when its retry comes due, posted again.
	if _, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread && c.Refused != nil
	}); err != nil {
		t.Fatalf("the engine's board was not posted: %v", err)
	}
	// Time passes until the retry comes due.
	var c fakediscord.Call
	for deadline := time.Now().Add(patience(10 * time.Second)); ; {
		w.clock.Add(time.Minute)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		got, err := w.srv.WaitFor(ctx, func(c fakediscord.Call) bool {
			return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread && c.Repeated
		})
		cancel()
		if err == nil {
			c = got
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lost post was not tried again: %v", err)
		}
	}
	if c.Message.Nonce == "" {
		t.Error("the outbox posted without a nonce")
	}
	if n := w.count(thread, "<@"+w.srv.Bot().ID+"> played"); n != 1 {
		t.Errorf("the engine's board is in the thread %d times, want once", n)
	}
	var enforced struct {
		EnforceNonce bool `json:"enforce_nonce"`
	}
	if err := json.Unmarshal(c.JSON, &enforced); err != nil || !enforced.EnforceNonce {
		t.Errorf("the retry does not enforce its nonce: %s", c.JSON)
	}
}

// A delivery under way when the bot stops is finished before it exits:
// cut short, the post Discord made would be posted again at the next
// start, and once its nonce is forgotten (after 5 minutes) nothing
// would catch the repeat. Both ways a board goes: posted at once when
// its answer failed, and by the outbox's loop when that failed too.
func TestADeliveryUnderWayAtAStopIsFinishedNotRepeated(t *testing.T) {
	for _, byLoop := range []bool{false, true} {
		t.Run(map[bool]string{false: "at once", true: "by the loop"}[byLoop], func(t *testing.T) {
			w := newWorld(t, memstore.New(), "en-US")
			thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
			// The move's answer is refused, so that its board goes by the
			// outbox; the board's post is made, and its answer is slow.
			w.srv.Refuse(fakediscord.RouteCallback, fakediscord.Refusal{Status: http.StatusServiceUnavailable})
			if byLoop {
				w.srv.Refuse(fakediscord.RouteMessages, fakediscord.Refusal{Status: http.StatusInternalServerError, Where: map[string]string{"channel": thread}})
			}
			w.srv.Slow(fakediscord.RouteMessages, map[string]string{"channel": thread}, 1, 2*time.Second)
			w.srv.Command(w.alice.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))
			for deadline := time.Now().Add(patience(10 * time.Second)); ; w.clock.Add(time.Minute) {
				ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
				_, err := w.srv.WaitFor(ctx, func(c fakediscord.Call) bool {
					return c.Kind == fakediscord.KindMessage && c.Message.ChannelID == thread && c.Err == nil && strings.Contains(c.Message.Content, "played **Nxf3**")
				})
				cancel()
				if err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the board was not posted: %v", err)
				}
			}
			// The bot stops while the post's answer is on its way.
			w.stop()
			w.stop = nil
			// It starts again after the nonce is forgotten and any claim
			// lapsed.
			w.srv.Pass(6 * time.Minute)
			w.clock.Add(6 * time.Minute)
			w.start()
			// The loop claims what is due as it starts, and polls twice a
			// second.
			time.Sleep(patience(1500 * time.Millisecond))
			if n := w.count(thread, "played **Nxf3**"); n != 1 {
				t.Fatalf("the board is in the thread %d times, want once", n)
			}
		})
	}
}
