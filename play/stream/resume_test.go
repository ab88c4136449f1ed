package stream_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
)

// A hub that never followed a game — after a restart, on another
// process, after the game went unwatched — sends a watcher who resumes
// each revision it missed, from the game's record, as far back as the
// record tells: each move's revision is in it, so back to the last act
// that was no move (here a draw declined), and a Sync from further back.
func TestAWatcherResumesFromTheRecordOnAHubThatNeverFollowedTheGame(t *testing.T) {
	type storages struct{ acts, fresh func() play.Storage }
	cases := []struct {
		name string
		open func(t *testing.T) storages
	}{}
	for _, s := range inProcess {
		cases = append(cases, struct {
			name string
			open func(t *testing.T) storages
		}{s.name, func(t *testing.T) storages {
			st := s.open(t)
			return storages{func() play.Storage { return st }, func() play.Storage { return st }}
		}})
	}
	cases = append(cases, struct {
		name string
		open func(t *testing.T) storages
	}{"pgstore: another process", func(t *testing.T) storages {
		st := openPG(t, 2)
		return storages{func() play.Storage { return st[0] }, func() play.Storage { return st[1] }}
	}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := c.open(t)
			// The game's acts are heard by the hub of their own process;
			// the watcher resumes on fresh hubs.
			h := newHub(t, st.acts(), stream.Options{})
			tb := newTable(t, st.acts(), "c1")
			keeper, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			byRev := map[int]play.Game{}
			var kinds []stream.Kind // of the revisions after the first
			note := func(k stream.Kind) {
				kinds = append(kinds, k)
				byRev[tb.g.Revision] = tb.g
				collect(t, keeper, tb.g.Revision)
			}
			for range 3 {
				tb.moveOn()
				note(stream.Moved)
			}
			early := tb.g.Revision
			tb.do(tb.mover(), tb.svc.OfferDraw)
			note(stream.Offered)
			offered := tb.g.Revision
			tb.do(tb.waiting(), tb.svc.DeclineDraw)
			note(stream.Declined)
			declined := tb.g.Revision
			for range 5 {
				tb.moveOn()
				note(stream.Moved)
			}
			// The side waiting queues a reply to the mover's next move:
			// one revision, two moves.
			pos, err := tb.g.Position()
			if err != nil {
				t.Fatal(err)
			}
			mv := pos.LegalMoves(nil)[0]
			after := pos.Apply(mv)
			reply := after.LegalMoves(nil)[0]
			if _, err := tb.svc.Premove(ctx, play.Act{By: tb.waiting().ID, Game: tb.g.ID, Revision: tb.g.Revision, At: tb.at.Add(time.Second)},
				[][]string{{mv.UCI(), reply.UCI()}}); err != nil {
				t.Fatal(err)
			}
			tb.do(tb.mover(), func(ctx context.Context, a play.Act) (play.Result, error) { return tb.svc.Move(ctx, a, mv.UCI()) })
			if tb.g.Ply() != 10 {
				t.Fatalf("the conditional reply was not played: %d plies", tb.g.Ply())
			}
			note(stream.Moved)
			replied := tb.g.Revision
			tb.moveOn()
			note(stream.Moved)
			tb.do(tb.mover(), tb.svc.Resign)
			note(stream.Ended)
			final := tb.g
			first := final.Revision - len(kinds) // the game's first revision

			resume := func(after int) []*stream.Event {
				t.Helper()
				fresh := newHub(t, st.fresh(), stream.Options{})
				w, err := fresh.Subscribe(ctx, final.ID, after)
				if err != nil {
					t.Fatal(err)
				}
				evs := collect(t, w, final.Revision)
				select {
				case ev := <-w.Events():
					t.Fatalf("an event more: %v at %d", ev.Kind, ev.Revision)
				case <-time.After(50 * time.Millisecond):
				}
				return evs
			}
			// From after the decline, and from each revision since: each
			// revision it missed, in order, once, each telling the game
			// as it was then.
			for r := declined; r < final.Revision; r++ {
				evs := resume(r)
				checkEvents(t, evs, r, kinds[r-first:], final)
				for _, ev := range evs[:len(evs)-1] {
					checkState(t, ev, byRev[ev.Revision])
					if g := byRev[ev.Revision]; !ev.At.Equal(g.Updated) || ev.By != g.Seat(g.Turn().Other()).ID && ev.Revision != replied {
						t.Errorf("the event of revision %d: at %v by %q; the game was updated at %v", ev.Revision, ev.At, ev.By, g.Updated)
					}
				}
				if r < replied {
					m := evs[replied-r-1].Moves
					if len(m) != 2 || m[0].Reply || !m[1].Reply || m[0].UCI != mv.UCI() || m[1].UCI != reply.UCI() ||
						m[0].Ply != 9 || m[1].Ply != 10 || m[0].SAN != final.Moves[8].SAN {
						t.Errorf("the move and its conditional reply, resumed from %d: %+v", r, m)
					}
				}
			}
			// From before the decline, which the record keeps no trace
			// of: a Sync of the game as it is.
			for _, r := range []int{early, offered} {
				evs := resume(r)
				if len(evs) != 1 || evs[0].Kind != stream.Sync {
					t.Fatalf("resumed from %d, before the decline: %v, want one Sync", r, revisions(evs))
				}
				checkState(t, evs[0], final)
			}
			if !slices.Contains(kinds, stream.Declined) {
				t.Fatal("no decline played")
			}
		})
	}
}
