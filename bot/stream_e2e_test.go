package bot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/store"
)

// watchGame watches the stream of the game in thread from its start,
// and returns a function that takes the next event.
func watchGame(t *testing.T, hub *stream.Hub, g play.Game) func() *stream.Event {
	t.Helper()
	w, err := hub.Subscribe(context.Background(), g.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return func() *stream.Event {
		t.Helper()
		select {
		case ev, ok := <-w.Events():
			if !ok {
				t.Fatalf("the watch ended: %v", w.Err())
			}
			return ev
		case <-time.After(patience(20 * time.Second)):
			t.Fatal("no event")
		}
		return nil
	}
}

// The players' acts through Discord and the engine's answers reach the
// game's stream, each once, in order: they commit through the storage,
// which feeds it.
func TestThePlayersAndTheEngineFeedTheGamesStream(t *testing.T) {
	st := memstore.New()
	hub, err := stream.New(st, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	w := newEngineWorld(t, st, "en-US", fastEngine)
	thread, _ := w.engineGame(w.alice, fakediscord.StringOption("color", "white"), fakediscord.IntOption("level", 1))
	next := watchGame(t, hub, w.gameOf(thread))
	if ev := next(); ev.Kind != stream.Started || ev.Revision != 1 || ev.White.ID != w.alice.ID {
		t.Fatalf("the first event is %v at revision %d", ev.Kind, ev.Revision)
	}
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "Nxf3"))
	if ev := next(); ev.Kind != stream.Moved || ev.Revision != 2 || ev.By != w.alice.ID || ev.Moves[0].SAN != "Nxf3" {
		t.Fatalf("Alice's move is told as %+v", ev)
	}
	ev := next()
	if ev.Kind != stream.Moved || ev.Revision != 3 || ev.By != w.srv.Bot().ID || ev.Moves[0].By != game.Black {
		t.Fatalf("the engine's move is told as %+v", ev)
	}
	if g := w.gameOf(thread); ev.FEN != g.FEN || len(ev.SANs) != 2 {
		t.Fatalf("the engine's move tells %s %v; the game is at %s", ev.FEN, ev.SANs, g.FEN)
	}
}

// The scheduler's timeout reaches the game's stream as the players'
// acts do.
func TestTheSchedulersTimeoutFeedsTheGamesStream(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "iceage.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	hub, err := stream.New(st, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	w := newCorrWorld(t, st, play.Options{})
	thread, _ := w.challengeAccepted(w.chess, w.alice, w.bob)
	next := watchGame(t, hub, w.gameIn(thread))
	if ev := next(); ev.Kind != stream.Started || ev.Revision != 1 {
		t.Fatalf("the first event is %v at revision %d", ev.Kind, ev.Revision)
	}
	w.command(w.alice, thread, "move", fakediscord.StringOption("move", "hxg3"))
	if ev := next(); ev.Kind != stream.Moved || ev.By != w.alice.ID {
		t.Fatalf("Alice's move is told as %+v", ev)
	}
	w.advance(w.gameIn(thread).Deadline)
	ev := next()
	if ev.Kind != stream.Ended || ev.Revision != 3 || ev.Outcome.Reason != game.Timeout {
		t.Fatalf("the timeout is told as %+v", ev)
	}
	if w, ok := ev.Outcome.Winner(); !ok || w != game.White {
		t.Fatalf("the timeout's outcome is %v", ev.Outcome)
	}
}
