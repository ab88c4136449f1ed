package stream_test

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/internal/pgtest"
	"github.com/iceagechess/iceage/pgstore"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

// openPG opens n stores on one new schema: n processes sharing a
// database.
func openPG(t testing.TB, n int) []*pgstore.Store {
	t.Helper()
	url := pgtest.New(t)
	out := make([]*pgstore.Store, n)
	for i := range out {
		s, err := pgstore.Open(ctx, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		out[i] = s
	}
	return out
}

// On PostgreSQL every process's watchers get every act of every process,
// in order, once; a rolled-back act reaches none; a watcher resumes on
// the other process from its last revision.
func TestAcrossTwoProcessesOnPostgreSQL(t *testing.T) {
	st := openPG(t, 2)
	// Each process notifies its own commits, so that two acts of two
	// processes may be heard crosswise: the hubs wait for the missing one
	// as long as a loaded machine may need, so as to tell each exactly.
	opts := stream.Options{Buffer: 128, GapWait: 20 * time.Second}
	hubs := []*stream.Hub{newHub(t, st[0], opts), newHub(t, st[1], opts)}
	tb := [2]*table{newTable(t, st[0], "c1")}
	tb[1] = tb[0].on(st[1])
	start := tb[0].g.Revision
	var watches []*stream.Watch
	for _, h := range hubs {
		for range 10 {
			w, err := h.Subscribe(ctx, tb[0].g.ID, start)
			if err != nil {
				t.Fatal(err)
			}
			watches = append(watches, w)
		}
	}
	waitListening(t, st[0], hubs...)
	rollback := errors.New("changed my mind")
	err := st[1].Update(ctx, func(tx play.Tx) error {
		g := tb[0].g.Clone()
		g.Revision++
		g.Last = play.Ended
		if err := tx.PutGame(g); err != nil {
			return err
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("Update: %v", err)
	}
	// The acts alternate between the processes.
	var kinds []stream.Kind
	for i := range 20 {
		p := tb[i%2]
		p.refresh()
		p.move()
		kinds = append(kinds, stream.Moved)
	}
	p := tb[0]
	p.refresh()
	p.do(p.mover(), p.svc.OfferDraw)
	tb[1].refresh()
	tb[1].do(tb[1].waiting(), tb[1].svc.AcceptDraw)
	kinds = append(kinds, stream.Offered, stream.Ended)
	final := tb[1].g
	var wg sync.WaitGroup
	for _, w := range watches {
		wg.Go(func() { checkEvents(t, collect(t, w, final.Revision), start, kinds, final) })
	}
	wg.Wait()
	select {
	case ev := <-watches[0].Events():
		t.Fatalf("an event after the last act: %+v", ev)
	case <-time.After(100 * time.Millisecond):
	}

	// A watcher of process 0 that saw revision r reconnects to process
	// 1, which follows the game: it gets what came after r.
	r := start + 10
	w, err := hubs[1].Subscribe(ctx, final.ID, r)
	if err != nil {
		t.Fatal(err)
	}
	checkEvents(t, collect(t, w, final.Revision), r, kinds[r-start:], final)
}

// A process that follows a game hears nothing of another schema's games
// of the same id.
func TestSchemasHearOnlyTheirOwnGames(t *testing.T) {
	a, b := openPG(t, 1)[0], openPG(t, 1)[0]
	ha := newHub(t, a, stream.Options{})
	waitListening(t, a, ha) // plays game 1 of a
	newTable(t, b, "probe")
	ta, tbb := newTable(t, a, "c1"), newTable(t, b, "c1")
	if ta.g.ID != tbb.g.ID {
		t.Skipf("the schemas numbered their games %d and %d", ta.g.ID, tbb.g.ID)
	}
	w, err := ha.Subscribe(ctx, ta.g.ID, ta.g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		tbb.move()
	}
	ta.move()
	evs := collect(t, w, ta.g.Revision)
	checkEvents(t, evs, ta.g.Revision-1, []stream.Kind{stream.Moved}, ta.g)
}

// waitListening returns once each hub's storage listens: a move of a
// game of its own reaches it, and reaches a hub only once it listens
// (by its notification, or by the reading again that follows LISTEN).
func waitListening(t testing.TB, st play.Storage, hubs ...*stream.Hub) {
	t.Helper()
	probe := newTable(t, st, "probe")
	var ws []*stream.Watch
	for _, h := range hubs {
		w, err := h.Subscribe(ctx, probe.g.ID, probe.g.Revision)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	probe.move()
	for _, w := range ws {
		collect(t, w, probe.g.Revision)
		w.Close()
	}
}

// On PostgreSQL the notices — a game moved to another channel, a
// reminder — reach the watchers of every process, as each write of a
// game is notified to all: with its record, or, when the record is too
// large for a notification, without it, and the hub reads the game.
func TestNoticesReachTheWatchersOfEveryProcessOnPostgreSQL(t *testing.T) {
	st := openPG(t, 2)
	hubs := []*stream.Hub{newHub(t, st[0], stream.Options{}), newHub(t, st[1], stream.Options{})}
	waitListening(t, st[0], hubs...)
	svc := play.New(st[0], play.Options{})
	for _, c := range []struct {
		name  string
		white play.Seat
	}{
		{"a record that travels in its notification", ann},
		// A name no front end gives: only to make the record too large
		// for a notification.
		{"a record too large for a notification", play.Seat{ID: ann.ID, Name: strings.Repeat("Ann", 4000)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			channel := "c-" + strconv.Itoa(len(c.white.Name))
			res, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: channel, White: c.white, Black: bob, DaysPerMove: 3, At: t0})
			if err != nil {
				t.Fatal(err)
			}
			g := res.Game
			var ws []*stream.Watch
			for _, h := range hubs {
				w, err := h.Subscribe(ctx, g.ID, g.Revision)
				if err != nil {
					t.Fatal(err)
				}
				ws = append(ws, w)
			}
			if _, err := svc.Rehome(ctx, g.ID, channel, channel+"-2"); err != nil {
				t.Fatal(err)
			}
			for i, w := range ws {
				if ev := next(t, w); ev.Kind != stream.Rehomed || ev.Channel != channel+"-2" || ev.Revision != g.Revision {
					t.Fatalf("process %d after the move to another channel: %v at %d, channel %q", i, ev.Kind, ev.Revision, ev.Channel)
				}
			}
			rem, err := svc.Remind(ctx, g.ID, g.Deadline.Add(-24*time.Hour))
			if err != nil || rem.Hours != 24 {
				t.Fatalf("reminder %+v, %v", rem, err)
			}
			for i, w := range ws {
				if ev := next(t, w); ev.Kind != stream.Reminded || ev.By != ann.ID || ev.Hours != 24 || ev.Revision != g.Revision {
					t.Fatalf("process %d after the reminder: %v by %q, %d hours, at %d", i, ev.Kind, ev.By, ev.Hours, ev.Revision)
				}
			}
		})
	}
}
