package schedule_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/memstore"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/schedule/clocktest"
	"github.com/iceagechess/iceage/store"
)

// nothing is a Notifier that says nothing, so that benchmarks measure
// the scheduler and the storage.
type nothing struct{}

func (nothing) Remind(context.Context, round.Reminder) error { return nil }
func (nothing) Expired(context.Context, round.Expired) error { return nil }

// busy returns a service with active games, one move played in each:
// due of them on a day per move, their deadline passed by now, the rest
// on three to fourteen days per move, a minute apart, none due. The
// games are written directly, in one transaction: through play, the
// in-memory storage's scans would make the setup quadratic.
func busy(b *testing.B, st play.Storage, active, due int) (*play.Service, []play.Game, time.Time) {
	b.Helper()
	svc := play.New(st, play.Options{})
	ctx := context.Background()
	now := time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC)
	days := []int{3, 5, 7, 10, 14}
	pos := game.StartPosition()
	mv, err := game.ParseMove(&pos, "hxg3")
	if err != nil {
		b.Fatal(err)
	}
	after := pos.Apply(mv)
	fen := after.FEN()
	var dueGames []play.Game
	err = st.Update(ctx, func(tx play.Tx) error {
		for i := range active {
			id, err := tx.NextID()
			if err != nil {
				return err
			}
			at := now.Add(time.Duration(i) * time.Minute)
			g := play.Game{ID: id, Revision: 2, Last: play.Moved, Channel: fmt.Sprint("c", i),
				White: play.Seat{ID: fmt.Sprint("w", i)}, Black: play.Seat{ID: fmt.Sprint("b", i)},
				StartFEN: game.StartFEN, FEN: fen, Moves: []play.Move{{UCI: "h2g3", At: at}}, Created: at, Updated: at,
				DaysPerMove: days[i%len(days)]}
			if i < due {
				at = now.Add(-48 * time.Hour)
				g.DaysPerMove = 1
			}
			g.Deadline = at.Add(time.Duration(g.DaysPerMove) * 24 * time.Hour)
			g.RemindAt = g.Deadline.Add(-time.Hour)
			if i < due {
				dueGames = append(dueGames, g)
			}
			if err := tx.PutGame(g); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return svc, dueGames, now
}

// storages are the storages benchmarked: in memory, and bbolt in a
// temporary folder (each commit synced to disk).
func storages(b *testing.B) map[string]func() play.Storage {
	return map[string]func() play.Storage{
		"memory": func() play.Storage { return memstore.New() },
		"bbolt": func() play.Storage {
			st, err := store.Open(filepath.Join(b.TempDir(), "iceage.db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			return st
		},
	}
}

// BenchmarkNextDue is the scheduler's look at 10,000 active games when
// nothing is due: NextDue alone, and a whole pass (RunDue), what every
// wake costs.
func BenchmarkNextDue(b *testing.B) {
	for _, name := range []string{"memory", "bbolt"} {
		b.Run(name, func(b *testing.B) {
			svc, _, now := busy(b, storages(b)[name](), 10_000, 0)
			sch := schedule.New(schedule.Options{Clock: clocktest.New(now), Logger: quiet()})
			ctx := context.Background()
			b.Run("NextDue", func(b *testing.B) {
				for b.Loop() {
					if _, ok, err := schedule.NextDue(ctx, svc.Storage()); err != nil || !ok {
						b.Fatal(ok, err)
					}
				}
			})
			b.Run("RunDue", func(b *testing.B) {
				for b.Loop() {
					if _, ok, err := sch.RunDue(ctx, newRound(b, svc), nothing{}); err != nil || !ok {
						b.Fatal(ok, err)
					}
				}
			})
		})
	}
}

// BenchmarkCatchUp is a restart that finds 1,000 deadlines passed among
// 10,000 active games: each is timed out (one transaction each) and
// announced (to nobody).
func BenchmarkCatchUp(b *testing.B) {
	for _, name := range []string{"memory", "bbolt"} {
		b.Run(name, func(b *testing.B) {
			st := storages(b)[name]()
			svc, due, now := busy(b, st, 10_000, 1_000)
			sch := schedule.New(schedule.Options{Clock: clocktest.New(now), Logger: quiet()})
			r := newRound(b, svc)
			ctx := context.Background()
			for b.Loop() {
				b.StopTimer()
				err := st.Update(ctx, func(tx play.Tx) error {
					for _, g := range due {
						if err := tx.PutGame(g); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, _, err := sch.RunDue(ctx, r, nothing{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			err := st.View(ctx, func(tx play.ReadTx) error {
				if d, _ := tx.Due(play.DueDeadline, now, 10); len(d) != 0 {
					b.Fatalf("%d deadlines still due", len(d))
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
