package stream_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/stream"
	"github.com/iceagechess/iceage/store"
)

// Many games played at once, each player on a goroutine of its own that
// moves as soon as it sees its turn, on a bbolt file whose commits are
// batched: every watcher gets every move of its game, in order, once.
func TestGamesPlayedAtOnceReachTheirWatchersInOrder(t *testing.T) {
	st, err := store.Open(t.TempDir()+"/iceage.db", nil) // commits shared by default
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	h := newHub(t, st, stream.Options{Buffer: 256})
	const games, plies, watchers = 8, 30, 3
	svc := play.New(st, play.Options{})
	var tables []*table
	var watches [][]*stream.Watch
	for i := range games {
		tb := newTable(t, st, fmt.Sprintf("c%d", i))
		tables = append(tables, tb)
		var ws []*stream.Watch
		for range watchers {
			w, err := h.Subscribe(ctx, tb.g.ID, tb.g.Revision)
			if err != nil {
				t.Fatal(err)
			}
			ws = append(ws, w)
		}
		watches = append(watches, ws)
	}
	var wg sync.WaitGroup
	for i, tb := range tables {
		for _, me := range []play.Seat{ann, bob} {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(len(me.ID))))
				for {
					g, err := svc.Game(ctx, tb.g.ID)
					if err != nil {
						t.Error(err)
						return
					}
					if g.Over() || g.Ply() >= plies {
						return
					}
					if g.ToMove().ID != me.ID {
						time.Sleep(50 * time.Microsecond)
						continue
					}
					pos, _ := g.Position()
					legal := pos.LegalMoves(nil)
					_, err = svc.Move(ctx, play.Act{By: me.ID, Game: g.ID, Revision: g.Revision, At: t0.Add(time.Duration(g.Ply()+1) * time.Minute)}, legal[rng.IntN(len(legal))].UCI())
					var x *play.Refusal
					if err != nil && !errors.As(err, &x) {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
	for i, tb := range tables {
		tb.refresh()
		kinds := make([]stream.Kind, tb.g.Revision-1)
		for k := range kinds {
			kinds[k] = stream.Moved
		}
		for _, w := range watches[i] {
			wg.Go(func() { checkEvents(t, collect(t, w, tb.g.Revision), 1, kinds, tb.g) })
		}
	}
	wg.Wait()
}
