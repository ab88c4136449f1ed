package main

import (
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/fakediscord"
	"github.com/iceagechess/iceage/play/stream"
)

// The program builds one stream of the games' events on its storage, and
// a move made through Discord reaches its watchers.
func TestTheProgramStreamsTheGamesEvents(t *testing.T) {
	c := startClub(t, clubOptions{within: 30 * time.Second})
	ctx := c.ctx
	game, thread := c.gameStarted(t)
	w, err := c.app.stream.Subscribe(ctx, game.ID, game.Revision)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if m, err := c.srv.WaitResponse(ctx, c.srv.Command(game.White.ID, thread, "move", fakediscord.StringOption("move", "Nxf3"))); err != nil || m.Err != nil {
		t.Fatal(err, m.Err)
	}
	select {
	case ev := <-w.Events():
		if ev.Kind != stream.Moved || ev.Revision != game.Revision+1 || ev.Moves[0].SAN != "Nxf3" || ev.By != game.White.ID {
			t.Fatalf("the move is told as %+v", ev)
		}
	case <-ctx.Done():
		t.Fatal("the move did not reach the stream")
	}
}
