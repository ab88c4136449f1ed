package play_test

import (
	"testing"

	"github.com/iceagechess/iceage/play"
)

func TestRehome(t *testing.T) {
	svc, _ := newService(play.Options{})
	r, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "thread1", White: ann, Black: bob, DaysPerMove: 3, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	id := r.Game.ID
	if _, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "busy", White: cat, Black: dan, At: t0}); err != nil {
		t.Fatal(err)
	}
	wantKind(t, must1(svc.Rehome(ctx, id, "thread1", "busy")), play.ChannelBusy)
	wantKind(t, must1(svc.Rehome(ctx, id, "elsewhere", "thread2")), play.NoGame)
	wantKind(t, must1(svc.Rehome(ctx, 999, "thread1", "thread2")), play.NoGame)
	g, err := svc.Rehome(ctx, id, "thread1", "thread2")
	if err != nil || g.Channel != "thread2" {
		t.Fatalf("rehomed to %q, %v", g.Channel, err)
	}
	if got, err := svc.GameIn(ctx, "thread2"); err != nil || got.ID != id {
		t.Errorf("the game of the new thread: %d, %v", got.ID, err)
	}
	wantKind(t, func() error { _, err := svc.GameIn(ctx, "thread1"); return err }(), play.NoGame)
	// A second move from the old channel, as a second process would try.
	wantKind(t, must1(svc.Rehome(ctx, id, "thread1", "thread3")), play.NoGame)
	// A game that ended stays where it ended.
	if _, err := svc.Resign(ctx, play.Act{Game: id, By: ann.ID, Revision: g.Revision, At: t0}); err != nil {
		t.Fatal(err)
	}
	wantKind(t, must1(svc.Rehome(ctx, id, "thread2", "thread4")), play.NoGame)
}

func must1[T any](_ T, err error) error { return err }
