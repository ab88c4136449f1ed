package schedule_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/schedule/clocktest"
	"github.com/iceagechess/iceage/store"
)

// startLive starts a live game of tc in w and plays White's first move
// a second later: Black's clock runs.
func (w *world) startLive(tc play.TimeControl) play.Game {
	w.t.Helper()
	r, err := w.svc.Start(context.Background(), play.NewGame{Channel: fmt.Sprint("live", w.clock.Now().UnixNano()),
		White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"}, Time: tc, At: w.clock.Now()})
	if err != nil {
		w.t.Fatal(err)
	}
	w.clock.Advance(time.Second)
	return w.move(r.Game.ID, "h2g3").Game
}

// The scheduler sleeps until the flag of the player to move falls, and
// ends the game on time by itself, within a second of the time running
// out (the grace of the player's lag, at most MaxLagComp).
func TestTheSchedulerFlagsALivePlayerWithinASecond(t *testing.T) {
	w := newWorld(t, play.Options{})
	w.run()
	g := w.startLive(play.TimeControl{Limit: time.Minute})
	flag := g.Clock.FlagAt(game.Black)
	w.sleepsUntil(g.Deadline)
	if over := g.Deadline.Sub(flag); over < 0 || over > time.Second {
		t.Fatalf("the flag is judged %v after Black's time ran out", over)
	}
	w.clock.Set(g.Deadline.Add(-time.Millisecond))
	w.want()
	w.advance(g.Deadline)
	w.want(fmt.Sprintf("timeout %d lost", g.ID))
	if n := w.rec.notices()[0]; n.t.Game.Outcome != game.WinFor(game.White, game.Timeout) || n.t.Late != 0 {
		t.Fatalf("%+v, late %v", n.t.Game.Outcome, n.t.Late)
	}
}

// A live game whose first move never comes is aborted by the scheduler
// a minute after it began.
func TestTheSchedulerAbortsALiveGameWithoutAFirstMove(t *testing.T) {
	w := newWorld(t, play.Options{})
	r, err := w.svc.Start(context.Background(), play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"},
		Time: play.TimeControl{Limit: 3 * time.Minute, Increment: 2 * time.Second}, At: w.clock.Now(), Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	w.run()
	w.advance(t0.Add(play.FirstMoveTime))
	if g := w.game(r.Game.ID); g.Outcome.Reason != game.Aborted {
		t.Fatalf("a minute without a first move: %+v", g.Outcome)
	}
}

// Clocks survive a restart: the time stays where it was stored, and a
// flag that fell while the program was down is announced once, by the
// first scheduler that comes back, with how late.
func TestAFlagThatFellWhileDownIsAnnouncedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "iceage.db")
	clock := clocktest.New(t0)
	rec := newRecorder(clock)
	open := func() (*store.Store, *round.Round) {
		st, err := store.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, err := round.New(play.New(outboxWatch{st, rec}, play.Options{}), round.Options{Now: clock.Now})
		if err != nil {
			t.Fatal(err)
		}
		return st, r
	}
	st, r := open()
	ctx := context.Background()
	out, err := r.Start(ctx, play.NewGame{Channel: "c", White: play.Seat{ID: "w"}, Black: play.Seat{ID: "b"},
		Time: play.TimeControl{Limit: time.Minute}, At: t0})
	if err != nil {
		t.Fatal(err)
	}
	g := out.Game
	out, err = r.Do(ctx, round.Act{Act: play.Act{By: "w", Game: g.ID, Revision: g.Revision, At: t0.Add(time.Second)}, Kind: round.Move, Text: "h2g3"})
	if err != nil {
		t.Fatal(err)
	}
	before := out.Game
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	down := before.Deadline.Add(10 * time.Minute) // the program comes back
	clock.Set(down)
	st, r = open()
	defer st.Close()
	back, err := r.Service().Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.Over() || *back.Clock != *before.Clock || !back.Deadline.Equal(before.Deadline) {
		t.Fatalf("after the restart the clocks are %+v, deadline %v; before, %+v, %v", back.Clock, back.Deadline, before.Clock, before.Deadline)
	}
	for range 2 {
		s := schedule.New(schedule.Options{Clock: clock, Logger: quiet()})
		if _, _, err := s.RunDue(ctx, r, rec); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.texts(); len(got) != 1 || got[0] != fmt.Sprintf("timeout %d lost", g.ID) {
		t.Fatalf("told %v", got)
	}
	n := rec.notices()[0]
	if !n.t.Due.Equal(before.Deadline) || n.t.Late != 10*time.Minute || n.t.Game.Clock.Left[game.Black] != 0 {
		t.Fatalf("the flag says due %v, late %v, Black's clock %v", n.t.Due, n.t.Late, n.t.Game.Clock.Left[game.Black])
	}
}
