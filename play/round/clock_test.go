package round_test

import (
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
)

// A move that arrives after the mover's flag fell is refused, and the
// game ends on time at once, with its board for everyone: the scheduler
// need not come first.
func TestAMoveAfterTheFlagEndsTheGameOnTime(t *testing.T) {
	r, st := newRound(t, nil)
	out, err := r.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob,
		Time: play.TimeControl{Limit: time.Minute}, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	g := out.Game
	out, err = r.Do(ctx, act(&g, ann, round.Move, "h2g3", t0.Add(time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	g = out.Game
	pending(t, st, g.Deadline)
	_, err = r.Do(ctx, act(&g, bob, round.Move, "g8f6", g.Deadline))
	var x *play.Refusal
	if !errors.As(err, &x) || x.Kind != play.TimeUp {
		t.Fatalf("a move after the flag: %v", err)
	}
	back, err := r.Service().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.Outcome != game.WinFor(game.White, game.Timeout) || back.Ply() != 1 {
		t.Fatalf("after the late move the game is %+v with %d moves", back.Outcome, back.Ply())
	}
	boards := pending(t, st, g.Deadline)[round.KindBoard]
	if len(boards) != 1 {
		t.Fatalf("%d boards to post, want the one that says who won on time", len(boards))
	}
	d, err := round.DecodeDelivery(boards[0])
	if err != nil || d.Act != round.TimeOut || d.Game.Outcome.Reason != game.Timeout {
		t.Fatalf("the board posted: %+v, %v", d, err)
	}
}
