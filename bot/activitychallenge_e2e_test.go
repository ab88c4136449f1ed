package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// TestAChallengeOfTheRoundIsPostedWithItsButtons: a challenge made
// through the round, where no interaction answers it (the Activity's
// lobby), is posted in its channel by the outbox as /challenge shows
// one, once, and its Accept button starts the game.
func TestAChallengeOfTheRoundIsPostedWithItsButtons(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	c, err := askInActivity(w, play.NewChallenge{Guild: w.guild.ID, Channel: w.chess.ID,
		From: play.Seat{ID: w.alice.ID, Name: "Alice"}, To: play.Seat{ID: w.bob.ID, Name: "Bob"}, Color: play.WhiteSide,
		Time: play.TimeControl{Limit: time.Minute}, At: w.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	m := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return len(m.Buttons()) == 2 })
	if !strings.Contains(m.Content, "<@"+w.bob.ID+">") || len(m.Embeds) != 1 || !strings.Contains(m.Embeds[0].Description, "1+0 bullet") {
		t.Fatalf("the challenge reads %q %+v, want Bob named and 1+0 bullet", m.Content, m.Embeds)
	}
	// The message is noted once Discord answered the post.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, err := w.bot.Round().Service().GetChallenge(w.ctx(), c.ID)
		if err == nil && got.Message == m.ID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the challenge notes message %q (%v), want %q", got.Message, err, m.ID)
		}
	}
	w.click(w.bob, m, "accept")
	th, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool { return c.Kind == fakediscord.KindThread && c.Err == nil })
	if err != nil {
		t.Fatalf("Bob's accept opened no thread: %v", err)
	}
	w.waitMessage(th.Channel.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if g := w.gameOf(th.Channel.ID); g.White.ID != w.alice.ID || g.TimeControl().String() != "1+0" {
		t.Errorf("the game has %s with White at %q", g.White.ID, g.TimeControl())
	}
	n := 0
	for _, msg := range w.srv.Messages(w.chess.ID) {
		if strings.Contains(msg.Content, "<@"+w.alice.ID+">") && len(msg.Embeds) == 1 && msg.Embeds[0].Title == m.Embeds[0].Title {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the challenge was posted %d times, want once", n)
	}
}

// TestAnActivityChallengeIsPlayedInItsChannel: a challenge made in the
// Activity (InChannel), accepted with its button in Discord, is played
// in its channel, where the Activity shows it, not in a thread.
func TestAnActivityChallengeIsPlayedInItsChannel(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	if _, err := askInActivity(w, play.NewChallenge{Guild: w.guild.ID, Channel: w.chess.ID,
		From: play.Seat{ID: w.alice.ID, Name: "Alice"}, Color: play.WhiteSide, Time: play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second},
		InChannel: true, At: w.clock.Now()}); err != nil {
		t.Fatal(err)
	}
	m := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return len(m.Buttons()) == 2 })
	w.click(w.bob, m, "accept")
	w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	if g := w.gameOf(w.chess.ID); g.White.ID != w.alice.ID || g.Black.ID != w.bob.ID || g.TimeControl().String() != "3+2" {
		t.Errorf("the game in #chess: %s against %s at %q", g.White.ID, g.Black.ID, g.TimeControl())
	}
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindThread {
			t.Errorf("a thread was opened for it: %+v", c.Channel)
		}
	}
}

// TestAnAnswerInTheActivityEditsTheChallenge: a challenge accepted or
// declined in the Activity (through the round) has its message in the
// channel edited as a click would: the buttons go, a line says who
// answered.
func TestAnAnswerInTheActivityEditsTheChallenge(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	r := w.bot.Round()
	for _, accept := range []bool{false, true} {
		c, err := askInActivity(w, play.NewChallenge{Guild: w.guild.ID, Channel: w.chess.ID, From: play.Seat{ID: w.alice.ID, Name: "Alice"},
			To: play.Seat{ID: w.bob.ID, Name: "Bob"}, Time: play.TimeControl{Limit: time.Minute}, InChannel: true, At: w.clock.Now()})
		if err != nil {
			t.Fatal(err)
		}
		m := w.waitMessage(w.chess.ID, func(m fakediscord.Message) bool {
			return len(m.Buttons()) == 2 && strings.Contains(m.Buttons()[0].CustomID, fmt.Sprint(c.ID))
		})
		for deadline := time.Now().Add(5 * time.Second); c.Message == ""; time.Sleep(20 * time.Millisecond) {
			c, _ = r.Service().GetChallenge(w.ctx(), c.ID)
			if time.Now().After(deadline) {
				t.Fatal("the challenge's message was not noted")
			}
		}
		want := "declined"
		if accept {
			want = "accepted"
			_, err = r.AcceptAnswered(w.ctx(), &c, play.Seat{ID: w.bob.ID, Name: "Bob"}, w.chess.ID, w.clock.Now())
		} else {
			err = r.Decline(w.ctx(), &c, w.bob.ID, w.clock.Now())
		}
		if err != nil {
			t.Fatal(err)
		}
		var edited fakediscord.Message
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if e, ok := w.srv.Message(m.ID); ok && len(e.Buttons()) == 0 {
				edited = e
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the %s challenge's message was not edited", want)
			}
		}
		if !strings.Contains(edited.Content, want) || !strings.Contains(edited.Content, "<@"+w.bob.ID+">") || len(edited.Embeds) != 1 ||
			!strings.Contains(edited.Embeds[0].Description, "1+0") {
			t.Errorf("the %s challenge reads %q %+v", want, edited.Content, edited.Embeds)
		}
		if accept && !strings.Contains(edited.Content, "<#"+w.chess.ID+">") {
			t.Errorf("the accepted challenge does not say where the game is: %q", edited.Content)
		}
	}
}
