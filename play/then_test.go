package play_test

import (
	"errors"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
)

// Then's function runs in the transaction of an act that is applied, and
// only then: what it writes commits with the act, and its error undoes
// the act.
func TestThen(t *testing.T) {
	t.Run("it writes with the act and sees its result", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := startFrom(t, svc, "", 0)
		var seen []play.Event
		then := svc.Then(func(tx play.Tx, r *play.Result) error {
			seen = append(seen, r.Event)
			return tx.PutOutbox(play.OutboxItem{Key: "k", Game: r.Game.ID, Due: t0})
		})
		must(then.Move(ctx, act(ann, g, t0.Add(time.Minute)), "h2g3"))(t)
		if len(seen) != 1 || seen[0] != play.Moved {
			t.Fatalf("Then saw %v, want one move", seen)
		}
		its, err := st.ClaimOutbox(ctx, "p", t0, time.Minute, 10)
		if err != nil || len(its) != 1 || its[0].Game != g.ID {
			t.Fatalf("the outbox holds %+v, %v", its, err)
		}
	})
	t.Run("a refused act does not run it", func(t *testing.T) {
		svc, _ := newService(play.Options{})
		g := startFrom(t, svc, "", 0)
		ran := false
		then := svc.Then(func(play.Tx, *play.Result) error { ran = true; return nil })
		_, err := then.Move(ctx, act(bob, g, t0.Add(time.Minute)), "h7g6")
		wantKind(t, err, play.NotYourTurn)
		if ran {
			t.Fatal("Then ran for a refused move")
		}
	})
	t.Run("its error rolls the act back", func(t *testing.T) {
		svc, st := newService(play.Options{})
		g := startFrom(t, svc, "", 0)
		before := dump(t, st)
		boom := errors.New("boom")
		_, err := svc.Then(func(play.Tx, *play.Result) error { return boom }).Resign(ctx, act(ann, g, t0.Add(time.Minute)))
		if !errors.Is(err, boom) {
			t.Fatalf("Resign returned %v", err)
		}
		unchanged(t, st, before)
		if _, err := svc.Move(ctx, act(ann, g, t0.Add(time.Minute)), "h2g3"); err != nil {
			t.Fatalf("the plain Service no longer plays: %v", err)
		}
	})
}
