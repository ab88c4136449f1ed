package stream_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

// Every act committed reaches every watcher, in order, once; acts
// refused or rolled back reach none.
func TestEveryCommittedActReachesEveryWatcherInOrderOnce(t *testing.T) {
	for _, s := range inProcess {
		t.Run(s.name, func(t *testing.T) {
			st := s.open(t)
			h := newHub(t, st, stream.Options{Buffer: 128})
			tb := newTable(t, st, "c1")
			start := tb.g.Revision
			const n = 50
			watches := make([]*stream.Watch, n)
			for i := range watches {
				w, err := h.Subscribe(ctx, tb.g.ID, start)
				if err != nil {
					t.Fatal(err)
				}
				watches[i] = w
			}
			// A refused act (a stale revision) and a transaction rolled
			// back after it wrote the game tell nothing.
			if _, err := tb.svc.Resign(ctx, play.Act{By: ann.ID, Game: tb.g.ID, Revision: tb.g.Revision + 5, At: t0}); err == nil {
				t.Fatal("a stale act was not refused")
			}
			rollback := errors.New("changed my mind")
			err := st.Update(ctx, func(tx play.Tx) error {
				g := tb.g.Clone()
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
			kinds := tb.script()
			var wg sync.WaitGroup
			for _, w := range watches {
				wg.Go(func() {
					evs := collect(t, w, tb.g.Revision)
					checkEvents(t, evs, start, kinds, tb.g)
				})
			}
			wg.Wait()
			// Nothing more comes.
			select {
			case ev := <-watches[0].Events():
				t.Fatalf("an event after the last act: %+v", ev)
			case <-time.After(50 * time.Millisecond):
			}
		})
	}
}

// The events tell what each act did: the mover and SAN, what the Ice
// Age froze, who offered and who declined.
func TestEventsTellWhatTheActDid(t *testing.T) {
	st := inProcess[0].open(t)
	h := newHub(t, st, stream.Options{Buffer: 128})
	tb := newTable(t, st, "c1")
	w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
	if err != nil {
		t.Fatal(err)
	}
	tb.script()
	evs := collect(t, w, tb.g.Revision)
	m, err := tb.g.Match()
	if err != nil {
		t.Fatal(err)
	}
	ices := m.IceAges()
	sans := m.SANs()
	var iceAges int
	for _, ev := range evs {
		switch ev.Kind {
		case stream.Moved:
			mv := ev.Moves[0]
			if len(ev.Moves) != 1 || mv.Ply != ev.Plies || ev.SANs[mv.Ply-1] != mv.SAN {
				t.Fatalf("move event %+v", ev)
			}
			seat := ev.White
			if mv.By != 0 {
				seat = ev.Black
			}
			if ev.By != seat.ID {
				t.Fatalf("move %d by %q, want %q", mv.Ply, ev.By, seat.ID)
			}
			if mv.Ply <= len(sans) && sans[mv.Ply-1] == mv.SAN && ices[mv.Ply-1] != nil {
				iceAges++
				ice := ices[mv.Ply-1]
				if mv.IceAge == nil || len(mv.IceAge.Frozen) != len(ice.Frozen) || len(mv.IceAge.Filled) != ice.Filled.Count() {
					t.Fatalf("the Ice Age of move %d is told as %+v, want %d frozen and %d filled", mv.Ply, mv.IceAge, len(ice.Frozen), ice.Filled.Count())
				}
			}
		case stream.Offered:
			if ev.By == "" || (ev.DrawOffer == nil && ev.Takeback == nil) {
				t.Fatalf("offer event %+v", ev)
			}
		case stream.Declined:
			if ev.By == "" || ev.Offer != stream.Draw || ev.DrawOffer != nil {
				t.Fatalf("decline event %+v", ev)
			}
		case stream.TookBack:
			if ev.By == "" || ev.Plies != len(ev.SANs) {
				t.Fatalf("takeback event %+v", ev)
			}
		case stream.Ended:
			if !ev.Outcome.Over() {
				t.Fatalf("end event %+v", ev)
			}
		}
	}
	if iceAges != 1 {
		t.Fatalf("%d Ice Ages told, want 1 (40 plies)", iceAges)
	}
}

// A watcher that reconnects with the last revision it saw gets what it
// missed, then what follows; one further behind than the hub keeps, or
// on a hub that never followed the game, gets a Sync of the game.
func TestAWatcherResumesFromItsLastRevision(t *testing.T) {
	for _, s := range inProcess {
		t.Run(s.name, func(t *testing.T) {
			st := s.open(t)
			h := newHub(t, st, stream.Options{Buffer: 8})
			tb := newTable(t, st, "c1")
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			// keeper watches all along, so that the test knows when the
			// hub has seen an act.
			keeper, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			tb.move()
			tb.move()
			evs := collect(t, w, tb.g.Revision)
			collect(t, keeper, tb.g.Revision)
			last := evs[len(evs)-1].Revision
			w.Close()
			if _, ok := <-w.Events(); ok || !errors.Is(w.Err(), stream.ErrClosed) {
				t.Fatalf("a closed watch: %v", w.Err())
			}
			for range 5 {
				tb.move()
				collect(t, keeper, tb.g.Revision)
			}
			w, err = h.Subscribe(ctx, tb.g.ID, last)
			if err != nil {
				t.Fatal(err)
			}
			tb.move()
			evs = collect(t, w, tb.g.Revision)
			checkEvents(t, evs, last, []stream.Kind{stream.Moved, stream.Moved, stream.Moved, stream.Moved, stream.Moved, stream.Moved}, tb.g)
			last = tb.g.Revision
			w.Close()
			collect(t, keeper, tb.g.Revision)

			// Further behind than its buffer: each revision all the same.
			for range 12 {
				tb.move()
				collect(t, keeper, tb.g.Revision) // the hub has seen it
			}
			w, err = h.Subscribe(ctx, tb.g.ID, last)
			if err != nil {
				t.Fatal(err)
			}
			tb.move()
			checkEvents(t, collect(t, w, tb.g.Revision), last, slices.Repeat([]stream.Kind{stream.Moved}, 13), tb.g)
			w.Close()
			collect(t, keeper, tb.g.Revision)

			// A hub that never followed the game: each revision all the
			// same, from the record, which keeps each move's revision.
			h2 := newHub(t, st, stream.Options{})
			w2, err := h2.Subscribe(ctx, tb.g.ID, last)
			if err != nil {
				t.Fatal(err)
			}
			checkEvents(t, collect(t, w2, tb.g.Revision), last, slices.Repeat([]stream.Kind{stream.Moved}, tb.g.Revision-last), tb.g)
			// From its first revision, which no move made: a Sync.
			w2, err = h2.Subscribe(ctx, tb.g.ID, 0)
			if err != nil {
				t.Fatal(err)
			}
			sync := collect(t, w2, tb.g.Revision)
			if len(sync) != 1 || sync[0].Kind != stream.Sync {
				t.Fatalf("on a new hub from 0: %v, want one Sync", revisions(sync))
			}
			checkState(t, sync[0], tb.g)
			// Up to date: nothing until the next act.
			w3, err := h2.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			tb.move()
			checkEvents(t, collect(t, w3, tb.g.Revision), tb.g.Revision-1, []stream.Kind{stream.Moved}, tb.g)
		})
	}
}

// A watcher that reconnects 100 revisions back gets every revision it
// missed — moves, takebacks asked and granted — in order, once, then
// what follows; one further back than the events kept gets a Sync.
func TestAWatcherResumesExactlyFromFarBack(t *testing.T) {
	for _, s := range inProcess {
		t.Run(s.name, func(t *testing.T) {
			st := s.open(t)
			h := newHub(t, st, stream.Options{Buffer: 4, Keep: 120})
			tb := newTable(t, st, "c1")
			keeper, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			tb.moveOn()
			collect(t, w, tb.g.Revision)
			w.Close()
			last := tb.g.Revision
			// play makes n revisions, a takeback every tenth so that the
			// game goes on, and returns their kinds.
			play := func(n int) []stream.Kind {
				var kinds []stream.Kind
				for len(kinds) < n {
					if len(kinds)%10 == 8 && tb.g.Ply() > 0 {
						tb.do(tb.waiting(), tb.svc.RequestTakeback)
						tb.do(tb.mover(), tb.svc.AcceptTakeback)
						kinds = append(kinds, stream.Offered, stream.TookBack)
					} else {
						tb.moveOn()
						kinds = append(kinds, stream.Moved)
					}
					if tb.g.Over() {
						t.Fatalf("the game ended after %d revisions", len(kinds))
					}
					collect(t, keeper, tb.g.Revision) // the hub has seen it
				}
				return kinds
			}
			kinds := play(100)
			w, err = h.Subscribe(ctx, tb.g.ID, last)
			if err != nil {
				t.Fatal(err)
			}
			tb.moveOn()
			kinds = append(kinds, stream.Moved)
			got := collect(t, w, tb.g.Revision)
			checkEvents(t, got, last, kinds, tb.g)
			select {
			case ev := <-w.Events():
				t.Fatalf("an event more: %v at revision %d", ev.Kind, ev.Revision)
			case <-time.After(50 * time.Millisecond):
			}
			collect(t, keeper, tb.g.Revision)

			// Further back than the events kept: a Sync.
			play(80)
			w, err = h.Subscribe(ctx, tb.g.ID, last)
			if err != nil {
				t.Fatal(err)
			}
			sync := collect(t, w, tb.g.Revision)
			if len(sync) != 1 || sync[0].Kind != stream.Sync {
				t.Fatalf("%d revisions back, beyond the events kept: %v, want one Sync", tb.g.Revision-last, revisions(sync))
			}
			checkState(t, sync[0], tb.g)
		})
	}
}

// A watcher that does not read is dropped when its buffer is full; the
// acts go on without waiting for it, the others get everything, and it
// resumes from the last revision it received.
func TestASlowWatcherIsDroppedWithoutDelayingTheActs(t *testing.T) {
	for _, s := range inProcess {
		t.Run(s.name, func(t *testing.T) {
			st := s.open(t)
			h := newHub(t, st, stream.Options{Buffer: 4})
			tb := newTable(t, st, "c1")
			start := tb.g.Revision
			slow, err := h.Subscribe(ctx, tb.g.ID, start)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := h.Subscribe(ctx, tb.g.ID, start)
			if err != nil {
				t.Fatal(err)
			}
			var got []*stream.Event
			done := make(chan struct{})
			go func() {
				defer close(done)
				for ev := range fast.Events() {
					got = append(got, ev)
				}
			}()
			var kinds []stream.Kind
			for range 12 {
				tb.move()
				kinds = append(kinds, stream.Moved)
				time.Sleep(time.Millisecond) // give the fast one its turn
			}
			// The slow one kept what fitted, then was dropped.
			var seen []*stream.Event
			for ev := range slow.Events() {
				seen = append(seen, ev)
			}
			if !errors.Is(slow.Err(), stream.ErrTooSlow) || len(seen) != 4 {
				t.Fatalf("the slow watcher: %d events, %v; want 4, then ErrTooSlow", len(seen), slow.Err())
			}
			checkKinds(t, seen, start, kinds[:4])
			// It resumes after its last revision.
			again, err := h.Subscribe(ctx, tb.g.ID, seen[3].Revision)
			if err != nil {
				t.Fatal(err)
			}
			tb.move()
			kinds = append(kinds, stream.Moved)
			// 9 revisions behind, with a buffer of 4: each it missed.
			checkEvents(t, collect(t, again, tb.g.Revision), seen[3].Revision, kinds[4:], tb.g)
			fast.Close()
			<-done
			checkEvents(t, got, start, kinds, tb.g)
		})
	}
}

// What happens to a game without a revision of its own reaches its
// watchers too: a conditional reply that took effect is marked in its
// move's event, and a game moved to another channel and a reminder come
// as notices at the revision they happened at.
func TestNoticesAndConditionalRepliesReachTheWatchers(t *testing.T) {
	for _, s := range inProcess {
		t.Run(s.name, func(t *testing.T) {
			st := s.open(t)
			h := newHub(t, st, stream.Options{})
			svc := play.New(st, play.Options{})
			res, err := svc.Start(ctx, play.NewGame{Guild: "g1", Channel: "c1", White: ann, Black: bob, DaysPerMove: 3, At: t0})
			if err != nil {
				t.Fatal(err)
			}
			g := res.Game
			w, err := h.Subscribe(ctx, g.ID, g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			// Black queues a reply to White's first move, which White plays.
			if _, err := svc.Premove(ctx, play.Act{By: bob.ID, Game: g.ID, Revision: g.Revision, At: t0.Add(time.Minute)}, [][]string{{"h2g3", "g8f6"}}); err != nil {
				t.Fatal(err)
			}
			res, err = svc.Move(ctx, play.Act{By: ann.ID, Game: g.ID, Revision: g.Revision, At: t0.Add(2 * time.Minute)}, "h2g3")
			if err != nil {
				t.Fatal(err)
			}
			g = res.Game
			evs := collect(t, w, g.Revision)
			if m := evs[len(evs)-1].Moves; len(m) != 2 || m[0].Reply || !m[1].Reply || m[1].UCI != "g8f6" {
				t.Fatalf("the move and its conditional reply: %+v", m)
			}
			// The game moves to another channel: a notice.
			if _, err := svc.Rehome(ctx, g.ID, "c1", "c2"); err != nil {
				t.Fatal(err)
			}
			ev := next(t, w)
			if ev.Kind != stream.Rehomed || ev.Channel != "c2" || ev.Revision != g.Revision {
				t.Fatalf("after the move to c2: %v at %d, channel %q", ev.Kind, ev.Revision, ev.Channel)
			}
			// White's reminder, 24 hours before the deadline: a notice.
			rem, err := svc.Remind(ctx, g.ID, g.Deadline.Add(-24*time.Hour))
			if err != nil || rem.Hours != 24 {
				t.Fatalf("reminder %+v, %v", rem, err)
			}
			ev = next(t, w)
			if ev.Kind != stream.Reminded || ev.By != ann.ID || ev.Hours != 24 || ev.Revision != g.Revision {
				t.Fatalf("after the reminder: %v by %q, %d hours, at %d", ev.Kind, ev.By, ev.Hours, ev.Revision)
			}
			// Then the game goes on as before.
			if _, err := svc.Move(ctx, play.Act{By: ann.ID, Game: g.ID, Revision: g.Revision, At: t0.Add(3 * time.Minute)}, "g3h4"); err != nil {
				t.Fatal(err)
			}
			if ev := next(t, w); ev.Kind != stream.Moved || ev.Revision != g.Revision+1 {
				t.Fatalf("after the next move: %v at %d", ev.Kind, ev.Revision)
			}
		})
	}
}

// next waits for a watch's next event.
func next(t testing.TB, w *stream.Watch) *stream.Event {
	t.Helper()
	select {
	case ev, ok := <-w.Events():
		if !ok {
			t.Fatalf("the watch ended: %v", w.Err())
		}
		return ev
	case <-time.After(20 * time.Second):
		t.Fatal("no event")
	}
	return nil
}
