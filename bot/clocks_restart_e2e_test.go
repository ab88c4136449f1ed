package bot_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/store"
)

// A live game's clocks survive a restart. Stopped briefly, the bot comes
// back to the time it stored: the next board shows the clock of the
// player who was not to move as it was, and the mover's charged for
// the whole wait. A flag that fell while the bot was down is announced
// once, publicly, by the first start after it, saying how late; the game
// is lost on time at the moment the flag fell, and a move made then is
// refused privately.
func TestALiveFlagThatFellWhileTheBotWasDownIsAnnouncedOnce(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // after the bot stops: cleanups run last first
	w := newCorrWorld(t, st, play.Options{})
	thread, _ := w.liveChallengeAccepted(w.alice, w.bob, "3+2")
	start := w.clk.Now()
	w.clk.Set(start.Add(4 * time.Second))
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))

	// A short stop: Bob's time ran on meanwhile (20 s less 2 s of
	// increment), Alice's stayed.
	w.stop()
	w.stop = nil
	w.clk.Set(start.Add(24 * time.Second))
	w.start()
	m := w.command(w.bob, thread, "move", fakediscord.StringOption("move", "Nxf6"))
	boardHasClocks(t, m, "3:00", "2:42") // White's first move, made before any clock ran, took no increment

	// A long one: Alice's flag falls while the bot is down.
	g := w.gameIn(thread)
	flag := g.Clock.FlagAt(game.White)
	w.stop()
	w.stop = nil
	w.clk.Set(flag.Add(10 * time.Minute))
	w.start()
	post := w.posted(thread, "ran out of time")
	msg := post.Message
	want := fmt.Sprintf("<@%s> ran out of time <t:%d:R>: <@%s> wins", w.alice.ID, flag.Unix(), w.bob.ID)
	if msg.Ephemeral() || !strings.Contains(msg.Content, want) || !strings.Contains(msg.Content, "while I was offline") {
		t.Fatalf("the flag's announcement says %q, want %q and that it is late", msg.Content, want)
	}
	back := finishedGame(t, st, thread)
	if back.Outcome != game.WinFor(game.Black, game.Timeout) || back.Ply() != 2 || back.Ended.Sub(flag).Abs() > time.Second {
		t.Fatalf("the game: %+v after %d moves, ended %v; want lost on time by White at %v", back.Outcome, back.Ply(), back.Ended, flag)
	}
	if m := w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3")); !m.Ephemeral() {
		t.Fatalf("a move after the flag was answered in public: %q", m.Content)
	}

	// Another start has nothing more to say.
	w.stop()
	w.stop = nil
	w.clk.Advance(time.Minute)
	w.start()
	if got := w.posts(thread, "ran out of time"); len(got) != 1 {
		t.Fatalf("after another restart, %d announcements of the flag", len(got))
	}
}
