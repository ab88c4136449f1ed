package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
)

// askInActivity makes challenge n through the round as the Activity's
// lobby does; it fails when n accepted another instead.
func askInActivity(w *world, n play.NewChallenge) (play.Challenge, error) {
	w.t.Helper()
	a, err := w.bot.Round().Ask(w.ctx(), n, false)
	if err == nil && a.Accepted {
		w.t.Fatalf("challenge %+v accepted challenge %d instead", n, a.Challenge.ID)
	}
	return a.Challenge, err
}

// activeGames are the games user plays now.
func (w *world) activeGames(user fakediscord.User) []play.Game {
	w.t.Helper()
	var gs []play.Game
	if err := w.st.View(context.Background(), func(tx play.ReadTx) (err error) {
		gs, err = tx.ActiveGames(user.ID)
		return err
	}); err != nil {
		w.t.Fatal(err)
	}
	return gs
}

// finishedGame plays a game of Alice (White) and Bob in a thread of
// #chess, which Bob resigns; it returns the thread and the final board,
// with its Rematch.
func (w *world) finishedGame() (string, fakediscord.Message) {
	w.t.Helper()
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	return thread, w.resignByClicking(w.bob, thread, board)
}

// boardsIn are the boards (messages with a picture) posted in channel,
// not as an answer (/board's).
func (w *world) boardsIn(channel string) int {
	n := 0
	for _, m := range w.srv.Messages(channel) {
		if len(m.Files) > 0 && m.InteractionID == "" {
			n++
		}
	}
	return n
}

// waitNoted waits until the one challenge of user waiting has its
// message noted, and returns it.
func (w *world) waitNoted(user fakediscord.User) play.Challenge {
	w.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if cs, _ := w.bot.Round().Service().Challenges(w.ctx(), user.ID); len(cs) == 1 && cs[0].Message != "" {
			return cs[0]
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s's challenge's message was never noted", user.Username)
		}
	}
}

// waitSettled waits until the message of a challenge loses its buttons
// and says it was accepted, however it was edited: by the outbox, or by
// the answer that made it.
func (w *world) waitSettled(id string) {
	w.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for m, _ := w.srv.Message(id); !settled(m); m, _ = w.srv.Message(id) {
		if time.Now().After(deadline) {
			w.t.Fatalf("the challenge taken keeps %q with buttons %v", m.Content, m.Buttons())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// settled reports whether a challenge's message lost its buttons and
// says it was accepted.
func settled(m fakediscord.Message) bool {
	return len(m.Buttons()) == 0 && strings.Contains(m.Content, "accepted")
}

// TestBothPlayersPressingRematchStartOneGame: Bob presses Rematch, then
// Alice does: her press accepts his challenge, as on any serious chess
// server. One game starts, in a new thread of #chess as an accepted
// Rematch does, with one board; Alice alone is told why; Bob's challenge
// loses its buttons and no challenge of Alice's is made.
func TestBothPlayersPressingRematchStartOneGame(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, end := w.finishedGame()
	threads := w.threadCalls()

	ch := w.click(w.bob, end, "rematch")
	if ch.Ephemeral() || !strings.Contains(ch.Content, "<@"+w.alice.ID+">") {
		t.Fatalf("Bob's rematch is %q", ch.Content)
	}
	got := w.click(w.alice, end, "rematch")
	gs := w.activeGames(w.alice)
	if len(gs) != 1 {
		t.Fatalf("Alice plays %+v, want one game", gs)
	}
	g := gs[0]
	if !got.Ephemeral() || got.Content != "<@"+w.bob.ID+"> had already asked for a rematch: the game starts in <#"+g.Channel+">." {
		t.Fatalf("Alice's press is answered %q (ephemeral %v)", got.Content, got.Ephemeral())
	}
	if c, ok := w.srv.Channel(g.Channel); !ok || g.Channel == thread || c.ParentID != w.chess.ID {
		t.Errorf("the rematch is played in %q (%+v), want a new thread of #chess", g.Channel, c)
	}
	// Bob had Black, so his Rematch asked for White: its terms hold.
	if g.White.ID != w.bob.ID || g.Black.ID != w.alice.ID {
		t.Errorf("the rematch has %s with White, %s with Black; Bob asked for White", g.White.ID, g.Black.ID)
	}
	w.waitMessage(g.Channel, func(m fakediscord.Message) bool { return len(m.Files) > 0 && strings.Contains(m.Content, "<@") })
	w.waitSettled(ch.ID)
	w.reachable(w.alice)
	if n := w.boardsIn(g.Channel); n != 1 {
		t.Errorf("%d boards of the rematch in its thread, want 1", n)
	}
	if n := w.threadCalls() - threads; n != 1 {
		t.Errorf("%d threads opened for the rematch, want 1", n)
	}
	if n := w.srv.ThreadStartsInThreads(); n != 0 {
		t.Errorf("the rematch asked Discord %d times for a thread inside the game's thread", n)
	}
	if cs, err := w.bot.Round().Service().Challenges(w.ctx(), w.alice.ID); err != nil || len(cs) != 0 {
		t.Errorf("challenges left: %+v, %v", cs, err)
	}
}

// TestAChallengeOnTheSameTermsAcceptsTheirs: Bob challenges Alice in
// #chess; Alice, without pressing his Accept, challenges him on the same
// terms: hers accepts his, in a thread opened from his challenge, and she
// is told so privately.
func TestAChallengeOnTheSameTermsAcceptsTheirs(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	ch := w.command(w.bob, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID))
	w.waitNoted(w.bob)
	got := w.command(w.alice, w.chess.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	gs := w.activeGames(w.alice)
	if len(gs) != 1 {
		t.Fatalf("Alice plays %+v, want one game", gs)
	}
	g := gs[0]
	if !got.Ephemeral() || !strings.HasPrefix(got.Content, "<@"+w.bob.ID+"> had already challenged you on the same terms") {
		t.Fatalf("Alice's challenge is answered %q (ephemeral %v)", got.Content, got.Ephemeral())
	}
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Err == nil && c.Message.ID == ch.ID
	})
	if err != nil || c.Channel.ID != g.Channel {
		t.Fatalf("the game is in %q, not in the thread of Bob's challenge: %v", g.Channel, err)
	}
	w.waitMessage(g.Channel, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	w.waitSettled(ch.ID)
	if n := w.boardsIn(g.Channel); n != 1 {
		t.Errorf("%d boards of the game, want 1", n)
	}
}

// TestRematchPressedTogetherStartsOneGame: both players press Rematch at
// the same instant: exactly one game, one board; one press made a
// challenge, which the other accepted, and whose message is settled.
func TestRematchPressedTogetherStartsOneGame(t *testing.T) {
	t.Run("in memory", func(t *testing.T) { rematchPressedTogether(t, memstore.New()) })
	t.Run("on bbolt", func(t *testing.T) { rematchPressedTogether(t, nil) })
	t.Run("on PostgreSQL", func(t *testing.T) {
		st, err := pgstore.Open(context.Background(), pgtest.New(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		rematchPressedTogether(t, st)
	})
}

func rematchPressedTogether(t *testing.T, st play.Storage) {
	w := newWorld(t, st, "en-US")
	thread, end := w.finishedGame()
	boards := map[string]int{thread: w.boardsIn(thread)}
	ids := w.srv.ClickTogether(end.ID, button(t, end, "rematch").CustomID, w.alice.ID, w.bob.ID)
	// Each press is answered: one with its challenge, the other, which
	// may have seen that challenge before the act (then deferred, to
	// open a thread), privately.
	var told, asked []fakediscord.Message
	for _, id := range ids {
		if m := w.answer(id); m.Ephemeral() {
			told = append(told, m)
		} else {
			asked = append(asked, m)
		}
	}
	// Alice is told in English, Bob in French.
	if len(told) != 1 || len(asked) != 1 || !strings.Contains(told[0].Content, "had already asked for a rematch") &&
		!strings.Contains(told[0].Content, "avait déjà demandé la revanche") {
		t.Fatalf("answers: told %+v, asked %+v; want one challenge and one acceptance", told, asked)
	}
	gs := w.activeGames(w.alice)
	if len(gs) != 1 {
		t.Fatalf("Alice plays %+v, want one game", gs)
	}
	// Where the challenge was made, or in a thread of #chess.
	g := gs[0]
	if c, ok := w.srv.Channel(g.Channel); !ok || g.Channel != thread && c.ParentID != w.chess.ID {
		t.Errorf("the rematch is played in %+v", c)
	}
	w.waitMessage(g.Channel, func(m fakediscord.Message) bool {
		return len(m.Files) > 0 && m.ID != end.ID && strings.Contains(m.Content, "<@")
	})
	// The challenge, taken before or after its message was known, is
	// settled either way.
	w.waitSettled(asked[0].ID)
	w.reachable(w.alice)
	if n := w.boardsIn(g.Channel) - boards[g.Channel]; n != 1 {
		t.Errorf("%d boards of the rematch, want 1", n)
	}
	if n := w.srv.ThreadStartsInThreads(); n != 0 {
		t.Errorf("the rematch asked Discord %d times for a thread inside the game's thread", n)
	}
}

// TestARematchInTheActivityAcceptsOnePressedInDiscord: Bob presses
// Rematch in Discord, Alice in the Activity's lobby (through the round):
// hers accepts his, and the outbox settles his challenge's message.
func TestARematchInTheActivityAcceptsOnePressedInDiscord(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, end := w.finishedGame()
	w.click(w.bob, end, "rematch")
	bobs := w.waitNoted(w.bob)
	// The lobby's Rematch: the same terms, the colours swapped.
	a, err := w.bot.Round().Ask(w.ctx(), play.NewChallenge{Guild: w.guild.ID, Channel: thread, From: play.Seat{ID: w.alice.ID, Name: "Alice"},
		To: play.Seat{ID: w.bob.ID, Name: "Bob"}, Color: play.BlackSide, DaysPerMove: bobs.DaysPerMove, Time: bobs.Time,
		Rated: bobs.Rated, InChannel: true, At: w.clock.Now()}, false)
	if err != nil || !a.Accepted {
		t.Fatalf("Alice's rematch in the Activity: %+v, %v; want Bob's accepted", a, err)
	}
	w.waitSettled(bobs.Message)
	// Made in the Activity, Alice's would have been played in its
	// channel; accepting Bob's, the game is played where he asked.
	w.waitMessage(thread, func(m fakediscord.Message) bool {
		return len(m.Files) > 0 && m.ID != end.ID && strings.Contains(m.Content, "<@")
	})
	if gs := w.activeGames(w.bob); len(gs) != 1 {
		t.Errorf("Bob plays %d games, want 1", len(gs))
	}
}

// threadCalls counts the threads the bot asked Discord for.
func (w *world) threadCalls() int {
	n := 0
	for _, c := range w.srv.Calls() {
		if c.Kind == fakediscord.KindThread {
			n++
		}
	}
	return n
}

// TestCrossingChallengesWhereNoThreadOpens: in a channel where the bot
// may not open threads, a challenge that accepts the one waiting starts
// the game in the channel itself, once, and answers the asker in their
// language: Bob reads French.
func TestCrossingChallengesWhereNoThreadOpens(t *testing.T) {
	w := newWorld(t, nil, "en-US") // on bbolt
	ch := w.command(w.alice, w.nothreads.ID, "challenge", fakediscord.UserOption("opponent", w.bob.ID))
	w.waitNoted(w.alice)
	got := w.command(w.bob, w.nothreads.ID, "challenge", fakediscord.UserOption("opponent", w.alice.ID))
	if !got.Ephemeral() || got.Content != "<@"+w.alice.ID+"> t'avait déjà lancé un défi aux mêmes conditions\u00a0: il est accepté, la partie commence dans <#"+w.nothreads.ID+">." {
		t.Fatalf("Bob's challenge is answered %q (ephemeral %v)", got.Content, got.Ephemeral())
	}
	gs := w.activeGames(w.bob)
	if len(gs) != 1 || gs[0].Channel != w.nothreads.ID {
		t.Fatalf("Bob plays %+v, want one game in the channel", gs)
	}
	w.waitMessage(w.nothreads.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	w.waitSettled(ch.ID)
	w.reachable(w.bob)
	if n := w.boardsIn(w.nothreads.ID); n != 1 {
		t.Errorf("%d boards of the game, want 1", n)
	}
}
