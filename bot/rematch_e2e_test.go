package bot_test

import (
	"strings"
	"testing"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/memstore"
)

// resignByClicking has by resign the game of board with the buttons,
// and returns the final board posted in thread.
func (w *world) resignByClicking(by fakediscord.User, thread string, board fakediscord.Message) fakediscord.Message {
	w.t.Helper()
	confirm := w.click(by, board, "resign")
	w.click(by, confirm, "resignok")
	return w.waitMessage(thread, func(m fakediscord.Message) bool { return strings.Contains(m.Content, "resigned") && onlyRematch(m) })
}

func TestARematchAfterAResignationSwapsTheColours(t *testing.T) {
	w := newWorld(t, memstore.New(), "en-US")
	thread, board := w.challengeAccepted(w.chess, w.alice, w.bob)
	first := w.gameOf(thread)
	if first.White.ID != w.alice.ID {
		t.Fatalf("Alice does not have White: %+v", first.White)
	}
	end := w.resignByClicking(w.bob, thread, board)

	// A stranger cannot ask for it.
	if got := w.click(w.carol, end, "rematch"); !got.Ephemeral() || len(got.Buttons()) != 0 {
		t.Fatalf("Carol's Rematch was answered %q with %v", got.Content, got.Buttons())
	}
	ch := w.click(w.alice, end, "rematch")
	if ch.Ephemeral() || !strings.Contains(ch.Content, "<@"+w.bob.ID+">") {
		t.Fatalf("Alice's rematch is %q", ch.Content)
	}
	if !strings.Contains(ch.Embeds[0].Description, "Black") {
		t.Errorf("the rematch's terms do not swap the colours: %q", ch.Embeds[0].Description)
	}
	w.click(w.bob, ch, "accept")
	c, err := w.srv.WaitFor(w.ctx(), func(c fakediscord.Call) bool {
		return c.Kind == fakediscord.KindThread && c.Err == nil && c.Channel.ID != thread
	})
	if err != nil {
		t.Fatalf("no thread for the rematch: %v", err)
	}
	w.waitMessage(c.Channel.ID, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	second := w.gameOf(c.Channel.ID)
	if second.White.ID != w.bob.ID || second.Black.ID != w.alice.ID || second.ID == first.ID {
		t.Errorf("the rematch has %s with White and %s with Black", second.White.ID, second.Black.ID)
	}
	if ch, ok := w.srv.Channel(c.Channel.ID); !ok || ch.ParentID != w.chess.ID {
		t.Errorf("the rematch is played in %+v, not in a thread of #chess", ch)
	}
	// Straight there: Discord starts no thread in the finished game's.
	if n := w.srv.ThreadStartsInThreads(); n != 0 {
		t.Errorf("the rematch asked Discord %d times for a thread inside the game's thread", n)
	}
}

func TestARematchWithTheEngineIsAtTheSameLevel(t *testing.T) {
	w := newEngineWorld(t, memstore.New(), "en-US", fastEngine)
	thread, _ := w.engineGame(w.alice, fakediscord.IntOption("level", 3), fakediscord.StringOption("color", "white"))
	board := w.waitMessage(thread, func(m fakediscord.Message) bool { return len(m.Files) > 0 })
	end := w.resignByClicking(w.alice, thread, board)
	got := w.click(w.alice, end, "rematch")
	if got.Ephemeral() || !strings.Contains(got.Content, "level 3") {
		t.Fatalf("the rematch against the engine is answered %q", got.Content)
	}
	_, rest, _ := strings.Cut(got.Content, "<#")
	next, _, _ := strings.Cut(rest, ">")
	g := w.gameOf(next)
	if g.Black.ID != w.alice.ID || g.Engine[0] != 3 {
		t.Errorf("the rematch: Alice plays %v, the engine's levels %v", g.Black, g.Engine)
	}
	if c, ok := w.srv.Channel(next); !ok || next == thread || c.ParentID != w.chess.ID {
		t.Errorf("the rematch is played in %q (parent %q), want a new thread of #chess", next, c.ParentID)
	}
	if n := w.srv.ThreadStartsInThreads(); n != 0 {
		t.Errorf("the rematch asked Discord %d times for a thread inside the game's thread", n)
	}
}
