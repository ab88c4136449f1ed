package schedule_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/iceagechess/iceage/game"
	"github.com/iceagechess/iceage/play"
	"github.com/iceagechess/iceage/play/round"
	"github.com/iceagechess/iceage/schedule"
	"github.com/iceagechess/iceage/store"
)

// flagTimes notes, on the wall clock, when each timeout's transaction
// committed, by game.
type flagTimes struct {
	round.Storage
	mu sync.Mutex
	at map[uint64]time.Time
}

func (f *flagTimes) Update(ctx context.Context, fn func(play.Tx) error) error {
	var ended []uint64
	err := f.Storage.Update(ctx, func(tx play.Tx) error {
		ended = ended[:0]
		return fn(endWatch{tx, &ended})
	})
	if err == nil && len(ended) > 0 {
		now := time.Now()
		f.mu.Lock()
		for _, id := range ended {
			f.at[id] = now
		}
		f.mu.Unlock()
	}
	return err
}

type endWatch struct {
	play.Tx
	ended *[]uint64
}

func (t endWatch) PutGame(g play.Game) error {
	if g.Over() && g.Outcome.Reason == game.Timeout {
		*t.ended = append(*t.ended, g.ID)
	}
	return t.Tx.PutGame(g)
}

// BenchmarkFlagLateness runs 100 live 1+0 games on bbolt, each with
// Black's flag falling 10 to 12 seconds after they are set up, under the
// scheduler on the wall clock, and reports how late the flags were
// judged (the timeout committed) after the exact time each player's
// time ran out: the grace of their lag (at most MaxLagComp; 500 ms for
// a player whose lag is not yet measured) plus the scheduler's own
// lateness, reported apart. Run with -benchtime=1x; note the machine's
// load beside the figures.
func BenchmarkFlagLateness(b *testing.B) {
	for range b.N {
		st, err := store.Open(filepath.Join(b.TempDir(), "iceage.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		watch := &flagTimes{Storage: st, at: map[uint64]time.Time{}}
		sch := schedule.New(schedule.Options{Logger: quiet()})
		svc := play.New(sch.Watch(watch), play.Options{})
		r, err := round.New(svc, round.Options{})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- sch.Run(ctx, r, nothing{}) }()
		const games = 100
		var gs []play.Game
		base := time.Now()
		for i := range games {
			// White's first move 50 s ago, and a little less: Black's
			// flag falls in ten to twelve seconds, 20 ms apart. (The
			// game began a second before that move: its minute for the
			// first move must outlast the setup of every game on a
			// busy machine, or the scheduler aborts it first.)
			moved := base.Add(-50*time.Second + time.Duration(i)*20*time.Millisecond)
			out, err := r.Start(ctx, play.NewGame{Channel: fmt.Sprint("c", i), White: play.Seat{ID: fmt.Sprint("w", i)},
				Black: play.Seat{ID: fmt.Sprint("b", i)}, Time: play.TimeControl{Limit: time.Minute}, At: moved.Add(-time.Second)})
			if err != nil {
				b.Fatal(err)
			}
			g := out.Game
			o, err := r.Do(ctx, round.Act{Act: play.Act{By: g.White.ID, Game: g.ID, Revision: g.Revision, At: moved}, Kind: round.Move, Text: "h2g3"})
			if err != nil {
				b.Fatal(err)
			}
			gs = append(gs, o.Game)
		}
		last := gs[len(gs)-1].Deadline
		time.Sleep(time.Until(last) + 2*time.Second)
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		var sinceFlag, sinceDeadline []float64
		watch.mu.Lock()
		for _, g := range gs {
			at, ok := watch.at[g.ID]
			if !ok {
				b.Fatalf("game %d was never flagged", g.ID)
			}
			sinceFlag = append(sinceFlag, float64(at.Sub(g.Clock.FlagAt(game.Black)))/1e6)
			sinceDeadline = append(sinceDeadline, float64(at.Sub(g.Deadline))/1e6)
		}
		watch.mu.Unlock()
		st.Close()
		slices.Sort(sinceFlag)
		slices.Sort(sinceDeadline)
		pct := func(xs []float64, p int) float64 { return xs[min(len(xs)*p/100, len(xs)-1)] }
		b.ReportMetric(pct(sinceFlag, 50), "ms-after-flag-p50")
		b.ReportMetric(pct(sinceFlag, 95), "ms-after-flag-p95")
		b.ReportMetric(sinceFlag[len(sinceFlag)-1], "ms-after-flag-max")
		b.ReportMetric(pct(sinceDeadline, 50), "ms-after-deadline-p50")
		b.ReportMetric(pct(sinceDeadline, 95), "ms-after-deadline-p95")
		b.ReportMetric(sinceDeadline[len(sinceDeadline)-1], "ms-after-deadline-max")
		if sinceDeadline[0] < 0 {
			b.Fatalf("a flag judged %v ms before its deadline", sinceDeadline[0])
		}
	}
}
